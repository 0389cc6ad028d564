/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lz4.c — unit test of the lz4 backend: options vs the reference, round trips, bad input. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "tests/codecs/harness.h"

#include <stdio.h>
#include <string.h>

/* squashfs-tools 4.7.6's options (the reference, 4.5.1, has none of them): the 12-byte block
 * with the "non-default" flag, read back to the same settings; the defaults keep 8 bytes. */
static void v2_options(const struct codec *c)
{
	static const struct {
		const char *args;
		size_t len;
		uint8_t block[12];
	} cases[] = {
		{ "", 8, { 1, 0, 0, 0, 0, 0, 0, 0 } },
		{ "-Xacceleration 1", 8, { 1, 0, 0, 0, 0, 0, 0, 0 } },
		{ "-Xhc -Xcompression-level 12", 8, { 1, 0, 0, 0, 1, 0, 0, 0 } },
		{ "-Xacceleration 10", 12, { 1, 0, 0, 0, 2, 0, 0, 0, 10, 0, 0, 0 } },
		{ "-Xacceleration 65537", 12, { 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 1, 0 } },
		{ "-Xhc -Xcompression-level 3", 12, { 1, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0 } },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct codec_opts opts, back;
		char err[256] = "";
		uint8_t buf[CODEC_OPTIONS_MAX], again[CODEC_OPTIONS_MAX];
		if (harness_parse(c, &opts, 131072, cases[i].args, err, sizeof err) != 0) {
			CHECK(0, "lz4 '%s' rejected: %s", cases[i].args, err);
			continue;
		}
		size_t n = c->write_options(&opts, buf);
		CHECK(n == cases[i].len && memcmp(buf, cases[i].block, n) == 0,
		      "lz4 '%s': options block of %zu bytes differs", cases[i].args, n);
		CHECK(c->read_options(&back, buf, n, 131072, err, sizeof err) == 0 &&
			      c->write_options(&back, again) == n && memcmp(buf, again, n) == 0,
		      "lz4 '%s': block does not read back: %s", cases[i].args, err);
		/* At the extreme acceleration text no longer shrinks, which the round trip
		 * demands. */
		if (strstr(cases[i].args, "65537") == NULL)
			harness_roundtrip(c, &opts, 131072);
	}
	harness_rejected(c, "-Xacceleration 2 -Xhc", 131072, 1);
	harness_rejected(c, "-Xcompression-level 5", 131072, 1);
	harness_rejected(c, "-Xhc -Xcompression-level 13", 131072, 1);
	harness_rejected(c, "-Xacceleration 0", 131072, 1);
	harness_rejected(c, "-Xacceleration 65538", 131072, 1);
	harness_rejected(c, "-Xacceleration", 131072, 1);
	static const uint8_t no_flag[12] = { 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0 };
	static const uint8_t level13[12] = { 1, 0, 0, 0, 3, 0, 0, 0, 13, 0, 0, 0 };
	static const uint8_t accel0[12] = { 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0 };
	harness_bad_block(c, no_flag, sizeof no_flag, 131072);
	harness_bad_block(c, level13, sizeof level13, 131072);
	harness_bad_block(c, accel0, sizeof accel0, 131072);
}

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
	v2_options(c);

	struct codec_opts opts;
	char err[256];
	harness_truncation_detectable = 0;
	if (harness_parse(c, &opts, 131072, "", err, sizeof err) == 0)
		harness_hostile(c, &opts, 131072);
	if (harness_parse(c, &opts, 8192, "-Xhc", err, sizeof err) == 0)
		harness_hostile(c, &opts, 8192);
	return harness_exit_code("codecs_lz4");
}
