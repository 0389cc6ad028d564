/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* block_enc.h — entropy coding of one compressed block: literals section, sequences section, table reuse. */
#ifndef SQ_ZSTD_COMPRESS_BLOCK_ENC_H
#define SQ_ZSTD_COMPRESS_BLOCK_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/compress/fse_enc.h"
#include "codecs/zstd/compress/huf_enc.h"

/* A block of 128 KiB holds at most one sequence per 3 bytes (the shortest match). */
#define ZS_BLOCK_MAX_SEQS (131072u / 3u + 1u)

/* One sequence: lit literals, then a match of ml bytes; offval is the Offset_Value of the
 * format (1..3 repeat codes, otherwise offset + 3). */
struct zs_seq {
	uint32_t lit;
	uint32_t ml;
	uint32_t offval;
};

/* Tables a later block of the frame may reuse (treeless literals, repeat mode). */
struct zs_entropy {
	int huf_valid;
	struct zs_huf_ctable huf;
	int fse_valid[3]; /* LL, OF, ML */
	struct zs_fse_ctable fse[3];
};

/* Scratch for encoding a block of up to 128 KiB; lives in the context. */
struct zs_block_scratch {
	uint8_t codes[3][ZS_BLOCK_MAX_SEQS];
	struct zs_fse_ctable tmp_fse[3];
	struct zs_huf_ctable tmp_huf;
	int huf_search; /* try shorter Huffman code limits for a smaller table description */
};

/* The literals section (literals_enc.c): lits[0..n) into dst; next->huf is the Huffman table the
 * decoder holds afterwards. Returns the section size, or 0 when it does not fit in cap. */
size_t zs_encode_literals(const struct zs_entropy *prev, struct zs_entropy *next,
			  struct zs_block_scratch *sc, const uint8_t *lits, size_t n, uint8_t *dst,
			  size_t cap);

/* The sequences section (sequences_enc.c): seqs[0..nseq) into dst; next->fse the tables the
 * decoder holds afterwards. Returns the section size, or 0 when it does not fit in cap. */
size_t zs_encode_sequences(const struct zs_entropy *prev, struct zs_entropy *next,
			   struct zs_block_scratch *sc, const struct zs_seq *seqs, size_t nseq,
			   uint8_t *dst, size_t cap);

/* Histograms of a run of sequences' codes: what the sequences section's size depends on. */
struct zs_seq_counts {
	uint32_t c[3][64]; /* LL, OF, ML codes */
	size_t nseq;
};

/* The LL, OF, ML codes of seqs[0..nseq) into sc->codes. */
void zs_seq_codes(struct zs_block_scratch *sc, const struct zs_seq *seqs, size_t nseq);

/* Estimates of the two sections' sizes in bytes, from the same choices as the encoders but
 * without writing them, for n literals of histogram counts and for sequences of histograms
 * cn; next gets the tables an estimate of a following block needs. */
size_t zs_literals_cost(const struct zs_entropy *prev, struct zs_entropy *next,
			struct zs_block_scratch *sc, const uint32_t *counts, size_t n);
size_t zs_sequences_cost(const struct zs_entropy *prev, struct zs_entropy *next,
			 const struct zs_seq_counts *cn);

/* Encodes literals lits[0..nlits) and seqs[0..nseq) as a compressed block body into dst.
 * next receives the tables the decoder will hold afterwards (a copy of prev where unchanged).
 * Returns the body size, or 0 when it does not fit in cap. */
size_t zs_encode_block(const struct zs_entropy *prev, struct zs_entropy *next,
		       struct zs_block_scratch *scratch, const uint8_t *lits, size_t nlits,
		       const struct zs_seq *seqs, size_t nseq, uint8_t *dst, size_t cap);

#endif
