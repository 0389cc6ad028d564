/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_lazy.c — hash-chain parsing for levels 5..15: greedy, lazy and lazy2 evaluation. */
#include "config.h"

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_hc.h"

struct lazy_state {
	struct zs_cctx *c;
	const uint8_t *src;
	size_t end;         /* matches stop here (block end) */
	size_t hash_limit;  /* positions beyond are not hashed */
	size_t next_insert; /* first position not yet in the tables */
	unsigned attempts;
	unsigned min_match;
};

/* Links positions [from, to) into their chains: the tables and sizes in locals (stores through
 * the tables could alias the context), the hash width fixed per loop. */
static void insert_range(struct zs_cctx *c, const uint8_t *src, size_t from, size_t to)
{
	uint32_t *hash = c->hash, *chain = c->chain;
	uint32_t mask = (1u << c->chain_log) - 1;
	unsigned log = c->hash_log;

#define INSERT_LOOP(mm)                                                    \
	for (size_t p = from; p < to; p++) {                               \
		uint32_t h = zs_hash(src + p, mm, log);                   \
		chain[p & mask] = hash[h];                                 \
		hash[h] = (uint32_t)p;                                     \
	}
	if (c->p.min_match == 4) {
		INSERT_LOOP(4)
	} else if (c->p.min_match == 5) {
		INSERT_LOOP(5)
	} else {
		INSERT_LOOP(c->p.min_match)
	}
#undef INSERT_LOOP
}

/* Inserts up to pos, then walks pos's chain; returns the longest match length (0 if none
 * reaches min_match) and its distance. */
static size_t find_match(struct lazy_state *s, size_t pos, uint32_t *dist)
{
	struct zs_cctx *c = s->c;
	const uint8_t *src = s->src;
	uint32_t mask = (1u << c->chain_log) - 1;
	size_t best = s->min_match - 1;

	if (pos > s->hash_limit)
		return 0;
	if (s->next_insert < pos)
		insert_range(c, src, s->next_insert, pos);
	uint32_t h = zs_hash(src + pos, s->min_match, c->hash_log);
	uint32_t cand = c->hash[h];

	c->chain[pos & mask] = cand;
	c->hash[h] = (uint32_t)pos;
	s->next_insert = pos + 1;

	size_t lowest = pos > mask ? pos - mask : 0;
	const uint8_t *limit = src + s->end;
	unsigned attempts = s->attempts;

	/* One unsigned compare: cand in [lowest, pos). best stays below end - pos (a match
	 * reaching the end stops the walk), so src[pos + best] is in the block. */
	while ((size_t)cand - lowest < pos - lowest && attempts-- > 0) {
		/* The byte that would extend the best match rules most candidates out cheaply. */
		if (src[cand + best] == src[pos + best]) {
			size_t len = zs_match_len(src + pos, src + cand, limit);

			if (len > best) {
				best = len;
				*dist = (uint32_t)(pos - cand);
				if (pos + len >= s->end)
					break;
			}
		}
		uint32_t next = c->chain[cand & mask];

		if (next >= cand)
			break;
		cand = next;
	}
	return best >= s->min_match ? best : 0;
}

static size_t rep_match(const struct lazy_state *s, size_t pos, uint32_t offset)
{
	if (offset == 0 || offset > pos || pos + 4 > s->end)
		return 0;
	if (zs_read32(s->src + pos) != zs_read32(s->src + pos - offset))
		return 0;
	return zs_match_len(s->src + pos, s->src + pos - offset, s->src + s->end);
}

/* What a match is worth in quarter bits, roughly: four per byte covered, less the bits of its
 * offset (a repeat code costs nothing extra). */
static int worth(size_t len, uint32_t dist, int is_rep, int per_byte)
{
	return (int)len * per_byte - (is_rep ? 0 : (int)zs_highbit32(dist + 3));
}

/* A match being considered: where it starts, its length and distance, a repeat or not. */
struct lazy_match {
	size_t start, len;
	uint32_t dist;
	int rep;
};

/* Lazy evaluation at pos (one or two positions after the match's search): a repeat of rep0 or
 * a searched match replaces m when worth more by a margin that grows with the step. Returns 1
 * when m was replaced (the caller looks one more position on). */
static int look_further(struct lazy_state *s, size_t pos, int step, uint32_t rep0,
			struct lazy_match *m)
{
	size_t r = rep_match(s, pos, rep0);
	int replaced = 0;

	/* The first step weighs bytes at three quarter bits for repeats, as the reference. */
	if (r >= 4 && worth(r, 0, 1, step == 1 ? 3 : 4) >
			      worth(m->len, m->dist, m->rep, step == 1 ? 3 : 4) + 1) {
		*m = (struct lazy_match){pos, r, rep0, 1};
		replaced = 0;
	}
	uint32_t dist = 0;
	size_t len = find_match(s, pos, &dist);

	if (len >= 4 && worth(len, dist, 0, 4) > worth(m->len, m->dist, m->rep, 4) + (step == 1 ? 4 : 7)) {
		*m = (struct lazy_match){pos, len, dist, 0};
		replaced = 1;
	}
	return replaced;
}

void zs_parse_lazy(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	struct zs_seq_store *st = &c->store;
	struct lazy_state s;
	unsigned depth = c->p.strategy == ZS_GREEDY ? 0 : c->p.strategy == ZS_LAZY ? 1 : 2;
	size_t pos = start + (start == 0), anchor = start;

	s.c = c;
	s.src = src;
	s.end = end;
	s.hash_limit = zs_hash_limit(c);
	s.next_insert = start;
	s.attempts = 1u << c->p.search_log;
	s.min_match = c->p.min_match;
	if (s.hash_limit > end)
		s.hash_limit = end;
	while (pos + 8 <= end) {
		struct lazy_match m = {pos + 1, 0, st->rep[0], 1};
		size_t r = rep_match(&s, pos + 1, st->rep[0]);

		/* A repeat one byte on (after one literal) is the cheapest match there is. */
		if (r >= 4) {
			m.len = r;
			if (depth == 0)
				goto store;
		}
		uint32_t dist = 0;
		size_t len = find_match(&s, pos, &dist);

		if (len > m.len)
			m = (struct lazy_match){pos, len, dist, 0};
		if (m.len < 4) {
			/* Nothing here: go faster the longer nothing matches. */
			pos += 1 + ((pos - anchor) >> 8);
			continue;
		}
		for (unsigned d = 1; d <= depth && pos + 1 + 8 <= end; d++) {
			pos++;
			if (look_further(&s, pos, (int)d, st->rep[0], &m))
				d = 0; /* a better match: evaluate again from its successor */
		}
		/* Extend backwards over literals that also match. */
		if (!m.rep) {
			while (m.start > anchor && m.start > m.dist &&
			       src[m.start - 1] == src[m.start - 1 - m.dist]) {
				m.start--;
				m.len++;
			}
		}
store:
		zs_store_seq(st, src + anchor, (uint32_t)(m.start - anchor), m.dist, (uint32_t)m.len);
		pos = anchor = m.start + m.len;
		/* Immediate repeats of rep1 (after a match, no literals) cost almost nothing. */
		for (;;) {
			size_t r2 = rep_match(&s, pos, st->rep[1]);

			if (r2 < 4)
				break;
			zs_store_seq(st, src + anchor, 0, st->rep[1], (uint32_t)r2);
			pos += r2;
			anchor = pos;
		}
	}
	/* Positions skipped inside matches still belong in the chains for later blocks. */
	size_t stop = end < s.hash_limit + 1 ? end : s.hash_limit + 1;

	if (s.next_insert < stop)
		insert_range(c, src, s.next_insert, stop);
	for (size_t i = anchor; i < end; i++)
		st->lits[st->nlits++] = src[i];
}
