/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzma_dec.c — the LZMA decoder of one LZMA2 chunk, writing straight into the block's output (the
 * output is the dictionary: no copy-out). Built from lzma-specification.txt. */
#include "config.h"
#include "codecs/xz/xz_internal.h"

#include <string.h>

#define LZ_INLINE static inline __attribute__((always_inline))

#define PROB_BITS 11
#define PROB_INIT (1u << (PROB_BITS - 1))
#define MOVE_BITS 5
#define PROB_TARGET0 ((1u << PROB_BITS) - (1u << MOVE_BITS) + 1)
#define RC_TOP (UINT32_C(1) << 24)
#define MATCH_LEN_MAX 273u
/* The most input one symbol can take: a match is at most 1 + 1 + 10 + 6 + 26 + 4 = 48 coded
 * bits and each bit normalises at most once (one byte). Below this much left, the careful path. */
#define IN_MARGIN 64u
/* Fast match copies move 16 bytes at a time and may write up to 15 bytes past the match. */
#define OUT_SLACK 16u

/* The range decoder. In the careful mode an exhausted input reads as zeros and is noted: the
 * chunk then fails at its end, and no byte outside the chunk is read. */
struct rc {
	uint32_t range, code;
	const uint8_t *in, *end;
	int over;
};

LZ_INLINE void rc_norm(struct rc *rc, int careful)
{
	if (rc->range < RC_TOP) {
		uint32_t b = 0;
		if (!careful || rc->in < rc->end)
			b = *rc->in++;
		else
			rc->over = 1;
		rc->range <<= 8;
		rc->code = (rc->code << 8) | b;
	}
}

LZ_INLINE unsigned rc_bit(struct rc *rc, uint16_t *p, int careful)
{
	rc_norm(rc, careful);
	uint32_t prob = *p;
	uint32_t bound = (rc->range >> PROB_BITS) * prob;
	if (rc->code < bound) {
		rc->range = bound;
		*p = (uint16_t)(prob + (((1u << PROB_BITS) - prob) >> MOVE_BITS));
		return 0;
	}
	rc->range -= bound;
	rc->code -= bound;
	*p = (uint16_t)(prob - (prob >> MOVE_BITS));
	return 1;
}

/* The same bit without a branch on its value, for trees whose bits only steer the index: a
 * mispredicted branch costs more than computing both outcomes and selecting one. */
LZ_INLINE unsigned rc_bit_select(struct rc *rc, uint16_t *p, int careful)
{
	rc_norm(rc, careful);
	uint32_t prob = *p;
	uint32_t bound = (rc->range >> PROB_BITS) * prob;
	uint32_t bit = rc->code >= bound;
	/* Masks, not ?:, which the compiler turns back into branches. */
	uint32_t mask = 0u - bit;
	rc->range = bound + ((rc->range - 2 * bound) & mask);
	rc->code -= bound & mask;
	/* Both updates in one: prob moves 1/32 of the way to 0 (bit 1) or to 2048 (bit 0); with
	 * an arithmetic shift (what GCC and Clang do), floor((prob - 2017) / 32) is
	 * -((2048 - prob) >> 5) exactly, so 2017 stands for 2048. */
	int32_t toward = (int32_t)prob - (int32_t)(PROB_TARGET0 & ~mask);
	*p = (uint16_t)((int32_t)prob - (toward >> MOVE_BITS));
	return bit;
}

/* Bits of fixed probability one half. The sign trick keeps the exact arithmetic of the
 * specification even on a corrupt code >= range, so garbage decodes as liblzma's does. */
LZ_INLINE uint32_t rc_direct(struct rc *rc, unsigned n, int careful)
{
	uint32_t v = 0;
	do {
		rc_norm(rc, careful);
		rc->range >>= 1;
		rc->code -= rc->range;
		uint32_t t = 0u - (rc->code >> 31);
		rc->code += rc->range & t;
		v = (v << 1) + (t + 1);
	} while (--n != 0);
	return v;
}

LZ_INLINE unsigned bittree(struct rc *rc, uint16_t *probs, unsigned bits, int careful)
{
	unsigned m = 1;
#pragma GCC unroll 8
	for (unsigned i = 0; i < bits; i++)
		m = (m << 1) | rc_bit_select(rc, &probs[m], careful);
	return m - (1u << bits);
}

LZ_INLINE unsigned bittree_rev(struct rc *rc, uint16_t *probs, unsigned bits, int careful)
{
	unsigned m = 1, sym = 0;
	for (unsigned i = 0; i < bits; i++) {
		unsigned bit = rc_bit_select(rc, &probs[m], careful);
		m = (m << 1) | bit;
		sym |= bit << i;
	}
	return sym;
}

/* A match length, 2..273. */
LZ_INLINE unsigned decode_len(struct rc *rc, struct lzma_len_probs *lp, unsigned ps, int careful)
{
	if (!rc_bit(rc, &lp->choice, careful))
		return 2 + bittree(rc, lp->low[ps], 3, careful);
	if (!rc_bit(rc, &lp->choice2, careful))
		return 10 + bittree(rc, lp->mid[ps], 3, careful);
	return 18 + bittree(rc, lp->high, 8, careful);
}

/* A match distance minus one, from the slot tree chosen by the length. */
LZ_INLINE uint32_t decode_dist(struct rc *rc, struct lzma_probs *p, unsigned len, int careful)
{
	unsigned slot = bittree(rc, p->dist_slot[len < 6 ? len - 2 : 3], 6, careful);
	if (slot < 4)
		return slot;
	unsigned nd = (slot >> 1) - 1;
	uint32_t dist = (2u | (slot & 1)) << nd;
	if (slot < 14)
		return dist + bittree_rev(rc, p->dist_special + dist - slot, nd, careful);
	dist += rc_direct(rc, nd - 4, careful) << 4;
	return dist + bittree_rev(rc, p->dist_align, 4, careful);
}

/* A literal byte; after a match (state >= 7) the byte at rep0 steers the tree until the two
 * disagree. Branch-free: offs is 0x100 while they agree and 0 after, so the index
 * offs + (match bit << 8 & offs) + sym picks the matched or the plain tree. */
LZ_INLINE unsigned decode_literal(struct rc *rc, uint16_t *probs, unsigned state,
				  unsigned match_byte, int careful)
{
	unsigned sym = 1;
	if (state >= 7) {
		unsigned offs = 0x100;
#pragma GCC unroll 8
		for (int i = 0; i < 8; i++) {
			match_byte <<= 1;
			unsigned bit = rc_bit_select(rc, &probs[offs + (match_byte & offs) + sym],
						     careful);
			sym = (sym << 1) | bit;
			offs &= ~((match_byte ^ (bit << 8)) & 0x100);
		}
	} else {
#pragma GCC unroll 8
		for (int i = 0; i < 8; i++)
			sym = (sym << 1) | rc_bit_select(rc, &probs[sym], careful);
	}
	return sym & 0xff;
}

/* Copies len bytes from dist1 back. The fast mode may write OUT_SLACK - 1 bytes past the end
 * (each chunk is at most dist1 long, so it never reads what this copy has yet to write). */
LZ_INLINE void copy_match(uint8_t *out, size_t pos, uint32_t dist1, unsigned len, int careful)
{
	uint8_t *d = out + pos;
	const uint8_t *s = d - dist1;
	if (!careful && dist1 >= OUT_SLACK) {
		/* Most matches are short: one unconditional copy covers them without a loop. */
		memcpy(d, s, OUT_SLACK);
		for (unsigned i = OUT_SLACK; i < len; i += OUT_SLACK)
			memcpy(d + i, s + i, OUT_SLACK);
	} else if (!careful && dist1 >= 8) {
		for (unsigned i = 0; i < len; i += 8)
			memcpy(d + i, s + i, 8);
	} else if (!careful && dist1 == 1) {
		memset(d, *s, len);
	} else {
		for (unsigned i = 0; i < len; i++)
			d[i] = s[i];
	}
}

struct run {
	uint8_t *out;
	size_t base, pos;
	size_t stop;            /* decode symbols while pos < stop ... */
	const uint8_t *in_stop; /* ... and (fast mode) the input is before this */
	size_t end;             /* the chunk's end: no match may cross it */
};

static const uint8_t lit_next[12] = { 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 4, 5 };

/* Decodes symbols; the fast instance has margins on both sides so it checks nothing per byte. */
LZ_INLINE int decode_run(struct lzma_dec *d, struct rc *rc, struct run *r, int careful)
{
	struct lzma_probs *p = &d->probs;
	uint8_t *out = r->out;
	size_t pos = r->pos, base = r->base;
	unsigned state = d->state, lc = d->lc;
	uint32_t rep0 = d->rep[0], rep1 = d->rep[1], rep2 = d->rep[2], rep3 = d->rep[3];
	unsigned pb_mask = (1u << d->pb) - 1, lp_mask = (1u << d->lp) - 1;
	int ret = 0;
	while (pos < r->stop && (careful || rc->in < r->in_stop)) {
		unsigned ps = (unsigned)(pos - base) & pb_mask;
		if (!rc_bit(rc, &p->is_match[state][ps], careful)) {
			unsigned prev = pos > base ? out[pos - 1] : 0;
			uint16_t *probs = p->literal[((((unsigned)(pos - base)) & lp_mask) << lc) +
						     (prev >> (8 - lc))];
			/* state >= 7 follows a match whose rep0 was checked against this base. */
			unsigned mb = state >= 7 ? out[pos - rep0 - 1] : 0;
			out[pos++] = (uint8_t)decode_literal(rc, probs, state, mb, careful);
			state = lit_next[state];
			continue;
		}
		unsigned len;
		if (!rc_bit(rc, &p->is_rep[state], careful)) {
			len = decode_len(rc, &p->match_len, ps, careful);
			uint32_t dist = decode_dist(rc, p, len, careful);
			rep3 = rep2;
			rep2 = rep1;
			rep1 = rep0;
			rep0 = dist;
			state = state < 7 ? 7 : 10;
		} else if (!rc_bit(rc, &p->is_rep0[state], careful)) {
			if (!rc_bit(rc, &p->is_rep0_long[state][ps], careful)) {
				if (rep0 >= pos - base) {
					ret = -1;
					break;
				}
				state = state < 7 ? 9 : 11;
				out[pos] = out[pos - rep0 - 1];
				pos++;
				continue;
			}
			len = decode_len(rc, &p->rep_len, ps, careful);
			state = state < 7 ? 8 : 11;
		} else {
			uint32_t dist;
			if (!rc_bit(rc, &p->is_rep1[state], careful)) {
				dist = rep1;
			} else if (!rc_bit(rc, &p->is_rep2[state], careful)) {
				dist = rep2;
				rep2 = rep1;
			} else {
				dist = rep3;
				rep3 = rep2;
				rep2 = rep1;
			}
			rep1 = rep0;
			rep0 = dist;
			len = decode_len(rc, &p->rep_len, ps, careful);
			state = state < 7 ? 8 : 11;
		}
		if (rep0 >= pos - base || (careful && len > r->end - pos)) {
			ret = -1;
			break;
		}
		copy_match(out, pos, rep0 + 1, len, careful);
		pos += len;
	}
	d->state = state;
	d->rep[0] = rep0;
	d->rep[1] = rep1;
	d->rep[2] = rep2;
	d->rep[3] = rep3;
	r->pos = pos;
	return ret;
}

static int decode_fast(struct lzma_dec *d, struct rc *rc, struct run *r)
{
	return decode_run(d, rc, r, 0);
}

static int decode_careful(struct lzma_dec *d, struct rc *rc, struct run *r)
{
	return decode_run(d, rc, r, 1);
}

int lzma_dec_chunk(struct lzma_dec *d, const uint8_t *in, size_t in_len, uint8_t *out,
		   size_t base, size_t pos, size_t end, size_t cap)
{
	/* The first byte is always 0 from an encoder (the carry slot): liblzma insists on it too. */
	if (in_len < 5 || in[0] != 0)
		return XZ_ERR_CORRUPT;
	struct rc rc = { .range = UINT32_MAX, .in = in + 5, .end = in + in_len };
	for (int i = 1; i < 5; i++)
		rc.code = (rc.code << 8) | in[i];
	struct run r = { .out = out, .base = base, .pos = pos, .end = end };
	size_t room = end < cap - OUT_SLACK ? end : cap - OUT_SLACK;
	if (cap >= OUT_SLACK && room >= MATCH_LEN_MAX && in_len >= IN_MARGIN) {
		r.stop = room - MATCH_LEN_MAX;
		r.in_stop = in + in_len - IN_MARGIN;
		if (decode_fast(d, &rc, &r) != 0)
			return XZ_ERR_CORRUPT;
	}
	r.stop = end;
	if (decode_careful(d, &rc, &r) != 0)
		return XZ_ERR_CORRUPT;
	/* The encoder's last normalisation has no symbol after it in the decoder: do it here, then
	 * the chunk must be used up exactly and the code back to zero, as the encoder flushed it. */
	rc_norm(&rc, 1);
	if (rc.over || rc.in != rc.end || rc.code != 0)
		return XZ_ERR_CORRUPT;
	return 0;
}

void lzma_dec_reset(struct lzma_dec *d)
{
	/* Only the literal coders lc + lp select need resetting; the rest are few. */
	uint16_t *all = (uint16_t *)&d->probs;
	size_t n = offsetof(struct lzma_probs, literal) / sizeof(uint16_t) +
		   ((size_t)0x300 << (d->lc + d->lp));
	for (size_t i = 0; i < n; i++)
		all[i] = PROB_INIT;
	d->state = 0;
	d->rep[0] = d->rep[1] = d->rep[2] = d->rep[3] = 0;
}

int lzma_dec_props(struct lzma_dec *d, unsigned byte)
{
	if (byte >= 9 * 5 * 5)
		return -1;
	unsigned lc = byte % 9, lp = (byte / 9) % 5, pb = byte / 45;
	if (lc + lp > 4)
		return -1;
	d->lc = lc;
	d->lp = lp;
	d->pb = pb;
	lzma_dec_reset(d);
	return 0;
}
