/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dctx.h — the decoder context shared by the frame, block, literals and sequences stages (internal). */
#ifndef SQ_ZSTD_DECOMPRESS_DCTX_H
#define SQ_ZSTD_DECOMPRESS_DCTX_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/decompress/huf_decode.h"
#include "codecs/zstd/common/tables.h"

/* Slack after the literals so sequence execution may copy them 16 bytes at a time. */
#define ZS_LIT_SLACK 32u

/* A sequence decoding-table cell with the code's baseline and extra bits folded in:
 * value = base + read(extra); the next state is the cell next_delta + 8 * read(nbits) bytes
 * from this one. States are cell pointers and the step is relative, so the sequence loop
 * holds no table base in a register and a state addresses its cell without an add (the
 * scaling in the update is free in an LEA). */
struct zs_seq_cell {
	uint32_t base;
	int16_t next_delta; /* within +-8 * 512: the next state is in the same table */
	uint8_t nbits;
	uint8_t extra;
};

/* One of LL, OF, ML: the table in use (the predefined one, or this context's own storage). */
struct zs_seq_table {
	const struct zs_seq_cell *cells; /* NULL: none yet in this frame (repeat mode invalid) */
	unsigned log;
	unsigned seq_bits; /* the most bits one sequence reads for this field: extra and state */
};

/* Where each table lives in zs_dctx.seq_cells: the stream's own (FSE or RLE), then the
 * predefined ones built once at creation. */
enum {
	ZS_CELLS_LL = 0,
	ZS_CELLS_OF = ZS_CELLS_LL + (1u << ZS_LL_MAX_LOG),
	ZS_CELLS_ML = ZS_CELLS_OF + (1u << ZS_OF_MAX_LOG),
	ZS_CELLS_LL_DEFAULT = ZS_CELLS_ML + (1u << ZS_ML_MAX_LOG),
	ZS_CELLS_OF_DEFAULT = ZS_CELLS_LL_DEFAULT + (1u << ZS_LL_DEFAULT_LOG),
	ZS_CELLS_ML_DEFAULT = ZS_CELLS_OF_DEFAULT + (1u << ZS_OF_DEFAULT_LOG),
	ZS_CELLS_TOTAL = ZS_CELLS_ML_DEFAULT + (1u << ZS_ML_DEFAULT_LOG)
};

struct zs_dctx {
	int bmi2; /* the CPU runs the BMI2 clones of the hot loops */

	/* Per frame: what earlier blocks left for treeless/repeat modes and repeat offsets. */
	struct zs_huf_table huf;
	struct zs_seq_table ll, of, ml;
	uint32_t rep[3];

	/* The current block's literals. */
	const uint8_t *lit;
	size_t lit_len;

	/* Every sequence table, laid out as ZS_CELLS_* says. */
	struct zs_seq_cell seq_cells[ZS_CELLS_TOTAL];

	uint8_t lit_buf[ZS_BLOCK_SIZE_MAX + ZS_LIT_SLACK];
};

/* Where a block's output goes: [frame_start, dst_end) is the frame's history and room; the
 * block may not write past block_end (= min(dst_end, op + block max)). */
struct zs_out {
	uint8_t *frame_start;
	uint8_t *op;
	uint8_t *dst_end;
	uint8_t *block_end;
	uint64_t window;
};

/* Start-of-frame state: no tables, repeat offsets 1, 4, 8. */
void zs_dctx_reset_frame(struct zs_dctx *d);

/* Decode one compressed block src[0..len) appending to out->op. Returns a zs_status. */
int zs_decode_block(struct zs_dctx *d, const uint8_t *src, size_t len, struct zs_out *out);

/* Literals section at the start of a compressed block: sets d->lit / d->lit_len. Returns the
 * bytes consumed (>= 1) or a negative zs_status. block_max bounds the regenerated size. */
ptrdiff_t zs_decode_literals(struct zs_dctx *d, const uint8_t *src, size_t len, size_t block_max);

/* Sequences section header and tables: sets d->ll/of/ml, *nseq. Returns bytes consumed or a
 * negative zs_status. */
ptrdiff_t zs_decode_seq_header(struct zs_dctx *d, const uint8_t *src, size_t len, uint32_t *nseq);

/* Build predefined tables (at context creation). */
void zs_build_default_tables(struct zs_dctx *d);

/* Decode nseq sequences from the bitstream src[0..len) and execute them with d->lit into out.
 * Returns a zs_status. */
int zs_execute_sequences(struct zs_dctx *d, const uint8_t *src, size_t len, uint32_t nseq,
			 struct zs_out *out);

#endif
