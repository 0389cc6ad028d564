/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_opt.c — optimal parsing (levels 13..22): a forward shortest-path over literal/match arrivals priced in bits. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_bt.h"
#include "codecs/zstd/compress/match_hc.h"
#include "codecs/zstd/compress/price.h"

/* Positions inside a chosen match that join the trees (below level 19): only the last ones
 * (the earlier ones are mostly covered by the match itself and cost a descent each), at most
 * this many, and no more than the level's search depth: a shallow level gains little from
 * them (level 13: 8 of them cost 0.5-1.5 % in size but 13 % less time than 32). */
#define INSERT_TAIL 32u
/* Prices are recomputed once the statistics have grown by 1/REPRICE since the last time. */
#define REPRICE 32u
#define OPT_WINDOW 4096u  /* positions priced before a segment is committed */
#define MAX_CANDIDATES 64u
#define PRICE_UNSET UINT32_MAX
/* The statistics-only passes of levels 19+ on single-block frames search this deep and skip
 * like level 15: the choices they learn from come out nearly the same for a fifth of the work. */
#define PRE_PASS_SEARCH_LOG 6u

struct opt_node {
	uint32_t price;
	uint32_t off;    /* actual distance of the arriving match */
	uint32_t mlen;   /* 0: arrived by a literal */
	uint32_t litlen; /* literals since the last match on the best path */
	uint32_t rep[3]; /* repeat offsets on arrival */
};

#define candidate zs_match

struct path_item {
	uint32_t start; /* relative to the segment */
	uint32_t len;
	uint32_t off;
};

#define LL_TABLE 256u  /* literal-run lengths priced by table lookup */
#define ML_TABLE 1024u /* match lengths priced by table lookup (every target length fits) */

struct prices {
	uint32_t lit[256];
	uint32_t ll[ZS_LL_MAX_CODE + 1];
	uint32_t ml[ZS_ML_MAX_CODE + 1];
	uint32_t of[ZS_OF_MAX_CODE + 1];
	/* Code price plus extra bits, by length: the inner loops' lookups. */
	uint32_t ll_len[LL_TABLE];
	uint32_t ml_len[ML_TABLE];
};

/* Symbol statistics the prices derive from; they adapt while a block is parsed. */
struct freqs {
	uint32_t lit[256];
	uint32_t ll[ZS_LL_MAX_CODE + 1];
	uint32_t ml[ZS_ML_MAX_CODE + 1];
	uint32_t of[ZS_OF_MAX_CODE + 1];
};

struct zs_opt_state {
	struct freqs fr;
	struct opt_node *nodes; /* one block + 1 */
	size_t nnodes;
	struct candidate cand[MAX_CANDIDATES + 4];
	struct path_item path[OPT_WINDOW + 2];
	struct prices pr;
	uint32_t *hash_save;    /* first-block second pass restores the heads */
	int have_stats;         /* prices come from an earlier block of this frame */
};

int zs_opt_alloc(struct zs_cctx *c)
{
	size_t block = c->max_input < ZS_BLOCK_SIZE_MAX ? c->max_input : ZS_BLOCK_SIZE_MAX;

	c->opt = calloc(1, sizeof(*c->opt));
	if (c->opt == NULL)
		return -1;
	c->opt->nnodes = block + 2;
	c->opt->nodes = malloc(c->opt->nnodes * sizeof(struct opt_node));
	c->opt->hash_save = malloc(((size_t)1 << c->hash_alloc_log) * sizeof(uint32_t));
	if (c->opt->nodes == NULL || c->opt->hash_save == NULL)
		return -1;
	return 0;
}

void zs_opt_free(struct zs_cctx *c)
{
	if (c->opt == NULL)
		return;
	free(c->opt->nodes);
	free(c->opt->hash_save);
	free(c->opt);
	c->opt = NULL;
}

static inline uint32_t ll_price_code(const struct prices *pr, uint32_t litlen)
{
	unsigned c = zs_ll_code(litlen);

	return pr->ll[c] + zs_ll_bits[c] * ZS_PRICE_ONE;
}

static inline uint32_t ml_price_code(const struct prices *pr, uint32_t mlen)
{
	unsigned c = zs_ml_code(mlen);

	return pr->ml[c] + zs_ml_bits[c] * ZS_PRICE_ONE;
}

/* Prices from counts: -log2(p) with every symbol given a floor so unseen ones stay finite. */
static void counts_to_prices(uint32_t *price, const uint32_t *count, unsigned n, uint32_t floor)
{
	uint64_t total = 0;

	for (unsigned s = 0; s < n; s++)
		total += count[s] + floor;
	for (unsigned s = 0; s < n; s++)
		price[s] = zs_price_of(count[s] + floor, (uint32_t)total);
}

/* Prices from the statistics; match lengths only below ml_end (longer ones are never priced:
 * a match that long is taken without a search). */
static void freqs_to_prices(struct prices *pr, const struct freqs *fr, uint32_t ml_end)
{
	counts_to_prices(pr->lit, fr->lit, 256, 1);
	counts_to_prices(pr->ll, fr->ll, ZS_LL_MAX_CODE + 1, 1);
	counts_to_prices(pr->ml, fr->ml, ZS_ML_MAX_CODE + 1, 1);
	counts_to_prices(pr->of, fr->of, ZS_OF_MAX_CODE + 1, 1);
	for (uint32_t len = 0; len < LL_TABLE; len++)
		pr->ll_len[len] = ll_price_code(pr, len);
	pr->ml_len[0] = pr->ml_len[1] = pr->ml_len[2] = 0; /* below the minimum: never asked */
	for (uint32_t len = ZS_MIN_MATCH; len < ML_TABLE && len < ml_end; len++)
		pr->ml_len[len] = ml_price_code(pr, len);
}

static void seed_from_norm(uint32_t *count, const int16_t *norm, unsigned n, unsigned all)
{
	for (unsigned s = 0; s < all; s++)
		count[s] = s < n && norm[s] > 0 ? (uint32_t)norm[s] * 2 : 1;
}

/* Without history: every literal equally likely (a histogram of the block's bytes misprices
 * them: matches will take most of the common ones), codes from the predefined distributions. */
static void seed_default(struct freqs *fr)
{
	for (unsigned s = 0; s < 256; s++)
		fr->lit[s] = 1;
	seed_from_norm(fr->ll, zs_ll_default_norm, ZS_LL_MAX_CODE + 1, ZS_LL_MAX_CODE + 1);
	seed_from_norm(fr->ml, zs_ml_default_norm, ZS_ML_MAX_CODE + 1, ZS_ML_MAX_CODE + 1);
	seed_from_norm(fr->of, zs_of_default_norm, ZS_OF_DEFAULT_MAX_CODE + 1, ZS_OF_MAX_CODE + 1);
}

/* How much the statistics weigh: literals and sequences seen (with the seeds). */
static uint64_t freqs_weight(const struct freqs *fr)
{
	uint64_t w = 0;

	for (unsigned s = 0; s < 256; s++)
		w += fr->lit[s];
	for (unsigned s = 0; s <= ZS_LL_MAX_CODE; s++)
		w += fr->ll[s];
	return w;
}

/* Statistics of the sequences and literals stored from the given marks on. */
static void freqs_add(struct freqs *fr, const struct zs_seq_store *st, size_t seq_from, size_t lit_from)
{
	for (size_t i = lit_from; i < st->nlits; i++)
		fr->lit[st->lits[i]]++;
	for (size_t i = seq_from; i < st->nseq; i++) {
		fr->ll[zs_ll_code(st->seqs[i].lit)]++;
		fr->ml[zs_ml_code(st->seqs[i].ml)]++;
		fr->of[zs_of_code(st->seqs[i].offval)]++;
	}
}

/* Shifts counts right until they sum to at most 2^log (each stays at least 1). */
static void counts_shrink(uint32_t *count, unsigned n, unsigned log)
{
	uint64_t sum = 0;
	unsigned shift = 1;

	for (unsigned s = 0; s < n; s++)
		sum += count[s];
	while ((sum >> shift) > ((uint64_t)1 << log))
		shift++;
	for (unsigned s = 0; s < n; s++)
		count[s] = (count[s] >> shift) + 1;
}

/* Carries a block's statistics to the next at a small fixed weight (a few thousand literals,
 * half that in sequences), so the next block's own choices soon outweigh them: halving
 * instead let a 128 KiB block's counts steer the next one for most of its length (1 MiB
 * frames, levels 16-22: 0.05-0.3 % larger). */
static void freqs_scale(struct freqs *fr)
{
	counts_shrink(fr->lit, 256, 12);
	counts_shrink(fr->ll, ZS_LL_MAX_CODE + 1, 11);
	counts_shrink(fr->ml, ZS_ML_MAX_CODE + 1, 11);
	counts_shrink(fr->of, ZS_OF_MAX_CODE + 1, 11);
}

static inline uint32_t ll_price(const struct prices *pr, uint32_t litlen)
{
	return litlen < LL_TABLE ? pr->ll_len[litlen] : ll_price_code(pr, litlen);
}

static inline uint32_t ml_price(const struct prices *pr, uint32_t mlen)
{
	return mlen < ML_TABLE ? pr->ml_len[mlen] : ml_price_code(pr, mlen);
}

/* Offset_Value the store would emit for this distance after litlen literals with reps. */
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

static inline uint32_t of_price(const struct prices *pr, uint32_t offval)
{
	unsigned c = zs_of_code(offval);

	return pr->of[c] + c * ZS_PRICE_ONE;
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
	int quick; /* btopt's shortcuts whatever the level (statistics-only passes) */
};

/* The repeat offsets' matches at pos that beat *best, by increasing length. Each offset is
 * tried only when its first bytes agree (a shorter match cannot beat best): one 4-byte
 * compare instead of byte compares and a length count; the offsets are picked by selects
 * (litlen is unpredictable). */
static unsigned rep_candidates(const struct opt_ctx *o, struct candidate *cand, size_t pos,
			       const uint32_t *rep, uint32_t litlen, size_t *best)
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
	 * deeper and need twice as many (1 MiB frames, levels 16-22: 0.05-0.5 % smaller). */
	unsigned insert_cap = c->bt_mask >= (1u << 18) - 1 ? 32 : 16;
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
	/* Rows taking 5-byte matches are the speed rows (level 15 over 256 KiB): half as many
	 * positions inserted, half as deep, 5 % fewer instructions for 0.1-0.6 % in size. */
	if (zs_opt_speed_row(&c->p)) {
		o->insert_tail = (o->insert_tail + 1) / 2;
		o->insert_attempts = (insert_attempts + 1) / 2;
	}
	o->min_match = c->p.min_match;
	o->quick = quick;
}

/* Prices the positions from pos on, starting from the n candidates at pos, until the segment
 * ends (nothing reaches further, OPT_WINDOW, the block end, or a long match); nd[0] holds the
 * arrival state at pos. Returns the segment's last node. */
static size_t price_segment(struct opt_ctx *o, struct candidate *cand, unsigned n, size_t pos)
{
	struct zs_cctx *c = o->c;
	const struct prices *pr = &c->opt->pr;
	struct opt_node *nd = c->opt->nodes;
	const uint8_t *src = o->src;
	uint32_t target = c->p.target_len;
	int skip_close = c->p.strategy == ZS_BTOPT || o->quick, early_abort = skip_close;
	size_t last = 0, cur = 0;

	for (;;) {
		const struct opt_node *from = &nd[cur];
		uint32_t base = from->price + ll_price(pr, 0);

		/* Match arrivals from cur: each candidate covers the lengths above the
		 * previous one, scanned from the longest down. */
		if (n > 0)
			while (last < cur + cand[n - 1].len)
				nd[++last].price = PRICE_UNSET;
		for (unsigned i = 0, lo = o->min_match; i < n; i++) {
			uint32_t off = cand[i].off;
			uint32_t op = base + of_price(pr, offval_for(from->rep, from->litlen, off));

			for (uint32_t len = cand[i].len; len >= lo; len--) {
				uint32_t p = op + ml_price(pr, len);
				struct opt_node *to = &nd[cur + len];

				if (p < to->price) {
					to->price = p;
					to->off = off;
					to->mlen = len;
					to->litlen = 0;
					next_reps(to->rep, from->rep, from->litlen, off);
				} else if (early_abort) {
					/* btopt: shorter lengths of this match are rarely better
					 * where a longer one was not (as the reference judges). */
					break;
				}
			}
			lo = cand[i].len + 1;
		}
		/* Next position: a literal arrival competes with the match arrivals. */
		cur++;
		if (cur > last)
			nd[++last].price = PRICE_UNSET;
		{
			const struct opt_node *prev = &nd[cur - 1];
			uint32_t p = prev->price + pr->lit[src[pos + cur - 1]] +
				     ll_price(pr, prev->litlen + 1) - ll_price(pr, prev->litlen);

			if (p < nd[cur].price) {
				nd[cur].price = p;
				nd[cur].mlen = 0;
				nd[cur].off = 0;
				nd[cur].litlen = prev->litlen + 1;
				memcpy(nd[cur].rep, prev->rep, sizeof(nd[cur].rep));
			}
		}
		if (cur >= last || cur >= OPT_WINDOW || pos + cur + o->min_match > o->end)
			return last;
		/* btopt: a position whose successor is already reached as cheaply is not worth
		 * a search (the successor's own search covers it). */
		if (skip_close && nd[cur + 1].price <= nd[cur].price) {
			n = 0;
			continue;
		}
		n = gather(o, cand, pos + cur, nd[cur].rep, nd[cur].litlen);
		if (n > 0 && cand[n - 1].len >= target) {
			/* Commit straight to the end of this long match. */
			size_t to = cur + cand[n - 1].len;

			while (last < to)
				nd[++last].price = PRICE_UNSET;
			nd[to].price = 0;
			nd[to].off = cand[n - 1].off;
			nd[to].mlen = cand[n - 1].len;
			return to;
		}
	}
}

/* Walks back from the segment's last node, then stores its matches in order; returns the new
 * anchor (the end of the last match, or the old one). */
static size_t emit_segment(struct zs_cctx *c, const uint8_t *src, size_t pos, size_t last,
			   size_t anchor)
{
	struct zs_opt_state *os = c->opt;
	const struct opt_node *nd = os->nodes;
	size_t npath = 0, i = last;

	while (i > 0) {
		if (nd[i].mlen > 0) {
			size_t from_i = i - nd[i].mlen;

			os->path[npath].start = (uint32_t)from_i;
			os->path[npath].len = nd[i].mlen;
			os->path[npath].off = nd[i].off;
			npath++;
			i = from_i;
		} else {
			i--;
		}
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
	uint64_t weight = freqs_weight(&os->fr);

	freqs_to_prices(&os->pr, &os->fr, target);
	while (pos + o.min_match <= end) {
		struct candidate *cand = os->cand;
		uint32_t litlen = (uint32_t)(pos - anchor);
		unsigned n = gather(&o, cand, pos, st->rep, litlen);

		if (n == 0) {
			pos++;
			continue;
		}
		/* A long enough match is taken as it is. */
		if (cand[n - 1].len >= target) {
			zs_store_seq(st, src + anchor, litlen, cand[n - 1].off, cand[n - 1].len);
			pos += cand[n - 1].len;
			anchor = pos;
			continue;
		}
		nd[0].price = 0;
		nd[0].mlen = 0;
		nd[0].litlen = litlen;
		memcpy(nd[0].rep, st->rep, sizeof(nd[0].rep));
		size_t last = price_segment(&o, cand, n, pos);

		anchor = emit_segment(c, src, pos, last, anchor);
		/* Learn from what was just chosen; re-price once the statistics have grown by a
		 * sixteenth (often early in a block, rarely later). */
		freqs_add(&os->fr, st, seq_mark, lit_mark);
		added += st->nseq - seq_mark + st->nlits - lit_mark;
		seq_mark = st->nseq;
		lit_mark = st->nlits;
		if (added * REPRICE >= weight) {
			freqs_to_prices(&os->pr, &os->fr, target);
			weight = freqs_weight(&os->fr);
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

/* Statistics of the pass just made, with those it was priced by at a quarter weight (which
 * keeps a pass from merely reinforcing its own first choices). */
static void learn_pass(struct freqs *fr, const struct zs_seq_store *st, size_t seq_from,
		       size_t lit_from)
{
	struct freqs before = *fr;

	memset(fr, 0, sizeof(*fr));
	freqs_add(fr, st, seq_from, lit_from);
	for (unsigned k = 0; k < 256; k++)
		fr->lit[k] += before.lit[k] >> 2;
	for (unsigned k = 0; k <= ZS_LL_MAX_CODE; k++)
		fr->ll[k] += before.ll[k] >> 2;
	for (unsigned k = 0; k <= ZS_ML_MAX_CODE; k++)
		fr->ml[k] += before.ml[k] >> 2;
	for (unsigned k = 0; k <= ZS_OF_MAX_CODE; k++)
		fr->of[k] += before.of[k] >> 2;
}

void zs_parse_opt(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	struct zs_opt_state *os = c->opt;
	struct zs_seq_store *st = &c->store;
	unsigned full = 1u << c->p.search_log;

	/* A frame's first block prices from neutral seeds (a histogram of its bytes would
	 * misprice the literals matches take), later ones from the statistics before them. */
	if (start == 0 || !os->have_stats)
		seed_default(&os->fr);
	else
		freqs_scale(&os->fr);
	if (c->p.passes > 1 && start == 0 && end - start >= 1024) {
		/* Levels 19+: parse the frame's first block again, each pass priced by what the
		 * previous one chose. The trees' heads (all empty), the 3-byte table and the
		 * repeat offsets go back to the frame's start, which makes the trees exactly as
		 * they were. (A later block would see trees its first pass rewrote.) */
		size_t hsize = ((size_t)1 << c->hash_log) * sizeof(uint32_t);
		size_t seq0 = st->nseq, lit0 = st->nlits;
		uint32_t rep[3];

		memcpy(rep, st->rep, sizeof(rep));
		memcpy(os->hash_save, c->hash, hsize);
		/* Quick statistics passes only for a frame of one block: a first block's choices
		 * price every later one, and there a quick pass's statistics cost up to 0.6 %. */
		int quick = c->src_len <= ZS_BLOCK_SIZE_MAX;
		unsigned pre = quick && PRE_PASS_SEARCH_LOG < c->p.search_log ?
				       1u << PRE_PASS_SEARCH_LOG : full;

		for (unsigned k = 1; k < c->p.passes; k++) {
			parse_pass(c, src, start, end, pre, quick);
			learn_pass(&os->fr, st, seq0, lit0);
			memcpy(c->hash, os->hash_save, hsize);
			if (c->use_hash3)
				zs_hash3_reset(c);
			memcpy(st->rep, rep, sizeof(rep));
			st->nseq = seq0;
			st->nlits = lit0;
		}
	}
	parse_pass(c, src, start, end, full, 0);
	os->have_stats = 1;
}
