/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzo.c — unit test of the lzo backend: options vs the reference, round trips, bad input, and
 * -Xliblzo2 (liblzo2's lzo1x_999 in place of our encoder). */
#include "config.h"
#include "codecs/codec_impl.h"
#include "tests/codecs/harness.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	const struct codec *c = &codec_lzo;
	static const char *const good[] = {
		"", "-Xalgorithm lzo1x_999", "-Xcompression-level 8", "-Xcompression-level 9",
		"-Xcompression-level 1", "-Xalgorithm lzo1x_1", "-Xalgorithm lzo1x_1_11",
		"-Xalgorithm lzo1x_1_12", "-Xalgorithm lzo1x_1_15",
		"-Xcompression-level 3 -Xalgorithm lzo1x_999",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		harness_option_set(c, good[i], 131072);
	harness_option_set(c, "-Xalgorithm lzo1x_1", 4096);
	harness_option_set(c, "", 1048576);
	harness_library_switch(c, "-Xliblzo2");

	harness_rejected(c, "-Xalgorithm foo", 131072, 1);
	harness_rejected(c, "-Xalgorithm", 131072, 1);
	harness_rejected(c, "-Xalgorithm lzo1x_1 -Xcompression-level 5", 131072, 1);
	harness_rejected(c, "-Xcompression-level 5 -Xalgorithm lzo1x_1_15", 131072, 1);
	harness_rejected(c, "-Xcompression-level 0", 131072, 1);
	harness_rejected(c, "-Xcompression-level 10", 131072, 1);
	harness_rejected(c, "-Xcompression-level", 131072, 1);

	static const uint8_t short_block[4] = { 4, 0, 0, 0 };
	static const uint8_t alg5[8] = { 5, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t level0[8] = { 4, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t level10[8] = { 4, 0, 0, 0, 10, 0, 0, 0 };
	harness_bad_block(c, short_block, sizeof short_block, 131072);
	harness_bad_block(c, alg5, sizeof alg5, 131072);
	harness_bad_block(c, level0, sizeof level0, 131072);
	harness_bad_block(c, level10, sizeof level10, 131072);

	struct codec_opts opts;
	char err[256];
	if (harness_parse(c, &opts, 131072, "", err, sizeof err) == 0)
		harness_hostile(c, &opts, 131072);
	if (harness_parse(c, &opts, 8192, "-Xalgorithm lzo1x_1_11", err, sizeof err) == 0)
		harness_hostile(c, &opts, 8192);
	return harness_exit_code("codecs_lzo");
}
