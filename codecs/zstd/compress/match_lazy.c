/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_lazy.c — greedy, lazy and lazy2 parsing over match_row.h's rows, and lazy2 over match_bt.h's trees (btlazy2). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_bt.h"
#include "codecs/zstd/compress/match_btlazy.h"
#include "codecs/zstd/compress/match_hc.h"
#include "codecs/zstd/compress/match_row.h"

/* How far ahead a position's row is fetched: the line arrives while the positions before it
 * are parsed. Hashes are computed once, that far ahead, and kept in a ring of AHEAD_OF(rb).
 * On the earlier machine a match's run of inserts took about 3 ns a position, and 16 ahead
 * left each insert waiting on its row (level 5, text: 30 % of the time on the load of the
 * row's head); 64 were 5-10 % faster on text than 16, 128 slower than 64. On the EPYC (Zen 4)
 * 64 were the slowest of 16, 32, 64 and 128 (not measured why; perhaps ring_fill's burst of
 * prefetches after a long match's skipped inside queues ahead of the parse's misses): 32 ran levels 5-10 0-10 %
 * faster than 64 at both sizes, and rows of 128 bytes and more (two lines a row and more)
 * faster still at 16 (levels 8-10: 1-12 % at 1 MiB, 0-5 % at 128 KiB), where 64-byte rows
 * were slower at 16 than at 32 (level 6 at 1 MiB, misc: 1.044x libzstd's speed against
 * 1.077, two rounds). With 32 and 16, levels 5-10 against main (locked A/B, two rounds): 46
 * of 48 cells 0-10 % faster (level 6 at 1 MiB misc 1.02 -> 1.13x libzstd's speed, level 5
 * misc 1.05 -> 1.08), level 6 bin and level 9 text at 1 MiB 1-3 % slower; the same frames. */
#define AHEAD 32
#define AHEAD_OF(rb) ((rb) > 64 ? 16u : AHEAD)
/* Inside a long match the positions' rows cost more than they find: of a run of more than
 * SKIP_RUN positions only the first quarter of SKIP_RUN and the last twelfth are inserted;
 * the lazy parses insert every other position of runs over SPARSE_RUN. The greedy parse
 * (level 5) ends its full runs sooner, at SKIP_RUN_GREEDY in frames of 16-256 KiB and
 * SKIP_RUN_GREEDY_LARGE above: its inserts were 31 % of its time (perf, text and misc at 128
 * KiB; 1.9M rows written for 2.1M positions of text). 128 KiB: 2.4 % fewer instructions,
 * 0.00-0.04 % larger, 1-3 % faster in four of four locked rounds. 1 MiB: 1.8 % fewer
 * instructions and 1.4 % fewer simulated misses (cachegrind, four samples), bin 0.99991 of
 * libzstd's size (was 0.99998), text 0.07 % larger; 128 there left bin at 1.0006. */
#define SKIP_RUN 384
#define SKIP_RUN_GREEDY 128
#define SKIP_RUN_GREEDY_LARGE 192
#define SPARSE_RUN 64
#define RUN_HEAD(run) ((run) / 4)
#define RUN_TAIL(run) ((run) / 12)

/* Over rows, the lazy2 parse looks a second position on only for a match shorter than
 * this: a longer one is seldom beaten two bytes later by the margin the step asks for
 * (levels 7-10 at 128 KiB: 0.00-0.08 % larger, 5 % fewer instructions at level 7 on text
 * and misc; 8 made level 10's text 1.0005 of libzstd's size, 32 saved half as much). Inputs
 * over 256 KiB take twice it (16 cost levels 8-9 0.25 % on the tree sample at 1 MiB, 32
 * costs 0.02-0.03 %); the trees keep both steps. */
#define SECOND_STEP 16

/* The copies of the parse with rb == 0 search match_bt.h's binary trees instead of rows
 * (ZS_BTLAZY2): a descent finds the longest match among far more candidates than a row holds. */
#define TREES 0u
/* Matches one tree descent reports (by increasing length) for the choice among them. */
#define BT_CANDIDATES 8
/* Of a match longer than TREE_RUN, the shallow tree searches insert TREE_RUN_END positions at
 * each end. */
#define TREE_RUN 64
#define TREE_RUN_END 16

struct lazy_state {
	struct zs_cctx *c;
	struct zs_rows rows;
	const uint8_t *src;
	size_t end;         /* matches stop here (block end) */
	size_t hash_limit;  /* positions beyond are not hashed */
	size_t next_insert; /* first position not yet in the rows */
	unsigned attempts;
	unsigned sort_attempts; /* trees: the descent that sorts a passed position in */
	unsigned max_unsorted;  /* trees: the passed positions one search sorts at most */
	size_t sort_stop;       /* trees: where sorting compares stop, and known prefixes' cap */
	int margin[2];          /* trees: what a lazy step's match must be worth more, per step */
	unsigned min_match;
	int sparse;         /* matches' positions inserted every other one */
	size_t skip_run;    /* matches longer than this insert only their ends */
	size_t second_step; /* lazy2: matches this long skip the second step */
	size_t take_len;    /* matches this long are taken without lazy evaluation */
	int short_runs;     /* trees: insert only the ends of a match longer than TREE_RUN */
	size_t step_floor;  /* rows: lazy steps search only for matches longer than m.len - this
			     * (0: any match) */
	/* Rows and tags of next_insert .. next_insert + AHEAD_OF(rb) - 1 (those hashed), by
	 * position modulo AHEAD_OF(rb). */
	uint8_t *ring_row[AHEAD];
	uint8_t ring_tag[AHEAD];
};

/* Hashes position p into the ring and fetches its row. */
ZS_ROW_INLINE void ring_put(struct lazy_state *s, size_t p, unsigned rb, unsigned hm)
{
	uint64_t h = zs_row_hash(&s->rows, s->src + p, hm);
	uint8_t *row = zs_row_of(&s->rows, h, rb);

	zs_row_prefetch(row, rb);
	s->ring_row[p % AHEAD_OF(rb)] = row;
	s->ring_tag[p % AHEAD_OF(rb)] = zs_row_tag(h, hm);
}

/* Fills the ring for positions [from, from + AHEAD_OF(rb)). */
ZS_ROW_INLINE void ring_fill(struct lazy_state *s, size_t from, unsigned rb, unsigned hm)
{
	if (rb == TREES)
		return;
	for (size_t p = from; p < from + AHEAD_OF(rb) && p <= s->hash_limit; p++)
		ring_put(s, p, rb, hm);
}

/* Takes next_insert's row and tag from the ring and moves next_insert on by one, hashing the
 * position AHEAD_OF(rb) further into the freed place. */
ZS_ROW_INLINE uint8_t *advance(struct lazy_state *s, uint8_t *tag, unsigned rb, unsigned hm)
{
	size_t p = s->next_insert;
	uint8_t *row = s->ring_row[p % AHEAD_OF(rb)];

	*tag = s->ring_tag[p % AHEAD_OF(rb)];
	if (p + AHEAD_OF(rb) <= s->hash_limit)
		ring_put(s, p + AHEAD_OF(rb), rb, hm);
	s->next_insert = p + 1;
	return row;
}

/* Inserts the positions from next_insert up to to (not included), with the state's fields in
 * locals: the byte stores into the rows could alias them. */
ZS_ROW_INLINE void insert_span(struct lazy_state *s, size_t to, unsigned rb, unsigned hm,
			       unsigned step)
{
	struct zs_rows rows = s->rows;
	const uint8_t *src = s->src;
	size_t p = s->next_insert, last = s->hash_limit;
	const size_t reach = AHEAD_OF(rb);

	if (rb == TREES) {
		for (; p < to; p += step)
			zs_btl_defer(s->c, src, p);
		s->next_insert = p;
		return;
	}
	/* Up to the last position with a position reach on to hash (no test in the loop), then
	 * the rest. */
	size_t bulk = last < reach ? 0 : last - reach + 1 < to ? last - reach + 1 : to;

	for (; p < bulk; p += step) {
		uint8_t *row = s->ring_row[p % reach];
		uint8_t tag = s->ring_tag[p % reach];
		uint64_t h = zs_row_hash(&rows, src + p + reach, hm);
		uint8_t *ahead = zs_row_of(&rows, h, rb);

		zs_row_prefetch(ahead, rb);
		s->ring_row[p % reach] = ahead;
		s->ring_tag[p % reach] = zs_row_tag(h, hm);
		zs_row_insert(&rows, row, tag, p, rb);
	}
	for (; p < to; p += step)
		zs_row_insert(&rows, s->ring_row[p % reach], s->ring_tag[p % reach], p, rb);
	s->next_insert = p;
}

/* Inserts the positions from next_insert up to to (not included). */
ZS_ROW_INLINE void insert_to(struct lazy_state *s, size_t to, unsigned rb, unsigned hm)
{
	size_t n = to - s->next_insert;

	if (rb == TREES && s->short_runs && n > TREE_RUN) {
		/* A shallow tree search gains less from a match's inner positions than their
		 * descents cost (level 11 at 128 KiB: 0.2 % larger on text, 8 % fewer
		 * instructions); deeper ones keep them (level 12 at 128 KiB: 0.3 % smaller). */
		insert_span(s, s->next_insert + TREE_RUN_END, rb, hm, 1);
		s->next_insert = to - TREE_RUN_END;
	} else if (n > s->skip_run) {
		insert_span(s, s->next_insert + RUN_HEAD(s->skip_run), rb, hm, 1);
		s->next_insert = to - RUN_TAIL(s->skip_run);
		ring_fill(s, s->next_insert, rb, hm);
	} else if (n > SPARSE_RUN && s->sparse) {
		/* Every other position of a match: a later match starting at a skipped one is
		 * found a byte on and extended backwards. */
		insert_span(s, to, rb, hm, 2);
		s->next_insert = to;
		ring_fill(s, to, rb, hm);
		return;
	}
	insert_span(s, to, rb, hm, 1);
}

/* What a match is worth in quarter bits, roughly: four per byte covered, less the bits of its
 * offset (a repeat code costs nothing extra). */
static int worth(size_t len, uint32_t dist, int is_rep, int per_byte)
{
	return (int)len * per_byte - (is_rep ? 0 : (int)zs_highbit32(dist + 3));
}

/* The tree search at pos, after the positions before it joined the trees. Of the matches the
 * descent finds, each longer than the one before, the last is not always the best: a closer
 * one a byte or two shorter costs fewer offset bits. */
static inline size_t tree_match(struct lazy_state *s, size_t pos, uint32_t *dist)
{
	struct zs_match m[BT_CANDIDATES];
	size_t best = s->min_match - 1;

	if (pos < s->next_insert)
		return 0; /* in the tree already: a second insertion would make a cycle */
	insert_to(s, pos, TREES, 4);
	s->next_insert = pos + 1;
	unsigned n = zs_btl_search(s->c, s->src, pos, s->end, s->attempts, s->sort_attempts,
				   s->max_unsorted, s->sort_stop, &best, m, BT_CANDIDATES);

	if (n == 0)
		return 0;
	unsigned k = n - 1;

	/* Bytes weigh three quarter bits here: a closer match a byte shorter wins more often
	 * (level 12 at 128 KiB: 0.1 % smaller on misc, 0.05-0.3 % elsewhere). */
	for (unsigned i = k; i-- > 0;)
		if (worth(m[i].len, m[i].off, 0, 3) > worth(m[k].len, m[k].off, 0, 3))
			k = i;
	*dist = m[k].off;
	return m[k].len;
}

/* Whether the candidate at c may match the input at p for more than best bytes (best >= 3: the
 * rows take matches of 4 bytes or more): the four bytes ending at the one that would extend the
 * best match. That byte alone let through candidates that differ before it, and their lengths,
 * each counted on a load far back in the input, mispredicted (misc, 1 MiB, level 7: 10 % fewer
 * mispredictions; 128 KiB: 7 % at level 7, 19 % at level 9, for 0.4-2 % more instructions).
 * The same frames: a candidate that passes the byte and fails the word is not longer. Levels
 * 7-10 ran 2-11 % faster at 1 MiB and levels 8-10 2-7 % at 128 KiB (misc the most), level 6
 * 0-3 %; level 5 1-2 % slower until its greedy copies (parse_64_5g), then 0-3 % faster than
 * with the byte there too (four locked rounds). */
ZS_ROW_INLINE int may_extend(const uint8_t *c, const uint8_t *p, size_t best)
{
	return zs_read32(c + best - 3) == zs_read32(p + best - 3);
}

/* Inserts up to pos, then searches pos's row newest first; returns the longest match length
 * (0 if none reaches min_match) and its distance. The copies of 5-byte rows (levels 5-10 over
 * 256 KiB) take a floor, which stays below end - pos: they return only a match longer than it;
 * the others ignore it and compile as before it (with it there, levels 6-10 at 128 KiB read
 * 1-7 % slower, the same frames). */
ZS_ROW_INLINE size_t find_match(struct lazy_state *s, size_t pos, uint32_t *dist, unsigned rb,
				 unsigned hm, size_t floor)
{
	const struct zs_rows *r = &s->rows;
	const uint8_t *src = s->src;
	const size_t best0 = hm >= 5 && floor > s->min_match - 1 ? floor : s->min_match - 1;
	size_t best = best0;

	if (pos > s->hash_limit)
		return 0;
	if (rb == TREES)
		return tree_match(s, pos, dist);
	if (s->next_insert < pos) /* after a literal, the search before left it at pos */
		insert_to(s, pos, rb, hm);
	uint8_t tag;
	uint8_t *row = advance(s, &tag, rb, hm);
	unsigned head = zs_row_head(row, rb);
	uint64_t m = zs_row_matches(row, tag, head, rb);

	zs_row_insert(r, row, tag, pos, rb);

	const uint8_t *limit = src + s->end;
	unsigned attempts = s->attempts;

	for (; m != 0 && attempts-- > 0; m &= m - 1) {
		unsigned slot = head + (unsigned)__builtin_ctzll(m);

		slot = slot < ZS_ROW_SLOTS(rb) ? slot : slot - ZS_ROW_SLOTS(rb);
		uint32_t cand = zs_row_pos(r, row, slot, rb);

		/* Slots are visited newest first: one of an earlier frame (or the slot pos just
		 * took) ends the search. */
		if (cand >= pos)
			break;
		/* The bytes up to the one that would extend the best match rule most candidates
		 * out cheaply (may_extend). best stays below end - pos (a match reaching the end
		 * stops the search), so src[pos + best] is in the block. */
		if (may_extend(src + cand, src + pos, best)) {
			size_t len = zs_match_len(src + pos, src + cand, limit);

			/* Longer, and worth its offset's bits: a match a byte or two longer at
			 * four times the distance or more costs more than it saves (levels 5-10:
			 * 0.1-0.5 % smaller; misc at 128 KiB, level 10: 1.0011 -> 0.9967 of
			 * libzstd's). Three bytes or more always win: weighing those too left the
			 * samples within 0.001 % and mispredicted more (cachegrind, level 7). */
			if (len > best && ((hm >= 5 ? best == best0 : best < s->min_match) ||
					   len > best + 2 ||
					   worth(len, (uint32_t)(pos - cand), 0, 4) >
						   worth(best, *dist, 0, 4))) {
				best = len;
				*dist = (uint32_t)(pos - cand);
				if (pos + len >= s->end)
					break;
			}
		}
	}
	if (hm >= 5)
		return best > best0 ? best : 0;
	return best >= s->min_match ? best : 0;
}

ZS_ROW_INLINE size_t rep_match(const struct lazy_state *s, size_t pos, uint32_t offset)
{
	if (offset == 0 || offset > pos || pos + 4 > s->end)
		return 0;
	if (zs_read32(s->src + pos) != zs_read32(s->src + pos - offset))
		return 0;
	return zs_match_len(s->src + pos, s->src + pos - offset, s->src + s->end);
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
ZS_ROW_INLINE int look_further(struct lazy_state *s, size_t pos, int step, uint32_t rep0,
			       struct lazy_match *m, unsigned rb, unsigned hm)
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
	/* A match two bytes shorter than m wins only with an offset 13 bits shorter (16 on the
	 * second step), one a byte shorter with one 9 bits shorter, seldom: where s->step_floor
	 * asks, the step searches only for one m->len - 1 (or m->len) long or more, and the filter
	 * rules out more candidates before their lengths are counted (zs_parse_lazy). */
	size_t floor = 0;

	if (hm >= 5 && s->step_floor) {
		floor = m->len - s->step_floor; /* m->len >= 4 here */
		floor = floor < s->end - pos ? floor : s->end - pos - 1;
	}
	size_t len = find_match(s, pos, &dist, rb, hm, floor);

	int margin = rb == TREES ? s->margin[step != 1] : step == 1 ? 4 : 7;

	if (len >= 4 && worth(len, dist, 0, 4) > worth(m->len, m->dist, m->rep, 4) + margin) {
		*m = (struct lazy_match){pos, len, dist, 0};
		replaced = 1;
	}
	return replaced;
}

/* Appends the literals src[anchor, to) of a match starting at to. Far enough from the block's
 * end, 16 bytes at a time past them (zs_copy_wild): most runs are short, and the libc call
 * cost a mispredicted branch in twenty sequences. */
ZS_ROW_INLINE void store_lits(struct zs_seq_store *st, const uint8_t *src, size_t anchor,
			      size_t to, size_t end)
{
	if (to + 16 <= end)
		zs_copy_wild(st->lits + st->nlits, src + anchor, (uint32_t)(to - anchor));
	else
		memcpy(st->lits + st->nlits, src + anchor, to - anchor);
	st->nlits += to - anchor;
}

/* The parse of src[start, end) with rows of rb bytes; fixed: the lazy steps a copy takes
 * whatever the strategy (0 only for ZS_GREEDY, 1 only for ZS_LAZY), or FROM_STRATEGY. */
#define FROM_STRATEGY 3
ZS_ROW_INLINE void parse_rows(struct zs_cctx *c, struct lazy_state *ls, size_t start, unsigned rb,
			      unsigned hm, unsigned fixed)
{
	struct zs_seq_store *st = &c->store;
	struct lazy_state s = *ls;
	const uint8_t *src = s.src;
	size_t end = s.end;
	unsigned depth = fixed != FROM_STRATEGY    ? fixed :
			 c->p.strategy == ZS_GREEDY ? 0 :
			 c->p.strategy == ZS_LAZY   ? 1 :
						      2;
	size_t pos = start + (start == 0), anchor = start;

	ring_fill(&s, start, rb, hm);
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
		size_t len = find_match(&s, pos, &dist, rb, hm, 0);

		if (len > m.len)
			m = (struct lazy_match){pos, len, dist, 0};
		if (m.len < 4) {
			/* Nothing here: go faster the longer nothing matches. */
			pos += 1 + ((pos - anchor) >> 8);
			continue;
		}
		/* A long match is taken as found: the steps after it search positions inside it,
		 * whose candidates are mostly older copies of the same text, each a compare far
		 * back in the input, and they seldom find one longer by the margin they ask. */
		for (unsigned d = 1; d <= depth && m.len < s.take_len &&
				     (d == 1 || m.len < s.second_step) && pos + 1 + 8 <= end;
		     d++) {
			pos++;
			if (look_further(&s, pos, (int)d, st->rep[0], &m, rb, hm))
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
		store_lits(st, src, anchor, m.start, end);
		zs_store_seq_only(st, (uint32_t)(m.start - anchor), m.dist, (uint32_t)m.len);
		pos = anchor = m.start + m.len;
		/* Immediate repeats of rep1 (after a match, no literals) cost almost nothing. */
		for (;;) {
			size_t r2 = rep_match(&s, pos, st->rep[1]);

			if (r2 < 4)
				break;
			zs_store_seq_only(st, 0, st->rep[1], (uint32_t)r2);
			pos += r2;
			anchor = pos;
		}
	}
	/* Positions skipped inside matches still belong in the chains for later blocks. */
	size_t stop = end < s.hash_limit + 1 ? end : s.hash_limit + 1;

	if (s.next_insert < stop)
		insert_to(&s, stop, rb, hm);
	for (size_t i = anchor; i < end; i++)
		st->lits[st->nlits++] = src[i];
}

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* One copy of the parse per row size and hash width, the row geometry constant in each, and
 * greedy copies (g) of the rows greedy levels take (64 and 128 bytes: level 5, and levels 3-4
 * of levels_small.c); a greedy level with larger rows runs the lazy copy, at depth 0. Without
 * the lazy steps' code (depth a constant 0) level 5 ran 1-6 % faster than main at 1 MiB and
 * 0.5-5 % at 128 KiB (locked A/B, two rounds each, the byte filter in both: misc 0.990 ->
 * 1.032 and 1.013 -> 1.061, text 0.998 -> 1.043 and 1.039 -> 1.082), the same frames.
 * Likewise a lazy copy (l, one step a constant) of level 6's rows at 128 KiB: 1.5-3 % faster
 * (misc 1.054 -> 1.084, locked A/B, two rounds), the same frames. Lazy copies of level 6's
 * and 7's 5-byte rows at 1 MiB ran 1 % more instructions and read no faster (misc 1.048 ->
 * 1.020 at level 6, 1.136 -> 1.085 at level 7, two rounds): those keep the shared copy.
 * A greedy copy of 192-byte rows of 5-byte hashes serves levels_mid.c's level 5 at 256 KiB
 * (0.94-0.97 -> 1.00-1.04x libzstd's speed there, the same frames). */
#define PARSE_COPY(rb, hm, fixed, name)                                                     \
	static NOINLINE void name(struct zs_cctx *c, struct lazy_state *s, size_t start)    \
	{                                                                                   \
		parse_rows(c, s, start, rb, hm, fixed);                                     \
	}
PARSE_COPY(0, 4, FROM_STRATEGY, parse_0_4)
PARSE_COPY(64, 4, FROM_STRATEGY, parse_64_4)
PARSE_COPY(64, 5, FROM_STRATEGY, parse_64_5)
PARSE_COPY(128, 4, FROM_STRATEGY, parse_128_4)
PARSE_COPY(128, 5, FROM_STRATEGY, parse_128_5)
PARSE_COPY(192, 4, FROM_STRATEGY, parse_192_4)
PARSE_COPY(192, 5, FROM_STRATEGY, parse_192_5)
PARSE_COPY(256, 4, FROM_STRATEGY, parse_256_4)
PARSE_COPY(256, 5, FROM_STRATEGY, parse_256_5)
PARSE_COPY(64, 4, 0, parse_64_4g)
PARSE_COPY(64, 5, 0, parse_64_5g)
PARSE_COPY(128, 4, 0, parse_128_4g)
PARSE_COPY(128, 5, 0, parse_128_5g)
PARSE_COPY(192, 5, 0, parse_192_5g)
PARSE_COPY(64, 4, 1, parse_64_4l)
#undef PARSE_COPY

typedef void parse_fn(struct zs_cctx *c, struct lazy_state *s, size_t start);

/* The copy of the parse for the strategy, rows of rb bytes and matches of min_match bytes. */
static parse_fn *parse_copy(enum zs_strategy strategy, unsigned rb, unsigned min_match)
{
	/* Hashes cover 4 or 5 bytes: a longer minimum still finds its matches among theirs. */
	static parse_fn *const copies[4][2] = {
		{parse_64_4, parse_64_5}, {parse_128_4, parse_128_5}, {parse_192_4, parse_192_5},
		{parse_256_4, parse_256_5}};
	static parse_fn *const greedy_copies[2][2] = {{parse_64_4g, parse_64_5g},
						      {parse_128_4g, parse_128_5g}};

	if (strategy == ZS_BTLAZY2)
		return parse_0_4;
	if (strategy == ZS_GREEDY && rb == 192 && min_match >= 5)
		return parse_192_5g;
	if (strategy == ZS_GREEDY && rb <= 128)
		return greedy_copies[rb / 64 - 1][min_match >= 5];
	if (strategy == ZS_LAZY && rb == 64 && min_match < 5)
		return parse_64_4l;
	return copies[rb / 64 - 1][min_match >= 5];
}

void zs_parse_lazy(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	/* Each frame's own row size (level 9 at 1 MiB: 128-byte rows where 128 KiB frames take
	 * 256, 1.5-3x faster). Rows another layout left (the level's other row, or its trees)
	 * are read as those of any earlier frame: a stale byte that equals a tag yields
	 * positions that are either rejected (not below pos) or real positions of this frame,
	 * whose matches are compared byte by byte. */
	unsigned rb = zs_row_bytes(c->p.search_log);
	struct lazy_state s;

	zs_rows_init(&s.rows, c->chain, c->chain_log + 2, rb, c->idx_base);
	s.c = c;
	s.src = src;
	s.end = end;
	s.hash_limit = zs_hash_limit(c);
	s.next_insert = start;
	s.attempts = 1u << c->p.search_log;
	/* A passed position needs a shallower descent to sort it in than a search (level 12's
	 * deep search keeps 32: misc at 128 KiB 0.05 % smaller than with 16); a search sorts as
	 * many as it would visit nodes (16 at level 11: 0.1-0.5 % larger, 10 % fewer
	 * instructions). */
	s.sort_attempts = s.attempts >= 128 ? 32 : s.attempts < 16 ? s.attempts : 16;
	s.max_unsorted = s.attempts;
	/* Level 15 at 1 MiB (64 descents) sorts at most 32 of them: text 0.9987 of libzstd's
	 * size where 64 left 0.9952 (16: 1.0064), for 1.18x the speed on text, 1.09x on bin,
	 * the same on tree and misc (medians of three rounds of one alternating run). */
	if (s.attempts > 32 && c->src_len > ((size_t)256 << 10))
		s.max_unsorted = 32;
	/* Over 256 KiB, the shallow tree searches still skip a long match's inner positions
	 * (levels 13-14 at 1 MiB are 0.4-2.5 % smaller than libzstd's anyway); 128 KiB frames
	 * defer them all (level 11: 0.03-0.3 % smaller for 1-3 % more instructions), and so
	 * does level 15 at 1 MiB (64 descents; skipping, text was 0.9997 of libzstd's size). */
	s.short_runs = s.attempts <= 32 && c->src_len > ((size_t)256 << 10);
	s.min_match = c->p.min_match;
	/* Lazy parses compress better with fewer of a match's positions in the rows (older
	 * candidates stay longer); the greedy parse, which never looks a byte further, worse. */
	s.sparse = c->p.strategy != ZS_GREEDY;
	/* Level 5's greedy rows end full runs sooner (see SKIP_RUN_GREEDY); frames of 16 KiB or
	 * less, whose greedy rows (levels 3-4) levels_small.c tuned with SKIP_RUN, keep it. */
	s.skip_run = SKIP_RUN;
	if (c->p.strategy == ZS_GREEDY && c->src_len > ZS_SMALL_INPUT)
		s.skip_run = c->src_len <= ((size_t)256 << 10) ? SKIP_RUN_GREEDY :
								  SKIP_RUN_GREEDY_LARGE;
	/* The deepest tree search (level 12) sorts in every position of a match instead (misc
	 * at 128 KiB: 0.1 % smaller, 1.0007 -> 0.9999 of libzstd's size). */
	if (c->p.strategy == ZS_BTLAZY2 && s.attempts >= 128)
		s.sparse = 0;
	/* Level 12 at 128 KiB (128 descents, the deepest) sorts at most 112 passed positions a
	 * search, stops its sorting compares 64 bytes on (a node equal that far is replaced: a
	 * long repeated string sorts in fewer steps) and asks its lazy steps a quarter bit less:
	 * 7 % fewer instructions on text, 2.5 % on misc (cachegrind), 0.04-0.09 % larger on tree,
	 * text and misc, 0.06 % smaller on bin. Alone, stops of 64 cost text 0.09 % and misc
	 * 0.01 %; margins of 3 and 6 (4 and 7) gained misc 0.015 % and bin 0.06 %, tree +0.03 %.
	 * Frames of 16 KiB or less (levels 9-10 there, levels_small.c) keep theirs: not measured.
	 * So do those of 128-256 KiB, the last that take this row: with these, misc there was
	 * 1.0001 of libzstd's size; without, 0.99992 (tree, text and bin 0.9977-0.9995), 1.20-1.33x
	 * its speed. */
	s.sort_stop = INSERT_CAP;
	s.margin[0] = 4;
	s.margin[1] = 7;
	if (c->p.strategy == ZS_BTLAZY2 && s.attempts >= 128 && c->src_len > ZS_SMALL_INPUT &&
	    c->src_len <= ZS_MID_INPUT) {
		s.max_unsorted = 112;
		s.sort_stop = 64;
		s.margin[0] = 3;
		s.margin[1] = 6;
	}
	/* Levels 7-10 over 256 KiB: their lazy steps search with a floor (look_further), which
	 * spares compares far back in the input. At 1 MiB: 1.6-3.9 % fewer instructions at
	 * levels 8-10 (cachegrind, four samples), sizes within 0.04 % (level 8's tree 0.9999 ->
	 * 0.9997 of libzstd's), levels 8-10 faster in locked A/B runs (misc at level 8 +2-3 %).
	 * Level 6 there (64-byte rows) keeps none: with it, tree read 1-6 % slower in five of seven
	 * runs. Only the copies of 5-byte hashes look at the flag (look_further), so levels 11-12
	 * over 256 KiB (4-byte rows) and the trees keep their frames; every row under 256 KiB is
	 * of 4-byte hashes too. Level 7 there, one step (ZS_LAZY), searches only for a match as
	 * long as m: 0.9954-0.9997 of libzstd's size (was 0.9947-0.9985; bin the least margin),
	 * 3-9 % faster in a locked A/B (two rounds: misc 1.005 -> 1.093, bin 1.023 -> 1.069).
	 * Levels 8-10 stay a byte lower (as long as m, level 8's tree and bin were 1.0003 and
	 * 1.0002). Level 6 as long as m: bin 1.0003; a byte lower: no faster than none (three
	 * locked rounds, with may_extend's word filter). */
	s.step_floor = 0;
	if (s.min_match >= 5 && rb >= 128 && c->src_len > ((size_t)256 << 10))
		s.step_floor = c->p.strategy == ZS_LAZY ? 1 : 2;
	if (s.hash_limit > end)
		s.hash_limit = end;
	s.second_step = c->p.strategy == ZS_BTLAZY2 ? SIZE_MAX :
			c->src_len <= ((size_t)256 << 10) ? SECOND_STEP : 2 * SECOND_STEP;
	/* The level's target_len, where it has one (levels.c). */
	s.take_len = c->p.target_len > 0 ? c->p.target_len : SIZE_MAX;
	/* The trees keep two links per position of the frame (match_btlazy.h): a row whose
	 * chain cannot hold them all (levels.c gives none) searches only the positions it can. */
	size_t nodes = ((size_t)1 << c->chain_log) / 2;

	if (c->p.strategy == ZS_BTLAZY2 && !zs_btl_fits(c) && nodes > 0 && s.hash_limit >= nodes)
		s.hash_limit = nodes - 1;
	parse_copy(c->p.strategy, rb, s.min_match)(c, &s, start);
}
