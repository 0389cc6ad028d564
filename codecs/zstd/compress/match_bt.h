/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_bt.h — binary-tree match finder for the optimal parser: every longer match along one descent
 * (trees keyed on 4 bytes), and the most recent 3-byte match when the levels take them. */
#ifndef SQ_ZSTD_COMPRESS_MATCH_BT_H
#define SQ_ZSTD_COMPRESS_MATCH_BT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_hc.h"

#define ZS_BT_NULL UINT32_MAX /* empty head or child */

struct zs_match {
	uint32_t len;
	uint32_t off;
};

/* Empties the 3-byte table (a frame, or a first block parsed again, starts without history). */
static inline void zs_hash3_reset(struct zs_cctx *c)
{
	memset(c->hash3, 0xFF, ((size_t)1 << c->hash3_log) * sizeof(uint32_t));
}

/* Comparisons stop this far ahead: equal beyond counts as equal, which keeps runs of
 * repeated bytes linear instead of quadratic. The trees are therefore ordered on the first
 * INSERT_CAP bytes only, and a descent may trust a known common prefix no longer than that
 * (trusting more let matches claim bytes that differ: wrong data at levels 19-22). */
#define COMPARE_CAP 2048u
#define INSERT_CAP 256u

/* Descents go position by position and the heads are scattered over tables larger than the
 * core's cache: start loading the head of the position four on, and read the head of the
 * position two on (asked for two descents ago) to fetch the first node of its descent and the
 * bytes it will compare. Reading the next position's head, asked for one descent ago, waited
 * on it: 9 % of level 13's samples at 128 KiB on bin (perf, cpu-clock) sat on that load, and
 * reading two on was 1.04-1.09x as fast there (two locked A/B runs), level 16 at 1 MiB
 * 1.05x. A 5-byte hash reads 8 bytes, which only a position 8 bytes before the input's end
 * has. Only fetches: the frames are the same. */
static inline __attribute__((always_inline)) void
zs_bt_prefetch_ahead(const struct zs_cctx *c, const uint8_t *src, size_t pos, unsigned key,
		     size_t lowest, size_t apos, uintptr_t vsrc)
{
	if (pos + 12 > c->src_len) {
		__builtin_prefetch(&c->hash[zs_hash(src + pos, key, c->hash_log)]);
		return;
	}
	__builtin_prefetch(&c->hash[zs_hash(src + pos + 4, key, c->hash_log)]);
	uint32_t next = c->hash[zs_hash(src + pos + 2, key, c->hash_log)];
	/* An empty or stale head fetches this position's own node and bytes instead (near,
	 * cached), picked by a mask (GCC makes a select a branch): a branch on the head
	 * mispredicted 0.54M times of 10.4M on level 13, 128 KiB, bin (cachegrind). */
	uint32_t in = (uint32_t)0 - ((size_t)next - lowest < apos - lowest);
	uint32_t at = (next & in) | ((uint32_t)apos & ~in);

	__builtin_prefetch(&c->chain[2 * (at & c->bt_mask)]);
	__builtin_prefetch((const uint8_t *)(vsrc + at));
}

/* Inserts pos into its tree and, if out != NULL, appends to out[] (at most max_out entries,
 * the last one replaced when full) the matches longer than *best found on the way, lengths
 * capped at end - pos. attempts bounds the descent. Returns the number appended. Inlined into
 * the parser's loops (a call per position cost a tenth of the descent): with out == NULL the
 * compiler drops the match bookkeeping from the insert-only descent, the common call for
 * positions inside chosen matches. */
static inline __attribute__((always_inline)) unsigned
zs_bt_descend(struct zs_cctx *c, const uint8_t *src, size_t pos, size_t end, unsigned attempts,
	size_t *best_io, struct zs_match *out, unsigned max_out)
{
	uint32_t *bt = c->chain;
	uint32_t mask = c->bt_mask;
	/* Trees of 3-byte prefixes are deep and unselective: 3-byte matches come from hash3.
	 * Rows taking 5-byte matches key the heads on 5 bytes: the 4-byte matches such a tree
	 * would hold are only filtered out, and a shallow search then reaches the longer ones
	 * (the row of level 15 over 256 KiB that had them: 0.7-1.4 % smaller, 1 % fewer
	 * instructions; no row of levels.c takes them now). */
	unsigned key = c->p.min_match >= 5 ? 5 : 4;
	uint32_t h = zs_hash(src + pos, key, c->hash_log);
	uint32_t cur = c->hash[h];
	/* Tables hold positions + idx_base: a new frame's base is above every older entry,
	 * so the tables need no clearing between frames. */
	size_t base = c->idx_base, apos = pos + base;
	size_t lowest = pos > mask ? apos - mask : base;
	/* src as indexed by table entries (an address, not a pointer: it lies before src). */
	uintptr_t vsrc = (uintptr_t)src - base;
	size_t cap = out != NULL ? COMPARE_CAP : INSERT_CAP;
	size_t cmp_end = c->src_len - pos > cap ? pos + cap : c->src_len;
	const uint8_t *limit = src + cmp_end;
	uint32_t *smaller = &bt[2 * (apos & mask)];    /* where the next smaller node hangs */
	uint32_t *larger = &bt[2 * (apos & mask) + 1]; /* where the next larger node hangs */
	size_t len_smaller = 0, len_larger = 0;
	size_t best = *best_io;
	unsigned n = 0;

	c->hash[h] = (uint32_t)apos;
	zs_bt_prefetch_ahead(c, src, pos, key, lowest, apos, vsrc);
	if (c->use_hash3) {
		uint32_t h3 = zs_hash(src + pos, 3, c->hash3_log);
		uint32_t c3 = c->hash3[h3];

		__builtin_prefetch(&c->hash3[zs_hash(src + pos + 2, 3, c->hash3_log)]);
		c->hash3[h3] = (uint32_t)apos;
		/* Only when nothing of 3 bytes is known yet: the nearest such match is the cheapest. */
		if (out != NULL && best < 3 && (size_t)c3 - lowest < apos - lowest) {
			size_t len = zs_match_len(src + pos, (const uint8_t *)(vsrc + c3), limit);

			if (len > end - pos)
				len = end - pos;
			if (len >= 3) {
				best = len;
				out[0].len = (uint32_t)len;
				out[0].off = (uint32_t)(apos - c3);
				n = 1;
			}
		}
	}
	/* One unsigned compare: cur in [lowest, apos) (the empty link, UINT32_MAX, is above). */
	while ((size_t)cur - lowest < apos - lowest && attempts-- > 0) {
		uint32_t *node = &bt[2 * (cur & mask)];
		const uint8_t *match = (const uint8_t *)(vsrc + cur);
		/* Below both boundaries all share their common prefix with pos, but only up to
		 * INSERT_CAP: insertions take strings equal that far as equal (see the top). */
		size_t len = len_smaller < len_larger ? len_smaller : len_larger;

		len = len < INSERT_CAP ? len : INSERT_CAP;

		len += zs_match_len(src + pos + len, match + len, limit);
		if (out != NULL && len > best) {
			size_t capped = len < end - pos ? len : end - pos;

			if (capped > best) {
				best = capped;
				if (n < max_out)
					n++;
				out[n - 1].len = (uint32_t)capped;
				out[n - 1].off = (uint32_t)(apos - cur);
			}
		}
		if (pos + len >= cmp_end) {
			/* Order unknown (or irrelevant): pos replaces cur in the tree. */
			*smaller = node[0];
			*larger = node[1];
			*best_io = best;
			return n;
		}
		if (match[len] < src[pos + len]) {
			*smaller = cur;
			len_smaller = len;
			smaller = &node[1];
			cur = node[1];
		} else {
			*larger = cur;
			len_larger = len;
			larger = &node[0];
			cur = node[0];
		}
	}
	*smaller = ZS_BT_NULL;
	*larger = ZS_BT_NULL;
	*best_io = best;
	return n;
}

#endif
