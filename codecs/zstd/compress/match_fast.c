/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_fast.c — levels 1..4, one probe per position and no chains: "single" (one table of
 * short hashes) and "double" (a long and a short table), skipping faster through data that
 * does not match. */
#include "config.h"

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_hc.h"

/* Catches a match at mpos (distance dist) up backwards over the literals before it. */
static inline size_t catch_up(const uint8_t *src, size_t anchor, size_t *mpos, uint32_t dist)
{
	size_t back = 0;

	while (*mpos > anchor && *mpos > dist && src[*mpos - 1] == src[*mpos - 1 - dist]) {
		(*mpos)--;
		back++;
	}
	return back;
}

/* A match shorter than this is worth one more probe one byte on: on text that probe saves
 * 1.5-2 % of the frame for a few instructions per match, while long matches rarely improve. */
#define SINGLE_RETRY_BELOW 12

/* One table of mm-byte hashes, a candidate kept when its first 4 bytes match. The next
 * position's hash is computed before the current one is judged, so the table loads of
 * consecutive positions overlap; the step grows by one every 2^search_log bytes without a match. */
static inline __attribute__((always_inline)) void
parse_single(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, unsigned mm)
{
	struct zs_seq_store *st = &c->store;
	unsigned log = c->hash_log, skip = c->p.search_log;
	uint32_t *tab = c->hash;
	uint32_t base = c->idx_base;
	size_t ilimit = zs_hash_limit(c);
	size_t pos = start, anchor = start;
	const uint8_t *limit = src + end;

	/* A match found before ilimit has its first 4 bytes (the repeat probe's one byte on)
	 * inside the block. */
	if (ilimit + 8 > end)
		ilimit = end > 8 ? end - 8 : 0;
	while (pos < ilimit) {
		uint32_t h = zs_hash(src + pos, mm, log);
		uint32_t rep0 = st->rep[0];
		size_t mpos, len;
		uint32_t dist;

		for (;;) {
			uint32_t cand = tab[h] - base;
			size_t next = pos + 1 + ((pos - anchor) >> skip);

			tab[h] = (uint32_t)pos + base;
			if (rep0 <= pos &&
			    zs_read32(src + pos + 1) == zs_read32(src + pos + 1 - rep0)) {
				mpos = pos + 1;
				dist = rep0;
				break;
			}
			if (cand < pos && zs_read32(src + cand) == zs_read32(src + pos)) {
				mpos = pos;
				dist = (uint32_t)(pos - cand);
				break;
			}
			if (next >= ilimit)
				goto done;
			h = zs_hash(src + next, mm, log);
			pos = next;
		}
		len = 4 + zs_match_len(src + mpos + 4, src + mpos + 4 - dist, limit);
		if (mpos == pos && len < SINGLE_RETRY_BELOW) {
			/* A short match: the candidate one byte on may be longer. */
			uint32_t h1 = zs_hash(src + pos + 1, mm, log);
			uint32_t c1 = tab[h1] - base;

			tab[h1] = (uint32_t)(pos + 1) + base;
			if (c1 < pos + 1 && zs_read32(src + c1) == zs_read32(src + pos + 1)) {
				size_t l1 = 4 + zs_match_len(src + pos + 5, src + c1 + 4, limit);

				if (l1 > len) {
					mpos = pos + 1;
					dist = (uint32_t)(pos + 1 - c1);
					len = l1;
				}
			}
		}
		len += catch_up(src, anchor, &mpos, dist);
		zs_store_seq(st, src + anchor, (uint32_t)(mpos - anchor), dist, (uint32_t)len);
		pos = mpos + len;
		anchor = pos;
		if (pos > ilimit)
			break;
		/* Positions inside the match feed later searches. */
		tab[zs_hash(src + mpos + 2, mm, log)] = (uint32_t)(mpos + 2) + base;
		tab[zs_hash(src + pos - 2, mm, log)] = (uint32_t)(pos - 2) + base;
		while (pos <= ilimit && st->rep[1] <= pos &&
		       zs_read32(src + pos) == zs_read32(src + pos - st->rep[1])) {
			size_t r = 4 + zs_match_len(src + pos + 4, src + pos + 4 - st->rep[1], limit);

			tab[zs_hash(src + pos, mm, log)] = (uint32_t)pos + base;
			zs_store_seq(st, src + anchor, 0, st->rep[1], (uint32_t)r);
			pos += r;
			anchor = pos;
		}
	}
done:
	memcpy(st->lits + st->nlits, src + anchor, end - anchor);
	st->nlits += end - anchor;
}

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

/* The hash width as a constant in each copy: no test of it per position. A row with no
 * chain_log (these parsers use no chain) takes the single table. */
void zs_parse_dfast(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	if (c->p.chain_log == 0) {
		if (c->p.min_match == 5)
			parse_single(c, src, start, end, 5);
		else if (c->p.min_match == 6)
			parse_single(c, src, start, end, 6);
		else
			parse_single(c, src, start, end, c->p.min_match);
	} else if (c->p.min_match == 4)
		parse_dfast(c, src, start, end, 4);
	else if (c->p.min_match == 5)
		parse_dfast(c, src, start, end, 5);
	else
		parse_dfast(c, src, start, end, c->p.min_match);
}
