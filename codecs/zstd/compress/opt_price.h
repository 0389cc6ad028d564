/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* opt_price.h — the optimal parser's price model: symbol statistics, the bit prices drawn from them, and the lookups of the inner loops. */
#ifndef SQ_ZSTD_COMPRESS_OPT_PRICE_H
#define SQ_ZSTD_COMPRESS_OPT_PRICE_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/price.h"

#define ZS_LL_TABLE 256u  /* literal-run lengths priced by table lookup */
#define ZS_ML_TABLE 1024u /* match lengths priced by table lookup (every target length fits) */

/* Prices in 1/256 bit. */
struct zs_prices {
	uint32_t lit[256];
	uint32_t ll[ZS_LL_MAX_CODE + 1];
	uint32_t ml[ZS_ML_MAX_CODE + 1];
	uint32_t of[ZS_OF_MAX_CODE + 1];
	/* Code price plus extra bits, by length: the inner loops' lookups. */
	uint32_t ll_len[ZS_LL_TABLE];
	uint32_t ml_len[ZS_ML_TABLE];
};

/* Symbol statistics the prices derive from; they adapt while a block is parsed. */
struct zs_freqs {
	uint32_t lit[256];
	uint32_t ll[ZS_LL_MAX_CODE + 1];
	uint32_t ml[ZS_ML_MAX_CODE + 1];
	uint32_t of[ZS_OF_MAX_CODE + 1];
};

/* Prices from the statistics; match lengths only below ml_end (longer ones are never priced:
 * a match that long is taken without a search). */
void zs_freqs_to_prices(struct zs_prices *pr, const struct zs_freqs *fr, uint32_t ml_end);
/* Statistics without history: every literal equally likely, codes as the predefined tables. */
void zs_freqs_seed(struct zs_freqs *fr);
/* How much the statistics weigh: literals and sequences seen (with the seeds). */
uint64_t zs_freqs_weight(const struct zs_freqs *fr);
/* Adds the sequences and literals stored from the given marks on. */
void zs_freqs_add(struct zs_freqs *fr, const struct zs_seq_store *st, size_t seq_from, size_t lit_from);
/* Brings a block's statistics down to the small weight the next block starts from. */
void zs_freqs_scale(struct zs_freqs *fr);
/* fr = the statistics of sequences [seq_from, seq_to) and literals [lit_from, lit_to) of st,
 * plus prior >> prior_shift. */
void zs_freqs_learn(struct zs_freqs *fr, const struct zs_freqs *prior, unsigned prior_shift,
		    const struct zs_seq_store *st, size_t seq_from, size_t seq_to, size_t lit_from,
		    size_t lit_to);

static inline uint32_t zs_ll_price_code(const struct zs_prices *pr, uint32_t litlen)
{
	unsigned c = zs_ll_code(litlen);

	return pr->ll[c] + zs_ll_bits[c] * ZS_PRICE_ONE;
}

static inline uint32_t zs_ml_price_code(const struct zs_prices *pr, uint32_t mlen)
{
	unsigned c = zs_ml_code(mlen);

	return pr->ml[c] + zs_ml_bits[c] * ZS_PRICE_ONE;
}

static inline uint32_t zs_ll_price(const struct zs_prices *pr, uint32_t litlen)
{
	return litlen < ZS_LL_TABLE ? pr->ll_len[litlen] : zs_ll_price_code(pr, litlen);
}

static inline uint32_t zs_ml_price(const struct zs_prices *pr, uint32_t mlen)
{
	return mlen < ZS_ML_TABLE ? pr->ml_len[mlen] : zs_ml_price_code(pr, mlen);
}

/* An Offset_Value's price: its code's, plus as many extra bits as the code number. */
static inline uint32_t zs_of_price(const struct zs_prices *pr, uint32_t offval)
{
	unsigned c = zs_of_code(offval);

	return pr->of[c] + c * ZS_PRICE_ONE;
}

#endif
