/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* levels_mid.c — the levels whose inputs of 128-512 KiB (mksquashfs -b 256K, 512K) take rows of their own. */
#include "config.h"

#include <stddef.h>

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/zstd.h"

/* libzstd's levels search harder on inputs over 128 KiB than on 128 KiB ones (from level 2
 * a stronger strategy), and levels.c's rows for 128 KiB left 256 KiB frames of the four
 * bench/codec.sh samples up to 6.1 % larger than libzstd's at levels 1-7 and 13 (level 4 on
 * text the most; levels 8-11 and 14-22 were 0.04-2 % smaller, level 12 on misc 1.0001).
 * Its rows for 1 MiB left 512 KiB frames 0.01-0.14 % larger at levels 1, 5, 7 and 8. Each
 * row here is the cheapest of a few candidates whose frames were no larger than libzstd's at
 * that level and size on every sample; at 256 KiB most take the next level's kind of search,
 * as libzstd's own table for inputs up to 256 KiB does. Comments give ours/libzstd 1.5.4's
 * size (tree, text, bin, misc) and speed from one locked run (codec_bench -n 5 -t 0.2). The
 * levels and sizes not listed keep levels.c's rows. */
struct mid_row {
	int own; /* 0: levels.c's row for the size */
	struct zs_params p;
};

/* Per level: { inputs of 128-256 KiB, of 256-512 KiB }. */
static const struct mid_row mid_table[ZS_MAX_LEVEL + 1][2] = {
	/* Tables twice as large, tagged (match_fast.c). 256 KiB: 0.9903, 0.9943, 0.9887, 0.9857
	 * at 1.12-1.18x (2^14 slots: 0.9979-0.9984; 5-byte hashes: misc 1.0012). 512 KiB, the
	 * 1 MiB row's pairs from a step of 3 (which left text 1.0009): 0.9675, 0.9960, 0.9741,
	 * 0.9779 at 1.08-1.16x (without a copy of its own: misc 0.98x). */
	[1] = {{1, {ZS_DFAST, 15, 0, 9, 6, 1, 1}}, {1, {ZS_DFAST, 15, 0, 7, 6, 2, 1}}},
	/* Two tables, the sizes of level 3's row at 128 KiB (match_dfast.c's copy row3s; one
	 * table of 2^16-2^17: text 1.053), a retry target of 10: 0.9872, 0.9911, 0.9884, 0.9815
	 * at 1.02-1.07x (2^14 short slots, with no copy of their own: misc 0.97x; a target of 12
	 * left misc smaller than level 3's; 8, no retry: text 1.0017). */
	[2] = {{1, {ZS_DFAST, 16, 15, 8, 5, 10, 1}}},
	/* Level 4's row at 128 KiB, 4-byte short hashes: 0.9919, 0.9768, 0.9972, 0.9874 at
	 * 1.01-1.19x. */
	[3] = {{1, {ZS_DFAST, 16, 15, 8, 4, 64, 1}}},
	/* The greedy parse on 5-byte rows (the double tables, even of 2^17: text 1.06; 4-byte
	 * rows: text 1.0040, misc 1.0086 and slower than libzstd): 0.9974, 0.9959, 0.9987,
	 * 0.9961 at 1.07-1.15x. */
	[4] = {{1, {ZS_GREEDY, 6, 17, 3, 5, 0, 1}}},
	/* 256 KiB: the greedy parse over 2^5 candidates (match_lazy.c's parse_192_5g): 0.9982,
	 * 0.9958, 0.9999, 0.9975 at 1.00-1.04x (one lazy step over 2^3: 0.9875-0.9938 but
	 * 0.87-0.97x; greedy over 2^4: 1.0006-1.0074). 512 KiB: rows for 2^17 positions, not
	 * 2^16: 0.9979, 0.9965, 0.9994, 0.9972 (bin was 1.0012, misc 1.0004) at 1.06-1.15x. */
	[5] = {{1, {ZS_GREEDY, 6, 17, 5, 5, 0, 1}}, {1, {ZS_GREEDY, 6, 17, 3, 5, 0, 1}}},
	/* One lazy step over 2^3 candidates in rows for 2^18 positions: 0.9988, 0.9990, 0.9995,
	 * 0.9980 at 1.08-1.14x (2^17 rows: bin 1.0004; 2^4 candidates: 0.9840-0.9970 but misc
	 * 0.93-0.97x). */
	[6] = {{1, {ZS_LAZY, 6, 18, 3, 5, 24, 1}}},
	/* 256 KiB: 4-byte rows of 2^4 candidates, one lazy step (5-byte ones: tree and bin 1.02;
	 * two lazy steps over 2^3 candidates: 1.0005-1.0049): 0.9967, 0.9962, 0.9989, 0.9968 at
	 * 1.03-1.11x. 512 KiB: rows for 2^18 positions: 0.9986, 0.9983, 0.9995, 0.9958 (bin was
	 * 1.00002). */
	[7] = {{1, {ZS_LAZY, 6, 17, 4, 4, 32, 1}}, {1, {ZS_LAZY, 6, 18, 4, 5, 24, 1}}},
	/* 512 KiB: rows for 2^17 positions, not 2^16: 0.9992, 0.9975, 0.9992, 0.9966 (tree was
	 * 1.0006, bin 1.0014) at 1.10-1.23x. */
	[8] = {{0}, {1, {ZS_LAZY2, 6, 17, 4, 5, 32, 1}}},
	/* 3-byte matches and a target of 64 (4-byte ones with 20: text 1.0301, misc 1.0170; with
	 * 32: tree 1.0004, misc 1.0045): 0.9830, 0.9667, 0.9600, 0.9929. */
	[13] = {{1, {ZS_BTOPT, 17, 18, 3, 3, 64, 1}}},
};

const struct zs_params *zs_mid_params(int level, size_t input)
{
	if (level < ZS_MIN_LEVEL || level > ZS_MAX_LEVEL || input <= ZS_MID_INPUT ||
	    input > 2 * ZS_LARGE_INPUT)
		return NULL;
	const struct mid_row *r = &mid_table[level][input > ZS_LARGE_INPUT];

	return r->own ? &r->p : NULL;
}
