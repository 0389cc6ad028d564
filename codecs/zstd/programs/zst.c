/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zst.c — the `zst` codec tool: -d decodes zstd frames with our decoder; -c and -b go to the encoder's half. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/programs/zst_compress.h"
#include "codecs/zstd/zstd.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: zst -d [IN [OUT]]      decode zstd frames (stdin/stdout by default, - too)\n"
		     "       zst -c [options] ...   compress (see zst -c -h)\n"
		     "       zst -b [options] ...   benchmark (see zst -b -h)\n"
		     "       zst -D FILE...         decode speed: each FILE's frames decoded in memory, repeated\n");
}

/* Whole input in memory: the decoder is one-shot. */
static int read_all(FILE *f, const char *name, uint8_t **buf, size_t *len)
{
	size_t cap = 1u << 16, n = 0;
	uint8_t *b = malloc(cap);

	if (b == NULL) {
		fprintf(stderr, "zst: %s: out of memory\n", name);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *nb = cap > SIZE_MAX / 2 ? NULL : realloc(b, cap * 2);

			if (nb == NULL) {
				free(b);
				fprintf(stderr, "zst: %s: out of memory\n", name);
				return -1;
			}
			b = nb;
			cap *= 2;
		}
		size_t got = fread(b + n, 1, cap - n, f);

		n += got;
		if (got == 0) {
			if (ferror(f)) {
				fprintf(stderr, "zst: %s: read error: %s\n", name, strerror(errno));
				free(b);
				return -1;
			}
			break;
		}
	}
	*buf = b;
	*len = n;
	return 0;
}

/* Decode with a growing output buffer: frames need not declare their content size. A valid
 * frame produces at most 128 KiB per 4 input bytes (an RLE block), which bounds the growth. */
static int decode_all(const uint8_t *src, size_t len, const char *name, uint8_t **out, size_t *out_len)
{
	zs_dctx *d = zs_dctx_new();
	uint8_t *dst = NULL;
	size_t cap = len * 4 + 4096;
	size_t limit = (len / 4 + 1) > SIZE_MAX / 131072 ? SIZE_MAX : (len / 4 + 1) * 131072;
	int ret = -1;

	if (d == NULL) {
		fprintf(stderr, "zst: %s: out of memory\n", name);
		return -1;
	}
	if (cap > limit)
		cap = limit;
	for (;;) {
		free(dst);
		dst = malloc(cap);
		if (dst == NULL) {
			fprintf(stderr, "zst: %s: out of memory for %zu bytes of output\n", name, cap);
			goto out;
		}
		ptrdiff_t n = zs_decompress(d, src, len, dst, cap, 0);

		if (n >= 0) {
			*out = dst;
			*out_len = (size_t)n;
			dst = NULL;
			ret = 0;
			goto out;
		}
		if (n != ZS_ERR_DST_TOO_SMALL || cap >= limit) {
			fprintf(stderr, "zst: %s: %s\n", name,
				n == ZS_ERR_DST_TOO_SMALL ? "corrupt frame (decodes to more than possible)"
							  : zs_error_string((int)n));
			goto out;
		}
		cap = cap > limit / 2 ? limit : cap * 2;
	}
out:
	free(dst);
	zs_dctx_free(d);
	return ret;
}

static int decode_main(int argc, char **argv)
{
	const char *in_name = argc > 0 ? argv[0] : "-";
	const char *out_name = argc > 1 ? argv[1] : "-";
	int from_stdin = strcmp(in_name, "-") == 0;
	int to_stdout = strcmp(out_name, "-") == 0;
	FILE *in = from_stdin ? stdin : fopen(in_name, "rb");
	uint8_t *src = NULL, *dst = NULL;
	size_t src_len = 0, dst_len = 0;
	int ret = 1;

	if (argc > 2) {
		usage(stderr);
		return 2;
	}
	if (in == NULL) {
		fprintf(stderr, "zst: %s: %s\n", in_name, strerror(errno));
		return 1;
	}
	const char *label = from_stdin ? "(stdin)" : in_name;

	if (read_all(in, label, &src, &src_len) != 0)
		goto out;
	if (decode_all(src, src_len, label, &dst, &dst_len) != 0)
		goto out;

	FILE *out = to_stdout ? stdout : fopen(out_name, "wb");

	if (out == NULL) {
		fprintf(stderr, "zst: %s: %s\n", out_name, strerror(errno));
		goto out;
	}
	if (fwrite(dst, 1, dst_len, out) != dst_len || fflush(out) != 0) {
		fprintf(stderr, "zst: %s: write error: %s\n", to_stdout ? "(stdout)" : out_name,
			strerror(errno));
		if (!to_stdout)
			fclose(out);
		goto out;
	}
	if (!to_stdout && fclose(out) != 0) {
		fprintf(stderr, "zst: %s: write error: %s\n", out_name, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (!from_stdin)
		fclose(in);
	free(src);
	free(dst);
	return ret;
}

/* Decode-speed measurement: all inputs held in memory, each decoded into its own buffer, the
 * whole set repeated for about a second per pass; the best of 5 passes is reported. */
static int decode_bench_main(int argc, char **argv)
{
	struct input {
		uint8_t *src;
		size_t len;
		uint8_t *dst;
		size_t dst_len;
	} *inputs = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*inputs));
	zs_dctx *d = zs_dctx_new();
	size_t total_in = 0, total_out = 0;
	int ret = 1, n = 0;

	if (inputs == NULL || d == NULL) {
		fprintf(stderr, "zst: out of memory\n");
		goto out;
	}
	for (; n < argc; n++) {
		FILE *f = fopen(argv[n], "rb");

		if (f == NULL) {
			fprintf(stderr, "zst: %s: %s\n", argv[n], strerror(errno));
			goto out;
		}
		int rc = read_all(f, argv[n], &inputs[n].src, &inputs[n].len);

		fclose(f);
		if (rc != 0 || decode_all(inputs[n].src, inputs[n].len, argv[n], &inputs[n].dst,
					  &inputs[n].dst_len) != 0) {
			n++;
			goto out;
		}
		total_in += inputs[n].len;
		total_out += inputs[n].dst_len;
	}
	if (total_out == 0) {
		fprintf(stderr, "zst: -D needs input files with content\n");
		goto out;
	}
	double best = 0;

	for (int pass = 0; pass < 5; pass++) {
		double start = zst_now(), elapsed;
		size_t bytes = 0;

		do {
			for (int i = 0; i < n; i++) {
				ptrdiff_t r = zs_decompress(d, inputs[i].src, inputs[i].len, inputs[i].dst,
							    inputs[i].dst_len, 0);

				if (r < 0 || (size_t)r != inputs[i].dst_len) {
					fprintf(stderr, "zst: %s: decode failed while timing\n", argv[i]);
					goto out;
				}
				bytes += (size_t)r;
			}
			elapsed = zst_now() - start;
		} while (elapsed < 1.0);
		double mbps = (double)bytes / elapsed / 1e6;

		if (mbps > best)
			best = mbps;
	}
	printf("%d inputs, %zu -> %zu bytes (ratio %.3f), decode %.1f MB/s\n", n, total_in, total_out,
	       (double)total_out / (double)total_in, best);
	ret = 0;
out:
	for (int i = 0; i < n; i++) {
		free(inputs[i].src);
		free(inputs[i].dst);
	}
	free(inputs);
	zs_dctx_free(d);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-d") == 0)
		return decode_main(argc - 2, argv + 2);
	if (strcmp(argv[1], "-D") == 0)
		return decode_bench_main(argc - 2, argv + 2);
	if (strcmp(argv[1], "-c") == 0)
		return zst_compress_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "-b") == 0)
		return zst_bench_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "zst: unknown mode '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
