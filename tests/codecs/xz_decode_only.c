/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_decode_only.c — unit test of the xz codec a build without liblzma reads images with
 * (codecs/xz_image.c): it decodes what liblzma's codec writes, to the same bytes; it refuses a
 * BCJ-filtered block with a message naming liblzma; it reads and prints options blocks as the
 * full codec does; it writes nothing; hostile blocks are errors, never crashes. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "codecs/xz_image.h"
#include "tests/codecs/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct codec *const ro = &codec_xz_decode_only;

/* liblzma's codec writing with some options, the decode-only one reading, and their buffers. */
struct rig {
	uint32_t bs;
	void *w, *r;
	uint8_t *src, *comp, *back; /* comp has a byte to spare */
};

static int rig_open(struct rig *g, const char *args, uint32_t bs)
{
	struct codec_opts wo, rd;
	char err[256];
	*g = (struct rig){ .bs = bs };
	CHECK(harness_parse(&codec_xz, &wo, bs, args, err, sizeof err) == 0, "%s: %s", args, err);
	ro->init_options(&rd, bs);
	g->w = codec_xz.state_new(&wo, bs);
	g->r = ro->state_new(&rd, bs);
	g->src = malloc(bs);
	g->comp = malloc(bs + 1);
	g->back = malloc(bs);
	int ok = g->w && g->r && g->src && g->comp && g->back;
	CHECK(ok, "alloc");
	return ok ? 0 : -1;
}

static void rig_close(struct rig *g)
{
	if (g->w)
		codec_xz.state_free(g->w);
	if (g->r)
		ro->state_free(g->r);
	free(g->src);
	free(g->comp);
	free(g->back);
}

/* Blocks of every data kind written by liblzma's codec with args, read back by the decode-only
 * one. Returns how many were refused as needing liblzma (BCJ-filtered). */
static unsigned read_back(const char *args, uint32_t bs)
{
	struct rig g;
	unsigned refused = 0;
	int ok = rig_open(&g, args, bs) == 0;
	for (int k = 0; ok && k < DATA_KINDS; k++) {
		harness_fill((enum data_kind)k, g.src, bs, 40 + (uint64_t)k);
		ptrdiff_t n = codec_xz.compress(g.w, g.src, bs, g.comp, bs);
		if (n <= 0)
			continue; /* stored raw: nothing to decode */
		const char *why = NULL;
		ptrdiff_t d = ro->decompress(g.r, g.comp, (size_t)n, g.back, bs, &why);
		if (d < 0 && why != NULL && strstr(why, "liblzma") != NULL) {
			refused++;
			continue;
		}
		CHECK(d == (ptrdiff_t)bs && memcmp(g.back, g.src, bs) == 0,
		      "%s, kind %d: decoded %td (%s)", args, k, d, why ? why : "");
	}
	rig_close(&g);
	return refused;
}

/* x86 code through -Xbcj x86: liblzma's codec keeps the filtered stream when it is smaller,
 * which the decode-only codec must refuse (not mangle). */
static void bcj_refused(void)
{
	uint32_t bs = 65536;
	struct rig g;
	ptrdiff_t n = -1, d = -1;
	const char *why = NULL;
	if (rig_open(&g, "-Xbcj x86", bs) == 0) {
		FILE *f = fopen("/proc/self/exe", "rb");
		size_t got = f ? fread(g.src, 1, bs, f) : 0;
		if (f)
			fclose(f);
		n = got == bs ? codec_xz.compress(g.w, g.src, bs, g.comp, bs) : -1;
		d = n > 0 ? ro->decompress(g.r, g.comp, (size_t)n, g.back, bs, &why) : -1;
	}
	/* Whichever stream won: the block header (after the 12-byte stream header) counts its
	 * filters less one in the flags' low bits. A filtered stream is refused naming liblzma,
	 * a plain one decoded exactly. */
	int filtered = n > 13 && (g.comp[13] & 3) != 0;
	if (filtered)
		CHECK(d < 0 && why != NULL && strstr(why, "liblzma") != NULL,
		      "BCJ stream: decoded %td (%s)", d, why ? why : "");
	else
		CHECK(n > 0 && d == (ptrdiff_t)bs && memcmp(g.back, g.src, bs) == 0,
		      "x86 code, plain stream: compressed %td, decoded %td (%s)", n, d,
		      why ? why : "");
	printf("x86 code with -Xbcj x86: the %s stream won\n", filtered ? "filtered" : "plain");
	rig_close(&g);
}

/* The options block: what liblzma's codec writes, the decode-only one reads and prints alike. */
static void options_alike(void)
{
	struct codec_opts wo, a, b;
	char err[256];
	uint8_t block[CODEC_OPTIONS_MAX];
	CHECK(harness_parse(&codec_xz, &wo, 131072, "-Xbcj x86,arm -Xdict-size 50%", err,
			    sizeof err) == 0, "%s", err);
	size_t len = codec_xz.write_options(&wo, block);
	CHECK(len == XZ_OPTIONS_LEN, "options block of %zu bytes", len);
	CHECK(codec_xz.read_options(&a, block, len, 131072, err, sizeof err) == 0 &&
	      ro->read_options(&b, block, len, 131072, err, sizeof err) == 0, "read: %s", err);
	char pa[256] = "", pb[256] = "";
	FILE *fa = fmemopen(pa, sizeof pa, "w"), *fb = fmemopen(pb, sizeof pb, "w");
	if (fa && fb) {
		codec_xz.print_options(&a, fa);
		ro->print_options(&b, fb);
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	CHECK(pa[0] != '\0' && strcmp(pa, pb) == 0, "printed \"%s\" against \"%s\"", pa, pb);
	CHECK(strstr(pb, "x86, arm") != NULL && strstr(pb, "65536") != NULL, "printed \"%s\"", pb);
	block[7] = 0x80; /* a filter bit past the six known */
	CHECK(ro->read_options(&b, block, len, 131072, err, sizeof err) != 0, "unknown filter bit");
}

/* Truncations, a trailing byte, bit flips and garbage of a block liblzma's codec wrote: errors
 * with a reason, or (flips, garbage) a result within bounds; ASan watches the buffers. */
static void hostile(void)
{
	uint32_t bs = 32768;
	struct rig g;
	ptrdiff_t n = -1;
	if (rig_open(&g, "", bs) == 0) {
		harness_fill(DATA_MIXED, g.src, bs, 9);
		n = codec_xz.compress(g.w, g.src, bs, g.comp, bs);
	}
	uint8_t *comp = g.comp, *back = g.back;
	void *r = g.r;
	CHECK(n > 0, "hostile setup: compress %td", n);
	const char *why;
	ptrdiff_t d;
	for (ptrdiff_t cut = 0; n > 0 && cut < n; cut += 1 + cut / 64) {
		why = NULL;
		d = ro->decompress(r, comp, (size_t)cut, back, bs, &why);
		CHECK(d < 0 && why != NULL, "truncated to %td of %td: %td", cut, n, d);
	}
	if (n > 0) {
		comp[n] = 0;
		why = NULL;
		CHECK(ro->decompress(r, comp, (size_t)n + 1, back, bs, &why) < 0 && why != NULL,
		      "trailing byte accepted");
	}
	for (ptrdiff_t bit = 0; n > 0 && bit < n * 8; bit += 1 + bit / 16) {
		comp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		why = NULL;
		d = ro->decompress(r, comp, (size_t)n, back, bs, &why);
		CHECK((d < 0 && why != NULL) || (d >= 0 && d <= (ptrdiff_t)bs), "flip %td: %td", bit, d);
		comp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	for (size_t len = 0; n > 0 && len <= 4096; len = len ? len * 4 : 1) {
		harness_fill(DATA_RANDOM, comp, len, 1000 + len);
		why = NULL;
		d = ro->decompress(r, comp, len, back, bs, &why);
		CHECK((d < 0 && why != NULL) || (d >= 0 && d <= (ptrdiff_t)bs), "garbage %zu: %td", len, d);
	}
	rig_close(&g);
}

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	CHECK(!ro->supported && ro->compress == NULL && ro->parse_option == NULL &&
	      ro->decompress != NULL && ro->id == 4 && strcmp(ro->name, "xz") == 0,
	      "decode-only: reads xz, writes nothing");
	CHECK(read_back("", 131072) == 0, "plain LZMA2 blocks refused");
	CHECK(read_back("-Xdict-size 25%", 1048576) == 0, "plain LZMA2 blocks refused (1M)");
	CHECK(read_back("", 4096) == 0, "plain LZMA2 blocks refused (4K)");
	bcj_refused();
	options_alike();
	hostile();
	return harness_exit_code("xz_decode_only");
}
