/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_fast.c — levels 1..4's entry, and the single-table parsers of levels 1-2: one table of
 * short hashes, one probe per position (or per pair of positions) and no chains, skipping
 * faster through data that does not match. Levels 3-4's double table is match_dfast.c. */
#include "config.h"

#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_fast.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The search state of the single parser's probe loop, kept apart from the match handling so
 * the loop keeps its few values in registers. */
struct seek {
	const uint8_t *src;
	uint32_t *tab;
	size_t ilimit;
	unsigned log, skip;
	uint32_t base;
};

/* Enters position p (v: its 8 bytes) in the single table. With pbits (tagged rows), an entry
 * is p in its low pbits bits and, above them, the hash's bits below the index: a probe knows a
 * candidate from its slot alone, before the candidate's bytes arrive. Untagged, p + base. */
static inline __attribute__((always_inline)) void
put_entry(uint32_t *tab, uint64_t v, size_t p, unsigned mm, unsigned log, unsigned pbits,
	  uint32_t base)
{
	if (pbits == 0) {
		tab[zs_hash_word(v, mm, log)] = (uint32_t)p + base;
		return;
	}
	size_t g = zs_hash_word(v, mm, log + 32 - pbits);

	tab[g >> (32 - pbits)] = ((uint32_t)g << pbits) | (uint32_t)p;
}

/* The single-table parsers' search limit and first position. Matches start at least 16
 * bytes before the block's end (zs_copy_wild), so their first bytes lie inside it, and the
 * reads past a match's start (peek20 one byte on, len16 4 on) stay 21 bytes inside the
 * input (len32 reads its 32 bytes only where the input holds them). Position 0 has no
 * history (and the first repeat offset, 1, would read before it): it is entered in the table
 * and the search starts at 1. */
static inline __attribute__((always_inline)) size_t
single_start(const struct zs_cctx *c, struct seek *k, size_t start, size_t end, unsigned mm,
	     unsigned pbits)
{
	if (k->ilimit + 16 > end)
		k->ilimit = end > 16 ? end - 16 : 0;
	if (k->ilimit + 21 > c->src_len)
		k->ilimit = c->src_len > 21 ? c->src_len - 21 : 0;
	if (start == 0 && k->ilimit > 0) {
		put_entry(k->tab, zs_read64(k->src), 0, mm, k->log, pbits, k->base);
		return 1;
	}
	return start;
}

/* Matches at the repeat offset rep[1] right after a match (a cheap code: the pattern of
 * alternating columns and edits), each start entered in the single table tab. Returns where
 * the last one ends (pos when there is none). rep[1] <= pos, as seek_single's rep0. */
static inline __attribute__((always_inline)) size_t
rep1_runs(struct cursor *cu, const uint8_t *src, size_t pos, size_t ilimit, const uint8_t *limit,
	  uint32_t *tab, unsigned mm, unsigned log, uint32_t base, unsigned pbits)
{
	while (pos <= ilimit && zs_read32(src + pos) == zs_read32(src + pos - cu->rep[1])) {
		size_t r = 4 + zs_match_len(src + pos + 4, src + pos + 4 - cu->rep[1], limit);

		put_entry(tab, zs_read64(src + pos), pos, mm, log, pbits, base);
		put_rep1(cu, (uint32_t)r);
		pos += r;
	}
	return pos;
}

/* Probes from pos on: the repeat offset, then the table's candidate, at each position (one
 * 8-byte load serves the hash and both tests), stepping one byte further every 2^skip bytes
 * since anchor. Returns the position of a match (*dist, 4 bytes verified) or ilimit when
 * there is none; with retry, *next_cand is then the table's candidate for the position one
 * on, which now holds that position (inside the match, where a later search may find it),
 * else *next_cand is left alone. rep0 <= pos
 * always: every offset the parser stores is at most its match's start, and the frame's
 * first, 1, is at most any position the caller probes. */
static inline __attribute__((always_inline)) size_t
seek_single(const struct seek *k, size_t pos, size_t anchor, uint32_t rep0, unsigned mm,
	    int retry, uint32_t *dist, uint32_t *next_cand)
{
	const uint8_t *src = k->src, *rsrc = src - rep0;
	uint32_t *tab = k->tab;
	const uint32_t base = k->base;
	const unsigned log = k->log;
	const size_t ilimit = k->ilimit;
	size_t step = 1, bump = anchor + ((size_t)1 << k->skip);

	/* The step grows between runs of probes, so a probe tests one bound, not two. */
	for (;;) {
		size_t stop = bump < ilimit ? bump : ilimit;

		while (pos < stop) {
			uint64_t v = zs_read64(src + pos);
			size_t h = zs_hash_word(v, mm, log);
			uint32_t cand = tab[h] - base, cur = (uint32_t)v;

			tab[h] = (uint32_t)pos + base;
			if (cur == zs_read32(rsrc + pos)) {
				*dist = rep0;
				goto found;
			}
			if (cand < pos && cur == zs_read32(src + cand)) {
				*dist = (uint32_t)(pos - cand);
				goto found;
			}
			pos += step;
		}
		if (pos >= ilimit)
			return ilimit;
		step++;
		bump += (size_t)1 << k->skip;
	}
found:
	if (!retry)
		return pos;
	size_t h1 = zs_hash(src + pos + 1, mm, log);

	*next_cand = tab[h1] - base;
	tab[h1] = (uint32_t)pos + 1 + base;
	return pos;
}

/* One table of mm-byte hashes, a candidate kept when its first 4 bytes match; the repeat
 * offset is tried first (a cheap code). With retry (a row's target_len above 0), a match
 * under target_len tries the candidate one byte on (on text that saves 1.5-2 % of the frame
 * for a few instructions a match); a row of target_len 0 neither tries it nor hashes the
 * position one on (level 1 over 256 KiB: 1.5-5.5 % larger without it, 1.01-1.10x as fast). */
static inline __attribute__((always_inline)) void
parse_single(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, unsigned mm,
	     int retry, unsigned log, unsigned skip)
{
	struct cursor cu;
	struct seek k = {src, c->hash, zs_hash_limit(c), log, skip, c->idx_base};
	uint32_t *tab = c->hash;
	uint32_t base = c->idx_base;
	size_t pos = start, anchor = start;
	const uint8_t *limit = src + end;
	size_t retry_below = c->p.target_len; /* longer matches rarely improve one byte on */

	cursor_open(&cu, &c->store);
	pos = single_start(c, &k, start, end, mm, 0);
	while (pos < k.ilimit) {
		struct fmatch m;
		uint32_t next_cand = 0;

		m.pos = seek_single(&k, pos, anchor, cu.rep[0], mm, retry, &m.dist, &next_cand);
		if (m.pos >= k.ilimit)
			break;
		pos = m.pos;
		m.len = 4 + len16(src + pos + 4, src + pos + 4 - m.dist, limit);
		/* The candidate one on (the same match a byte shorter never wins), when the match
		 * is short and not at the repeat offset (a cheap code). peek20 may count a few
		 * bytes past the block's end: the winner's length is counted again within it. A
		 * branch-free choice of the winner was 10 % slower: the predicted branch lets the
		 * next search start before the candidate's bytes arrive. */
		size_t one_on = !retry ? 0 : peek20(src, pos + 1, next_cand,
				       (m.len < retry_below) & (m.dist != cu.rep[0]));

		if (one_on > m.len) {
			one_on = 4 + zs_match_len(src + pos + 5, src + next_cand + 4, limit);
			if (one_on > m.len) {
				m.pos = pos + 1;
				m.dist = (uint32_t)(pos + 1 - next_cand);
				m.len = one_on;
			}
		}
		size_t mstart = m.pos;

		pos = anchor = store_match(&cu, src, anchor, &m, 1, 1);
		if (pos > k.ilimit)
			break;
		/* Positions inside the match feed later searches. */
		tab[zs_hash(src + mstart + 2, mm, log)] = (uint32_t)(mstart + 2) + base;
		tab[zs_hash(src + pos - 2, mm, log)] = (uint32_t)(pos - 2) + base;
		pos = anchor = rep1_runs(&cu, src, pos, k.ilimit, limit, tab, mm, log, base, 0);
	}
	cursor_close(&cu, &c->store, src, anchor, end);
}

/* len16 over 32 bytes: the common length of a and b from 0, at most limit - a, the first 31
 * bytes counted without a branch. On text at level 2 (128 KiB frames) len16's test for a
 * longer match was mispredicted in 28 % of the matches, and its recount's exit tests in as
 * many again: 40 % of the parse's mispredictions. Falls back to len16 near the input's end
 * (end: its last byte + 1), where 32 bytes are not readable. */
static inline __attribute__((always_inline)) size_t
len32(const uint8_t *a, const uint8_t *b, const uint8_t *limit, const uint8_t *end)
{
	if (__builtin_expect(a + 32 > end, 0))
		return len16(a, b, limit);
#if defined(__SSE2__)
	/* One bit a byte for the 32 bytes, two compares of 16: about half len16's instructions */
	__m128i a0 = _mm_loadu_si128((const __m128i *)(const void *)a);
	__m128i a1 = _mm_loadu_si128((const __m128i *)(const void *)(a + 16));
	__m128i b0 = _mm_loadu_si128((const __m128i *)(const void *)b);
	__m128i b1 = _mm_loadu_si128((const __m128i *)(const void *)(b + 16));
	uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a0, b0)) |
		      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a1, b1)) << 16;
	/* a count of 31 is "31 or more", recounted */
	size_t n = (size_t)__builtin_ctz(~eq | (1u << 31));
#else
	uint64_t x0 = zs_read64(a) ^ zs_read64(b);
	uint64_t x1 = zs_read64(a + 8) ^ zs_read64(b + 8);
	uint64_t x2 = zs_read64(a + 16) ^ zs_read64(b + 16);
	uint64_t x3 = zs_read64(a + 24) ^ zs_read64(b + 24);
	/* z0..z2: the words before the next all equal; the first difference is kept, those after
	 * it masked (a count of 31 is "31 or more", recounted). Selections of the first differing
	 * word, or counts of each word added by multiplies, became branches in gcc's code (20-23 %
	 * more mispredictions in all). */
	uint64_t z0 = x0 == 0, z1 = z0 & (x1 == 0), z2 = z1 & (x2 == 0);
	uint64_t x = x0 | (x1 & (0 - z0)) | (x2 & (0 - z1)) | (x3 & (0 - z2)) | (1ull << 63);
	size_t n = ((size_t)__builtin_ctzll(x) + ((size_t)(z0 + z1 + z2) << 6)) >> 3;
#endif
	size_t room = (size_t)(limit - a);

	if (n == 31 && room > 31)
		n += zs_match_len(a + 31, b + 31, limit);
	return n < room ? n : room;
}

/* Enters positions p and p + 1 in the single table, from one load when the hash width allows
 * (zs_hash_word reads mm bytes: those of p + 1 are v's upper 7). Returns the 8 bytes at p. */
static inline __attribute__((always_inline)) uint64_t
fill_two(uint32_t *tab, const uint8_t *src, size_t p, unsigned mm, unsigned log, uint32_t base,
	 unsigned pbits)
{
	uint64_t v = zs_read64(src + p);

	if (mm >= 4 && mm <= 7) {
		put_entry(tab, v, p, mm, log, pbits, base);
		put_entry(tab, v >> 8, p + 1, mm, log, pbits, base);
	} else {
		tab[zs_hash(src + p, mm, log)] = (uint32_t)p + base;
		tab[zs_hash(src + p + 1, mm, log)] = (uint32_t)p + 1 + base;
	}
	return v;
}

/* Probes positions in pairs (pos, pos + 1), then jumps by step, which starts at step0 (2:
 * every position, 3: two of three) and grows by one every 2^skip bytes since the search
 * began. Both slots of a pair are read before either is claimed (the loads of the second do
 * not wait on the first's test), and the repeat offset is tested once a pair, two bytes on
 * (pos + 2, where the next pair starts while step is 2), before either candidate: a repeat
 * match a little later is preferred to a new offset now (it is a cheap code, and it was worth
 * 2 % of the frame on text). Returns the position of a match (*dist, 4 bytes verified) or
 * ilimit when there is none, with *past how far past the pair that found it the match is
 * (0-2). */
static inline __attribute__((always_inline)) size_t
seek_pair(const struct seek *k, size_t pos, uint32_t rep0, unsigned mm, size_t step0,
	  uint32_t *dist, size_t *past)
{
	const uint8_t *src = k->src, *rsrc = src - rep0;
	uint32_t *tab = k->tab;
	const uint32_t base = k->base;
	const unsigned log = k->log;
	const size_t last = k->ilimit - 2; /* pos + 2 stays under ilimit */
	size_t step = step0, bump = pos + ((size_t)1 << k->skip);

	for (;;) {
		size_t stop = bump < last ? bump : last;

		while (pos < stop) {
			/* One load serves both positions' hashes and tests, and the repeat test
			 * (a hash reads at most 7 bytes: those of pos + 1 are v0's upper 7). */
			uint64_t v0 = zs_read64(src + pos);
			uint64_t v1 = mm <= 7 ? v0 >> 8 : zs_read64(src + pos + 1);
			size_t h0 = zs_hash_word(v0, mm, log), h1 = zs_hash_word(v1, mm, log);
			uint32_t c0 = tab[h0] - base, c1 = tab[h1] - base;

			tab[h0] = (uint32_t)pos + base;
			tab[h1] = (uint32_t)pos + 1 + base;
			if ((uint32_t)(v0 >> 16) == zs_read32(rsrc + pos + 2)) {
				*dist = rep0;
				*past = 2;
				return pos + 2;
			}
			/* A stale slot (an earlier frame's, or empty) reads the position itself with
			 * one bit flipped, a sure miss: one branch a candidate instead of two. At
			 * 128 KiB most slots are stale when a frame starts and the validity test was
			 * a coin toss (36-44 % fewer mispredictions; 1.06-1.11x as fast at 128 KiB,
			 * 1.05x at level 2 1 MiB). Testing both candidates in one branch was 5-7 %
			 * slower: it waits for both loads. */
			int ok0 = c0 < pos, ok1 = c1 <= pos;
			uint32_t m0 = zs_read32(src + pick(ok0, c0, pos)) ^ (uint32_t)!ok0;
			uint32_t m1 = zs_read32(src + pick(ok1, c1, pos + 1)) ^ (uint32_t)!ok1;

			if ((uint32_t)v0 == m0) {
				*dist = (uint32_t)(pos - c0);
				*past = 0;
				return pos;
			}
			if ((uint32_t)v1 == m1) {
				*dist = (uint32_t)(pos + 1 - c1);
				*past = 1;
				return pos + 1;
			}
			pos += step;
		}
		if (pos >= last)
			return k->ilimit;
		step++;
		bump += (size_t)1 << k->skip;
	}
}

/* seek_pair over tagged entries (put_entry, pbits of position): a slot whose tag differs from
 * the probe's is a miss known as soon as the slot is read, and only a slot with the probe's
 * tag has its candidate's bytes read (4 of them verified; a tag of 12 bits or more seldom
 * passes without them). The branch that finds a match, mispredicted at most matches, thus
 * resolves one load earlier than after seek_pair's candidate read (levels 1-2: 1.01-1.16x as
 * fast in locked A/B runs; the same frames but for hash collisions, within 0.01 %). The table
 * holds no stale entries (parse_pair clears it for the frame), so every tagged candidate lies
 * before the position. */
static inline __attribute__((always_inline)) size_t
seek_tagged(const struct seek *k, size_t pos, uint32_t rep0, unsigned mm, size_t step0,
	    unsigned pbits, uint32_t *dist, size_t *past)
{
	const uint8_t *src = k->src, *rsrc = src - rep0;
	uint32_t *tab = k->tab;
	const unsigned log = k->log, tb = 32 - pbits;
	const size_t last = k->ilimit - 2; /* pos + 2 stays under ilimit */
	size_t step = step0, bump = pos + ((size_t)1 << k->skip);

	for (;;) {
		size_t stop = bump < last ? bump : last;

		while (pos < stop) {
			uint64_t v0 = zs_read64(src + pos), v1 = v0 >> 8;
			size_t g0 = zs_hash_word(v0, mm, log + tb), g1 = zs_hash_word(v1, mm, log + tb);
			uint32_t t0 = (uint32_t)g0 << pbits, t1 = (uint32_t)g1 << pbits;
			/* the candidate's position when the tags agree, else pbits or more */
			uint32_t x0 = tab[g0 >> tb] ^ t0, x1 = tab[g1 >> tb] ^ t1;

			tab[g0 >> tb] = t0 | (uint32_t)pos;
			tab[g1 >> tb] = t1 | (uint32_t)(pos + 1);
			if ((uint32_t)(v0 >> 16) == zs_read32(rsrc + pos + 2)) {
				*dist = rep0;
				*past = 2;
				return pos + 2;
			}
			if (x0 < (1u << pbits) && (uint32_t)v0 == zs_read32(src + x0)) {
				*dist = (uint32_t)(pos - x0);
				*past = 0;
				return pos;
			}
			if (x1 < (1u << pbits) && (uint32_t)v1 == zs_read32(src + x1)) {
				*dist = (uint32_t)(pos + 1 - x1);
				*past = 1;
				return pos + 1;
			}
			pos += step;
		}
		if (pos >= last)
			return k->ilimit;
		step++;
		bump += (size_t)1 << k->skip;
	}
}

/* One table of mm-byte hashes probed in pairs (seek_pair), with no retry one byte on: where
 * parse_single's retry cost a branch-free 20-byte count and a hash at every match, the
 * pairs find as much for less. After a match the table gets the pair's positions + 2 (the
 * match's own start when it is a repeat match) and + 3, and the match's end - 2: the slots
 * a later search most often needs (each dropped one cost 0.2-0.5 % of the frame). + 3 was
 * filled only when the match was the pair's second position: a branch mispredicted in a
 * fifth of the matches, where the fill costs a few instructions and makes the frames
 * 0.1-0.4 % smaller. End - 1 was filled too until the EPYC: without it levels 1-2 ran
 * 1.5-3 % faster, 0.01-0.9 % larger (level 1 at 128 KiB, bin: 0.9995 of libzstd's size;
 * level 2 at 1 MiB, bin: 0.9998); without + 3 instead, level 1 at 1 MiB was no faster and
 * larger. */
static inline __attribute__((always_inline)) void
parse_pair(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, unsigned mm,
	   unsigned log, unsigned skip, size_t step0, unsigned pbits)
{
	struct cursor cu;
	struct seek k = {src, c->hash, zs_hash_limit(c), log, skip, c->idx_base};
	uint32_t *tab = c->hash;
	uint32_t base = c->idx_base;
	size_t pos = start, anchor = start;
	const uint8_t *limit = src + end, *src_end = src + c->src_len;

	cursor_open(&cu, &c->store);
	/* A tagged table is cleared for each frame: its entries carry no base, and those of an
	 * untagged parse (positions + base) would read as candidates of any position. */
	if (pbits && start == 0) {
		memset(tab, 0, sizeof(*tab) << log);
		c->hash_tagged = 1;
	}
	pos = single_start(c, &k, start, end, mm, pbits);
	/* seek_pair returns ilimit when pos is at or past ilimit - 2: the bound is tested once
	 * here, not at every match. */
	if (pos + 2 >= k.ilimit)
		goto close;
	for (;;) {
		struct fmatch m;
		size_t past = 0;

		m.pos = pbits ? seek_tagged(&k, pos, cu.rep[0], mm, step0, pbits, &m.dist, &past)
			      : seek_pair(&k, pos, cu.rep[0], mm, step0, &m.dist, &past);
		if (m.pos >= k.ilimit)
			break;
		pos = m.pos;
		m.len = 4 + len32(src + pos + 4, src + pos + 4 - m.dist, limit, src_end);
		size_t pair = m.pos - past;

		pos = anchor = store_match(&cu, src, anchor, &m, 1, 1);
		if (pos > k.ilimit)
			break;
		/* Positions inside the match feed later searches (the match is at least 4 long,
		 * so pair + 3 lies inside it). */
		fill_two(tab, src, pair + 2, mm, log, base, pbits);
		uint64_t ve = zs_read64(src + pos - 2);

		put_entry(tab, ve, pos - 2, mm, log, pbits, base);

		/* rep1_runs' first test, from the fill's load (its bytes 2-5 are those at pos). */
		if ((uint32_t)(ve >> 16) == zs_read32(src + pos - cu.rep[1]))
			pos = anchor = rep1_runs(&cu, src, pos, k.ilimit, limit, tab, mm, log, base,
						 pbits);
	}
close:
	cursor_close(&cu, &c->store, src, anchor, end);
}


/* The single-table parsers with the hash width and the retry as constants in each copy:
 * retry 2 is the pair loop (parse_pair). The pair loop's rows (levels.c: levels 1-2 at
 * 128 KiB, level 2 at 1 MiB; levels_mid.c: level 1 at 256 KiB) also get their table size and step growth as constants (shifts
 * by a constant free registers in the probe loop: 2-5 % fewer instructions in all, the same
 * frames), and tagged entries (seek_tagged) with the positions of their inputs (18 bits up to
 * 256 KiB, 20 up to 1 MiB); other sizes (small frames) take the copies that read them. */
static inline __attribute__((always_inline)) void
single_mm(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, int retry)
{
	unsigned mm = c->p.min_match, log = c->hash_log, skip = c->p.search_log;

	if (retry == 2) {
		int p18 = c->src_len <= ((size_t)1 << 18), p20 = c->src_len <= ((size_t)1 << 20);

		if (mm == 6 && log == 13 && skip == 9 && p18)
			parse_pair(c, src, start, end, 6, 13, 9, 2, 18);
		else if (mm == 5 && log == 15 && skip == 8 && p18)
			parse_pair(c, src, start, end, 5, 15, 8, 2, 18);
		else if (mm == 6 && log == 15 && skip == 9 && p18)
			parse_pair(c, src, start, end, 6, 15, 9, 2, 18);
		else if (mm == 6 && log == 16 && skip == 9 && p20)
			parse_pair(c, src, start, end, 6, 16, 9, 2, 20);
		else if (mm == 5)
			parse_pair(c, src, start, end, 5, log, skip, 2, 0);
		else if (mm == 6)
			parse_pair(c, src, start, end, 6, log, skip, 2, 0);
		else
			parse_pair(c, src, start, end, mm, log, skip, 2, 0);
	} else if (mm == 5) {
		parse_single(c, src, start, end, 5, retry, log, skip);
	} else if (mm == 6) {
		parse_single(c, src, start, end, 6, retry, log, skip);
	} else {
		parse_single(c, src, start, end, mm, retry, log, skip);
	}
}

/* The hash width as a constant in each copy: no test of it per position. The single table is
 * probed in pairs for a target_len of 1 (no retry: no match is that short), else one position
 * at a time, with the retry one byte on when target_len is above 2 (rows of target_len 2 take
 * pair_wide). */
static inline __attribute__((always_inline)) void
parse_any(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	if (c->p.target_len == 1)
		single_mm(c, src, start, end, 2);
	else if (c->p.target_len > 0)
		single_mm(c, src, start, end, 1);
	else
		single_mm(c, src, start, end, 0);
}

static void parse_generic(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	parse_any(c, src, start, end);
}

/* Rows of target_len 2 probe in pairs from a step of 3 (two positions of three), in functions
 * of their own: level 1 at 1 MiB (levels.c: 2^14 slots of 6-byte hashes, step growth every
 * 128 bytes) with its constants and tagged entries of 20-bit positions (inputs up to 1 MiB),
 * any other such row or larger input with none. Added to parse_any, where
 * the other copies are, the copy changed gcc's code for those and cost level 1 at 128 KiB
 * about 2 % of its speed (locked A/B runs); apart, it leaves theirs as they were. */
static int is_pair_wide_l1(const struct zs_cctx *c)
{
	return c->p.min_match == 6 && c->hash_log == 14 && c->p.search_log == 7;
}

/* Level 1 at 512 KiB (levels_mid.c: 2^15 slots), tagged as at 1 MiB: 1.08-1.16x libzstd's
 * speed, where the copy that reads its sizes ran misc at 0.98x; the other copies' speed the
 * same (locked A/B, level 1 at 128 KiB and 1 MiB). */
static int is_pair_wide_l1_mid(const struct zs_cctx *c)
{
	return c->p.min_match == 6 && c->hash_log == 15 && c->p.search_log == 7;
}

static inline __attribute__((always_inline)) void
pair_wide_any(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	if (is_pair_wide_l1(c) && c->src_len <= ((size_t)1 << 20))
		parse_pair(c, src, start, end, 6, 14, 7, 3, 20);
	else if (is_pair_wide_l1_mid(c) && c->src_len <= ((size_t)1 << 20))
		parse_pair(c, src, start, end, 6, 15, 7, 3, 20);
	else
		parse_pair(c, src, start, end, c->p.min_match, c->hash_log, c->p.search_log, 3, 0);
}

static void pair_wide_generic(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	pair_wide_any(c, src, start, end);
}

#if ZS_HAVE_BMI2_PATH
/* Shifts by the hash size without the CL register (and one register more for the rest). */
ZS_TARGET_BMI2 static void parse_bmi2(struct zs_cctx *c, const uint8_t *src, size_t start,
				      size_t end)
{
	parse_any(c, src, start, end);
}

ZS_TARGET_BMI2 static void pair_wide_bmi2(struct zs_cctx *c, const uint8_t *src, size_t start,
					  size_t end)
{
	pair_wide_any(c, src, start, end);
}
#endif

/* A row with no chain_log (these parsers use no chain) takes the single table, the others
 * the double one. */
void zs_parse_dfast(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	if (c->p.chain_log != 0) {
		zs_parse_double(c, src, start, end);
		return;
	}
#if ZS_HAVE_BMI2_PATH
	if (zs_cpu_has_bmi2()) {
		if (c->p.target_len == 2)
			pair_wide_bmi2(c, src, start, end);
		else
			parse_bmi2(c, src, start, end);
		return;
	}
#endif
	if (c->p.target_len == 2)
		pair_wide_generic(c, src, start, end);
	else
		parse_generic(c, src, start, end);
}
