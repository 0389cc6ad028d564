/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* fse_enc.h — FSE encoding for zstd sequences and Huffman weights: normalization, table headers, state coding. */
#ifndef SQ_ZSTD_COMPRESS_FSE_ENC_H
#define SQ_ZSTD_COMPRESS_FSE_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/compress/bitwriter.h"

#define ZS_FSE_ENC_MAX_LOG 9u
#define ZS_FSE_ENC_MAX_SYMBOLS 53u

struct zs_fse_sym {
	int32_t delta_find;  /* added to (state >> nbits) to index the state table */
	uint32_t delta_nbits;/* (state + delta_nbits) >> 16 is the number of bits to emit */
};

struct zs_fse_ctable {
	unsigned log;
	unsigned max_symbol;
	int16_t norm[ZS_FSE_ENC_MAX_SYMBOLS];
	uint16_t states[1u << ZS_FSE_ENC_MAX_LOG];
	struct zs_fse_sym sym[ZS_FSE_ENC_MAX_SYMBOLS];
};

/* A table log suited to total samples over symbols 0..max_symbol, at most max_log. */
unsigned zs_fse_pick_log(uint32_t total, unsigned max_symbol, unsigned max_log);

/* counts[0..max_symbol] (total > 0, at least two symbols present) to norm[] summing to 1 << log,
 * every present symbol at least 1. */
void zs_fse_normalize(const uint32_t *counts, unsigned max_symbol, uint32_t total, unsigned log,
		      int16_t *norm);

/* The FSE table description of norm[0..max_symbol]; returns its size or 0 when cap is short. */
size_t zs_fse_write_header(const int16_t *norm, unsigned max_symbol, unsigned log, uint8_t *dst,
			   size_t cap);

/* Builds the encoding table (norm may hold -1 "less than one" entries, as the predefined ones do). */
void zs_fse_build_ctable(struct zs_fse_ctable *ct, const int16_t *norm, unsigned max_symbol,
			 unsigned log);

/* Bits (in 1/256 bit) to code the histogram with this normalized table; UINT32_MAX... when a
 * used symbol has no cell. */
uint64_t zs_fse_cost(const uint32_t *counts, unsigned max_symbol, const int16_t *norm,
		     unsigned norm_max_symbol, unsigned log);

/* The first symbol coded (the last one read) picks the cheapest starting state. */
static inline uint32_t zs_fse_init_state(const struct zs_fse_ctable *ct, unsigned s)
{
	const struct zs_fse_sym *t = &ct->sym[s];
	uint32_t nbits = (t->delta_nbits + (1u << 15)) >> 16;
	uint32_t value = (nbits << 16) - t->delta_nbits;

	return ct->states[(int32_t)(value >> nbits) + t->delta_find];
}

static inline void zs_fse_encode(struct zs_bitw *w, const struct zs_fse_ctable *ct, uint32_t *state,
				 unsigned s)
{
	const struct zs_fse_sym *t = &ct->sym[s];
	uint32_t nbits = (*state + t->delta_nbits) >> 16;

	zs_bitw_put(w, *state & ((1u << nbits) - 1u), nbits);
	*state = ct->states[(int32_t)(*state >> nbits) + t->delta_find];
}

static inline void zs_fse_flush_state(struct zs_bitw *w, const struct zs_fse_ctable *ct, uint32_t state)
{
	zs_bitw_put(w, state & ((1u << ct->log) - 1u), ct->log);
}

#endif
