/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzo1x_enc.c — LZO1X encoder: a forward dynamic programme over the block finds the cheapest
 * sequence of literal runs and matches in output bytes (the format's costs are exact byte counts,
 * so the parse is optimal for the matches searched: the tree's, at every position but those the
 * next one does as well from), then writes it. The decoder's state (how many literals preceded
 * an instruction: none, 1-3, or 4 and more) decides which short matches are legal, so the
 * programme tracks those states per position. */
#include "config.h"
#include "codecs/lzo/lzo1x_enc.h"
#include "codecs/lzo/match_tree.h"

#include <stdlib.h>
#include <string.h>

#define INF 0x40000000u
#define TREE_DEPTH 32
/* How far ahead the finder's table slots are fetched: 1, 2 and 4 measured alike. */
#define PREFETCH_AHEAD 2
/* The tree compares suffixes this far: past it, the newer of two equal ones replaces the older,
 * whose longer continuation is then lost. Short (32) cost up to 10 % on data with long periodic
 * stretches; 256 costs under 1 % more instructions on the bench samples. */
#define TREE_NICE 256

/* The cheapest way found to reach a position with a match ending there: its cost lives apart
 * (struct dp's cost) because the programme compares far more often than it improves, and the
 * costs alone stay in cache; the step (the match and the literal run before it) is written only
 * on an improvement. */
struct step {
	uint32_t len;
	uint32_t lit;
	uint32_t dist;
};

/* Both arrays at the same position. */
struct dp {
	uint32_t *cost;
	struct step *step;
};

/* What a level spends. A match of nice_len or more is taken without searching inside it, and
 * of the positions it covers only the last skip_tail join the tree: most of the time goes to
 * the tree, and what follows matches mostly near the end. Level 9 searches as far as measured
 * useful; level 8 stops sooner, a few tenths of a percent larger and about a tenth faster. */
struct effort {
	uint32_t nice_len, skip_tail;
};
static const struct effort efforts[2] = {
	{ 24, 8 },  /* level 8 (and below) */
	{ 32, 16 }, /* level 9 */
};

struct lzo1x_enc {
	uint32_t max_block;
	struct effort effort;
	uint32_t *cost;           /* max_block + 5 */
	struct step *step;        /* max_block + 5 */
	uint32_t *ends;           /* the chosen matches' end positions, last first */
	struct mt_match matches[TREE_NICE + 1]; /* [0]: room for a 3-byte match */
	struct match_tree mt;
};

struct lzo1x_enc *lzo1x_enc_new(uint32_t max_block, int level)
{
	if (max_block == 0 || max_block > (1u << 26))
		return NULL;
	struct lzo1x_enc *e = calloc(1, sizeof *e);
	if (e == NULL)
		return NULL;
	e->max_block = max_block;
	e->cost = malloc(((size_t)max_block + 5) * sizeof *e->cost);
	e->step = malloc(((size_t)max_block + 5) * sizeof *e->step);
	e->ends = malloc(((size_t)max_block / 2 + 1) * sizeof *e->ends);
	e->mt.depth = TREE_DEPTH;
	e->mt.nice = TREE_NICE;
	e->effort = efforts[level >= 9];
	if (e->cost == NULL || e->step == NULL || e->ends == NULL) {
		lzo1x_enc_free(e);
		return NULL;
	}
	return e;
}

void lzo1x_enc_free(struct lzo1x_enc *e)
{
	if (e == NULL)
		return;
	free(e->cost);
	free(e->step);
	free(e->ends);
	free(e);
}

/* Bytes of a run of r literals: 1-3 after a match ride in its last byte; a run that opens the
 * stream has a one-byte header up to 238; others take an instruction with a length. */
static uint32_t lit_cost(uint32_t r, int at_start)
{
	if (r == 0)
		return 0;
	if (at_start && r <= 238)
		return r + 1;
	if (!at_start && r <= 3)
		return r;
	if (r <= 18)
		return r + 1;
	return r + 2 + (r - 19) / 255;
}

static inline void relax(struct dp nd, uint32_t at, uint32_t cost, uint32_t len, uint32_t dist,
			 uint32_t lit)
{
	if (cost < nd.cost[at]) {
		nd.cost[at] = cost;
		nd.step[at].len = len;
		nd.step[at].dist = dist;
		nd.step[at].lit = lit;
	}
}

/* The states at one position: c[k] ends with k literals after a match (k = 0..3), s4 with a
 * run of s4_run >= 4 that began at s4_from. */
struct states {
	uint32_t c[4];
	uint32_t s4, s4_run, s4_from;
};

static inline void states_at(const uint32_t *cost, uint32_t i, struct states *s)
{
	const uint32_t *p = cost + i;
	s->c[0] = p[0];
	s->c[1] = p[-1] + 1;
	s->c[2] = p[-2] + 2;
	s->c[3] = p[-3] + 3;
	if (i - 1 < 3)
		s->c[i]++; /* the run opens the stream: a header byte */
	s->s4_run++;
	if (s->s4_run < 19)
		s->s4++;
	else
		s->s4 += lit_cost(s->s4_run, s->s4_from == 0) -
			 lit_cost(s->s4_run - 1, s->s4_from == 0);
	/* A run of 4 costs 5 bytes wherever it starts. */
	if (p[-4] + 5 < s->s4) {
		s->s4 = p[-4] + 5;
		s->s4_run = 4;
		s->s4_from = i - 4;
	}
}

/* The cheapest state at a position: its cost, and the literals it ends with in *lit. */
static inline uint32_t states_best(const struct states *s, uint32_t *lit)
{
	uint32_t best = s->s4, l = s->s4_run;
	for (uint32_t k = 4; k-- > 0;)
		if (s->c[k] <= best) {
			best = s->c[k];
			l = k;
		}
	*lit = l;
	return best;
}

/* Offers lengths [*len, end] of a match at dist, each costing cost, to the positions they reach. */
static inline void relax_run(struct dp nd, uint32_t *len, uint32_t end, uint32_t cost,
			     uint32_t dist, uint32_t lit)
{
	for (; *len <= end; (*len)++)
		relax(nd, *len, cost, *len, dist, lit);
}

/* Offers the matches found at i (nd points at i) to the positions they reach. A match costs 2
 * bytes up to length 8 within 2 KiB (M2), else 3 up to 33 within 16 KiB (M3) or up to 9 beyond
 * (M4), and a byte per 255 of length past that. */
static void relax_matches(struct dp nd, const struct states *s, uint32_t base, uint32_t lit,
			  const struct mt_match *m, unsigned count)
{
	uint32_t len = 3;
	for (unsigned j = 0; j < count; j++) {
		uint32_t dist = m[j].dist, end = m[j].len;
		if (dist <= 2048)
			relax_run(nd, &len, end < 8 ? end : 8, base + 2, dist, lit);
		if (dist > 16384) {
			relax_run(nd, &len, end < 9 ? end : 9, base + 3, dist, lit);
			for (; len <= end; len++)
				relax(nd, len, base + 4 + (len - 10) / 255, len, dist, lit);
		} else {
			relax_run(nd, &len, end < 33 ? end : 33, base + 3, dist, lit);
			for (; len <= end; len++)
				relax(nd, len, base + 4 + (len - 34) / 255, len, dist, lit);
		}
	}
	/* After 4 or more literals, 3 bytes from 2049..3072 back take 2 bytes. */
	if (count > 0 && m[0].dist > 2048 && m[0].dist <= 3072)
		relax(nd, 3, s->s4 + 2, 3, m[0].dist, s->s4_run);
}

/* Fills e->cost and e->step; returns the cost of the cheapest parse (without the end marker) and the
 * literals it ends with. */
static uint32_t parse(struct lzo1x_enc *e, const uint8_t *src, uint32_t n, uint32_t *tail)
{
	/* [-4..-1]: unreachable, so states need no bounds */
	struct dp nd = { e->cost + 4, e->step + 4 };
	struct states s = { .s4 = INF };
	uint32_t skip_to = 0;

	for (uint32_t i = 0; i <= n + 4; i++)
		e->cost[i] = INF;
	nd.cost[0] = 0;
	mt_reset(&e->mt, n);
	for (uint32_t i = 0; i < n; i++) {
		states_at(nd.cost, i, &s);
		if (i + PREFETCH_AHEAD + 4 <= n)
			mt_prefetch(&e->mt, src, i + PREFETCH_AHEAD);
		uint32_t d2 = 0, d3 = 0;
		if (i + 2 <= n)
			mt_short(&e->mt, src, i, n, &d2, &d3);
		if (i < skip_to) {
			/* Inside a long match only its last bytes join the tree. */
			if (i + 4 <= n && skip_to - i <= e->effort.skip_tail)
				mt_insert(&e->mt, src, i, n, NULL);
			continue;
		}
		uint32_t lit, base = states_best(&s, &lit);
		if (nd.cost[i + 1] <= base) {
			/* A match already reaches i + 1 as cheaply as anything reaches i: a match
			 * from here is mostly found again from i + 1 one byte shorter at the same
			 * distance, for no more bytes, so the search is skipped (measured: a
			 * sixth fewer instructions, and images a little smaller on every sample
			 * tried). The tree still takes i: without it, +5 % size. */
			if (i + 4 <= n)
				mt_insert(&e->mt, src, i, n, NULL);
			continue;
		}
		unsigned count = i + 4 <= n ? mt_insert(&e->mt, src, i, n, e->matches + 1) : 0;
		struct mt_match *m = e->matches + 1;
		if (d3 != 0 && (count == 0 || d3 < m[0].dist)) {
			m--;
			m[0].len = 3;
			m[0].dist = d3;
			count++;
		}
		/* Two bytes within 1 KiB: a 2-byte instruction, legal after 1-3 literals only. */
		if (d2 != 0 && d2 <= 1024) {
			uint32_t run = 1, from = s.c[1];
			if (s.c[2] < from) {
				from = s.c[2];
				run = 2;
			}
			if (s.c[3] < from) {
				from = s.c[3];
				run = 3;
			}
			relax(nd, i + 2, from + 2, 2, d2, run);
		}
		struct dp here = { nd.cost + i, nd.step + i };
		relax_matches(here, &s, base, lit, m, count);
		if (count > 0 && m[count - 1].len >= e->effort.nice_len)
			skip_to = i + m[count - 1].len;
	}
	states_at(nd.cost, n, &s);
	return states_best(&s, tail);
}

static uint8_t *put_count(uint8_t *op, uint32_t rem)
{
	for (; rem > 255; rem -= 255)
		*op++ = 0;
	*op++ = (uint8_t)rem;
	return op;
}

static uint8_t *put_literals(uint8_t *op, const uint8_t *lit, uint32_t r, int at_start)
{
	if (r == 0)
		return op;
	if (at_start && r <= 238) {
		*op++ = (uint8_t)(17 + r);
	} else if (r >= 4) {
		if (r <= 18) {
			*op++ = (uint8_t)(r - 3);
		} else {
			*op++ = 0;
			op = put_count(op, r - 18);
		}
	}
	memcpy(op, lit, r);
	return op + r;
}

/* One match; before: the literals just written (4 stands for 4 or more), after: those that
 * follow, carried in its last two bits when 1-3. */
static uint8_t *put_match(uint8_t *op, uint32_t len, uint32_t dist, uint32_t before,
			  uint32_t after)
{
	uint32_t s = after <= 3 ? after : 0;
	uint32_t x;
	if (len == 2) {
		x = dist - 1;
		*op++ = (uint8_t)((x & 3) << 2 | s);
		*op++ = (uint8_t)(x >> 2);
	} else if (dist <= 2048 && len <= 8) {
		x = dist - 1;
		*op++ = (uint8_t)((len - 1) << 5 | (x & 7) << 2 | s);
		*op++ = (uint8_t)(x >> 3);
	} else if (len == 3 && before >= 4 && dist > 2048 && dist <= 3072) {
		x = dist - 2049;
		*op++ = (uint8_t)((x & 3) << 2 | s);
		*op++ = (uint8_t)(x >> 2);
	} else {
		if (dist <= 16384) {
			x = dist - 1;
			*op++ = (uint8_t)(0x20 | (len <= 33 ? len - 2 : 0));
			if (len > 33)
				op = put_count(op, len - 33);
		} else {
			x = dist - 16384;
			*op++ = (uint8_t)(0x10 | (x >> 14) << 3 | (len <= 9 ? len - 2 : 0));
			if (len > 9)
				op = put_count(op, len - 9);
			x &= 0x3fff;
		}
		*op++ = (uint8_t)((x << 2 | s) & 0xff);
		*op++ = (uint8_t)(x >> 6);
	}
	return op;
}

size_t lzo1x_enc_compress(struct lzo1x_enc *e, const uint8_t *src, uint32_t len, uint8_t *dst,
			  size_t cap)
{
	if (len == 0 || len > e->max_block)
		return 0;
	uint32_t tail;
	uint32_t cost = parse(e, src, len, &tail);
	if ((size_t)cost + 3 > cap)
		return 0;
	unsigned count = 0;
	const struct step *nd = e->step + 4;
	for (uint32_t pos = len - tail; pos > 0; pos -= nd[pos].len + nd[pos].lit)
		e->ends[count++] = pos;
	uint8_t *op = dst;
	uint32_t at = 0;
	while (count-- > 0) {
		const struct step *m = &nd[e->ends[count]];
		uint32_t after = count > 0 ? nd[e->ends[count - 1]].lit : tail;
		op = put_literals(op, src + at, m->lit, at == 0);
		op = put_match(op, m->len, m->dist, m->lit, after);
		at = e->ends[count];
	}
	op = put_literals(op, src + at, tail, at == 0);
	*op++ = 0x11;
	*op++ = 0;
	*op++ = 0;
	return (size_t)(op - dst);
}
