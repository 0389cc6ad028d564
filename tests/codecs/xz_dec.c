/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_dec.c — unit test of our xz decoder (codecs/xz/): liblzma-made streams of every preset,
 * dictionary and check decode to liblzma's bytes; what it leaves to liblzma says so; every
 * corruption and truncation of small streams is an error, never a crash or an overrun. */
#include "config.h"
#include "codecs/xz/xz_dec.h"
#include "tests/codecs/harness.h"

#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stream of src made by liblzma with the given chain and check; its size, or 0. */
static size_t encode(const lzma_filter *chain, lzma_check check, const uint8_t *src, size_t len,
		     uint8_t *out, size_t cap)
{
	size_t pos = 0;
	if (lzma_stream_buffer_encode((lzma_filter *)chain, check, NULL, src, len, out, &pos, cap) !=
	    LZMA_OK)
		return 0;
	return pos;
}

/* liblzma's decoding of a stream: its size, or -1. */
static ptrdiff_t liblzma_decode(const uint8_t *src, size_t len, uint8_t *out, size_t cap)
{
	uint64_t memlimit = UINT64_MAX;
	size_t in_pos = 0, out_pos = 0;
	if (lzma_stream_buffer_decode(&memlimit, 0, NULL, src, &in_pos, len, out, &out_pos, cap) !=
	    LZMA_OK || in_pos != len)
		return -1;
	return (ptrdiff_t)out_pos;
}

/* Ours into a buffer of exactly cap bytes (so ASan sees any overrun). */
static int ours(struct xzd_ctx *ctx, const uint8_t *src, size_t len, size_t cap, uint8_t **out,
		size_t *out_len, const char **why)
{
	*out = malloc(cap ? cap : 1);
	if (*out == NULL)
		abort();
	*why = NULL;
	return xzd_decode(ctx, src, len, *out, cap, out_len, why);
}

struct stream {
	uint8_t *xz;
	size_t xz_len;
	const uint8_t *data;
	size_t len;
};

static void check_roundtrip(struct xzd_ctx *ctx, const struct stream *s, const char *what)
{
	uint8_t *out;
	size_t n = 0;
	const char *why;
	int r = ours(ctx, s->xz, s->xz_len, s->len, &out, &n, &why);
	CHECK(r == XZD_OK, "%s: decodes (%s)", what, why ? why : "not mine");
	if (r == XZD_OK) {
		CHECK(n == s->len, "%s: %zu bytes, want %zu", what, n, s->len);
		if (n == s->len)
			CHECK_BYTES(out, s->data, n);
	}
	free(out);
	/* One byte less room than the data needs must be refused. */
	if (s->len > 0) {
		r = ours(ctx, s->xz, s->xz_len, s->len - 1, &out, &n, &why);
		CHECK(r == XZD_ERROR, "%s: refused with one byte too little room", what);
		free(out);
	}
}

static int make_stream(struct stream *s, const lzma_filter *chain, lzma_check check,
		       const uint8_t *data, size_t len)
{
	size_t cap = len + len / 2 + 4096;
	s->xz = malloc(cap);
	if (s->xz == NULL)
		abort();
	s->xz_len = encode(chain, check, data, len, s->xz, cap);
	s->data = data;
	s->len = len;
	CHECK(s->xz_len > 0, "liblzma encodes %zu bytes", len);
	return s->xz_len > 0 ? 0 : -1;
}

static void roundtrip(struct xzd_ctx *ctx, const uint8_t *data, size_t len, uint32_t preset,
		      uint32_t dict, lzma_check check, const char *what)
{
	lzma_options_lzma opt;
	if (lzma_lzma_preset(&opt, preset))
		abort();
	opt.dict_size = dict;
	lzma_filter chain[2] = { { LZMA_FILTER_LZMA2, &opt }, { LZMA_VLI_UNKNOWN, NULL } };
	struct stream s;
	if (make_stream(&s, chain, check, data, len) == 0) {
		char name[160];
		snprintf(name, sizeof name, "%s %zu bytes preset %u dict %u check %d", what, len,
			 (unsigned)(preset & 0xff), dict, (int)check);
		check_roundtrip(ctx, &s, name);
	}
	free(s.xz);
}

/* Streams ours leaves to liblzma: it must say "not mine", not fail. */
static void not_mine(struct xzd_ctx *ctx, const uint8_t *data, size_t len)
{
	lzma_options_lzma opt;
	lzma_lzma_preset(&opt, 6);
	opt.dict_size = 1u << 17;
	static const lzma_vli bcj[] = { LZMA_FILTER_X86, LZMA_FILTER_ARM, LZMA_FILTER_POWERPC };
	for (size_t i = 0; i <= sizeof bcj / sizeof bcj[0]; i++) {
		lzma_filter chain[3] = { { bcj[i % 3], NULL }, { LZMA_FILTER_LZMA2, &opt },
					 { LZMA_VLI_UNKNOWN, NULL } };
		lzma_check check = i < 3 ? LZMA_CHECK_CRC32 : LZMA_CHECK_SHA256;
		struct stream s;
		if (make_stream(&s, i < 3 ? chain : chain + 1, check, data, len) == 0) {
			uint8_t *out;
			size_t n;
			const char *why;
			CHECK(ours(ctx, s.xz, s.xz_len, len, &out, &n, &why) == XZD_NOT_MINE,
			      "chain %zu left to liblzma", i);
			free(out);
		}
		free(s.xz);
	}
}

/* Every byte flipped, every truncation and a trailing byte: an error, or (for a flip ours
 * leaves to liblzma, or that liblzma also accepts) the same bytes as liblzma. */
static void hostile(struct xzd_ctx *ctx, const struct stream *s)
{
	uint8_t *bad = malloc(s->xz_len + 1), *ref = malloc(s->len + 1), *out;
	size_t n;
	const char *why;
	for (size_t i = 0; i < s->xz_len; i++)
		for (unsigned mask = 1; mask < 0x100; mask = mask * 4 + 1) {
			memcpy(bad, s->xz, s->xz_len);
			bad[i] ^= (uint8_t)mask;
			int r = ours(ctx, bad, s->xz_len, s->len, &out, &n, &why);
			if (r == XZD_ERROR)
				CHECK(why != NULL && strstr(why, "xz") != NULL, "a message");
			if (r == XZD_OK) {
				ptrdiff_t m = liblzma_decode(bad, s->xz_len, ref, s->len);
				CHECK(m == (ptrdiff_t)n && memcmp(ref, out, n) == 0,
				      "flip at %zu (^%02x) accepted only as liblzma does (%td, %zu)", i, mask, m, n);
			}
			free(out);
		}
	for (size_t cut = 0; cut < s->xz_len; cut++) {
		memcpy(bad, s->xz, cut);
		CHECK(ours(ctx, bad, cut, s->len, &out, &n, &why) == XZD_ERROR,
		      "truncated to %zu bytes refused", cut);
		free(out);
	}
	memcpy(bad, s->xz, s->xz_len);
	bad[s->xz_len] = 0;
	CHECK(ours(ctx, bad, s->xz_len + 1, s->len, &out, &n, &why) == XZD_ERROR &&
		      strcmp(why, "bytes after the end of the xz stream") == 0,
	      "a trailing byte refused");
	free(out);
	free(bad);
	free(ref);
}

static void hostile_streams(struct xzd_ctx *ctx, uint8_t *data)
{
	static const lzma_check checks[] = { LZMA_CHECK_CRC32, LZMA_CHECK_CRC64, LZMA_CHECK_CRC32 };
	static const size_t sizes[] = { 600, 2000, 300 };
	lzma_options_lzma opt;
	lzma_lzma_preset(&opt, 6);
	opt.dict_size = 4096;
	lzma_filter chain[2] = { { LZMA_FILTER_LZMA2, &opt }, { LZMA_VLI_UNKNOWN, NULL } };
	for (unsigned i = 0; i < 3; i++) {
		harness_fill(i == 2 ? DATA_RANDOM : DATA_TEXT, data, sizes[i], 7 + i);
		struct stream s;
		if (make_stream(&s, chain, checks[i], data, sizes[i]) == 0)
			hostile(ctx, &s);
		free(s.xz);
	}
}

int main(void)
{
	enum { MAX = 1 << 20 };
	struct xzd_ctx *ctx = xzd_new();
	uint8_t *data = malloc(MAX);
	if (ctx == NULL || data == NULL)
		return 99;
	static const char *const names[DATA_KINDS] = { "zeros", "text", "mixed", "code", "random" };
	for (int k = 0; k < DATA_KINDS; k++) {
		harness_fill((enum data_kind)k, data, 1u << 17, 1 + (uint64_t)k);
		for (uint32_t preset = 0; preset <= 9; preset++)
			roundtrip(ctx, data, 1u << 17, preset, 1u << 17, LZMA_CHECK_CRC32, names[k]);
		roundtrip(ctx, data, 1u << 17, 6 | LZMA_PRESET_EXTREME, 1u << 17, LZMA_CHECK_CRC32,
			  names[k]);
		for (uint32_t dict = 4096; dict <= (1u << 20); dict *= 4)
			roundtrip(ctx, data, 1u << 16, 6, dict, LZMA_CHECK_CRC64, names[k]);
		roundtrip(ctx, data, 5000, 6, 1u << 17, LZMA_CHECK_NONE, names[k]);
		roundtrip(ctx, data, 1, 6, 1u << 17, LZMA_CHECK_CRC32, names[k]);
		harness_fill((enum data_kind)k, data, MAX, 11 + (uint64_t)k);
		roundtrip(ctx, data, MAX, 6, MAX, LZMA_CHECK_CRC32, names[k]);
	}
	roundtrip(ctx, data, 0, 6, 1u << 17, LZMA_CHECK_CRC32, "empty");
	/* lc/lp/pb other than the defaults: the literal and position contexts. */
	harness_fill(DATA_CODE, data, 1u << 17, 99);
	for (uint32_t lclppb = 0; lclppb < 3; lclppb++) {
		lzma_options_lzma opt;
		lzma_lzma_preset(&opt, 6);
		opt.lc = lclppb == 0 ? 0 : lclppb == 1 ? 1 : 4;
		opt.lp = lclppb == 1 ? 3 : 0;
		opt.pb = lclppb == 2 ? 4 : 0;
		lzma_filter chain[2] = { { LZMA_FILTER_LZMA2, &opt }, { LZMA_VLI_UNKNOWN, NULL } };
		struct stream s;
		if (make_stream(&s, chain, LZMA_CHECK_CRC32, data, 1u << 17) == 0)
			check_roundtrip(ctx, &s, "lc/lp/pb");
		free(s.xz);
	}
	not_mine(ctx, data, 1u << 16);
	hostile_streams(ctx, data);
	xzd_free(ctx);
	free(data);
	return check_exit("codecs_xz_dec");
}
