/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tables.c — the fixed tables of the zstd format: length-code baselines and predefined FSE distributions. */
#include "config.h"

#include "codecs/zstd/common/tables.h"

const uint32_t zs_ll_base[ZS_LL_MAX_CODE + 1] = {
	0,  1,  2,  3,  4,  5,  6,   7,   8,   9,   10,  11,   12,   13,   14,   15,   16,    18,
	20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536,
};

const uint8_t zs_ll_bits[ZS_LL_MAX_CODE + 1] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  0,  0,  1,  1,
	1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};

const uint32_t zs_ml_base[ZS_ML_MAX_CODE + 1] = {
	3,   4,   5,   6,    7,    8,    9,    10,   11,    12,    13,    14,    15,    16,
	17,  18,  19,  20,   21,   22,   23,   24,   25,    26,    27,    28,    29,    30,
	31,  32,  33,  34,   35,   37,   39,   41,   43,    47,    51,    59,    67,    83,
	99,  131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539,
};

const uint8_t zs_ml_bits[ZS_ML_MAX_CODE + 1] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};

const int16_t zs_ll_default_norm[ZS_LL_MAX_CODE + 1] = {
	4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1,
};

const int16_t zs_ml_default_norm[ZS_ML_MAX_CODE + 1] = {
	1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1,
};

const int16_t zs_of_default_norm[ZS_OF_DEFAULT_MAX_CODE + 1] = {
	1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1,
};
