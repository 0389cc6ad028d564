/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lz4.c — unit test of the lz4 backend: options vs the reference, round trips, bad input. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "tests/codecs/harness.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	const struct codec *c = &codec_lz4;
	harness_option_set(c, "", 131072);
	harness_option_set(c, "-Xhc", 131072);
	harness_option_set(c, "-Xhc", 4096);
	harness_option_set(c, "", 1048576);

	static const uint8_t short_block[4] = { 1, 0, 0, 0 };
	static const uint8_t version2[8] = { 2, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t version0[8] = { 0, 0, 0, 0, 1, 0, 0, 0 };
	static const uint8_t flags2[8] = { 1, 0, 0, 0, 2, 0, 0, 0 };
	harness_bad_block(c, short_block, sizeof short_block, 131072);
	harness_bad_block(c, version2, sizeof version2, 131072);
	harness_bad_block(c, version0, sizeof version0, 131072);
	harness_bad_block(c, flags2, sizeof flags2, 131072);

	struct codec_opts opts;
	char err[256];
	harness_truncation_detectable = 0;
	if (harness_parse(c, &opts, 131072, "", err, sizeof err) == 0)
		harness_hostile(c, &opts, 131072);
	if (harness_parse(c, &opts, 8192, "-Xhc", err, sizeof err) == 0)
		harness_hostile(c, &opts, 8192);
	return harness_exit_code("codecs_lz4");
}
