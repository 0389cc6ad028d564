/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zst_compress.c — `zst -c` cuts input into independent chunks, one frame each; `zst -b` benchmarks like `zstd -b`. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codecs/zstd/programs/zst_compress.h"
#include "codecs/zstd/zstd.h"

#define DEFAULT_CHUNK 131072u
#define MAX_CHUNK (64u << 20)

struct options {
	int level;
	int level_last;
	size_t chunk;
	int checksum;
	const char *files[2];
	int nfiles;
};

static void usage(FILE *out, const char *mode)
{
	if (strcmp(mode, "-b") == 0)
		fprintf(out, "usage: zst -b -L N [-e M] [-B SIZE] FILE\n"
			     "  benchmark levels N..M on independent SIZE chunks (default 131072)\n");
	else
		fprintf(out, "usage: zst -c [-L N] [-B SIZE] [-C] [IN [OUT]]\n"
			     "  compress each SIZE chunk (default 131072) into its own frame at level N\n"
			     "  (default 3, 1..22); -C adds content checksums; stdin/stdout by default\n");
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s)
		return -1;
	if (*end == 'K' || *end == 'k') {
		v *= 1024;
		end++;
	} else if (*end == 'M' || *end == 'm') {
		v *= 1024 * 1024;
		end++;
	}
	if (*end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Accepts "-L N", "-LN", "-B SIZE", "-BSIZE", "-e M", "-C"; anything else is an error. */
static int parse_options(int argc, char **argv, struct options *o, int default_level)
{
	const char *mode = argv[0];

	o->level = default_level;
	o->level_last = 0;
	o->chunk = DEFAULT_CHUNK;
	o->checksum = 0;
	o->nfiles = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		long v;

		if (a[0] == '-' && (a[1] == 'L' || a[1] == 'B' || a[1] == 'e')) {
			const char *val = a[2] != '\0' ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
			int is_size = a[1] == 'B';

			if (val == NULL || parse_int(val, is_size ? 1 : ZS_MIN_LEVEL,
						     is_size ? (long)MAX_CHUNK : ZS_MAX_LEVEL, &v) != 0) {
				fprintf(stderr, "zst %s: invalid value for -%c: '%s' (%s)\n", mode, a[1],
					val ? val : "", is_size ? "1..64M" : "levels are 1..22");
				return -1;
			}
			if (a[1] == 'L')
				o->level = (int)v;
			else if (a[1] == 'e')
				o->level_last = (int)v;
			else
				o->chunk = (size_t)v;
		} else if (strcmp(a, "-C") == 0) {
			o->checksum = 1;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout, mode);
			return 1;
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "zst %s: unknown option '%s'\n", mode, a);
			usage(stderr, mode);
			return -1;
		} else if (o->nfiles < 2) {
			o->files[o->nfiles++] = a;
		} else {
			fprintf(stderr, "zst %s: too many file arguments\n", mode);
			return -1;
		}
	}
	if (o->level_last == 0)
		o->level_last = o->level;
	if (o->level_last < o->level) {
		fprintf(stderr, "zst %s: -e %d is below -L %d\n", mode, o->level_last, o->level);
		return -1;
	}
	return 0;
}

/* Reads up to len bytes, retrying short reads (pipes); returns the count, or -1 on error. */
static long read_full(FILE *f, uint8_t *buf, size_t len)
{
	size_t n = 0;

	while (n < len) {
		size_t got = fread(buf + n, 1, len - n, f);

		if (got == 0) {
			if (ferror(f))
				return -1;
			break;
		}
		n += got;
	}
	return (long)n;
}

int zst_compress_main(int argc, char **argv)
{
	struct options o;
	int r = parse_options(argc, argv, &o, 3);

	if (r != 0)
		return r > 0 ? 0 : 2;

	const char *in_name = o.nfiles > 0 ? o.files[0] : "-";
	const char *out_name = o.nfiles > 1 ? o.files[1] : "-";
	int from_stdin = strcmp(in_name, "-") == 0, to_stdout = strcmp(out_name, "-") == 0;
	const char *in_label = from_stdin ? "(stdin)" : in_name;
	const char *out_label = to_stdout ? "(stdout)" : out_name;
	FILE *in = NULL, *out = NULL;
	uint8_t *src = NULL, *dst = NULL;
	zs_cctx *cctx = NULL;
	size_t cap = zs_compress_bound(o.chunk);
	int ret = 1;

	in = from_stdin ? stdin : fopen(in_name, "rb");
	if (in == NULL) {
		fprintf(stderr, "zst -c: %s: %s\n", in_label, strerror(errno));
		goto out;
	}
	src = malloc(o.chunk);
	dst = malloc(cap);
	cctx = zs_cctx_new(o.level, o.chunk);
	if (src == NULL || dst == NULL || cctx == NULL) {
		fprintf(stderr, "zst -c: out of memory for chunks of %zu bytes\n", o.chunk);
		goto out;
	}
	out = to_stdout ? stdout : fopen(out_name, "wb");
	if (out == NULL) {
		fprintf(stderr, "zst -c: %s: %s\n", out_label, strerror(errno));
		goto out;
	}
	for (int first = 1;; first = 0) {
		long n = read_full(in, src, o.chunk);

		if (n < 0) {
			fprintf(stderr, "zst -c: %s: read error: %s\n", in_label, strerror(errno));
			goto out;
		}
		/* An empty input still becomes one (empty) frame, as `zstd` does. */
		if (n == 0 && !first)
			break;
		ptrdiff_t z = zs_compress(cctx, src, (size_t)n, dst, cap, o.checksum);

		if (z < 0) {
			fprintf(stderr, "zst -c: %s: %s\n", in_label, zs_error_string((int)z));
			goto out;
		}
		if (fwrite(dst, 1, (size_t)z, out) != (size_t)z) {
			fprintf(stderr, "zst -c: %s: write error: %s\n", out_label, strerror(errno));
			goto out;
		}
		if ((size_t)n < o.chunk)
			break;
	}
	if (fflush(out) != 0) {
		fprintf(stderr, "zst -c: %s: write error: %s\n", out_label, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (out != NULL && !to_stdout && fclose(out) != 0 && ret == 0) {
		fprintf(stderr, "zst -c: %s: write error: %s\n", out_label, strerror(errno));
		ret = 1;
	}
	if (in != NULL && !from_stdin)
		fclose(in);
	zs_cctx_free(cctx);
	free(src);
	free(dst);
	return ret;
}

double zst_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct bench_buf {
	const uint8_t *src;
	size_t len, chunk, nchunks;
	uint8_t *comp;      /* nchunks slots of cap bytes */
	size_t cap;
	size_t *comp_len;
	uint8_t *check;
};

/* Compress every chunk; returns total compressed bytes or -1. */
static long bench_compress(struct bench_buf *b, zs_cctx *cctx)
{
	long total = 0;

	for (size_t i = 0; i < b->nchunks; i++) {
		size_t off = i * b->chunk;
		size_t n = b->len - off < b->chunk ? b->len - off : b->chunk;
		ptrdiff_t z = zs_compress(cctx, b->src + off, n, b->comp + i * b->cap, b->cap, 0);

		if (z < 0) {
			fprintf(stderr, "zst -b: chunk %zu: %s\n", i, zs_error_string((int)z));
			return -1;
		}
		b->comp_len[i] = (size_t)z;
		total += (long)z;
	}
	return total;
}

static int bench_decompress(struct bench_buf *b, zs_dctx *dctx)
{
	for (size_t i = 0; i < b->nchunks; i++) {
		size_t off = i * b->chunk;
		size_t n = b->len - off < b->chunk ? b->len - off : b->chunk;
		ptrdiff_t d = zs_decompress(dctx, b->comp + i * b->cap, b->comp_len[i], b->check + off, n, n);

		if (d < 0 || (size_t)d != n) {
			fprintf(stderr, "zst -b: chunk %zu: decoding failed: %s\n", i,
				d < 0 ? zs_error_string((int)d) : "wrong size");
			return -1;
		}
	}
	return 0;
}

/* Repeat a pass until about a second has gone by (at least once); returns MB/s. */
static double bench_speed(struct bench_buf *b, zs_cctx *cctx, zs_dctx *dctx, long *csize)
{
	double start = zst_now(), best = 1e30, end;
	int runs = 0;

	do {
		double t0 = zst_now();

		if (cctx != NULL) {
			*csize = bench_compress(b, cctx);
			if (*csize < 0)
				return -1;
		} else if (bench_decompress(b, dctx) != 0) {
			return -1;
		}
		end = zst_now();
		if (end - t0 < best)
			best = end - t0;
		runs++;
	} while (end - start < 1.0 && runs < 1000);
	if (best < 1e-9)
		best = 1e-9;
	return (double)b->len / best / 1e6;
}

int zst_bench_main(int argc, char **argv)
{
	struct options o;
	int r = parse_options(argc, argv, &o, 3);
	struct bench_buf b = {0};
	FILE *f = NULL;
	uint8_t *data = NULL;
	zs_dctx *dctx = NULL;
	int ret = 1;

	if (r != 0)
		return r > 0 ? 0 : 2;
	if (o.nfiles != 1) {
		usage(stderr, "-b");
		return 2;
	}
	f = fopen(o.files[0], "rb");
	if (f == NULL) {
		fprintf(stderr, "zst -b: %s: %s\n", o.files[0], strerror(errno));
		return 1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0) {
		fprintf(stderr, "zst -b: %s: not a seekable file\n", o.files[0]);
		goto out;
	}
	b.len = (size_t)ftell(f);
	rewind(f);
	data = malloc(b.len ? b.len : 1);
	if (data == NULL || read_full(f, data, b.len) != (long)b.len) {
		fprintf(stderr, "zst -b: %s: cannot read\n", o.files[0]);
		goto out;
	}
	b.src = data;
	b.chunk = o.chunk;
	b.nchunks = b.len == 0 ? 0 : (b.len + o.chunk - 1) / o.chunk;
	b.cap = zs_compress_bound(o.chunk);
	b.comp = malloc(b.nchunks * b.cap + 1);
	b.comp_len = malloc((b.nchunks + 1) * sizeof(*b.comp_len));
	b.check = malloc(b.len + 1);
	dctx = zs_dctx_new();
	if (b.comp == NULL || b.comp_len == NULL || b.check == NULL || dctx == NULL) {
		fprintf(stderr, "zst -b: out of memory\n");
		goto out;
	}
	const char *name = strrchr(o.files[0], '/') ? strrchr(o.files[0], '/') + 1 : o.files[0];

	for (int level = o.level; level <= o.level_last; level++) {
		zs_cctx *cctx = zs_cctx_new(level, o.chunk);
		long csize = 0;

		if (cctx == NULL) {
			fprintf(stderr, "zst -b: out of memory\n");
			goto out;
		}
		double cspeed = bench_speed(&b, cctx, NULL, &csize);

		zs_cctx_free(cctx);
		if (cspeed < 0)
			goto out;
		double dspeed = bench_speed(&b, NULL, dctx, NULL);

		if (dspeed < 0)
			goto out;
		if (b.len != 0 && memcmp(b.check, b.src, b.len) != 0) {
			fprintf(stderr, "zst -b: %s: level %d: decoded data differs from the input\n",
				o.files[0], level);
			goto out;
		}
		/* As the reference prints: two decimals below 10 MB/s, one above. */
		printf("%2d#%-17.17s :%10zu -> %10ld (x%5.3f), %6.*f MB/s, %6.*f MB/s\n", level, name,
		       b.len, csize, csize ? (double)b.len / (double)csize : 0.0, cspeed < 10 ? 2 : 1,
		       cspeed, dspeed < 10 ? 2 : 1, dspeed);
		fflush(stdout);
	}
	ret = 0;
out:
	if (f != NULL)
		fclose(f);
	free(data);
	free(b.comp);
	free(b.comp_len);
	free(b.check);
	zs_dctx_free(dctx);
	return ret;
}
