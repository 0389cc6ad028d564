/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* huf_decode.h — Huffman tree descriptions and table-driven decoding of 1 or 4 literal streams (RFC 8878 4.2). */
#ifndef SQ_ZSTD_DECOMPRESS_HUF_DECODE_H
#define SQ_ZSTD_DECOMPRESS_HUF_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/common/tables.h"

/* A decoding table indexed by the next max_bits bits of the stream: each entry holds the
 * code length (low byte) and the symbol (high byte). */
struct zs_huf_table {
	unsigned max_bits; /* 0: no table yet */
	uint16_t entries[1u << ZS_HUF_MAX_BITS];
};

/* Read a tree description from src[0..len) and build *t. Returns the bytes consumed, or -1
 * when the description is corrupt (t is then left with max_bits 0). */
ptrdiff_t zs_huf_read_table(struct zs_huf_table *t, const uint8_t *src, size_t len);

/* Decode exactly dst_len symbols from src[0..len), every stream consumed to its last bit.
 * One stream, or (four_streams) a 6-byte jump table then four streams decoding to four
 * consecutive segments of (dst_len + 3) / 4 bytes (the last one shorter). 0, or -1 on a
 * corrupt stream. bmi2: use the BMI2 clones (only if zs_cpu_has_bmi2()). */
int zs_huf_decode(const struct zs_huf_table *t, uint8_t *dst, size_t dst_len, const uint8_t *src,
		  size_t len, int four_streams, int bmi2);

#endif
