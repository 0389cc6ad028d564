/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* huf_enc.h — Huffman coding of zstd literals: length-limited codes, tree descriptions, 1- and 4-stream coding. */
#ifndef SQ_ZSTD_COMPRESS_HUF_ENC_H
#define SQ_ZSTD_COMPRESS_HUF_ENC_H

#include <stddef.h>
#include <stdint.h>

#define ZS_HUF_ENC_MAX_BITS 11u

struct zs_huf_ctable {
	uint8_t len[256];   /* 0 = symbol absent */
	uint16_t code[256];
	unsigned max_len;   /* the table log the weights describe */
	unsigned max_symbol;/* highest symbol with a code */
};

/* A Huffman code in two steps, so that several length limits can be tried on one histogram:
 * the symbols present, by ascending count, with their unlimited optimal lengths (0 when fewer
 * than two symbols are present: use RLE or raw literals then)... */
struct zs_huf_lengths {
	uint16_t sym[256];
	uint8_t len[256];
	unsigned n, max_len;
};

int zs_huf_lengths(struct zs_huf_lengths *hl, const uint32_t *counts, unsigned max_symbol);

/* ...then canonical codes from them no longer than limit (at most ZS_HUF_ENC_MAX_BITS; 0 when
 * 2^limit cannot hold the symbols). */
int zs_huf_limit(struct zs_huf_ctable *ct, const struct zs_huf_lengths *hl, unsigned max_symbol,
		 unsigned limit);

/* The tree description (header byte and weights); returns its size or 0 when it cannot be
 * expressed in cap bytes. */
size_t zs_huf_write_tree(const struct zs_huf_ctable *ct, uint8_t *dst, size_t cap);

/* Payload bits of coding the histogram; UINT64_MAX when a present symbol has no code. */
uint64_t zs_huf_cost(const struct zs_huf_ctable *ct, const uint32_t *counts, unsigned max_symbol);

/* One stream, or four with the 6-byte jump table (n >= 16). Returns the size or 0 if it does
 * not fit. */
size_t zs_huf_encode_1(const struct zs_huf_ctable *ct, const uint8_t *src, size_t n, uint8_t *dst,
		       size_t cap);
size_t zs_huf_encode_4(const struct zs_huf_ctable *ct, const uint8_t *src, size_t n, uint8_t *dst,
		       size_t cap);

#endif
