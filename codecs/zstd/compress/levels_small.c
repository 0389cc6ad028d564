/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* levels_small.c — the search parameters of levels 1..22 for inputs of at most 16 KiB (mksquashfs -b 4K..16K). */
#include "config.h"

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/zstd.h"

/* A frame this small has few matches to find and a fixed cost in table descriptions, and the
 * 128 KiB rows left 4 KiB frames up to 3.1 % larger than libzstd's (levels 1-4 and 11-13 worst).
 * Each row here is the cheapest of a ladder of candidates whose 4, 8 and 16 KiB frames of the
 * four bench/codec.sh samples are all no larger than libzstd's at that level (bench/README.md,
 * "zstd frames of 4-16 KiB"): every level takes a stronger strategy than at 128 KiB, as
 * libzstd's own small-input levels do; 4-byte matches at levels 1-2 (5-6 bytes: 1.8-4 % larger);
 * trees from level 8 (the lazy2 rows were 0.1-0.3 % larger at 16 KiB); the optimal parser from
 * level 11. Table sizes are capped by frame.c at what the input needs. */
static const struct zs_params small_table[ZS_MAX_LEVEL + 1] = {
	{ZS_DFAST, 12, 12, 8, 5, 1, 1},   /* unused (level 0) */
	{ZS_DFAST, 13, 0, 7, 4, 16, 1},   /* 1 */
	{ZS_DFAST, 16, 15, 8, 4, 12, 1},  /* 2 */
	{ZS_GREEDY, 6, 18, 3, 4, 2, 1},   /* 3 */
	{ZS_GREEDY, 6, 18, 4, 4, 2, 1},   /* 4 */
	{ZS_LAZY, 6, 18, 3, 4, 0, 1},     /* 5 */
	{ZS_LAZY2, 6, 18, 4, 4, 0, 1},    /* 6 */
	{ZS_LAZY2, 6, 18, 6, 4, 0, 1},    /* 7 */
	{ZS_BTLAZY2, 16, 18, 5, 4, 0, 1}, /* 8 */
	{ZS_BTLAZY2, 16, 18, 7, 4, 0, 1}, /* 9 */
	{ZS_BTLAZY2, 16, 18, 8, 4, 0, 1}, /* 10 */
	{ZS_BTOPT, 17, 18, 3, 4, 24, 1},  /* 11 */
	{ZS_BTOPT, 17, 18, 4, 3, 64, 1},  /* 12 */
	{ZS_BTOPT, 17, 18, 6, 3, 256, 1}, /* 13 */
	{ZS_BTULTRA, 17, 18, 5, 3, 256, 1}, /* 14 */
	{ZS_BTULTRA, 17, 18, 7, 3, 256, 1}, /* 15 */
	{ZS_BTULTRA, 17, 18, 9, 3, 256, 1}, /* 16 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, /* 17 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, /* 18 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, /* 19 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, /* 20 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, /* 21 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 3}, /* 22 */
};

const struct zs_params *zs_small_params(int level)
{
	if (level < ZS_MIN_LEVEL || level > ZS_MAX_LEVEL)
		return NULL;
	return &small_table[level];
}
