/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* fse_decode.h — reading FSE table descriptions and building FSE decoding tables (RFC 8878 4.1). */
#ifndef SQ_ZSTD_DECOMPRESS_FSE_DECODE_H
#define SQ_ZSTD_DECOMPRESS_FSE_DECODE_H

#include <stddef.h>
#include <stdint.h>

#define ZS_FSE_MAX_LOG 9u
#define ZS_FSE_MAX_SYMBOLS 53u /* match-length codes are the largest alphabet */

/* One decoding-table cell: the state's symbol and how to reach the next state
 * (next = next_base + read(nbits)). */
struct zs_fse_cell {
	uint16_t next_base;
	uint8_t symbol;
	uint8_t nbits;
};

/* Parse a table description from src[0..len): normalized counts into norm[0..*nsymbols),
 * where *nsymbols is one past the last present symbol (<= max_symbol + 1; entries after it
 * are left as they were), and the accuracy log into *log, which must be <= max_log. Returns
 * the bytes consumed (> 0), or -1 when corrupt or truncated. */
ptrdiff_t zs_fse_read_counts(const uint8_t *src, size_t len, int16_t *norm, unsigned max_symbol,
			     unsigned max_log, unsigned *log, unsigned *nsymbols);

/* The symbol of each of the 1 << log cells into symbols[], and each symbol's first state
 * counter (its count, 1 for "less than 1") into next_state[0..nsymbols). Same contract as
 * zs_fse_build; the second half of a build is each table's own (cells of their own layout). */
int zs_fse_spread(uint8_t *symbols, uint16_t *next_state, const int16_t *norm, unsigned nsymbols,
		  unsigned log);

/* Build the 1 << log cells from norm[0..nsymbols) whose counts (-1 counting as 1) sum to
 * 1 << log (log <= ZS_FSE_MAX_LOG, nsymbols <= ZS_FSE_MAX_SYMBOLS). Returns 0, or -1 if the
 * distribution does not fill the table exactly. */
int zs_fse_build(struct zs_fse_cell *cells, const int16_t *norm, unsigned nsymbols, unsigned log);

#endif
