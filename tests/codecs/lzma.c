/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzma.c — unit test of the legacy lzma backend: blocks identical to and readable by the
 * reference's, round trips, hostile blocks, no options. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "common/util/endian.h"
#include "tests/codecs/harness.h"

#include <stdio.h>
#include <string.h>

/* A block whose header promises more than was encoded, or less, is refused. */
static void size_mismatch(const struct codec *c)
{
	struct codec_opts opts;
	char err[256];
	if (harness_parse(c, &opts, 8192, "", err, sizeof err) != 0)
		return;
	void *st = c->state_new(&opts, 8192);
	static uint8_t src[8192], dst[8192], back[8192];
	memset(src, 'a', sizeof src);
	ptrdiff_t n = c->compress(st, src, sizeof src, dst, sizeof dst);
	CHECK(n > 13, "8 KiB of 'a' did not compress (%td)", n);
	const char *why = NULL;
	if (n > 13) {
		CHECK(get_le32(dst + 1) == 8192, "dictionary %u, not the block size",
		      (unsigned)get_le32(dst + 1));
		CHECK(get_le64(dst + 5) == sizeof src, "header size %llu",
		      (unsigned long long)get_le64(dst + 5));
		put_le32(dst + 5, sizeof src - 1);
		CHECK(c->decompress(st, dst, (size_t)n, back, sizeof back, &why) < 0 && why != NULL,
		      "a header one byte short was accepted");
		put_le32(dst + 5, sizeof src + 1);
		CHECK(c->decompress(st, dst, (size_t)n, back, sizeof back, &why) < 0,
		      "a header claiming more than the buffer was accepted");
		put_le32(dst + 5, sizeof src);
		CHECK(c->decompress(st, dst, (size_t)n, back, sizeof back, &why) == sizeof src &&
			      memcmp(back, src, sizeof src) == 0,
		      "the restored block does not decode");
	}
	CHECK(c->decompress(st, dst, 12, back, sizeof back, &why) < 0, "12 bytes accepted");
	c->state_free(st);
}

int main(void)
{
	const struct codec *c = &codec_lzma;
	harness_option_set(c, "", 131072);
	harness_option_set(c, "", 4096);
	harness_option_set(c, "", 1048576);
	char *hc[] = { "-Xhc" };
	struct codec_opts none;
	char msg[64] = "";
	c->init_options(&none, 131072);
	CHECK(c->parse_option(&none, 1, hc, msg, sizeof msg) == 0, "lzma claims -Xhc");
	static const uint8_t any[8] = { 0 };
	harness_bad_block(c, any, sizeof any, 131072);
	size_mismatch(c);

	/* Hostile blocks at a data block size and at the metadata block size. */
	static const uint32_t hostile_sizes[] = { 131072, 8192 };
	for (size_t i = 0; i < sizeof hostile_sizes / sizeof hostile_sizes[0]; i++) {
		struct codec_opts opts;
		char err[256];
		if (harness_parse(c, &opts, hostile_sizes[i], "", err, sizeof err) == 0)
			harness_hostile(c, &opts, hostile_sizes[i]);
	}
	return harness_exit_code("codecs_lzma");
}
