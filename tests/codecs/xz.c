/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz.c — unit test of the xz backend: options vs the reference, round trips, bad input. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "tests/codecs/harness.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	const struct codec *c = &codec_xz;
	static const char *const good[] = {
		"", "-Xdict-size 100%", "-Xdict-size 128K", "-Xdict-size 131072",
		"-Xdict-size 50%", "-Xdict-size 37.5%", "-Xdict-size 75%", "-Xdict-size 8k",
		"-Xdict-size 96K", "-Xbcj x86", "-Xbcj arm,x86", "-Xbcj x86 -Xbcj sparc",
		"-Xbcj x86,powerpc,ia64,arm,armthumb,sparc", "-Xbcj x86 -Xdict-size 64K",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		harness_option_set(c, good[i], 131072);
	harness_option_set(c, "-Xdict-size 1M", 1048576);
	harness_option_set(c, "-Xdict-size 25%", 1048576);
	harness_option_set(c, "-Xdict-size 64K", 65536);
	harness_option_set(c, "-Xbcj x86", 8192);

	harness_rejected(c, "-Xbcj foo", 131072, 1);
	harness_rejected(c, "-Xbcj x86,,arm", 131072, 1);
	harness_rejected(c, "-Xbcj", 131072, 1);
	harness_rejected(c, "-Xdict-size 4K", 131072, 1);
	harness_rejected(c, "-Xdict-size 200K", 131072, 1);
	harness_rejected(c, "-Xdict-size 1M", 131072, 1);
	harness_rejected(c, "-Xdict-size 20K", 131072, 1);
	harness_rejected(c, "-Xdict-size 33%", 131072, 1);
	harness_rejected(c, "-Xdict-size 3%", 131072, 1);
	harness_rejected(c, "-Xdict-size 0%", 131072, 1);
	harness_rejected(c, "-Xdict-size 150%", 131072, 1);
	harness_rejected(c, "-Xdict-size 1.5K", 131072, 1);
	harness_rejected(c, "-Xdict-size abc", 131072, 1);
	harness_rejected(c, "-Xdict-size 10X", 131072, 1);
	harness_rejected(c, "-Xdict-size 99999999999", 131072, 0);
	harness_rejected(c, "-Xdict-size", 131072, 1);
	harness_rejected(c, "-Xdict-size 8K", 4096, 1);

	static const uint8_t short_block[4] = { 0, 0, 2, 0 };
	static const uint8_t dict20k[8] = { 0, 0x50, 0, 0, 0, 0, 0, 0 };
	static const uint8_t dict0[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t filter_bits[8] = { 0, 0, 2, 0, 0x40, 0, 0, 0 };
	harness_bad_block(c, short_block, sizeof short_block, 131072);
	harness_bad_block(c, dict20k, sizeof dict20k, 131072);
	harness_bad_block(c, dict0, sizeof dict0, 131072);
	harness_bad_block(c, filter_bits, sizeof filter_bits, 131072);

	struct codec_opts opts;
	char err[256];
	if (harness_parse(c, &opts, 131072, "", err, sizeof err) == 0)
		harness_hostile(c, &opts, 131072);
	if (harness_parse(c, &opts, 65536, "-Xbcj x86,arm -Xdict-size 50%", err, sizeof err) == 0)
		harness_hostile(c, &opts, 65536);
	return harness_exit_code("codecs_xz");
}
