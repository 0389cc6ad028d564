/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_lazy.c — hash-chain parsing for levels 5..12: greedy, lazy and lazy2 evaluation. */
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
	unsigned target;
};

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
	while (s->next_insert < pos)
		zs_hc_insert(c, src, (uint32_t)s->next_insert++);
	uint32_t h = zs_hash(src + pos, s->min_match, c->hash_log);
	uint32_t cand = c->hash[h];

	c->chain[pos & mask] = cand;
	c->hash[h] = (uint32_t)pos;
	s->next_insert = pos + 1;

	size_t lowest = pos > mask ? pos - mask : 0;
	const uint8_t *limit = src + s->end;
	unsigned attempts = s->attempts;

	while (cand >= lowest && cand < pos && attempts-- > 0) {
		/* The byte that would extend the best match rules most candidates out cheaply. */
		if (src[cand + best] == src[pos + best] || pos + best >= s->end) {
			size_t len = zs_match_len(src + pos, src + cand, limit);

			if (len > best) {
				best = len;
				*dist = (uint32_t)(pos - cand);
				if (len >= s->target || pos + len >= s->end)
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

/* Rough value of a match in bits saved: length minus the offset's extra bits. */
static int gain(size_t len, uint32_t dist)
{
	return (int)(len * 4) - (int)zs_highbit32(dist + 1);
}

void zs_parse_lazy(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	struct zs_seq_store *st = &c->store;
	struct lazy_state s;
	unsigned depth = c->p.strategy == ZS_LAZY ? 1
			 : c->p.strategy >= ZS_LAZY2 ? 2
						      : 0;
	size_t pos = start, anchor = start;

	s.c = c;
	s.src = src;
	s.end = end;
	s.hash_limit = zs_hash_limit(c);
	s.next_insert = start;
	s.attempts = 1u << c->p.search_log;
	s.min_match = c->p.min_match;
	s.target = c->p.target_len < 16 ? 16 : c->p.target_len;
	if (s.hash_limit > end)
		s.hash_limit = end;
	/* Earlier blocks of the frame were inserted by their own parse. */
	while (pos + s.min_match <= end) {
		uint32_t dist = 0;
		size_t len = 0;
		size_t r = rep_match(&s, pos, st->rep[pos == anchor ? 1 : 0]);

		len = find_match(&s, pos, &dist);
		if (r >= 4 && (len == 0 || gain(r, 1) + 2 >= gain(len, dist))) {
			len = r;
			dist = st->rep[pos == anchor ? 1 : 0];
		}
		if (len == 0) {
			pos++;
			continue;
		}
		/* Lazy evaluation: a better match one byte later wins over this one. */
		for (unsigned d = 0; d < depth && pos + 1 + s.min_match <= end; d++) {
			uint32_t dist2 = 0;
			size_t len2 = find_match(&s, pos + 1, &dist2);
			size_t r2 = rep_match(&s, pos + 1, st->rep[0]);
			int g1 = gain(len, dist) + (d == 0 ? 4 : 7);

			if (r2 >= 4 && gain(r2, 1) > g1 && gain(r2, 1) >= gain(len2, dist2)) {
				len = r2;
				dist = st->rep[0];
				pos++;
				continue;
			}
			if (len2 && gain(len2, dist2) > g1) {
				len = len2;
				dist = dist2;
				pos++;
				continue;
			}
			break;
		}
		/* Extend backwards over literals that also match. */
		while (pos > anchor && pos > dist && src[pos - 1] == src[pos - 1 - dist]) {
			pos--;
			len++;
		}
		zs_store_seq(st, src + anchor, (uint32_t)(pos - anchor), dist, (uint32_t)len);
		pos += len;
		anchor = pos;
		/* Immediate repeats (rep[1] right after a match costs almost nothing). */
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

	while (s.next_insert < stop)
		zs_hc_insert(c, src, (uint32_t)s.next_insert++);
	for (size_t i = anchor; i < end; i++)
		st->lits[st->nlits++] = src[i];
}
