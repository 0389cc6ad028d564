/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_bench.c — our xz decoder (codecs/xz/) and liblzma's side by side in one process, on
 * independent single-block streams as squashfs writes them (liblzma, preset 6, dictionary = block,
 * CRC32). Built by bench/xz.sh at benchmark time; never part of the project's build.
 *
 * usage: xz_bench [-B SIZE] [-n RUNS] [-o ours|ref] FILE
 *   One line: block streams in_bytes xz_bytes our_MBps ref_MBps ratio; -o runs one side only
 *   (for callgrind). Timing: both sides alternate, the best of RUNS passes counts, CPU time. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lzma.h>

#include "codecs/xz/xz_dec.h"

struct streams {
	size_t n, block, total_in, total_xz;
	uint8_t **xz;
	size_t *xz_len, *len;
	const uint8_t **data;
};

/* clock() is this process's CPU time, which a busy machine's time slicing does not inflate. */
static double cpu_now(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

/* The whole file, read in growing chunks (the sample may come from a pipe). */
static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = malloc(cap);
	while (f != NULL && buf != NULL) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
	}
	if (f == NULL || buf == NULL)
		return NULL;
	*len = n;
	return buf;
}

static void make_streams(struct streams *s, const uint8_t *data, size_t len, size_t block)
{
	s->block = block;
	s->n = (len + block - 1) / block;
	s->xz = calloc(s->n, sizeof *s->xz);
	s->xz_len = calloc(s->n, sizeof *s->xz_len);
	s->len = calloc(s->n, sizeof *s->len);
	s->data = calloc(s->n, sizeof *s->data);
	lzma_options_lzma opt;
	lzma_lzma_preset(&opt, LZMA_PRESET_DEFAULT);
	opt.dict_size = (uint32_t)block;
	lzma_filter chain[2] = { { LZMA_FILTER_LZMA2, &opt }, { LZMA_VLI_UNKNOWN, NULL } };
	for (size_t i = 0; i < s->n; i++) {
		size_t n = len - i * block < block ? len - i * block : block;
		size_t cap = n + n / 2 + 1024, pos = 0;
		s->xz[i] = malloc(cap);
		if (lzma_stream_buffer_encode(chain, LZMA_CHECK_CRC32, NULL, data + i * block, n,
					      s->xz[i], &pos, cap) != LZMA_OK)
			exit(1);
		s->xz_len[i] = pos;
		s->len[i] = n;
		s->data[i] = data + i * block;
		s->total_in += n;
		s->total_xz += pos;
	}
}

/* As codecs/xz.c's fallback does it: one lzma_stream re-initialised per block. */
static size_t ref_decode(lzma_stream *strm, const uint8_t *src, size_t len, uint8_t *dst,
			 size_t cap)
{
	if (lzma_stream_decoder(strm, UINT64_MAX, 0) != LZMA_OK)
		exit(1);
	strm->next_in = src;
	strm->avail_in = len;
	strm->next_out = dst;
	strm->avail_out = cap;
	lzma_ret ret;
	do
		ret = lzma_code(strm, LZMA_FINISH);
	while (ret == LZMA_OK);
	if (ret != LZMA_STREAM_END)
		exit(2);
	return cap - strm->avail_out;
}

static double pass(struct streams *s, int ours, struct xzd_ctx *ctx, lzma_stream *strm,
		   uint8_t *out)
{
	double t0 = cpu_now();
	for (size_t i = 0; i < s->n; i++) {
		size_t n = 0;
		const char *why;
		if (ours) {
			if (xzd_decode(ctx, s->xz[i], s->xz_len[i], out, s->block, &n, &why) != XZD_OK)
				exit(3);
		} else {
			n = ref_decode(strm, s->xz[i], s->xz_len[i], out, s->block);
		}
		if (n != s->len[i] || memcmp(out, s->data[i], n) != 0) {
			fprintf(stderr, "stream %zu decodes wrong (%s)\n", i, ours ? "ours" : "ref");
			exit(4);
		}
	}
	return cpu_now() - t0;
}

int main(int argc, char **argv)
{
	size_t block = 131072;
	int runs = 5, only = 0; /* 1 ours, 2 ref */
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-B") == 0)
			block = strtoul(argv[i + 1], NULL, 0);
		else if (strcmp(argv[i], "-n") == 0)
			runs = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "-o") == 0)
			only = strcmp(argv[i + 1], "ours") == 0 ? 1 : 2;
	}
	if (i >= argc)
		return 1;
	size_t len;
	uint8_t *data = read_file(argv[i], &len);
	if (data == NULL)
		return 1;
	struct streams s = { 0 };
	make_streams(&s, data, len, block);
	struct xzd_ctx *ctx = xzd_new();
	lzma_stream strm = LZMA_STREAM_INIT;
	uint8_t *out = malloc(block);
	double best_ours = 1e9, best_ref = 1e9;
	for (int r = 0; r < runs; r++) {
		if (only != 2) {
			double t = pass(&s, 1, ctx, &strm, out);
			best_ours = t < best_ours ? t : best_ours;
		}
		if (only != 1) {
			double t = pass(&s, 0, ctx, &strm, out);
			best_ref = t < best_ref ? t : best_ref;
		}
	}
	double mb = (double)s.total_in / 1e6;
	printf("%zu %zu %zu %zu %.1f %.1f %.3f\n", block, s.n, s.total_in, s.total_xz,
	       mb / best_ours, mb / best_ref, best_ref / best_ours);
	lzma_end(&strm);
	xzd_free(ctx);
	return 0;
}
