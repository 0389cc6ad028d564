/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_fast.h — what the single-table (match_fast.c) and double-table (match_dfast.c) parsers of
 * levels 1..4 share: the hash of a loaded word, candidate tests, match lengths and the sequence
 * cursor. Inline: every parser copy is specialised by constants, and a call per probe or match
 * would cost more than the work. */
#ifndef SQ_ZSTD_COMPRESS_MATCH_FAST_H
#define SQ_ZSTD_COMPRESS_MATCH_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_hc.h"

/* zs_hash of the 8 bytes v read at a position (the probe loop's one load serves the hash
 * and the 4-byte tests). */
static inline __attribute__((always_inline)) size_t
zs_hash_word(uint64_t v, unsigned mm, unsigned log)
{
	/* zs_hash's product, (v << s) * K, as v * (K << s): the same bits modulo 2^64, without
	 * the shift of every hash (a constant for copies of a fixed mm; gcc did not fold it). */
	if (mm >= 5)
		return (size_t)((v * (0xCF1BBCDCB7A56463ull << (64 - 8 * mm))) >> (64 - log));
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

/* Extends m backwards over the literals since anchor, then stores it (offset codes by
 * offval_raw when flat: no search of rep[1..2]). Returns its end (unchanged by the
 * extension). */
static inline __attribute__((always_inline)) size_t
store_match(struct cursor *cu, const uint8_t *src, size_t anchor, struct fmatch *m, int flat,
	    int wide_back)
{
	/* Neither past the anchor nor before the input (one bound). */
	size_t low = anchor > m->dist ? anchor : m->dist;
	/* The end taken before the extension back (which moves both ends of the match by the
	 * same bytes): the next search waits on the length count only, not on the count back
	 * too (levels 1-2 at 1 MiB: 0.5-2 % faster in locked A/B runs, the same frames). */
	size_t end = m->pos + m->len;

	/* Levels 1-2 (wide_back): the 8 bytes before both ends at once, without a branch. The pair
	 * loop finds repeat matches two bytes on, which often extend back a byte or two, and a
	 * byte loop's exit was a guess the predictor lost there (callgrind's model: 14-30 % more
	 * mispredictions at level 1, slower in spite of 3 % fewer instructions). A candidate
	 * within 8 bytes of the input's start takes the byte loop. The double-table parser
	 * (levels 3-4) probes where few matches extend back: its byte loop's first test costs
	 * fewer instructions (2.5-3.6 % fewer in all, 1-4 % more mispredictions). */
	if (wide_back && m->pos >= (size_t)m->dist + 8) {
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
	return end;
}


/* The double-table parser of levels 3-4 (match_dfast.c), for rows with a chain_log. */
void zs_parse_double(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end);

#endif
