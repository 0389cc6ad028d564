/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* opt_price.c — the optimal parser's price model: statistics of the choices made, and the bit prices they give. */
#include "config.h"

#include "codecs/zstd/compress/opt_price.h"

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
void zs_freqs_to_prices(struct zs_prices *pr, const struct zs_freqs *fr, uint32_t ml_end)
{
	counts_to_prices(pr->lit, fr->lit, 256, 1);
	counts_to_prices(pr->ll, fr->ll, ZS_LL_MAX_CODE + 1, 1);
	counts_to_prices(pr->ml, fr->ml, ZS_ML_MAX_CODE + 1, 1);
	counts_to_prices(pr->of, fr->of, ZS_OF_MAX_CODE + 1, 1);
	for (uint32_t len = 0; len < ZS_LL_TABLE; len++)
		pr->ll_len[len] = zs_ll_price_code(pr, len);
	pr->ml_len[0] = pr->ml_len[1] = pr->ml_len[2] = 0; /* below the minimum: never asked */
	for (uint32_t len = ZS_MIN_MATCH; len < ZS_ML_TABLE && len < ml_end; len++)
		pr->ml_len[len] = zs_ml_price_code(pr, len);
}

static void seed_from_norm(uint32_t *count, const int16_t *norm, unsigned n, unsigned all)
{
	for (unsigned s = 0; s < all; s++)
		count[s] = s < n && norm[s] > 0 ? (uint32_t)norm[s] * 2 : 1;
}

/* Without history: every literal equally likely (a histogram of the block's bytes misprices
 * them: matches will take most of the common ones), codes from the predefined distributions. */
void zs_freqs_seed(struct zs_freqs *fr)
{
	for (unsigned s = 0; s < 256; s++)
		fr->lit[s] = 1;
	seed_from_norm(fr->ll, zs_ll_default_norm, ZS_LL_MAX_CODE + 1, ZS_LL_MAX_CODE + 1);
	seed_from_norm(fr->ml, zs_ml_default_norm, ZS_ML_MAX_CODE + 1, ZS_ML_MAX_CODE + 1);
	seed_from_norm(fr->of, zs_of_default_norm, ZS_OF_DEFAULT_MAX_CODE + 1, ZS_OF_MAX_CODE + 1);
}

/* How much the statistics weigh: literals and sequences seen (with the seeds). */
uint64_t zs_freqs_weight(const struct zs_freqs *fr)
{
	uint64_t w = 0;

	for (unsigned s = 0; s < 256; s++)
		w += fr->lit[s];
	for (unsigned s = 0; s <= ZS_LL_MAX_CODE; s++)
		w += fr->ll[s];
	return w;
}

/* Counts sequences [seq_from, seq_to) and literals [lit_from, lit_to) of st into fr. */
static void add_range(struct zs_freqs *fr, const struct zs_seq_store *st, size_t seq_from,
		      size_t seq_to, size_t lit_from, size_t lit_to)
{
	for (size_t i = lit_from; i < lit_to; i++)
		fr->lit[st->lits[i]]++;
	for (size_t i = seq_from; i < seq_to; i++) {
		fr->ll[zs_ll_code(st->seqs[i].lit)]++;
		fr->ml[zs_ml_code(st->seqs[i].ml)]++;
		fr->of[zs_of_code(st->seqs[i].offval)]++;
	}
}

void zs_freqs_add(struct zs_freqs *fr, const struct zs_seq_store *st, size_t seq_from, size_t lit_from)
{
	add_range(fr, st, seq_from, st->nseq, lit_from, st->nlits);
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
void zs_freqs_scale(struct zs_freqs *fr)
{
	counts_shrink(fr->lit, 256, 12);
	counts_shrink(fr->ll, ZS_LL_MAX_CODE + 1, 11);
	counts_shrink(fr->ml, ZS_ML_MAX_CODE + 1, 11);
	counts_shrink(fr->of, ZS_OF_MAX_CODE + 1, 11);
}

void zs_freqs_learn(struct zs_freqs *fr, const struct zs_freqs *prior, unsigned prior_shift,
		    const struct zs_seq_store *st, size_t seq_from, size_t seq_to, size_t lit_from,
		    size_t lit_to)
{
	for (unsigned k = 0; k < 256; k++)
		fr->lit[k] = prior->lit[k] >> prior_shift;
	for (unsigned k = 0; k <= ZS_LL_MAX_CODE; k++)
		fr->ll[k] = prior->ll[k] >> prior_shift;
	for (unsigned k = 0; k <= ZS_ML_MAX_CODE; k++)
		fr->ml[k] = prior->ml[k] >> prior_shift;
	for (unsigned k = 0; k <= ZS_OF_MAX_CODE; k++)
		fr->of[k] = prior->of[k] >> prior_shift;
	add_range(fr, st, seq_from, seq_to, lit_from, lit_to);
}
