/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* block_split.c — cutting one parsed block into several compressed blocks where its statistics change (levels 13+). */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/block_split.h"
#include "codecs/zstd/compress/price.h"

/* How hard to look, by strategy: levels of halving, the cut points tried at each (the
 * (2 * tries - 1) inner multiples of 1/(2 * tries)), and the smallest piece in bytes. */
struct split_effort {
	int depth, tries;
	size_t min_piece;
};

static const struct split_effort efforts[3] = {
	{5, 2, 2048}, /* btopt: levels 13-15 */
	{6, 4, 1024}, /* btultra */
	{6, 8, 1024}, /* btultra2 */
};

struct splitter {
	struct zs_cctx *c;
	const struct split_effort *e;
	size_t n;      /* block content */
	size_t ncuts;
};

static size_t piece_content(const struct splitter *s, size_t a, size_t b)
{
	return (b == s->c->store.nseq ? s->n : s->c->split_pos[b]) - s->c->split_pos[a];
}

/* Sequences [a, b) with their literals (the trailing literals go with the last piece). */
static size_t encode_piece(struct splitter *s, const struct zs_entropy *prev, struct zs_entropy *next,
			   size_t a, size_t b, uint8_t *dst, size_t cap)
{
	struct zs_seq_store *st = &s->c->store;
	size_t lit_end = b == st->nseq ? st->nlits : s->c->split_lit[b];

	return zs_encode_block(prev, next, &s->c->scratch, st->lits + s->c->split_lit[a],
			       lit_end - s->c->split_lit[a], st->seqs + a, b - a, dst, cap);
}

/* The histograms a piece's size estimate needs. */
struct piece_stats {
	uint32_t lit[256];
	size_t nlits;
	struct zs_seq_counts seq;
};

static void stats_clear(struct piece_stats *p)
{
	memset(p, 0, sizeof(*p));
}

/* Adds sequences [a, b) and their literals (with the trailing ones when b is the last). The
 * codes come from the block's, computed once (scratch codes). */
static void stats_add(const struct splitter *s, struct piece_stats *p, size_t a, size_t b)
{
	const struct zs_seq_store *st = &s->c->store;
	const struct zs_block_scratch *sc = &s->c->scratch;
	size_t lit_end = b == st->nseq ? st->nlits : s->c->split_lit[b];

	for (size_t i = s->c->split_lit[a]; i < lit_end; i++)
		p->lit[st->lits[i]]++;
	p->nlits += lit_end - s->c->split_lit[a];
	for (size_t i = a; i < b; i++) {
		p->seq.c[0][sc->codes[0][i]]++;
		p->seq.c[1][sc->codes[1][i]]++;
		p->seq.c[2][sc->codes[2][i]]++;
	}
	p->seq.nseq += b - a;
}

/* out = whole - part (part a prefix of whole). */
static void stats_sub(struct piece_stats *out, const struct piece_stats *whole,
		      const struct piece_stats *part)
{
	for (unsigned k = 0; k < 256; k++)
		out->lit[k] = whole->lit[k] - part->lit[k];
	out->nlits = whole->nlits - part->nlits;
	for (unsigned t = 0; t < 3; t++)
		for (unsigned k = 0; k < 64; k++)
			out->seq.c[t][k] = whole->seq.c[t][k] - part->seq.c[t][k];
	out->seq.nseq = whole->seq.nseq - part->seq.nseq;
}

/* The estimated size of a piece as a block (no bitstream written). */
static size_t piece_cost(struct splitter *s, const struct zs_entropy *prev, struct zs_entropy *next,
			 const struct piece_stats *p)
{
	return zs_literals_cost(prev, next, &s->c->scratch, p->lit, p->nlits) +
	       zs_sequences_cost(prev, next, &p->seq);
}

/* Bits (1/256) of a histogram coded at its own entropy, plus HDR_BITS a symbol present for its
 * table's description: the cheap ranking of cut points, with no table built. (Level 19, 128 KiB,
 * the four samples: 4 bits a symbol left them -0.03 to +0.02 % from exact ranking, none 0.01 to
 * 0.03 % larger, 8 bits up to 0.1 %.) */
#define HDR_BITS 4
static uint64_t entropy_bits(const uint32_t *counts, unsigned n, size_t total)
{
	uint64_t sum = 0, distinct = 0;

	if (total < 2)
		return 0;
	for (unsigned k = 0; k < n; k++)
		if (counts[k]) {
			sum += (uint64_t)counts[k] * zs_log2_fixed(counts[k]);
			distinct++;
		}
	return (uint64_t)total * zs_log2_fixed((uint32_t)total) - sum + distinct * HDR_BITS * 256;
}

static uint64_t piece_entropy(const struct piece_stats *p)
{
	uint64_t bits = entropy_bits(p->lit, 256, p->nlits);

	for (unsigned t = 0; t < 3; t++)
		bits += entropy_bits(p->seq.c[t], 64, p->seq.nseq);
	return bits;
}

/* The cut points tried in [a, b) into at[] (sequence indices, ascending, each once, at most
 * CUT_MAX: tries up to 8); returns how many. */
#define CUT_MAX 16
static int cut_points(const struct splitter *s, size_t a, size_t b, size_t *at)
{
	const uint32_t *pos = s->c->split_pos;
	size_t content = piece_content(s, a, b), q = a + 1;
	int tries = s->e->tries, n = 0;

	for (int k = 1; k <= 2 * tries - 1 && n < CUT_MAX; k++) {
		size_t cut_pos = pos[a] + content * (size_t)k / (size_t)(2 * tries);

		while (q + 1 < b && pos[q] < cut_pos)
			q++;
		if (pos[q] - pos[a] < s->e->min_piece || piece_content(s, q, b) < s->e->min_piece)
			continue;
		if (n > 0 && at[n - 1] == q)
			continue;
		at[n++] = q;
	}
	return n;
}

/* Cuts [a, b) (histograms w, estimated size whole) in two where the two pieces cost least,
 * while that is less than the whole, and again in each piece; cuts come out in order. The cut
 * points are ranked by the pieces' entropies, and only the best SPLIT_EXACT of them get the
 * full estimate (tables built and described, modes chosen): that estimate was 13 % of level
 * 19's time on binaries when every point got it. The left pieces' histograms grow cut by cut
 * and the right ones are what remains; a piece's own estimate is the one its parent made. */
#define SPLIT_EXACT 2
static void decide(struct splitter *s, const struct zs_entropy *prev, size_t a, size_t b, int depth,
		   const struct piece_stats *w, size_t whole)
{
	if (depth == 0 || b - a < 32 || piece_content(s, a, b) < 2 * s->e->min_piece)
		return;
	struct zs_entropy left_e, le, re;
	struct piece_stats left, right, best_left;
	size_t at[CUT_MAX], scanned = a, best = SIZE_MAX, best_lc = 0, best_rc = 0, m = 0;
	uint64_t rank[CUT_MAX];
	int n = cut_points(s, a, b, at);

	stats_clear(&left);
	for (int k = 0; k < n; k++) {
		stats_add(s, &left, scanned, at[k]);
		scanned = at[k];
		stats_sub(&right, w, &left);
		rank[k] = piece_entropy(&left) + piece_entropy(&right);
	}
	for (int pick = 0; pick < SPLIT_EXACT && pick < n; pick++) {
		int k = 0;

		for (int j = 1; j < n; j++)
			if (rank[j] < rank[k])
				k = j;
		rank[k] = UINT64_MAX;
		stats_clear(&left);
		stats_add(s, &left, a, at[k]);
		stats_sub(&right, w, &left);
		size_t lc = piece_cost(s, prev, &le, &left);
		size_t rc = piece_cost(s, &le, &re, &right);

		if (lc + rc < best) {
			best = lc + rc;
			best_lc = lc;
			best_rc = rc;
			m = at[k];
			left_e = le;
			best_left = left;
		}
	}
	if (m == 0 || best + 3 >= whole)
		return;
	decide(s, prev, a, m, depth - 1, &best_left, best_lc);
	s->c->split_cut[s->ncuts++] = (uint32_t)m;
	stats_sub(&right, w, &best_left);
	decide(s, &left_e, m, b, depth - 1, &right, best_rc);
}

/* Picks the cuts (c->split_cut, sequence indices) of the block in c->store, n bytes of
 * content; c->split_pos then holds each sequence's content offset. Returns how many. */
static size_t plan(struct zs_cctx *c, const struct split_effort *e, size_t n)
{
	struct zs_seq_store *st = &c->store;
	struct splitter s = {c, e, n, 0};

	if (st->nseq < 64 || n < 4 * e->min_piece)
		return 0;
	uint32_t lit = 0, at = 0;

	for (size_t i = 0; i < st->nseq; i++) {
		c->split_lit[i] = lit;
		c->split_pos[i] = at;
		lit += st->seqs[i].lit;
		at += st->seqs[i].lit + st->seqs[i].ml;
	}
	c->split_lit[st->nseq] = lit;
	c->split_pos[st->nseq] = at;
	struct piece_stats all;

	zs_seq_codes(&c->scratch, st->seqs, st->nseq);
	stats_clear(&all);
	stats_add(&s, &all, 0, st->nseq);
	struct zs_entropy all_e;

	decide(&s, &c->entropy, 0, st->nseq, e->depth, &all, piece_cost(&s, &c->entropy, &all_e, &all));
	return s.ncuts;
}

static const struct split_effort *effort_of(const struct zs_params *p)
{
	return &efforts[p->strategy - ZS_BTOPT];
}

size_t zs_split_plan(struct zs_cctx *c, size_t n)
{
	return plan(c, effort_of(&c->p), n);
}

size_t zs_split_block(struct zs_cctx *c, size_t n, int last, size_t to_beat)
{
	struct zs_seq_store *st = &c->store;
	struct splitter s = {c, effort_of(&c->p), n, plan(c, effort_of(&c->p), n)};

	if (s.ncuts == 0)
		return 0;

	/* Encode the pieces for real, each with the tables the previous one left. */
	struct zs_entropy cur = c->entropy, next;
	uint8_t *op = c->split_out, *end = c->split_out + ZS_BLOCK_SIZE_MAX + 1024;
	size_t a = 0;

	for (size_t k = 0; k <= s.ncuts; k++) {
		size_t b = k < s.ncuts ? c->split_cut[k] : st->nseq;
		size_t content = piece_content(&s, a, b);
		size_t room = (size_t)(end - op) - 3;

		if (room > content)
			room = content;
		size_t body = encode_piece(&s, &cur, &next, a, b, op + 3, room);

		/* Every piece must compress: a raw piece would leave the decoder's repeat offsets
		 * behind the encoder's. */
		if (body == 0 || body >= content)
			return 0;
		int is_last = last && k == s.ncuts;

		zs_write24(op, (uint32_t)(is_last | (ZS_BLOCK_COMPRESSED << 1) | (body << 3)));
		op += 3 + body;
		cur = next;
		a = b;
		if ((size_t)(op - c->split_out) >= to_beat)
			return 0;
	}
	c->next_entropy = cur;
	return (size_t)(op - c->split_out);
}
