/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tables.h — zstd format constants and the fixed sequence-code tables (RFC 8878 sections 3.1.1.3.2.1, 4.1). */
#ifndef SQ_ZSTD_COMMON_TABLES_H
#define SQ_ZSTD_COMMON_TABLES_H

#include <stdint.h>

#include "codecs/zstd/common/mem.h"

/* ---- Frames ---- */
#define ZS_MAGIC 0xFD2FB528u
#define ZS_SKIPPABLE_MAGIC 0x184D2A50u   /* low 4 bits free: 0x184D2A50..0x184D2A5F */
#define ZS_SKIPPABLE_MASK 0xFFFFFFF0u
#define ZS_FRAME_HEADER_MAX 18u          /* magic excluded: 1 + 1 + 4 + 8 ... see frame.c */
#define ZS_WINDOW_LOG_MIN 10u            /* Window_Descriptor exponent bias */
#define ZS_WINDOW_LOG_MAX 41u            /* largest window a descriptor can express */
#define ZS_BLOCK_SIZE_MAX (128u * 1024u) /* hard cap on a block's decoded size */
#define ZS_CHECKSUM_SIZE 4u

/* Block_Type in the 3-byte block header. */
enum zs_block_type { ZS_BLOCK_RAW = 0, ZS_BLOCK_RLE = 1, ZS_BLOCK_COMPRESSED = 2, ZS_BLOCK_RESERVED = 3 };

/* Literals_Block_Type. */
enum zs_lit_type { ZS_LIT_RAW = 0, ZS_LIT_RLE = 1, ZS_LIT_COMPRESSED = 2, ZS_LIT_TREELESS = 3 };

/* Symbol compression modes of the sequences section (each of LL, OF, ML). */
enum zs_seq_mode { ZS_MODE_PREDEFINED = 0, ZS_MODE_RLE = 1, ZS_MODE_FSE = 2, ZS_MODE_REPEAT = 3 };

/* ---- Huffman (literals) ---- */
#define ZS_HUF_MAX_BITS 11u     /* longest code */
#define ZS_HUF_MAX_SYMBOLS 256u
#define ZS_HUF_WEIGHT_LOG_MAX 6u /* accuracy log limit of the FSE-compressed weights */

/* ---- Sequence codes ---- */
#define ZS_LL_MAX_CODE 35u
#define ZS_ML_MAX_CODE 52u
#define ZS_OF_MAX_CODE 31u /* largest offset code this decoder accepts */
#define ZS_LL_MAX_LOG 9u   /* accuracy log limits of encoded FSE tables */
#define ZS_ML_MAX_LOG 9u
#define ZS_OF_MAX_LOG 8u
#define ZS_LL_DEFAULT_LOG 6u
#define ZS_ML_DEFAULT_LOG 6u
#define ZS_OF_DEFAULT_LOG 5u
#define ZS_OF_DEFAULT_MAX_CODE 28u /* the predefined OF distribution covers codes 0..28 */
#define ZS_FSE_LOG_MIN 5u          /* smallest Accuracy_Log a table description can state */
#define ZS_MIN_MATCH 3u
#define ZS_REP_START_1 1u /* starting repeat offsets of every frame */
#define ZS_REP_START_2 4u
#define ZS_REP_START_3 8u

/* Literal length = zs_ll_base[code] + read(zs_ll_bits[code]) bits. */
extern const uint32_t zs_ll_base[ZS_LL_MAX_CODE + 1];
extern const uint8_t zs_ll_bits[ZS_LL_MAX_CODE + 1];
/* Match length = zs_ml_base[code] + read(zs_ml_bits[code]) bits (bases include the minimum of 3). */
extern const uint32_t zs_ml_base[ZS_ML_MAX_CODE + 1];
extern const uint8_t zs_ml_bits[ZS_ML_MAX_CODE + 1];
/* Offset code c: Offset_Value = (1 << c) + read(c) bits; values 1..3 are repeat codes, else
 * offset = Offset_Value - 3. No table needed. */

/* Predefined normalized distributions (-1 means "less than 1": one cell, full-state reset). */
extern const int16_t zs_ll_default_norm[ZS_LL_MAX_CODE + 1];
extern const int16_t zs_ml_default_norm[ZS_ML_MAX_CODE + 1];
extern const int16_t zs_of_default_norm[ZS_OF_DEFAULT_MAX_CODE + 1];

/* Encoder helpers: the code for a literal length (any value up to 2^17), for a match length
 * (>= 3), for an Offset_Value (>= 1). */
static inline unsigned zs_ll_code(uint32_t litlen)
{
	static const uint8_t small[64] = {
		0,  1,  2,  3,  4,  5,  6,  7,
		8,  9,  10, 11, 12, 13, 14, 15,
		16, 16, 17, 17, 18, 18, 19, 19,
		20, 20, 20, 20, 21, 21, 21, 21,
		22, 22, 22, 22, 22, 22, 22, 22,
		23, 23, 23, 23, 23, 23, 23, 23,
		24, 24, 24, 24, 24, 24, 24, 24,
		24, 24, 24, 24, 24, 24, 24, 24,
	};
	/* From 64 on, codes 25.. are powers of two: 64 -> 25, 128 -> 26, ... */
	return litlen < 64 ? small[litlen] : zs_highbit32(litlen) + 19u;
}

static inline unsigned zs_ml_code(uint32_t matchlen)
{
	static const uint8_t small[128] = {
		0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
		16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
		32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 36, 36, 37, 37, 37, 37,
		38, 38, 38, 38, 38, 38, 38, 38, 39, 39, 39, 39, 39, 39, 39, 39,
		40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40,
		41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41, 41,
		42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42,
		42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42, 42,
	};
	uint32_t v = matchlen - ZS_MIN_MATCH;
	/* From 128 on (match length 131), codes 43.. are powers of two: 128 -> 43, 256 -> 44, ... */
	return v < 128 ? small[v] : zs_highbit32(v) + 36u;
}

static inline unsigned zs_of_code(uint32_t offset_value)
{
	return zs_highbit32(offset_value);
}

#endif
