/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* seq_tables.c — the sequences section header: sequence count, symbol compression modes, LL/OF/ML tables. */
#include "config.h"

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/decompress/fse_decode.h"
#include "codecs/zstd/decompress/dctx.h"
#include "codecs/zstd/zstd.h"

enum seq_kind { KIND_LL, KIND_OF, KIND_ML };

/* The code's value baseline and extra-bit count, folded into each cell. */
static void code_value(enum seq_kind kind, unsigned symbol, uint32_t *base, uint8_t *extra)
{
	switch (kind) {
	case KIND_LL:
		*base = zs_ll_base[symbol];
		*extra = zs_ll_bits[symbol];
		break;
	case KIND_ML:
		*base = zs_ml_base[symbol];
		*extra = zs_ml_bits[symbol];
		break;
	default:
		*base = (uint32_t)1 << symbol;
		*extra = (uint8_t)symbol;
		break;
	}
}

/* Offset codes: value (1 << code) + code extra bits. */
static const uint32_t of_base[ZS_OF_MAX_CODE + 1] = {
	1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
	1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
	1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
	1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};
static const uint8_t of_bits[ZS_OF_MAX_CODE + 1] = {
	0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};

/* The most bits a sequence reads for a field whose table has codes below nsymbols and the
 * given log: the extra bits grow with the code in all three alphabets, and no cell's state
 * update reads more than log bits. */
static unsigned field_bits(enum seq_kind kind, unsigned nsymbols, unsigned log)
{
	const uint8_t *bits = kind == KIND_LL ? zs_ll_bits : kind == KIND_ML ? zs_ml_bits : of_bits;

	return bits[nsymbols - 1] + log;
}

/* The cells of one table at seq_cells[at], straight from the spread (no intermediate cells). */
static int build_seq_cells(struct zs_seq_cell *seq_cells, unsigned at, enum seq_kind kind,
			   const int16_t *norm, unsigned nsymbols, unsigned log)
{
	struct zs_seq_cell *out = seq_cells + at;
	uint8_t symbols[1u << ZS_FSE_MAX_LOG];
	uint16_t next_state[ZS_FSE_MAX_SYMBOLS];
	const uint32_t *base = kind == KIND_LL ? zs_ll_base : kind == KIND_ML ? zs_ml_base : of_base;
	const uint8_t *bits = kind == KIND_LL ? zs_ll_bits : kind == KIND_ML ? zs_ml_bits : of_bits;
	uint32_t size = 1u << log;

	if (zs_fse_spread(symbols, next_state, norm, nsymbols, log) != 0)
		return -1;
	/* Occurrences in state order: the lowest states of a symbol take one more bit. */
	for (uint32_t u = 0; u < size; u++) {
		unsigned sym = symbols[u];
		uint32_t n = next_state[sym]++;
		unsigned nbits = log - zs_highbit32(n);

		out[u].next_delta = (int16_t)(((int32_t)(n << nbits) - (int32_t)size - (int32_t)u) *
					      (int32_t)sizeof(*out));
		out[u].nbits = (uint8_t)nbits;
		out[u].base = base[sym];
		out[u].extra = bits[sym];
	}
	return 0;
}

void zs_build_default_tables(struct zs_dctx *d)
{
	/* The predefined distributions are valid by construction; failure is impossible. */
	(void)build_seq_cells(d->seq_cells, ZS_CELLS_LL_DEFAULT, KIND_LL, zs_ll_default_norm,
			      ZS_LL_MAX_CODE + 1, ZS_LL_DEFAULT_LOG);
	(void)build_seq_cells(d->seq_cells, ZS_CELLS_OF_DEFAULT, KIND_OF, zs_of_default_norm,
			      ZS_OF_DEFAULT_MAX_CODE + 1, ZS_OF_DEFAULT_LOG);
	(void)build_seq_cells(d->seq_cells, ZS_CELLS_ML_DEFAULT, KIND_ML, zs_ml_default_norm,
			      ZS_ML_MAX_CODE + 1, ZS_ML_DEFAULT_LOG);
}

/* One symbol type's table per its mode. Returns bytes consumed or a negative status. */
static ptrdiff_t read_table(struct zs_dctx *d, struct zs_seq_table *t, unsigned at,
			    unsigned predefined_at, unsigned predefined_log, enum seq_kind kind,
			    unsigned mode, const uint8_t *src, size_t len)
{
	struct zs_seq_cell *storage = d->seq_cells + at;

	unsigned max_symbol = kind == KIND_LL ? ZS_LL_MAX_CODE
			      : kind == KIND_ML ? ZS_ML_MAX_CODE : ZS_OF_MAX_CODE;
	unsigned max_log = kind == KIND_LL ? ZS_LL_MAX_LOG
			   : kind == KIND_ML ? ZS_ML_MAX_LOG : ZS_OF_MAX_LOG;

	switch (mode) {
	case ZS_MODE_PREDEFINED:
		t->cells = d->seq_cells + predefined_at;
		t->log = predefined_log;
		t->seq_bits = field_bits(kind, kind == KIND_OF ? ZS_OF_DEFAULT_MAX_CODE + 1 : max_symbol + 1,
					 predefined_log);
		return 0;
	case ZS_MODE_RLE:
		if (len < 1)
			return ZS_ERR_SRC_TRUNCATED;
		if (src[0] > max_symbol)
			return ZS_ERR_SEQ_HEADER;
		storage[0].next_delta = 0;
		storage[0].nbits = 0;
		code_value(kind, src[0], &storage[0].base, &storage[0].extra);
		t->cells = storage;
		t->log = 0;
		t->seq_bits = storage[0].extra;
		return 1;
	case ZS_MODE_FSE: {
		int16_t norm[ZS_FSE_MAX_SYMBOLS];
		unsigned log, nsymbols;
		ptrdiff_t used = zs_fse_read_counts(src, len, norm, max_symbol, max_log, &log, &nsymbols);

		if (used < 0 || build_seq_cells(d->seq_cells, at, kind, norm, nsymbols, log) != 0) {
			t->cells = NULL;
			return ZS_ERR_FSE_TABLE;
		}
		t->cells = storage;
		t->log = log;
		t->seq_bits = field_bits(kind, nsymbols, log);
		return used;
	}
	default:
		if (t->cells == NULL)
			return ZS_ERR_NO_SEQ_TABLE;
		return 0;
	}
}

ptrdiff_t zs_decode_seq_header(struct zs_dctx *d, const uint8_t *src, size_t len, uint32_t *nseq)
{
	size_t pos;

	if (len < 1)
		return ZS_ERR_SRC_TRUNCATED;
	if (src[0] < 128) {
		*nseq = src[0];
		pos = 1;
	} else if (src[0] < 255) {
		if (len < 2)
			return ZS_ERR_SRC_TRUNCATED;
		*nseq = ((uint32_t)(src[0] - 128) << 8) + src[1];
		pos = 2;
	} else {
		if (len < 3)
			return ZS_ERR_SRC_TRUNCATED;
		*nseq = (uint32_t)src[1] + ((uint32_t)src[2] << 8) + 0x7F00u;
		pos = 3;
	}
	/* No sequences: the section (and block) ends right here, with no modes byte. */
	if (*nseq == 0)
		return pos == len ? (ptrdiff_t)pos : ZS_ERR_SEQ_HEADER;
	if (pos >= len)
		return ZS_ERR_SRC_TRUNCATED;
	unsigned modes = src[pos++];

	if (modes & 3u)
		return ZS_ERR_SEQ_HEADER;

	/* Tables follow in the order LL, OF, ML. */
	ptrdiff_t used = read_table(d, &d->ll, ZS_CELLS_LL, ZS_CELLS_LL_DEFAULT, ZS_LL_DEFAULT_LOG,
				    KIND_LL, modes >> 6, src + pos, len - pos);

	if (used < 0)
		return used;
	pos += (size_t)used;
	used = read_table(d, &d->of, ZS_CELLS_OF, ZS_CELLS_OF_DEFAULT, ZS_OF_DEFAULT_LOG, KIND_OF,
			  (modes >> 4) & 3u, src + pos, len - pos);
	if (used < 0)
		return used;
	pos += (size_t)used;
	used = read_table(d, &d->ml, ZS_CELLS_ML, ZS_CELLS_ML_DEFAULT, ZS_ML_DEFAULT_LOG, KIND_ML,
			  (modes >> 2) & 3u, src + pos, len - pos);
	if (used < 0)
		return used;
	pos += (size_t)used;
	return (ptrdiff_t)pos;
}
