/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* price.h — fixed-point bit costs (1/256 bit) shared by the entropy-mode choices and the optimal parser. */
#ifndef SQ_ZSTD_COMPRESS_PRICE_H
#define SQ_ZSTD_COMPRESS_PRICE_H

#include <stdint.h>

#include "codecs/zstd/common/mem.h"

#define ZS_PRICE_ONE 256u /* one bit */

/* log2(x) * 256 for x >= 1: integer part from the top bit, fraction by a corrected linear fit
 * (error well under 1/100 bit, plenty for choosing between encodings). */
static inline uint32_t zs_log2_fixed(uint32_t x)
{
	unsigned hb = zs_highbit32(x);
	uint32_t f = hb >= 8 ? (x >> (hb - 8)) & 255u : (x << (8 - hb)) & 255u;

	return (hb << 8) + f + ((f * (256u - f) * 89u) >> 16);
}

/* Cost of a symbol seen count times out of total (count >= 1). */
static inline uint32_t zs_price_of(uint32_t count, uint32_t total)
{
	return zs_log2_fixed(total) - zs_log2_fixed(count);
}

#endif
