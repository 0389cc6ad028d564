/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_fast.c — levels 1..4 (double fast): a long and a short hash probe per position, no
 * chains, skipping faster through incompressible data. */
#include "config.h"

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_hc.h"

/* A long (8-byte) and a short table, the long candidate preferred, also one byte on. */
static inline __attribute__((always_inline)) void
parse_dfast(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, unsigned mm)
{
	struct zs_seq_store *st = &c->store;
	unsigned log = c->hash_log, skip = c->p.search_log;
	uint32_t *shorts = c->hash, *longs = c->hash2;
	uint32_t base = c->idx_base;
	size_t hash_limit = zs_hash_limit(c);
	size_t pos = start, anchor = start;
	const uint8_t *limit = src + end;

	if (hash_limit > end)
		hash_limit = end;
	while (pos + 9 <= hash_limit) {
		uint32_t rep0 = st->rep[0];
		size_t len, mpos;
		uint32_t dist;

		uint32_t hl = zs_hash(src + pos, 8, log), hs = zs_hash(src + pos, mm, log);
		uint32_t cl = longs[hl] - base, cs = shorts[hs] - base;

		longs[hl] = shorts[hs] = (uint32_t)pos + base;
		if (rep0 <= pos + 1 && zs_read32(src + pos + 1) == zs_read32(src + pos + 1 - rep0)) {
			mpos = pos + 1;
			len = 4 + zs_match_len(src + mpos + 4, src + mpos + 4 - rep0, limit);
			zs_store_seq(st, src + anchor, (uint32_t)(mpos - anchor), rep0, (uint32_t)len);
			pos = mpos + len;
			anchor = pos;
			continue;
		}
		if (cl < pos && zs_read64(src + cl) == zs_read64(src + pos)) {
			mpos = pos;
			dist = (uint32_t)(pos - cl);
			len = 8 + zs_match_len(src + pos + 8, src + cl + 8, limit);
		} else if (cs < pos && zs_read32(src + cs) == zs_read32(src + pos) &&
			   (len = 4 + zs_match_len(src + pos + 4, src + cs + 4, limit)) >= mm) {
			/* A long match one byte on beats this short one. */
			uint32_t hl1 = zs_hash(src + pos + 1, 8, log);
			uint32_t cl1 = longs[hl1] - base;

			longs[hl1] = (uint32_t)(pos + 1) + base;
			mpos = pos;
			dist = (uint32_t)(pos - cs);
			if (cl1 < pos + 1 && zs_read64(src + cl1) == zs_read64(src + pos + 1)) {
				size_t l1 = 8 + zs_match_len(src + pos + 9, src + cl1 + 8, limit);

				if (l1 > len) {
					mpos = pos + 1;
					dist = (uint32_t)(pos + 1 - cl1);
					len = l1;
				}
			}
		} else {
			pos += 1 + ((pos - anchor) >> skip);
			continue;
		}
		while (mpos > anchor && mpos > dist && src[mpos - 1] == src[mpos - 1 - dist]) {
			mpos--;
			len++;
		}
		zs_store_seq(st, src + anchor, (uint32_t)(mpos - anchor), dist, (uint32_t)len);
		size_t mend = mpos + len;

		if (mend + 8 <= hash_limit) {
			longs[zs_hash(src + mpos + 2, 8, log)] = (uint32_t)(mpos + 2) + base;
			shorts[zs_hash(src + mpos + 2, mm, log)] = (uint32_t)(mpos + 2) + base;
			longs[zs_hash(src + mend - 2, 8, log)] = (uint32_t)(mend - 2) + base;
			shorts[zs_hash(src + mend - 1, mm, log)] = (uint32_t)(mend - 1) + base;
		}
		pos = mend;
		anchor = pos;
		while (pos + 8 <= hash_limit && st->rep[1] <= pos &&
		       zs_read32(src + pos) == zs_read32(src + pos - st->rep[1])) {
			size_t r = 4 + zs_match_len(src + pos + 4, src + pos + 4 - st->rep[1], limit);

			shorts[zs_hash(src + pos, mm, log)] = (uint32_t)pos + base;
			longs[zs_hash(src + pos, 8, log)] = (uint32_t)pos + base;
			zs_store_seq(st, src + anchor, 0, st->rep[1], (uint32_t)r);
			pos += r;
			anchor = pos;
		}
	}
	for (size_t i = anchor; i < end; i++)
		st->lits[st->nlits++] = src[i];
}

/* The hash width as a constant in each copy: no test of it per position. */
void zs_parse_dfast(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	if (c->p.min_match == 4)
		parse_dfast(c, src, start, end, 4);
	else if (c->p.min_match == 5)
		parse_dfast(c, src, start, end, 5);
	else
		parse_dfast(c, src, start, end, c->p.min_match);
}
