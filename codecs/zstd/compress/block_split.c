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

/* The estimated size of sequences [a, b) as a block (no bitstream written). */
static size_t piece_cost(struct splitter *s, const struct zs_entropy *prev, struct zs_entropy *next,
			 size_t a, size_t b)
{
	struct zs_seq_store *st = &s->c->store;
	size_t lit_end = b == st->nseq ? st->nlits : s->c->split_lit[b];

	return zs_block_cost(prev, next, &s->c->scratch, st->lits + s->c->split_lit[a],
			     lit_end - s->c->split_lit[a], st->seqs + a, b - a);
}

/* Cuts [a, b) in two where the two pieces cost least, while that is less than the whole, and
 * again in each piece; cuts come out in order. Costs are estimates (no bitstream written). */
static void decide(struct splitter *s, const struct zs_entropy *prev, size_t a, size_t b, int depth)
{
	const uint32_t *pos = s->c->split_pos;
	size_t content = piece_content(s, a, b);

	if (depth == 0 || b - a < 32 || content < 2 * s->e->min_piece)
		return;
	struct zs_entropy whole_e, left_e, le, re;
	size_t whole = piece_cost(s, prev, &whole_e, a, b), best = SIZE_MAX, m = 0;
	int tries = s->e->tries;

	for (int k = 1; k <= 2 * tries - 1; k++) {
		size_t cut_pos = pos[a] + content * (size_t)k / (size_t)(2 * tries), q = a + 1;

		while (q + 1 < b && pos[q] < cut_pos)
			q++;
		if (pos[q] - pos[a] < s->e->min_piece || piece_content(s, q, b) < s->e->min_piece)
			continue;
		size_t left = piece_cost(s, prev, &le, a, q);
		size_t right = piece_cost(s, &le, &re, q, b);

		if (left + right < best) {
			best = left + right;
			m = q;
			left_e = le;
		}
	}
	if (m == 0 || best + 3 >= whole)
		return;
	decide(s, prev, a, m, depth - 1);
	s->c->split_cut[s->ncuts++] = (uint32_t)m;
	decide(s, &left_e, m, b, depth - 1);
}

size_t zs_split_block(struct zs_cctx *c, size_t n, int last, size_t to_beat)
{
	struct zs_seq_store *st = &c->store;
	const struct split_effort *e = &efforts[c->p.strategy - ZS_BTOPT];
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
	decide(&s, &c->entropy, 0, st->nseq, e->depth);
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
