/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* gzip.c — unit test of the gzip backend: options vs the reference, round trips, bad input. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "tests/codecs/harness.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	const struct codec *c = &codec_gzip;
	static const char *const good[] = {
		"", "-Xcompression-level 9", "-Xcompression-level 1", "-Xcompression-level 5",
		"-Xwindow-size 8", "-Xwindow-size 12", "-Xstrategy default",
		"-Xstrategy default,default", "-Xstrategy filtered", "-Xstrategy fixed",
		"-Xstrategy huffman_only,run_length_encoded",
		"-Xstrategy filtered,fixed,huffman_only,run_length_encoded,default",
		"-Xstrategy filtered -Xstrategy fixed",
		"-Xcompression-level 5 -Xstrategy default",
		"-Xcompression-level 3 -Xwindow-size 10 -Xstrategy default,filtered",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		harness_option_set(c, good[i], 131072);
	harness_option_set(c, "-Xcompression-level 6", 4096);
	harness_option_set(c, "-Xstrategy default,fixed", 1048576);

	harness_rejected(c, "-Xcompression-level 0", 131072, 1);
	harness_rejected(c, "-Xcompression-level 10", 131072, 1);
	harness_rejected(c, "-Xcompression-level abc", 131072, 1);
	harness_rejected(c, "-Xcompression-level", 131072, 1);
	harness_rejected(c, "-Xcompression-level 5x", 131072, 0);
	harness_rejected(c, "-Xwindow-size 7", 131072, 1);
	harness_rejected(c, "-Xwindow-size 16", 131072, 1);
	harness_rejected(c, "-Xstrategy foo", 131072, 1);
	harness_rejected(c, "-Xstrategy default,,fixed", 131072, 1);
	harness_rejected(c, "-Xstrategy", 131072, 1);

	static const uint8_t short_block[4] = { 9, 0, 0, 0 };
	static const uint8_t level0[8] = { 0, 0, 0, 0, 15, 0, 0, 0 };
	static const uint8_t level10[8] = { 10, 0, 0, 0, 15, 0, 0, 0 };
	static const uint8_t window7[8] = { 9, 0, 0, 0, 7, 0, 0, 0 };
	static const uint8_t window16[8] = { 9, 0, 0, 0, 16, 0, 0, 0 };
	static const uint8_t strategy_bits[8] = { 9, 0, 0, 0, 15, 0, 0x20, 0 };
	harness_bad_block(c, short_block, sizeof short_block, 131072);
	harness_bad_block(c, level0, sizeof level0, 131072);
	harness_bad_block(c, level10, sizeof level10, 131072);
	harness_bad_block(c, window7, sizeof window7, 131072);
	harness_bad_block(c, window16, sizeof window16, 131072);
	harness_bad_block(c, strategy_bits, sizeof strategy_bits, 131072);

	struct codec_opts opts;
	char err[256];
	harness_library_switch(c, "-Xzlib");
	if (harness_parse(c, &opts, 131072, "", err, sizeof err) == 0)
		harness_hostile(c, &opts, 131072);
	if (harness_parse(c, &opts, 8192, "-Xwindow-size 9 -Xstrategy fixed,filtered", err,
			  sizeof err) == 0)
		harness_hostile(c, &opts, 8192);
	return harness_exit_code("codecs_gzip");
}
