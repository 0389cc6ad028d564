/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_opt.c — optimal parsing (levels 13..22): a forward shortest-path over literal/match arrivals priced in bits. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/block_split.h"
#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_bt.h"
#include "codecs/zstd/compress/match_hc.h"
#include "codecs/zstd/compress/opt_price.h"

/* Positions inside a chosen match that join the trees (below level 19): only the last ones
 * (the earlier ones are mostly covered by the match itself and cost a descent each), at most
 * this many, and no more than the level's search depth: a shallow level gains little from
 * them (level 13: 8 of them cost 0.5-1.5 % in size but 13 % less time than 32). */
#define INSERT_TAIL 32u
/* Positions at the end of a match taken at once (target_len or longer) that join the trees,
 * at most (fewer where the level inserts fewer anyway). */
#define COMMIT_TAIL 256u
/* Steps of an insertion-only descent at levels 19-22 on inputs up to 128 KiB (see
 * opt_ctx_init). */
#define INSERT_CAP_ULTRA2 8u
/* Prices are recomputed once the statistics have grown by 1/REPRICE since the last time. */
#define REPRICE 32u
#define OPT_WINDOW 4096u  /* positions priced before a segment is committed */
#define MAX_CANDIDATES 64u
#define PRICE_UNSET UINT32_MAX
/* A match's lengths are priced from its longest down until this many in a row improve no
 * arrival (see price_segment). 32 rather than 128: level 19, 128 KiB, bin 1.1 % fewer
 * instructions; the four samples within +-0.001 % at levels 16-22 and both frame sizes
 * (tree at 1 MiB 0.012 % smaller at level 19). */
#define MAX_FAILS 32u
/* The statistics-only passes of levels 19-22 search this deep and skip like level 15: the
 * choices they learn from come out nearly the same for a fifth of the work.
 * 2^4 rather than 2^6 pays for most of the chains' time (level 19, 128 KiB, bin: 4.48 G
 * instructions at 2^5, 4.43 G at 2^4, sizes within +-0.02 %; 2^3: text 0.03 % larger). */
#define PRE_PASS_SEARCH_LOG 4u
#define MAX_PIECES 65u /* block_split.c cuts a block at most 63 times */
/* A piece's statistics start from its own choices plus those of the whole pass at 1/2^this:
 * priors of 1/4 and 1/16 left the pieces priced too much alike (levels 19, 128 KiB: tree,
 * bin, misc 0.1-0.7 % larger than 1/64, text 0.03 %). */
#define PIECE_PRIOR_SHIFT 6u
/* Levels 19-22: a match, up to this many literals (at most 7: chain_arrival tests them in
 * one 8-byte compare) and a repeat of its offset are priced as one arrival. Level 19,
 * 128 KiB, the four samples: 1 literal: text -0.07 %, bin -0.56 %, misc -0.11 %, tree
 * -0.05 %; 4: text -0.09 %, bin -0.66 %, tree -0.12 %; 8 or 16: tree and misc larger than 4.
 * From every candidate: only the longest: text -0.06 %; only those of 5 bytes or more:
 * tree and bin 0.07-0.15 % larger. */
#define CHAIN_GAP 4u
/* The levels whose final pass keeps two arrivals per position (see zs_opt_state's alt). */
#define ALT_LEVEL 20
/* The lengths of a second arrival's matches are priced until this many in a row arrive
 * nowhere. */
#define ALT_FAILS 1u
/* Frames over this many bytes take alt_efforts' second column. */
#define ALT_LARGE (256u * 1024u)
#define CHAIN_FROM_ALT (1u << 31)
/* Level 13 over 16 KiB (levels.c's row for up to 256 KiB) also skips the search at a position
 * whose successor is reached for at most one bit more: 128 KiB frames, the four samples,
 * 3.5-8 % fewer instructions (bin 1,092M -> 1,029M, misc 1,001M -> 919M), sizes tree +0.34 %,
 * text -0.36 %, bin +0.14 %, misc +0.20 % (0.9944, 0.9900, 0.9858, 0.9986 of libzstd's), bin
 * 1.02 -> 1.07x libzstd's speed (six locked rounds, higher in each); half a bit: 2.9 % fewer
 * on bin, sizes within 0.06 %. Levels 14-17 grew 0.01-0.1 % with half a bit: none there. */
#define ABORT_MARGIN_13 ZS_PRICE_ONE

struct opt_node {
	uint32_t price;
	/* The last match on the best path to here (mlen 0: none since the segment's start),
	 * followed by litlen literals: a literal arrival carries its predecessor's match, and
	 * the path walks back from match to match. */
	uint32_t off;    /* actual distance of that match */
	uint32_t mlen;
	uint32_t litlen; /* literals since that match (at a segment's start: since the anchor) */
	/* Arrived by a match, some literals and a repeat of that match's offset (see
	 * chain_arrival): the first match's length (0: not so) | the literals << 16; and
	 * CHAIN_FROM_ALT when the last match (or chain) left from the second arrival at its
	 * start (see struct zs_opt_state's alt). */
	uint32_t chain;
	uint32_t rep[3]; /* repeat offsets on arrival */
};

#define candidate zs_match

struct path_item {
	uint32_t start; /* relative to the segment */
	uint32_t len;
	uint32_t off;
};

struct zs_opt_state {
	struct zs_freqs fr;
	struct opt_node *nodes; /* one block + 1 */
	/* Levels 21-22: a second arrival per position, the cheapest whose last two offsets
	 * differ from the cheapest's, so a slightly dearer path that sets up a repeat match
	 * further on is not lost. */
	struct opt_node *alt;
	size_t nnodes;
	struct candidate cand[MAX_CANDIDATES + 4];
	struct path_item path[OPT_WINDOW + 2];
	struct zs_prices pr;
	uint32_t *hash_save;    /* first-block second pass restores the heads */
	/* A pass after the first prices each piece the block splitter would cut from the pass
	 * before by that piece's statistics: piece k starts piece_at[k] bytes into the block. */
	struct zs_freqs *piece_fr;
	uint32_t piece_at[MAX_PIECES];
	size_t npieces;
	int have_stats;         /* prices come from an earlier block of this frame */
};

struct alt_effort;
static const struct alt_effort *alt_effort_for(int level, size_t src_len);

int zs_opt_alloc(struct zs_cctx *c, size_t block)
{
	c->opt = calloc(1, sizeof(*c->opt));
	if (c->opt == NULL)
		return -1;
	c->opt->nnodes = block + 2;
	c->opt->nodes = malloc(c->opt->nnodes * sizeof(struct opt_node));
	/* The second arrivals only where some frame may take them (one node a byte of a block
	 * saved elsewhere): the context takes any frame up to max_input, so the row of the
	 * smallest frames counts as well as that of the largest. */
	size_t small = c->max_input < ALT_LARGE ? c->max_input : ALT_LARGE;
	int two = alt_effort_for(c->level, small) != NULL ||
		  alt_effort_for(c->level, c->max_input) != NULL;

	if (two)
		c->opt->alt = malloc(c->opt->nnodes * sizeof(struct opt_node));
	c->opt->hash_save = malloc(((size_t)1 << c->hash_alloc_log) * sizeof(uint32_t));
	c->opt->piece_fr = malloc(MAX_PIECES * sizeof(struct zs_freqs));
	if (c->opt->nodes == NULL || (two && c->opt->alt == NULL) || c->opt->hash_save == NULL ||
	    c->opt->piece_fr == NULL)
		return -1;
	return 0;
}

void zs_opt_free(struct zs_cctx *c)
{
	if (c->opt == NULL)
		return;
	free(c->opt->nodes);
	free(c->opt->alt);
	free(c->opt->hash_save);
	free(c->opt->piece_fr);
	free(c->opt);
	c->opt = NULL;
}

/* Offset_Value the store would emit for this distance after litlen literals with reps. (An
 * index and a mask for the repeat offsets instead of the branch on litlen: level 13, bin,
 * 0.15M fewer mispredicted branches for 13M more instructions; level 17, text, 54M more
 * instructions and 0.35M more mispredictions.) */
static inline uint32_t offval_for(const uint32_t *rep, uint32_t litlen, uint32_t off)
{
	if (litlen > 0) {
		if (off == rep[0])
			return 1;
		if (off == rep[1])
			return 2;
		if (off == rep[2])
			return 3;
	} else {
		if (off == rep[1])
			return 1;
		if (off == rep[2])
			return 2;
		if (off == rep[0] - 1)
			return 3;
	}
	return off + 3;
}

static inline void next_reps(uint32_t *out, const uint32_t *rep, uint32_t litlen, uint32_t off)
{
	if (litlen > 0 && off == rep[0]) {
		out[0] = rep[0];
		out[1] = rep[1];
		out[2] = rep[2];
	} else if (off == rep[1]) {
		out[0] = off;
		out[1] = rep[0];
		out[2] = rep[2];
	} else {
		out[0] = off;
		out[1] = rep[0];
		out[2] = off == rep[2] ? rep[1] : rep[1];
	}
}

/* The second arrivals of levels 20-22, by level and frame size (up to ALT_LARGE bytes, larger).
 * 128 KiB frames, the four 2 MiB samples, sizes against level 19's frames (which levels 20-22
 * wrote before): margin 8, 1 length: text -0.154 %, tree -0.216 %, bin -0.111 %, misc -0.015 %;
 * margin 10, 2 lengths: text -0.160 %, tree -0.221 %, bin -0.136 %, misc -0.017 % (margin 6
 * at 21 and 8 at 22 left text at 21 0.99505 of libzstd's; margin 8, 2 lengths at 22 was
 * larger than margin 8, 1 length at 21 on tree); 4 lengths and the searched candidates: text
 * -0.19 %. Time, not instructions, set the rows: the second
 * arrivals cost bin 7-8 % more instructions at margin 6-8 (callgrind) but 8-13 % more CPU time
 * in locked A/B runs against main (misc 13 %: their branches are data-dependent), and the
 * searched candidates 15-20 % more instructions, 20-35 % more time on tree, misc and bin.
 * So level 20 keeps one arrival (bin there at 1.10-1.11x libzstd's speed on main), 21 and 22
 * (1.17-1.25x) take the second. Frames over 256 KiB: not measured yet (one arrival). */
struct alt_effort {
	/* Bits a second arrival may cost above the cheapest there (0: none kept). */
	uint32_t margin;
	/* How many of a candidate's longest lengths may arrive second. */
	uint32_t lens;
	/* The second arrival extends by the candidates searched at its position, not only by
	 * its repeat offsets. */
	int tree;
};

static const struct alt_effort alt_efforts[3][2] = {
	{{0, 0, 0}, {0, 0, 0}}, /* 20 */
	{{8, 1, 0}, {0, 0, 0}}, /* 21 */
	{{10, 2, 0}, {0, 0, 0}}, /* 22 */
};

/* The second arrivals of a frame of src_len bytes at this level (NULL: one arrival per
 * position): zs_opt_alloc allocates alt only where this can be non-NULL, and
 * opt_ctx_init's test (the same, written out) takes them in btultra2's full passes. */
static const struct alt_effort *alt_effort_for(int level, size_t src_len)
{
	if (level < ALT_LEVEL || level >= ALT_LEVEL + 3)
		return NULL;
	const struct alt_effort *e = &alt_efforts[level - ALT_LEVEL][src_len > ALT_LARGE];

	return e->margin > 0 ? e : NULL;
}

struct opt_ctx {
	struct zs_cctx *c;
	const uint8_t *src;
	size_t end;
	size_t hash_limit;
	size_t next_insert;
	unsigned attempts;
	unsigned insert_attempts;
	size_t insert_tail;
	unsigned min_match;
	size_t commit_tail; /* positions of a match taken at once that still join the trees */
	size_t seg_pos;     /* where the segment being priced starts */
	int chains;         /* match, literal, repeat priced as one arrival */
	int quick; /* btopt's shortcuts whatever the level (statistics-only passes) */
	/* btopt's or a quick pass's shortcuts: a match's lengths are priced until one arrives
	 * nowhere, and a position reached as cheaply as the one before is not searched. */
	int early_abort;
	uint32_t abort_margin; /* within this much of the position's price: not searched */
	struct opt_node *alt; /* the second arrivals (NULL: one arrival per position) */
	uint32_t alt_margin;  /* see struct alt_effort */
	uint32_t alt_lens;
	int alt_tree;
};

/* The repeat offsets' matches at pos that beat *best, by increasing length. Each offset is
 * tried only when its first bytes agree (a shorter match cannot beat best): one 4-byte
 * compare instead of byte compares and a length count; the offsets are picked by selects
 * (litlen is unpredictable; an index and a mask ran 1.5 % more instructions on level 13, bin,
 * and mispredicted no less). Inlined into gather, the common caller: 1.6 % fewer
 * instructions there than a call per position. */
static inline __attribute__((always_inline)) unsigned
rep_candidates(const struct opt_ctx *o, struct candidate *cand, size_t pos, const uint32_t *rep,
	       uint32_t litlen, size_t *best)
{
	const uint8_t *src = o->src;
	uint32_t roff[3] = {litlen > 0 ? rep[0] : rep[1], litlen > 0 ? rep[1] : rep[2],
			    litlen > 0 ? rep[2] : rep[0] - 1};
	uint32_t mask = o->min_match >= 4 ? 0xFFFFFFFFu : 0xFFFFFFu;
	unsigned n = 0;

	if (pos + 4 > o->end)
		return 0; /* too close to the end for a repeat match worth its price */
	uint32_t head = zs_read32(src + pos) & mask;

	for (int r = 0; r < 3; r++) {
		uint32_t off = roff[r];

		/* off - 1 wraps for 0; off > pos reaches before the input. */
		if (off - 1 >= pos || (zs_read32(src + pos - off) & mask) != head)
			continue;
		size_t len = zs_match_len(src + pos, src + pos - off, src + o->end);

		if (len > *best) {
			*best = len;
			cand[n].len = (uint32_t)len;
			cand[n].off = off;
			n++;
		}
	}
	return n;
}

/* Candidates at pos by increasing length: repeat offsets first, then the hash chain.
 * Returns how many. */
static unsigned gather(struct opt_ctx *o, struct candidate *cand, size_t pos, const uint32_t *rep,
		       uint32_t litlen)
{
	struct zs_cctx *c = o->c;
	const uint8_t *src = o->src;
	size_t best = o->min_match - 1;
	unsigned n = rep_candidates(o, cand, pos, rep, litlen, &best);

	if (pos > o->hash_limit)
		return n;
	/* Positions inside chosen matches only need to join the trees: a shallower descent
	 * keeps them ordered well enough. */
	if (pos - o->next_insert > o->insert_tail)
		o->next_insert = pos - o->insert_tail;
	while (o->next_insert < pos)
		zs_bt_descend(c, src, o->next_insert++, o->end, o->insert_attempts, &best, NULL, 0);
	o->next_insert = pos + 1;
	if (pos + best >= o->end) {
		zs_bt_descend(c, src, pos, o->end, o->attempts, &best, NULL, 0);
		return n;
	}
	struct zs_match *m = (struct zs_match *)(cand + n);

	n += zs_bt_descend(c, src, pos, o->end, o->attempts, &best, m, MAX_CANDIDATES - n);
	return n;
}

static void opt_ctx_init(struct opt_ctx *o, struct zs_cctx *c, const uint8_t *src, size_t start,
			 size_t end, unsigned attempts, int quick)
{
	/* Inserting a position costs nearly a search; the trees of inputs over 128 KiB grow
	 * deeper and need twice as many (1 MiB frames, levels 16-22: 0.05-0.5 % smaller),
	 * except btopt's (levels 16-17 at 1 MiB; 13-15 at 256 KiB), which skip most searches
	 * and spend their time in the inserts: 16 steps left level 16 0.05-0.5 % larger (text
	 * 0.9907 -> 0.9953 of libzstd's size, the others within 0.3 %) and 1.04-1.09x as fast
	 * on all four samples (bin 1.07 -> 1.13x libzstd's speed, locked A/B, two rounds);
	 * level 17 text 0.9946.
	 * Levels 19-22 insert every position of a 128 KiB input (below): there 8 steps keep the
	 * trees as useful as 16 for fewer steps (level 19, the four samples: tree -0.03 %,
	 * bin -0.02 %, text -0.01 %, misc +0.006 %; 4 or 6 steps: text +0.02-0.04 %, 12: the
	 * same sizes as 16). */
	unsigned insert_cap = c->p.strategy == ZS_BTOPT ? 16 :
			      c->bt_mask >= (1u << 18) - 1 ? 32 :
			      c->p.strategy == ZS_BTULTRA2 ? INSERT_CAP_ULTRA2 : 16;
	unsigned insert_attempts = attempts > insert_cap ? insert_cap : attempts;

	o->c = c;
	o->src = src;
	o->end = end;
	o->hash_limit = zs_hash_limit(c);
	if (o->hash_limit > end)
		o->hash_limit = end;
	o->next_insert = start;
	o->attempts = attempts;
	o->insert_attempts = insert_attempts;
	/* Levels 19+ insert every position: a match starting inside another is found more often
	 * (text gains 0.1 %). */
	o->insert_tail = attempts < INSERT_TAIL ? attempts : INSERT_TAIL;
	if (c->p.strategy == ZS_BTULTRA2 && !quick)
		o->insert_tail = SIZE_MAX;
	o->min_match = c->p.min_match;
	/* A long match taken at once leaves only its last positions to the trees, whatever the
	 * level: its strings are in the trees already, earlier, and inserting every position of
	 * a long run cost a 256-byte compare each (1 MiB of `yes` in 128 KiB frames, level 19:
	 * 0.03x libzstd's speed, now 1.7x; near-duplicate 1 MiB input 5.5 % smaller, the trees
	 * keep the older variants that inserted copies would replace). Text at levels 19+ loses
	 * 0.01-0.04 % (32 positions: the same; every one: the old speed). */
	o->commit_tail = o->insert_tail < COMMIT_TAIL ? o->insert_tail : COMMIT_TAIL;
	o->quick = quick;
	o->chains = !quick && c->p.strategy >= ZS_BTULTRA2;
	o->early_abort = c->p.strategy == ZS_BTOPT || quick;
	o->abort_margin = c->level == 13 && c->src_len > ZS_SMALL_INPUT ? ABORT_MARGIN_13 : 0;
	o->alt = NULL;
	/* alt_effort_for's test, written out: calling it here changed the code the compiler
	 * makes of parse_pass (callgrind, 512 KiB of text, levels 19 and 22: up to 0.3 % more
	 * instructions; written out, the same count as before). */
	if (!quick && c->p.strategy == ZS_BTULTRA2 && c->level >= ALT_LEVEL &&
	    c->level < ALT_LEVEL + 3) {
		const struct alt_effort *e = &alt_efforts[c->level - ALT_LEVEL][c->src_len > ALT_LARGE];

		o->alt_margin = e->margin * ZS_PRICE_ONE;
		o->alt_lens = e->lens;
		o->alt_tree = e->tree;
		if (o->alt_margin > 0)
			o->alt = c->opt->alt;
	}
}

/* A match of target_len or more, [at, at + len), was taken: its positions but the last
 * commit_tail need not join the trees. */
static inline void skip_committed(struct opt_ctx *o, size_t at, size_t len)
{
	if (len > o->commit_tail && at + len - o->commit_tail > o->next_insert)
		o->next_insert = at + len - o->commit_tail;
}

/* The inner loops come in two copies, with one arrival per position (two 0) and with two;
 * forced inline, each copy folds the other's tests away (one copy for both cost level 19
 * 0.7 % more instructions on bin, and the second arrivals' tests 5 % even where they kept
 * none). */
#define OPT_INLINE static inline __attribute__((always_inline))

/* Whether two arrivals' repeat offsets differ where a later match would see it: the last
 * two (rep[2] as well: text 0.001 % smaller, not worth a compare). */
static inline int reps_differ(const uint32_t *a, const uint32_t *b)
{
	return a[0] != b[0] || a[1] != b[1];
}

/* The node an arrival of price p with repeat offsets nrep takes at position to: the cheapest
 * there (which moves to alt when its offsets differ), else alt's when it is the cheapest with
 * offsets other than the cheapest's; NULL when it beats neither. Arrivals dearer than the
 * cheapest by alt_margin or more are not kept as second ones. */
OPT_INLINE struct opt_node *arrival_at(const struct opt_ctx *o, int two, size_t to, uint32_t p,
				       const uint32_t *nrep)
{
	struct opt_node *nd = o->c->opt->nodes;

	if (p < nd[to].price) {
		/* An unset node (price PRICE_UNSET) is never within the margin. */
		if (two && nd[to].price - p < o->alt_margin && reps_differ(nrep, nd[to].rep))
			o->alt[to] = nd[to];
		return &nd[to];
	}
	if (two && p - nd[to].price < o->alt_margin && p < o->alt[to].price &&
	    reps_differ(nrep, nd[to].rep))
		return &o->alt[to];
	return NULL;
}

/* Marks the positions up to to as not reached yet. */
OPT_INLINE void reach(const struct opt_ctx *o, int two, size_t *last, size_t to)
{
	struct opt_node *nd = o->c->opt->nodes;

	while (*last < to) {
		++*last;
		nd[*last].price = PRICE_UNSET;
		if (two)
			o->alt[*last].price = PRICE_UNSET;
	}
}

/* The literal arrival at cur from prev (an arrival at cur - 1), where it is cheaper. */
OPT_INLINE void literal_from(const struct opt_ctx *o, int two, const struct opt_node *prev,
			     size_t cur)
{
	const struct zs_prices *pr = &o->c->opt->pr;
	uint32_t p = prev->price + pr->lit[o->src[o->seg_pos + cur - 1]] +
		     zs_ll_price(pr, prev->litlen + 1) - zs_ll_price(pr, prev->litlen);
	struct opt_node *to = arrival_at(o, two, cur, p, prev->rep);

	if (to == NULL)
		return;
	*to = *prev;
	to->price = p;
	to->litlen = prev->litlen + 1;
}

/* The literal arrivals at cur (from cur - 1), which compete with the match arrivals there. */
OPT_INLINE void literal_arrival(const struct opt_ctx *o, int two, size_t cur)
{
	literal_from(o, two, &o->c->opt->nodes[cur - 1], cur);
	if (two && o->alt[cur - 1].price != PRICE_UNSET)
		literal_from(o, two, &o->alt[cur - 1], cur);
}

/* After the match (off, len) from the arrival from at cur (from_alt: CHAIN_FROM_ALT when that
 * is the second one there), at price p: 1 to CHAIN_GAP literals, then the same offset again
 * (repeat code 1) for as long as it matches, the pattern of a small edit. The best path to
 * the literals' end may have left that offset behind, so the three are priced as one arrival
 * (which may end the segment further on). nrep: the offsets after the first match (and the
 * second; only read with two arrivals). */
OPT_INLINE void chain_arrival(struct opt_ctx *o, int two, const struct opt_node *from,
			      uint32_t from_alt, size_t cur, size_t *last, uint32_t off,
			      uint32_t len, uint32_t p, const uint32_t *nrep)
{
	const uint8_t *src = o->src;
	size_t at = o->seg_pos + cur + len; /* the first literal */

	/* Lengths priced stay under target_len, well inside a node's chain field. */
	if (at + 9 > o->end || len > 0xFFFF)
		return;
	/* Byte k of diff is zero where the offset matches again k + 1 bytes on: one load
	 * pair for all the gaps, which mostly find nothing. */
	uint64_t diff = zs_read64(src + at + 1) ^ zs_read64(src + at + 1 - off);

	for (uint32_t gap = 1; gap <= CHAIN_GAP; gap++, diff >>= 8) {
		const uint8_t *r = src + at + gap;

		if ((diff & 0xFFFF) != 0)
			continue;
		size_t len2 = zs_match_len(r, r - off, src + o->end);

		if (len2 < o->min_match || len2 >= o->c->p.target_len)
			continue;
		const struct zs_prices *pr = &o->c->opt->pr;
		size_t to = cur + len + gap + len2;
		uint32_t price = p + zs_ll_price(pr, gap) + zs_of_price(pr, 1) +
				 zs_ml_price(pr, (uint32_t)len2);

		for (uint32_t k = 0; k < gap; k++)
			price += pr->lit[src[at + k]];
		reach(o, two, last, to);
		struct opt_node *nd = arrival_at(o, two, to, price, nrep);

		if (nd == NULL)
			continue;
		nd->price = price;
		nd->off = off;
		nd->mlen = (uint32_t)len2;
		nd->litlen = 0;
		nd->chain = len | gap << 16 | from_alt;
		/* The repeat leaves the offsets as the first match did. */
		next_reps(nd->rep, from->rep, from->litlen, off);
	}
}

/* The arrivals of the match at off from cur by the lengths hi down to lo, each at price
 * op plus its length's; *fails counts the lengths in a row that arrived nowhere. Returns
 * whether the match's shorter lengths are not worth pricing. */
OPT_INLINE int match_lengths(struct opt_ctx *o, int two, const struct opt_node *from,
			     uint32_t from_alt, size_t cur, uint32_t off, uint32_t op,
			     const uint32_t *nrep, uint32_t hi, uint32_t lo, uint32_t max_fails,
			     uint32_t *fails)
{
	const struct zs_prices *pr = &o->c->opt->pr;

	for (uint32_t len = hi; len >= lo; len--) {
		uint32_t p = op + zs_ml_price(pr, len);
		struct opt_node *to = arrival_at(o, two, cur + len, p, nrep);

		if (to != NULL) {
			to->price = p;
			to->off = off;
			to->mlen = len;
			to->litlen = 0;
			to->chain = from_alt;
			next_reps(to->rep, from->rep, from->litlen, off);
			*fails = 0;
		} else if (++*fails > max_fails) {
			/* The shorter lengths of a long match mostly land where it or an
			 * earlier one already arrived more cheaply: pricing them all made long
			 * near-duplicate input quadratic (1 MiB, level 19: 1.8x the time, the
			 * same frames). */
			return 1;
		} else if (o->early_abort) {
			/* btopt: shorter lengths of this match are rarely better where a
			 * longer one was not (as the reference judges). */
			return 1;
		}
	}
	return 0;
}

/* The match arrivals from the arrival from at cur (from_alt: CHAIN_FROM_ALT when that is the
 * second one there) by the n candidates, each covering the lengths above the previous one,
 * scanned from the longest down: with two arrivals, the alt_lens longest of each may arrive
 * second. */
OPT_INLINE void match_arrivals(struct opt_ctx *o, int two, const struct candidate *cand,
			       unsigned n, const struct opt_node *from, uint32_t from_alt,
			       int chains, size_t cur, size_t *last)
{
	const struct zs_prices *pr = &o->c->opt->pr;
	uint32_t base = from->price + zs_ll_price(pr, 0);
	uint32_t max_fails = from_alt ? ALT_FAILS : MAX_FAILS;

	if (n > 0)
		reach(o, two, last, cur + cand[n - 1].len);
	for (unsigned i = 0, lo = o->min_match; i < n; i++) {
		uint32_t off = cand[i].off, hi = cand[i].len, fails = 0;
		uint32_t op = base + zs_of_price(pr, offval_for(from->rep, from->litlen, off));
		uint32_t nrep[3];

		if (two)
			next_reps(nrep, from->rep, from->litlen, off);
		if (chains)
			chain_arrival(o, two, from, from_alt, cur, last, off, hi,
				      op + zs_ml_price(pr, hi), nrep);
		lo = i > 0 ? cand[i - 1].len + 1 : lo;
		if (two) {
			/* The longest lengths first, which may arrive second. */
			uint32_t mid = hi - lo + 1 > o->alt_lens ? hi - o->alt_lens : lo - 1;

			if (match_lengths(o, 1, from, from_alt, cur, off, op, nrep, hi, mid + 1,
					  max_fails, &fails))
				continue;
			hi = mid;
		}
		match_lengths(o, 0, from, from_alt, cur, off, op, nrep, hi, lo, max_fails, &fails);
	}
}

/* The second arrival at cur extends by its own repeat offsets (and, with alt_tree, by the
 * candidates searched at cur): a match at another offset leaves offsets that differ from the
 * cheapest arrival's match there only from the second on. */
OPT_INLINE void alt_arrivals(struct opt_ctx *o, const struct candidate *found, unsigned nfound,
			     size_t cur, size_t *last)
{
	const struct opt_node *from = &o->alt[cur];
	struct candidate cand[3];
	size_t best = o->min_match - 1;

	if (from->price == PRICE_UNSET)
		return;
	unsigned n = rep_candidates(o, cand, o->seg_pos + cur, from->rep, from->litlen, &best);

	match_arrivals(o, 1, cand, n, from, CHAIN_FROM_ALT, o->chains, cur, last);
	if (o->alt_tree)
		match_arrivals(o, 1, found, nfound, from, CHAIN_FROM_ALT, 0, cur, last);
}

/* Prices the positions from pos on, starting from the n candidates at pos, until the segment
 * ends (nothing reaches further, OPT_WINDOW, the block end, or a long match); nd[0] holds the
 * arrival state at pos. Returns the segment's last node. */
OPT_INLINE size_t price_segment(struct opt_ctx *o, int two, struct candidate *cand, unsigned n,
				size_t pos)
{
	struct zs_cctx *c = o->c;
	struct opt_node *nd = c->opt->nodes;
	uint32_t target = c->p.target_len;
	size_t last = 0, cur = 0;

	o->seg_pos = pos;
	for (;;) {
		match_arrivals(o, two, cand, n, &nd[cur], 0, o->chains, cur, &last);
		if (two)
			alt_arrivals(o, cand, n, cur, &last);
		/* Next position: a literal arrival competes with the match arrivals. */
		cur++;
		reach(o, two, &last, cur);
		literal_arrival(o, two, cur);
		if (cur >= last || cur >= OPT_WINDOW || pos + cur + o->min_match > o->end)
			return last;
		/* btopt: a position whose successor is already reached as cheaply (level 13:
		 * for at most abort_margin more) is not worth a search (the successor's own
		 * search covers it). */
		if (o->early_abort && nd[cur + 1].price <= nd[cur].price + o->abort_margin) {
			n = 0;
			continue;
		}
		n = gather(o, cand, pos + cur, nd[cur].rep, nd[cur].litlen);
		if (n > 0 && cand[n - 1].len >= target) {
			/* Commit straight to the end of this long match. */
			size_t to = cur + cand[n - 1].len;

			skip_committed(o, pos + cur, cand[n - 1].len);
			reach(o, two, &last, to);
			nd[to].price = 0;
			nd[to].off = cand[n - 1].off;
			nd[to].mlen = cand[n - 1].len;
			nd[to].litlen = 0;
			nd[to].chain = 0;
			return to;
		}
	}
}

/* The two copies of the segment pricer (see OPT_INLINE). */
static size_t price_segment_one(struct opt_ctx *o, struct candidate *cand, unsigned n, size_t pos)
{
	return price_segment(o, 0, cand, n, pos);
}

static size_t price_segment_two(struct opt_ctx *o, struct candidate *cand, unsigned n, size_t pos)
{
	return price_segment(o, 1, cand, n, pos);
}

/* Walks back from the segment's last node, then stores its matches in order; returns the new
 * anchor (the end of the last match, or the old one). */
static size_t emit_segment(struct zs_cctx *c, const uint8_t *src, size_t pos, size_t last,
			   size_t anchor)
{
	struct zs_opt_state *os = c->opt;
	const struct opt_node *nd = &os->nodes[last];
	size_t npath = 0, i = last;

	/* Each node names the last match before it and the literals after that match. */
	while (i > 0 && nd->mlen > 0) {
		size_t match_end = i - nd->litlen, from_i = match_end - nd->mlen;
		uint32_t chain = nd->chain & ~CHAIN_FROM_ALT;

		os->path[npath].start = (uint32_t)from_i;
		os->path[npath].len = nd->mlen;
		os->path[npath].off = nd->off;
		npath++;
		if (chain != 0) {
			/* The chain's first match, at the same distance, some literals before. */
			uint32_t len1 = chain & 0xFFFF;
			size_t first = from_i - (chain >> 16) - len1;

			os->path[npath].start = (uint32_t)first;
			os->path[npath].len = len1;
			os->path[npath].off = nd->off;
			npath++;
			from_i = first;
		}
		i = from_i;
		nd = nd->chain & CHAIN_FROM_ALT ? &os->alt[i] : &os->nodes[i];
	}
	for (size_t k = npath; k-- > 0;) {
		size_t mpos = pos + os->path[k].start;

		zs_store_seq(&c->store, src + anchor, (uint32_t)(mpos - anchor), os->path[k].off,
			     os->path[k].len);
		anchor = mpos + os->path[k].len;
	}
	return anchor;
}

/* One pass over the block: fills c->store (quick: with btopt's shortcuts). */
static void parse_pass(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end,
		       unsigned attempts, int quick)
{
	struct zs_opt_state *os = c->opt;
	struct zs_seq_store *st = &c->store;
	struct opt_node *nd = os->nodes;
	struct opt_ctx o;
	size_t pos = start, anchor = start;
	uint32_t target = c->p.target_len;

	opt_ctx_init(&o, c, src, start, end, attempts, quick);
	size_t seq_mark = st->nseq, lit_mark = st->nlits, added = 0;
	uint64_t weight = zs_freqs_weight(&os->fr);

	size_t piece = 0;

	zs_freqs_to_prices(&os->pr, &os->fr, target);
	while (pos + o.min_match <= end) {
		struct candidate *cand = os->cand;

		if (piece < os->npieces && pos - start >= os->piece_at[piece]) {
			/* The next piece: its own prices (which keep adapting as before). */
			os->fr = os->piece_fr[piece++];
			zs_freqs_to_prices(&os->pr, &os->fr, target);
			weight = zs_freqs_weight(&os->fr);
			added = 0;
		}
		uint32_t litlen = (uint32_t)(pos - anchor);
		unsigned n = gather(&o, cand, pos, st->rep, litlen);

		if (n == 0) {
			pos++;
			continue;
		}
		/* A long enough match is taken as it is. */
		if (cand[n - 1].len >= target) {
			skip_committed(&o, pos, cand[n - 1].len);
			zs_store_seq(st, src + anchor, litlen, cand[n - 1].off, cand[n - 1].len);
			pos += cand[n - 1].len;
			anchor = pos;
			continue;
		}
		nd[0].price = 0;
		nd[0].mlen = 0;
		nd[0].chain = 0;
		nd[0].litlen = litlen;
		if (o.alt != NULL)
			o.alt[0].price = PRICE_UNSET;
		memcpy(nd[0].rep, st->rep, sizeof(nd[0].rep));
		size_t last = o.alt != NULL ? price_segment_two(&o, cand, n, pos) :
					      price_segment_one(&o, cand, n, pos);

		anchor = emit_segment(c, src, pos, last, anchor);
		/* Learn from what was just chosen; re-price once the statistics have grown by a
		 * sixteenth (often early in a block, rarely later). */
		zs_freqs_add(&os->fr, st, seq_mark, lit_mark);
		added += st->nseq - seq_mark + st->nlits - lit_mark;
		seq_mark = st->nseq;
		lit_mark = st->nlits;
		if (added * REPRICE >= weight) {
			zs_freqs_to_prices(&os->pr, &os->fr, target);
			weight = zs_freqs_weight(&os->fr);
			added = 0;
		}
		pos += last;
	}
	for (size_t k = anchor; k < end; k++)
		st->lits[st->nlits++] = src[k];
	size_t stop = end < o.hash_limit + 1 ? end : o.hash_limit + 1;

	while (o.next_insert < stop) {
		size_t best = 0;

		zs_bt_descend(c, src, o.next_insert++, end, o.attempts, &best, NULL, 0);
	}
}

/* The statistics the next pass prices by, from the pass just made (sequences and literals
 * from the marks on), with those it was priced by at a quarter weight (which keeps a pass
 * from merely reinforcing its own first choices); and, when the block splitter would cut
 * this pass's choices, each piece's own (levels 19, 128 KiB: tree, bin, text 0.1-0.4 %
 * smaller, misc 1.6 %). Only a frame's first block: the store holds it from its start. */
static void learn_pass(struct zs_cctx *c, size_t seq_from, size_t lit_from, size_t n)
{
	struct zs_opt_state *os = c->opt;
	const struct zs_seq_store *st = &c->store;
	struct zs_freqs before = os->fr;
	size_t ncuts = seq_from == 0 && lit_from == 0 ? zs_split_plan(c, n) : 0;

	zs_freqs_learn(&os->fr, &before, 2, st, seq_from, st->nseq, lit_from, st->nlits);
	os->npieces = 0;
	if (ncuts == 0)
		return;
	for (size_t k = 0; k <= ncuts; k++) {
		size_t a = k > 0 ? c->split_cut[k - 1] : 0, b = k < ncuts ? c->split_cut[k] : st->nseq;
		size_t lit_b = k < ncuts ? c->split_lit[b] : st->nlits;

		zs_freqs_learn(&os->piece_fr[k], &os->fr, PIECE_PRIOR_SHIFT, st, a, b,
			       c->split_lit[a], lit_b);
		os->piece_at[k] = k > 0 ? c->split_pos[a] : 0;
	}
	os->npieces = ncuts + 1;
}

void zs_parse_opt(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	struct zs_opt_state *os = c->opt;
	struct zs_seq_store *st = &c->store;
	unsigned full = 1u << c->p.search_log;

	/* A frame's first block prices from neutral seeds (a histogram of its bytes would
	 * misprice the literals matches take), later ones from the statistics before them. */
	if (start == 0 || !os->have_stats)
		zs_freqs_seed(&os->fr);
	else
		zs_freqs_scale(&os->fr);
	if (c->p.passes > 1 && start == 0 && end - start >= 1024) {
		/* Levels 19-22 (19 only up to 256 KiB): parse the frame's first block again, each
		 * pass priced by what the previous one chose. The trees' heads (all empty), the
		 * 3-byte table and the repeat offsets go back to the frame's start, which makes the
		 * trees exactly as they were. (A later block would see trees its first pass
		 * rewrote.) */
		size_t hsize = ((size_t)1 << c->hash_log) * sizeof(uint32_t);
		size_t seq0 = st->nseq, lit0 = st->nlits;
		uint32_t rep[3];

		memcpy(rep, st->rep, sizeof(rep));
		memcpy(os->hash_save, c->hash, hsize);
		/* Quick statistics passes in frames of several blocks too, though the first
		 * block's choices price every later one: 1 MiB frames, levels 19-22, the four
		 * samples within +-0.02 % of full passes (once up to 0.6 % larger; tree 0.02 %
		 * smaller now), bin 2.5 % fewer instructions at level 19 (its two-pass row;
		 * cachegrind). */
		unsigned pre = PRE_PASS_SEARCH_LOG < c->p.search_log ? 1u << PRE_PASS_SEARCH_LOG :
									full;

		for (unsigned k = 1; k < c->p.passes; k++) {
			parse_pass(c, src, start, end, pre, 1);
			learn_pass(c, seq0, lit0, end - start);
			memcpy(c->hash, os->hash_save, hsize);
			if (c->use_hash3)
				zs_hash3_reset(c);
			memcpy(st->rep, rep, sizeof(rep));
			st->nseq = seq0;
			st->nlits = lit0;
		}
	}
	parse_pass(c, src, start, end, full, 0);
	os->npieces = 0;
	os->have_stats = 1;
}
