/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_fast.c — levels 1..4, one probe per position and no chains: "single" (one table of
 * short hashes) and "double" (a long and a short table), skipping faster through data that
 * does not match. */
#include "config.h"

#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_hc.h"

/* zs_hash of the 8 bytes v read at a position (the probe loop's one load serves the hash
 * and the 4-byte tests). */
static inline __attribute__((always_inline)) size_t
zs_hash_word(uint64_t v, unsigned mm, unsigned log)
{
	if (mm >= 5)
		return (size_t)(((v << (64 - 8 * mm)) * 0xCF1BBCDCB7A56463ull) >> (64 - log));
	return ((uint32_t)v * 2654435761u) >> (32 - log);
}

/* c ? a : b, told to the compiler as a coin toss so that it selects (cmov) rather than
 * branches: gcc turned plain conditional expressions of the per-match code into branches, and
 * masks cost about 4 instructions a choice. */
static inline __attribute__((always_inline)) size_t pick(int c, size_t a, size_t b)
{
	return __builtin_expect_with_probability(c != 0, 1, 0.5) ? a : b;
}

/* The match being built: where it starts, how far back, how long. */
struct fmatch {
	size_t pos, len;
	uint32_t dist;
};

/* Tries cand, a candidate for position p: one whose first width bytes match and that is longer
 * than m replaces it. */
static inline __attribute__((always_inline)) int
try_cand(uint32_t cand, const uint8_t *src, size_t p, unsigned width, const uint8_t *limit,
	 struct fmatch *m)
{
	/* The same distance one byte on is the same match, a byte shorter: the usual case, as
	 * the candidate's neighbour was hashed when the parser passed it. */
	if (cand >= p || p - cand == m->dist ||
	    (width == 8 ? zs_read64(src + cand) != zs_read64(src + p)
			: zs_read32(src + cand) != zs_read32(src + p)))
		return 0;
	size_t len = width + zs_match_len(src + p + width, src + cand + width, limit);

	if (len <= m->len)
		return 0;
	m->pos = p;
	m->dist = (uint32_t)(p - cand);
	m->len = len;
	return 1;
}

/* Probes table slot tab[h] for position p (and claims the slot for p), as try_cand. */
static inline __attribute__((always_inline)) int
retry(uint32_t *tab, uint32_t h, uint32_t base, const uint8_t *src, size_t p, unsigned width,
      const uint8_t *limit, struct fmatch *m)
{
	uint32_t cand = tab[h] - base;

	tab[h] = (uint32_t)p + base;
	return try_cand(cand, src, p, width, limit, m);
}

/* The length of the match at cand for position p, counted over its first 20 bytes at most
 * and without a branch (0 when its first 4 bytes differ or when allowed is 0): the retry one
 * byte on rarely wins, and its tests and length count cost the fast levels a mispredicted
 * branch in every four matches. Needs 20 bytes readable at p and at the input's start. */
static inline __attribute__((always_inline)) size_t
peek20(const uint8_t *src, size_t p, uint32_t cand, int allowed)
{
	int ok = allowed & (cand < p);
	const uint8_t *q = src + pick(ok, cand, 0);
	uint32_t x4 = zs_read32(src + p) ^ zs_read32(q);
	uint64_t xa = zs_read64(src + p + 4) ^ zs_read64(q + 4);
	uint64_t xb = zs_read64(src + p + 12) ^ zs_read64(q + 12);
	size_t na = ((size_t)__builtin_ctzll(xa | (1ull << 63)) >> 3) + (xa == 0);
	size_t nb = ((size_t)__builtin_ctzll(xb | (1ull << 63)) >> 3) + (xb == 0);
	size_t n = 4 + na + (nb & ((size_t)0 - (xa == 0)));

	return n & ((size_t)0 - (size_t)(ok & (x4 == 0)));
}

/* The common length of a and b from 0, at most limit - a: the first 15 bytes are counted
 * without a branch, a loop only past them. zs_match_len's exit tests of the first word and
 * of the loop held 46K of the 156K mispredictions callgrind's model counted at level 1 (text,
 * 128 KiB frames); most matches there end within 16 bytes. One count serves both words: the
 * first word's difference, or when it has none the second's, 64 bits on (a count of 15 is then
 * "15 or more", recounted), which took 10 fewer instructions a match than counting each word
 * apart. Needs 16 bytes readable at a and b, and a < limit. */
static inline __attribute__((always_inline)) size_t
len16(const uint8_t *a, const uint8_t *b, const uint8_t *limit)
{
	uint64_t x0 = zs_read64(a) ^ zs_read64(b);
	uint64_t x1 = zs_read64(a + 8) ^ zs_read64(b + 8);
	uint64_t same0 = x0 == 0;
	/* x1 when x0 is 0, else x0, by a mask: gcc made a branch of a conditional here */
	uint64_t x = x0 | (x1 & (0 - same0)) | (1ull << 63);
	size_t n = ((size_t)__builtin_ctzll(x) + ((size_t)same0 << 6)) >> 3;
	size_t room = (size_t)(limit - a);

	if (n == 15 && room > 15)
		n += zs_match_len(a + 15, b + 15, limit);
	return n < room ? n : room;
}

/* The offset code without looking for repeat offsets other than rep[0]: rep[0] with literals
 * is code 1 (history unchanged), any other match a plain offset pushed into the history
 * (valid zstd whatever the offset: the decoder pushes it the same way). zs_offval's full
 * search, even done by selections, cost levels 1-2 about 15 instructions a match for
 * 0.1 % of the frame (and its branches were mispredicted in about one match of three). */
static inline __attribute__((always_inline)) uint32_t
offval_raw(uint32_t *rep, uint32_t lit, uint32_t offset)
{
	uint32_t r0 = rep[0], r1 = rep[1];
	int keep = (offset == r0) & (lit != 0);

	rep[0] = offset;
	rep[1] = (uint32_t)pick(keep, r1, r0);
	rep[2] = (uint32_t)pick(keep, rep[2], r1);
	return (uint32_t)pick(keep, 1, offset + 3);
}

/* Where the parser appends: local copies of the sequence store's ends and repeat offsets.
 * Kept in the parser's registers, where the store's fields had to be reloaded after every
 * byte written to the literal buffer (a uint8_t store may alias anything). */
struct cursor {
	struct zs_seq *seq;
	uint8_t *lit;
	uint32_t rep[3];
};

static inline __attribute__((always_inline)) void
cursor_open(struct cursor *cu, const struct zs_seq_store *st)
{
	cu->seq = st->seqs + st->nseq;
	cu->lit = st->lits + st->nlits;
	memcpy(cu->rep, st->rep, sizeof(cu->rep));
}

/* Writes the cursor back, with the literals after the last match (src[anchor..end)). */
static inline __attribute__((always_inline)) void
cursor_close(const struct cursor *cu, struct zs_seq_store *st, const uint8_t *src, size_t anchor,
	     size_t end)
{
	memcpy(cu->lit, src + anchor, end - anchor);
	st->nseq = (size_t)(cu->seq - st->seqs);
	st->nlits = (size_t)(cu->lit - st->lits) + (end - anchor);
	memcpy(st->rep, cu->rep, sizeof(st->rep));
}

/* A sequence: lit literals from lit_src (see zs_copy_wild) and a match; its offset code by
 * offval_raw when flat (levels 1-2), else by zs_offval (levels 3-4). */
static inline __attribute__((always_inline)) void
put_seq(struct cursor *cu, const uint8_t *lit_src, uint32_t lit, uint32_t offset, uint32_t ml,
	int flat)
{
	zs_copy_wild(cu->lit, lit_src, lit);
	cu->lit += lit;
	cu->seq->lit = lit;
	cu->seq->ml = ml;
	cu->seq->offval = flat ? offval_raw(cu->rep, lit, offset) : zs_offval(cu->rep, lit, offset);
	cu->seq++;
}

/* A match at the repeat offset rep[1] right after the previous match: no literals, code 1. */
static inline __attribute__((always_inline)) void
put_rep1(struct cursor *cu, uint32_t ml)
{
	uint32_t r = cu->rep[1];

	cu->rep[1] = cu->rep[0];
	cu->rep[0] = r;
	cu->seq->lit = 0;
	cu->seq->ml = ml;
	cu->seq->offval = 1;
	cu->seq++;
}

/* Extends m backwards over the literals since anchor, then stores it. Returns its end. */
static inline __attribute__((always_inline)) size_t
store_match(struct cursor *cu, const uint8_t *src, size_t anchor, struct fmatch *m, int flat)
{
	/* Neither past the anchor nor before the input (one bound). */
	size_t low = anchor > m->dist ? anchor : m->dist;

	/* Levels 1-2 (flat): the 8 bytes before both ends at once, without a branch. The pair
	 * loop finds repeat matches two bytes on, which often extend back a byte or two, and a
	 * byte loop's exit was a guess the predictor lost there (callgrind's model: 14-30 % more
	 * mispredictions at level 1, slower in spite of 3 % fewer instructions). A candidate
	 * within 8 bytes of the input's start takes the byte loop. The double-table parser
	 * (levels 3-4) probes where few matches extend back: its byte loop's first test costs
	 * fewer instructions (2.5-3.6 % fewer in all, 1-4 % more mispredictions). */
	if (flat && m->pos >= (size_t)m->dist + 8) {
		uint64_t x = zs_read64(src + m->pos - 8) ^ zs_read64(src + m->pos - 8 - m->dist);
		size_t back = ((size_t)__builtin_clzll(x | 1) >> 3) + (x == 0);
		size_t room = m->pos - low;

		back = back < room ? back : room;
		m->pos -= back;
		m->len += back;
		if (back < 8)
			goto store;
	}
	while (m->pos > low && src[m->pos - 1] == src[m->pos - 1 - m->dist]) {
		m->pos--;
		m->len++;
	}
store:
	put_seq(cu, src + anchor, (uint32_t)(m->pos - anchor), m->dist, (uint32_t)m->len, flat);
	return m->pos + m->len;
}

/* The search state of the single parser's probe loop, kept apart from the match handling so
 * the loop keeps its few values in registers. */
struct seek {
	const uint8_t *src;
	uint32_t *tab;
	size_t ilimit;
	unsigned log, skip;
	uint32_t base;
};

/* The single-table parsers' search limit and first position. Matches start at least 16
 * bytes before the block's end (zs_copy_wild), so their first bytes lie inside it, and the
 * reads past a match's start (peek20 one byte on, len16 4 on) stay 21 bytes inside the
 * input. Position 0 has no history (and the first repeat offset, 1, would read before it):
 * it is entered in the table and the search starts at 1. */
static inline __attribute__((always_inline)) size_t
single_start(const struct zs_cctx *c, struct seek *k, size_t start, size_t end, unsigned mm)
{
	if (k->ilimit + 16 > end)
		k->ilimit = end > 16 ? end - 16 : 0;
	if (k->ilimit + 21 > c->src_len)
		k->ilimit = c->src_len > 21 ? c->src_len - 21 : 0;
	if (start == 0 && k->ilimit > 0) {
		k->tab[zs_hash(k->src, mm, k->log)] = k->base;
		return 1;
	}
	return start;
}

/* Matches at the repeat offset rep[1] right after a match (a cheap code: the pattern of
 * alternating columns and edits), each start entered in the single table tab. Returns where
 * the last one ends (pos when there is none). rep[1] <= pos, as seek_single's rep0. */
static inline __attribute__((always_inline)) size_t
rep1_runs(struct cursor *cu, const uint8_t *src, size_t pos, size_t ilimit, const uint8_t *limit,
	  uint32_t *tab, unsigned mm, unsigned log, uint32_t base)
{
	while (pos <= ilimit && zs_read32(src + pos) == zs_read32(src + pos - cu->rep[1])) {
		size_t r = 4 + zs_match_len(src + pos + 4, src + pos + 4 - cu->rep[1], limit);

		tab[zs_hash(src + pos, mm, log)] = (uint32_t)pos + base;
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
	pos = single_start(c, &k, start, end, mm);
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

		pos = anchor = store_match(&cu, src, anchor, &m, 1);
		if (pos > k.ilimit)
			break;
		/* Positions inside the match feed later searches. */
		tab[zs_hash(src + mstart + 2, mm, log)] = (uint32_t)(mstart + 2) + base;
		tab[zs_hash(src + pos - 2, mm, log)] = (uint32_t)(pos - 2) + base;
		pos = anchor = rep1_runs(&cu, src, pos, k.ilimit, limit, tab, mm, log, base);
	}
	cursor_close(&cu, &c->store, src, anchor, end);
}

/* Probes positions in pairs (pos, pos + 1), then jumps by step, which starts at 2 (every
 * position) and grows by one every 2^skip bytes since the search began. Both slots of a pair
 * are read before either is claimed (the loads of the second do not wait on the first's
 * test), and the repeat offset is tested once a pair, two bytes on (pos + 2, where the next
 * pair starts while step is 2), before either candidate: a repeat match a little later is
 * preferred to a new offset now (it is a cheap code, and it was worth 2 % of the frame on
 * text). Returns the position of a match (*dist, 4 bytes verified) or ilimit when there is
 * none, with *past how far past the pair that found it the match is (0-2). */
static inline __attribute__((always_inline)) size_t
seek_pair(const struct seek *k, size_t pos, uint32_t rep0, unsigned mm, uint32_t *dist,
	  size_t *past)
{
	const uint8_t *src = k->src, *rsrc = src - rep0;
	uint32_t *tab = k->tab;
	const uint32_t base = k->base;
	const unsigned log = k->log;
	const size_t last = k->ilimit - 2; /* pos + 2 stays under ilimit */
	size_t step = 2, bump = pos + ((size_t)1 << k->skip);

	for (;;) {
		size_t stop = bump < last ? bump : last;

		while (pos < stop) {
			uint64_t v0 = zs_read64(src + pos), v1 = zs_read64(src + pos + 1);
			size_t h0 = zs_hash_word(v0, mm, log), h1 = zs_hash_word(v1, mm, log);
			uint32_t c0 = tab[h0] - base, c1 = tab[h1] - base;

			tab[h0] = (uint32_t)pos + base;
			tab[h1] = (uint32_t)pos + 1 + base;
			if (zs_read32(src + pos + 2) == zs_read32(rsrc + pos + 2)) {
				*dist = rep0;
				*past = 2;
				return pos + 2;
			}
			if (c0 < pos && (uint32_t)v0 == zs_read32(src + c0)) {
				*dist = (uint32_t)(pos - c0);
				*past = 0;
				return pos;
			}
			if (c1 <= pos && (uint32_t)v1 == zs_read32(src + c1)) {
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

/* One table of mm-byte hashes probed in pairs (seek_pair), with no retry one byte on: where
 * parse_single's retry cost a branch-free 20-byte count and a hash at every match, the
 * pairs find as much for less. After a match the table gets the pair's position + 2 (the
 * match's own start when it is a repeat match), + 3 when the match was the pair's second
 * position, and the match's last two positions but one: the slots a later search most
 * often needs (each dropped one cost 0.2-0.5 % of the frame). */
static inline __attribute__((always_inline)) void
parse_pair(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, unsigned mm,
	   unsigned log, unsigned skip)
{
	struct cursor cu;
	struct seek k = {src, c->hash, zs_hash_limit(c), log, skip, c->idx_base};
	uint32_t *tab = c->hash;
	uint32_t base = c->idx_base;
	size_t pos = start, anchor = start;
	const uint8_t *limit = src + end;

	cursor_open(&cu, &c->store);
	pos = single_start(c, &k, start, end, mm);
	while (pos + 2 < k.ilimit) {
		struct fmatch m;
		size_t past = 0;

		m.pos = seek_pair(&k, pos, cu.rep[0], mm, &m.dist, &past);
		if (m.pos >= k.ilimit)
			break;
		pos = m.pos;
		m.len = 4 + len16(src + pos + 4, src + pos + 4 - m.dist, limit);
		size_t pair = m.pos - past;

		pos = anchor = store_match(&cu, src, anchor, &m, 1);
		if (pos > k.ilimit)
			break;
		/* Positions inside the match feed later searches (the match is at least 4 long,
		 * so pair + 3 lies inside it). */
		tab[zs_hash(src + pair + 2, mm, log)] = (uint32_t)(pair + 2) + base;
		if (past == 1)
			tab[zs_hash(src + pair + 3, mm, log)] = (uint32_t)(pair + 3) + base;
		tab[zs_hash(src + pos - 2, mm, log)] = (uint32_t)(pos - 2) + base;
		tab[zs_hash(src + pos - 1, mm, log)] = (uint32_t)(pos - 1) + base;
		pos = anchor = rep1_runs(&cu, src, pos, k.ilimit, limit, tab, mm, log, base);
	}
	cursor_close(&cu, &c->store, src, anchor, end);
}

/* A long (8-byte) and a short (mm-byte, 2^chain_log slots) table; the long candidate is
 * preferred. A short match, or a long one under target_len, tries the long candidate one
 * byte on. (The short candidate there too found 0.3 % more for 2-3 % more work.) The repeat
 * offsets never exceed the position (see seek_single): rep0 one byte on needs no test. */
static inline __attribute__((always_inline)) void
parse_double(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, unsigned mm,
	     unsigned log, unsigned slog, unsigned skip)
{
	struct cursor cu;
	uint32_t *shorts = c->hash, *longs = c->hash2;
	uint32_t base = c->idx_base;
	size_t ilimit = zs_hash_limit(c);
	size_t pos = start, anchor = start;
	const uint8_t *limit = src + end;
	size_t retry_below = c->p.target_len; /* longer matches rarely improve one byte on */

	cursor_open(&cu, &c->store);
	/* Matches start at least 16 bytes before the block's end (zs_copy_wild): the long
	 * retry's 8 bytes one on stay inside the block and the input. */
	if (ilimit + 17 > end)
		ilimit = end > 17 ? end - 17 : 0;
	while (pos < ilimit) {
		const uint8_t *rsrc = src + 1 - cu.rep[0];
		struct fmatch m;

		for (;;) {
			uint64_t v = zs_read64(src + pos);
			size_t hl = zs_hash_word(v, 8, log), hs = zs_hash_word(v, mm, slog);
			uint32_t cl = longs[hl] - base, cs = shorts[hs] - base;

			longs[hl] = shorts[hs] = (uint32_t)pos + base;
			if ((uint32_t)(v >> 8) == zs_read32(rsrc + pos)) {
				m.pos = pos + 1;
				m.dist = cu.rep[0];
				m.len = 4 + zs_match_len(src + pos + 5, rsrc + pos + 4, limit);
				break;
			}
			if (cl < pos && zs_read64(src + cl) == v) {
				m.pos = pos;
				m.dist = (uint32_t)(pos - cl);
				m.len = 8 + zs_match_len(src + pos + 8, src + cl + 8, limit);
				if (m.len < retry_below)
					retry(longs, zs_hash(src + pos + 1, 8, log), base, src, pos + 1, 8,
					      limit, &m);
				break;
			}
			if (cs < pos && zs_read32(src + cs) == (uint32_t)v) {
				m.pos = pos;
				m.dist = (uint32_t)(pos - cs);
				m.len = 4 + zs_match_len(src + pos + 4, src + cs + 4, limit);
				retry(longs, zs_hash(src + pos + 1, 8, log), base, src, pos + 1, 8,
				      limit, &m);
				break;
			}
			pos += 1 + ((pos - anchor) >> skip);
			if (pos >= ilimit)
				goto done;
		}
		size_t mstart = m.pos;

		pos = anchor = store_match(&cu, src, anchor, &m, 0);
		if (pos > ilimit)
			break;
		longs[zs_hash(src + mstart + 2, 8, log)] = (uint32_t)(mstart + 2) + base;
		shorts[zs_hash(src + mstart + 2, mm, slog)] = (uint32_t)(mstart + 2) + base;
		longs[zs_hash(src + pos - 2, 8, log)] = (uint32_t)(pos - 2) + base;
		shorts[zs_hash(src + pos - 1, mm, slog)] = (uint32_t)(pos - 1) + base;
		while (pos <= ilimit && zs_read32(src + pos) == zs_read32(src + pos - cu.rep[1])) {
			size_t r = 4 + zs_match_len(src + pos + 4, src + pos + 4 - cu.rep[1], limit);

			shorts[zs_hash(src + pos, mm, slog)] = (uint32_t)pos + base;
			longs[zs_hash(src + pos, 8, log)] = (uint32_t)pos + base;
			put_rep1(&cu, (uint32_t)r);
			pos += r;
			anchor = pos;
		}
	}
done:
	cursor_close(&cu, &c->store, src, anchor, end);
}

/* The single-table parsers with the hash width and the retry as constants in each copy:
 * retry 2 is the pair loop (parse_pair). The pair loop's rows (levels.c: levels 1-2 at
 * 128 KiB, level 2 at 1 MiB) also get their table size and step growth as constants (shifts
 * by a constant free registers in the probe loop: 2-5 % fewer instructions in all, the same
 * frames); other sizes (small frames) take the copies that read them. Level 1 at 1 MiB's
 * copy of its own gained 0.6 % of its instructions and cost the other parsers 0.3-1.1 %. */
static inline __attribute__((always_inline)) void
single_mm(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, int retry)
{
	unsigned mm = c->p.min_match, log = c->hash_log, skip = c->p.search_log;

	if (retry == 2) {
		if (mm == 6 && log == 13 && skip == 9)
			parse_pair(c, src, start, end, 6, 13, 9);
		else if (mm == 5 && log == 15 && skip == 8)
			parse_pair(c, src, start, end, 5, 15, 8);
		else if (mm == 6 && log == 16 && skip == 8)
			parse_pair(c, src, start, end, 6, 16, 8);
		else if (mm == 5)
			parse_pair(c, src, start, end, 5, log, skip);
		else if (mm == 6)
			parse_pair(c, src, start, end, 6, log, skip);
		else
			parse_pair(c, src, start, end, mm, log, skip);
	} else if (mm == 5) {
		parse_single(c, src, start, end, 5, retry, log, skip);
	} else if (mm == 6) {
		parse_single(c, src, start, end, 6, retry, log, skip);
	} else {
		parse_single(c, src, start, end, mm, retry, log, skip);
	}
}

/* The double-table parser with the hash width, and for the rows of levels 3-4 over 128 KiB
 * and 1 MiB frames the table sizes and the step's growth, as constants in each copy: shifts by a constant leave the
 * probe loop two registers more, where gcc reloaded the shift counts from the stack at every
 * position (3.4-4.2 % fewer instructions in all at levels 3-4, callgrind, the same frames). Other sizes (small frames, whose
 * tables shrink with the input) take the copies that read them. */
static inline __attribute__((always_inline)) void
double_mm(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	unsigned mm = c->p.min_match, log = c->hash_log, skip = c->p.search_log;
	unsigned slog = c->p.chain_log < log ? c->p.chain_log : log;
	/* levels 3-4's rows (levels.c): 2^16 long slots for 5-byte matches, 2^17 for 4-byte
	 * ones (this one test, not one per row, left gcc's probe loops 1.5-2 % shorter) */
	int row = skip == 8 && log == 16 + (mm == 4);

	if (row && mm == 5 && slog == 15)
		parse_double(c, src, start, end, 5, 16, 15, 8);
	else if (row && mm == 5 && slog == 16)
		parse_double(c, src, start, end, 5, 16, 16, 8);
	else if (row && mm == 4 && slog == 17)
		parse_double(c, src, start, end, 4, 17, 17, 8);
	else if (mm == 4)
		parse_double(c, src, start, end, 4, log, slog, skip);
	else if (mm == 5)
		parse_double(c, src, start, end, 5, log, slog, skip);
	else
		parse_double(c, src, start, end, mm, log, slog, skip);
}

/* The hash width as a constant in each copy: no test of it per position. A row with no
 * chain_log (these parsers use no chain) takes the single table: probed in pairs for a
 * target_len of 1 (no retry: no match is that short), else one position at a time, with
 * the retry one byte on when target_len is above 1. */
static inline __attribute__((always_inline)) void
parse_any(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	if (c->p.chain_log == 0) {
		if (c->p.target_len == 1)
			single_mm(c, src, start, end, 2);
		else if (c->p.target_len > 0)
			single_mm(c, src, start, end, 1);
		else
			single_mm(c, src, start, end, 0);
	} else {
		double_mm(c, src, start, end);
	}
}

static void parse_generic(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	parse_any(c, src, start, end);
}

#if ZS_HAVE_BMI2_PATH
/* Shifts by the hash size without the CL register (and one register more for the rest). */
ZS_TARGET_BMI2 static void parse_bmi2(struct zs_cctx *c, const uint8_t *src, size_t start,
				      size_t end)
{
	parse_any(c, src, start, end);
}
#endif

void zs_parse_dfast(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
#if ZS_HAVE_BMI2_PATH
	if (zs_cpu_has_bmi2()) {
		parse_bmi2(c, src, start, end);
		return;
	}
#endif
	parse_generic(c, src, start, end);
}
