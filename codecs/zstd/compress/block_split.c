/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* block_split.c — cutting one parsed block into several compressed blocks where its statistics change (levels 13+). */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/block_split.h"

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
/* Rows taking 5-byte matches (level 15 over 256 KiB) are there for speed: one cut at most.
 * The estimates cost a tenth of the frame's time at depth 5 and 2 % of it at depth 1, which
 * keeps 60 % of the gain (tree and bin samples: 1.5 % smaller than unsplit, 2.5 % at depth 5). */
static const struct split_effort effort_fast = {1, 2, 2048};

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

/* Cuts [a, b) (histograms w, estimated size whole) in two where the two pieces cost least,
 * while that is less than the whole, and again in each piece; cuts come out in order. The left
 * pieces' histograms grow cut by cut and the right ones are what remains, so each level reads
 * its piece once; a piece's own estimate is the one its parent made. */
static void decide(struct splitter *s, const struct zs_entropy *prev, size_t a, size_t b, int depth,
		   const struct piece_stats *w, size_t whole)
{
	const uint32_t *pos = s->c->split_pos;
	size_t content = piece_content(s, a, b);

	if (depth == 0 || b - a < 32 || content < 2 * s->e->min_piece)
		return;
	struct zs_entropy left_e, le, re;
	struct piece_stats left, right, best_left;
	size_t best = SIZE_MAX, best_lc = 0, best_rc = 0, m = 0, scanned = a, q = a + 1;
	int tries = s->e->tries;

	stats_clear(&left);
	for (int k = 1; k <= 2 * tries - 1; k++) {
		size_t cut_pos = pos[a] + content * (size_t)k / (size_t)(2 * tries);

		while (q + 1 < b && pos[q] < cut_pos)
			q++;
		if (pos[q] - pos[a] < s->e->min_piece || piece_content(s, q, b) < s->e->min_piece)
			continue;
		stats_add(s, &left, scanned, q);
		scanned = q;
		stats_sub(&right, w, &left);
		size_t lc = piece_cost(s, prev, &le, &left);
		size_t rc = piece_cost(s, &le, &re, &right);

		if (lc + rc < best) {
			best = lc + rc;
			best_lc = lc;
			best_rc = rc;
			m = q;
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
	return zs_opt_speed_row(p) ? &effort_fast : &efforts[p->strategy - ZS_BTOPT];
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
