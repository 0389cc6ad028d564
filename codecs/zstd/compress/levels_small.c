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
 * the optimal parser from level 11. Table sizes are capped by frame.c at what the input needs.
 * Levels 5-20 were then made cheaper where the size allowed (zsmall14, 2026-12-05: every sample
 * still no larger than libzstd's at 4, 8 and 16 KiB; locked A/B against main 5b11d4c, RUNS=5, two
 * rounds): levels 5-7 take a match of 32 bytes without lazy evaluation (0-0.24 % larger, text the
 * most); level 8 takes level 7's rows, not the trees (0.9953-0.9999 of libzstd's size, misc at 16
 * KiB the least margin; its rows ran 1.4-2.2x as fast as the trees); levels 9-10 shallower trees
 * (2^5 and 2^6 descents, not 2^7 and 2^8: 0.9949-0.9993; 2^4 left level 9 larger than level 8 on
 * text and bin too); levels 13-14 the optimal rows of the level below, level 12 3-byte matches
 * over 8 descents (0.9814-0.9938); levels 17-20 one optimal pass, not two (0.9830-0.9998, text the
 * least margin; 0.2-0.7 % larger, 1.08-1.80x libzstd's speed at 4 KiB where two ran 0.63-1.07x,
 * 1.44-2.24x at 16 KiB where 0.85-1.39x). Ruled out by size: level 3 as a double table (libzstd's
 * shape; retry targets 16-999, steps 6-10, 5-byte short hashes: bin at 4 KiB 1.0011-1.0151), level
 * 4 on level 3's row (text and misc at 8-16 KiB 1.0011-1.0067), levels 5-7 on the row below
 * (1.0009-1.0115), level 9 on rows (misc at 16 KiB 1.0009), level 11 on trees of 64 descents (tree
 * 1.0068-1.0126) or the optimal parser over 4 descents (a target of 16: text 1.0084-1.0181; of 24:
 * 0.9832-0.9989, but only 1.03-1.07x as fast, and 1.3-2.3 % larger than level 10 on text), level
 * 15 on level 14's new row (text at 16 KiB 1.0008; on the old one, ultra over 2^5 descents, it
 * wrote the frames of 2^7), level 17 on level 16's row (text 1.0002-1.0005), level 22 on level
 * 21's two passes (up to 41 bytes larger than level 21: misc at 16 KiB; 1.2-1.3x as fast, one
 * run). As before, level 9 is not ordered after level 8 on tree (its trees 0.02-0.04 % larger than
 * level 8's rows) nor level 11 after level 10 on text. */
static const struct zs_params small_table[ZS_MAX_LEVEL + 1] = {
	{ZS_DFAST, 12, 12, 8, 5, 1, 1},   /* unused (level 0) */
	{ZS_DFAST, 13, 0, 7, 4, 16, 1},   /* 1 */
	{ZS_DFAST, 16, 15, 8, 4, 12, 1},  /* 2 */
	{ZS_GREEDY, 6, 18, 3, 4, 2, 1},   /* 3 */
	{ZS_GREEDY, 6, 18, 4, 4, 2, 1},   /* 4 */
	{ZS_LAZY, 6, 18, 3, 4, 32, 1},    /* 5 */
	{ZS_LAZY2, 6, 18, 4, 4, 32, 1},   /* 6 */
	{ZS_LAZY2, 6, 18, 6, 4, 32, 1},   /* 7 */
	{ZS_LAZY2, 6, 18, 6, 4, 0, 1},    /* 8 */
	{ZS_BTLAZY2, 16, 18, 5, 4, 0, 1}, /* 9 */
	{ZS_BTLAZY2, 16, 18, 6, 4, 0, 1}, /* 10 */
	{ZS_BTOPT, 17, 18, 3, 4, 24, 1},  /* 11 */
	{ZS_BTOPT, 17, 18, 3, 3, 64, 1},  /* 12 */
	{ZS_BTOPT, 17, 18, 4, 3, 64, 1},  /* 13 */
	{ZS_BTOPT, 17, 18, 6, 3, 256, 1}, /* 14 */
	{ZS_BTULTRA, 17, 18, 7, 3, 256, 1}, /* 15 */
	{ZS_BTULTRA, 17, 18, 9, 3, 256, 1}, /* 16 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 1}, /* 17 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 1}, /* 18 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 1}, /* 19 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 1}, /* 20 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, /* 21 */
	{ZS_BTULTRA2, 17, 18, 11, 3, 999, 3}, /* 22 */
};

const struct zs_params *zs_small_params(int level)
{
	if (level < ZS_MIN_LEVEL || level > ZS_MAX_LEVEL)
		return NULL;
	return &small_table[level];
}
