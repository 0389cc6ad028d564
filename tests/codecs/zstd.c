/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zstd.c — unit test of the zstd adapter: options vs the reference, reference blocks
 * decoded by our codec, round trips, bad input. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "tests/codecs/harness.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	const struct codec *c = &codec_zstd;
	static const char *const good[] = {
		"", "-Xcompression-level 15", "-Xcompression-level 1", "-Xcompression-level 3",
		"-Xcompression-level 19", "-Xcompression-level 22",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		harness_option_set(c, good[i], 131072);
	harness_option_set(c, "-Xcompression-level 19", 4096);
	harness_option_set(c, "-Xcompression-level 1", 1048576);

	harness_rejected(c, "-Xcompression-level 0", 131072, 1);
	harness_rejected(c, "-Xcompression-level 23", 131072, 1);
	harness_rejected(c, "-Xcompression-level -1", 131072, 1);
	harness_rejected(c, "-Xcompression-level", 131072, 1);
	harness_rejected(c, "-Xcompression-level 1x", 131072, 0);

	static const uint8_t short_block[3] = { 19, 0, 0 };
	static const uint8_t level0[4] = { 0, 0, 0, 0 };
	static const uint8_t level23[4] = { 23, 0, 0, 0 };
	static const uint8_t negative[4] = { 0xFF, 0xFF, 0xFF, 0xFF };
	harness_bad_block(c, short_block, sizeof short_block, 131072);
	harness_bad_block(c, level0, sizeof level0, 131072);
	harness_bad_block(c, level23, sizeof level23, 131072);
	harness_bad_block(c, negative, sizeof negative, 131072);

	struct codec_opts opts;
	char err[256];
	if (harness_parse(c, &opts, 131072, "", err, sizeof err) == 0)
		harness_hostile(c, &opts, 131072);
	if (harness_parse(c, &opts, 8192, "-Xcompression-level 3", err, sizeof err) == 0)
		harness_hostile(c, &opts, 8192);
	return harness_exit_code("codecs_zstd");
}
