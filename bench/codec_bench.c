/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* codec_bench.c — our zstd codec and the reference libzstd side by side in one process, on
 * independent frames as squashfs writes them. Built by bench/codec.sh at benchmark time against
 * libzstd-dev; never part of the project's build.
 *
 * usage: codec_bench [-L FIRST[-LAST]] [-B SIZE[,SIZE...]] [-n RUNS] [-t SECONDS] [-d] [-c]
 *                    [-o ours|ref] FILE...
 *   -c: time compression (default); -d: time decoding instead, both decoders on our frames (the
 *   compression speeds are then printed as 0);
 *   -o: run one side only (for callgrind). One line per file, frame size and level:
 *   file block level in_bytes our_bytes ref_bytes our_c_MBps ref_c_MBps our_d_MBps ref_d_MBps
 * Timing: the runs of both sides alternate, the best of RUNS passes counts, and time is this
 * process's CPU time (robust to a busy machine's time slicing; caches are still shared). With
 * -t, passes go on until each side has also spent SECONDS: a 2 MiB pass of a fast level lasts a
 * few milliseconds, where one timer tick or a descheduled virtual CPU is a few per cent, and
 * the best of more passes steadies those cells. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zstd.h>

#include "codecs/zstd/zstd.h"

struct frames {
	size_t block, nframes;
	size_t cap;          /* room per frame */
	uint8_t *buf;        /* nframes slots of cap bytes */
	size_t *len;
	size_t total;
};

struct sample {
	const char *name;
	uint8_t *data;
	size_t len;
	uint8_t *out; /* decoded data */
};

/* CPU time of this (single-threaded) process: on a machine shared with other work it counts
 * only what the codec itself ran, where wall time would also count waiting for a core. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint8_t *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0) {
		fprintf(stderr, "codec_bench: %s: cannot read\n", path);
		exit(1);
	}
	rewind(f);
	b = malloc((size_t)n);
	if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "codec_bench: %s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static size_t chunk_len(const struct sample *s, size_t block, size_t i)
{
	size_t off = i * block;

	return s->len - off < block ? s->len - off : block;
}

static void compress_ours(zs_cctx *c, const struct sample *s, struct frames *fr)
{
	fr->total = 0;
	for (size_t i = 0; i < fr->nframes; i++) {
		ptrdiff_t z = zs_compress(c, s->data + i * fr->block, chunk_len(s, fr->block, i),
					  fr->buf + i * fr->cap, fr->cap, 0);

		if (z < 0) {
			fprintf(stderr, "codec_bench: ours: %s\n", zs_error_string((int)z));
			exit(1);
		}
		fr->len[i] = (size_t)z;
		fr->total += (size_t)z;
	}
}

/* As mksquashfs 4.5's zstd wrapper calls it: one-shot, content size, no checksum. */
static void compress_ref(ZSTD_CCtx *c, int level, const struct sample *s, struct frames *fr)
{
	fr->total = 0;
	for (size_t i = 0; i < fr->nframes; i++) {
		size_t z = ZSTD_compressCCtx(c, fr->buf + i * fr->cap, fr->cap, s->data + i * fr->block,
					     chunk_len(s, fr->block, i), level);

		if (ZSTD_isError(z)) {
			fprintf(stderr, "codec_bench: libzstd: %s\n", ZSTD_getErrorName(z));
			exit(1);
		}
		fr->len[i] = z;
		fr->total += z;
	}
}

static void decode_ours(zs_dctx *d, const struct sample *s, const struct frames *fr)
{
	for (size_t i = 0; i < fr->nframes; i++) {
		size_t n = chunk_len(s, fr->block, i);
		ptrdiff_t r = zs_decompress(d, fr->buf + i * fr->cap, fr->len[i], s->out + i * fr->block,
					    n, fr->block);

		if (r != (ptrdiff_t)n) {
			fprintf(stderr, "codec_bench: ours: decode failed: %s\n",
				r < 0 ? zs_error_string((int)r) : "wrong size");
			exit(1);
		}
	}
}

static void decode_ref(ZSTD_DCtx *d, const struct sample *s, const struct frames *fr)
{
	for (size_t i = 0; i < fr->nframes; i++) {
		size_t n = chunk_len(s, fr->block, i);
		size_t r = ZSTD_decompressDCtx(d, s->out + i * fr->block, n, fr->buf + i * fr->cap,
					       fr->len[i]);

		if (r != n) {
			fprintf(stderr, "codec_bench: libzstd: decode failed: %s\n",
				ZSTD_isError(r) ? ZSTD_getErrorName(r) : "wrong size");
			exit(1);
		}
	}
}

static void verify(const struct sample *s, const char *who, int level)
{
	if (memcmp(s->out, s->data, s->len) != 0) {
		fprintf(stderr, "codec_bench: %s: %s level %d: decoded data differs\n", s->name, who,
			level);
		exit(1);
	}
	memset(s->out, 0, s->len);
}

static void frames_init(struct frames *fr, const struct sample *s, size_t block)
{
	fr->block = block;
	fr->nframes = (s->len + block - 1) / block;
	fr->cap = ZSTD_compressBound(block) + 64;
	fr->buf = malloc(fr->nframes * fr->cap);
	fr->len = calloc(fr->nframes, sizeof(size_t));
	if (fr->buf == NULL || fr->len == NULL) {
		fprintf(stderr, "codec_bench: out of memory\n");
		exit(1);
	}
	/* Touched now, so neither side's first run pays the page faults. */
	memset(fr->buf, 0, fr->nframes * fr->cap);
}

static void frames_free(struct frames *fr)
{
	free(fr->buf);
	free(fr->len);
}

struct opts {
	int first, last, runs, decode, side; /* side: 0 both, 1 ours, 2 ref */
	double min_seconds;                  /* -t: per side, beside the RUNS passes */
	size_t blocks[8];
	int nblocks;
};

#define MAX_PASSES 2000

/* Another pass of both sides? After RUNS of them, only while a side that runs has spent less
 * than -t's seconds (spent[] of a side that does not run stays at 1e30). */
static int more_passes(const struct opts *o, int runs, int done, const double spent[2])
{
	if (done < runs)
		return 1;
	if (done >= MAX_PASSES)
		return 0;
	return spent[0] < o->min_seconds || spent[1] < o->min_seconds;
}

/* Minimum seconds of a pass (best of runs), alternating ours and theirs. */
static void bench_level(const struct opts *o, struct sample *s, size_t block, int level)
{
	struct frames fo, fref;
	double best[4] = {1e30, 1e30, 1e30, 1e30}; /* our c, ref c, our d, ref d */
	zs_cctx *oc = o->side != 2 ? zs_cctx_new(level, block) : NULL;
	ZSTD_CCtx *rc = o->side != 1 ? ZSTD_createCCtx() : NULL;

	frames_init(&fo, s, block);
	frames_init(&fref, s, block);
	if ((o->side != 2 && oc == NULL) || (o->side != 1 && rc == NULL)) {
		fprintf(stderr, "codec_bench: out of memory\n");
		exit(1);
	}
	/* Decoding runs need our frames once and libzstd's size once, not compression timing. */
	int compress_runs = o->decode ? 1 : o->runs;
	double spent[2] = {oc != NULL ? 0 : 1e30, rc != NULL ? 0 : 1e30};

	for (int r = 0; o->decode ? r < 1 : more_passes(o, compress_runs, r, spent); r++) {
		for (int side = 0; side < 2; side++) {
			int which = (r & 1) ? 1 - side : side; /* alternate who goes first */
			double t0;

			if (which == 0 && oc != NULL) {
				t0 = now();
				compress_ours(oc, s, &fo);
				t0 = now() - t0;
				spent[0] += t0;
				if (t0 < best[0])
					best[0] = t0;
			} else if (which == 1 && rc != NULL) {
				t0 = now();
				compress_ref(rc, level, s, &fref);
				t0 = now() - t0;
				spent[1] += t0;
				if (t0 < best[1])
					best[1] = t0;
			}
		}
	}
	if (o->decode && o->side == 0) {
		ZSTD_DCtx *rd = ZSTD_createDCtx();
		zs_dctx *od = zs_dctx_new();

		double dspent[2] = {0, 0};

		/* Both decoders on our frames (what our mksquashfs writes). */
		for (int r = 0; more_passes(o, o->runs, r, dspent); r++) {
			for (int side = 0; side < 2; side++) {
				int which = (r & 1) ? 1 - side : side;
				double t0 = now();

				if (which == 0)
					decode_ours(od, s, &fo);
				else
					decode_ref(rd, s, &fo);
				t0 = now() - t0;
				dspent[which] += t0;
				verify(s, which == 0 ? "our decoder" : "libzstd decoder", level);
				if (t0 < best[2 + which])
					best[2 + which] = t0;
			}
		}
		ZSTD_freeDCtx(rd);
		zs_dctx_free(od);
	} else if (oc != NULL && o->side == 0) {
		zs_dctx *od = zs_dctx_new();

		decode_ours(od, s, &fo);
		verify(s, "our decoder", level);
		zs_dctx_free(od);
	}
	double mb = (double)s->len / 1e6;

	printf("%s %zu %d %zu %zu %zu %.2f %.2f %.1f %.1f\n", s->name, block, level, s->len,
	       oc ? fo.total : 0, rc ? fref.total : 0, oc && !o->decode ? mb / best[0] : 0,
	       rc && !o->decode ? mb / best[1] : 0,
	       best[2] < 1e30 ? mb / best[2] : 0, best[3] < 1e30 ? mb / best[3] : 0);
	fflush(stdout);
	zs_cctx_free(oc);
	ZSTD_freeCCtx(rc);
	frames_free(&fo);
	frames_free(&fref);
}

static int parse(int argc, char **argv, struct opts *o)
{
	int i;

	o->first = 1;
	o->last = 22;
	o->runs = 3;
	o->min_seconds = 0;
	o->decode = 0;
	o->side = 0;
	o->nblocks = 0;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "-d") == 0) {
			o->decode = 1;
		} else if (strcmp(a, "-c") == 0) {
			o->decode = 0;
		} else if (strcmp(a, "-L") == 0 && v) {
			if (sscanf(v, "%d-%d", &o->first, &o->last) == 1)
				o->last = o->first;
			i++;
		} else if (strcmp(a, "-B") == 0 && v) {
			for (char *dup = strdup(v), *t = strtok(dup, ","); t && o->nblocks < 8;
			     t = strtok(NULL, ","))
				o->blocks[o->nblocks++] = strtoul(t, NULL, 0);
			i++;
		} else if (strcmp(a, "-n") == 0 && v) {
			o->runs = atoi(v);
			i++;
		} else if (strcmp(a, "-t") == 0 && v) {
			o->min_seconds = atof(v);
			i++;
		} else if (strcmp(a, "-o") == 0 && v) {
			o->side = strcmp(v, "ours") == 0 ? 1 : 2;
			i++;
		} else {
			return -1;
		}
	}
	if (o->nblocks == 0)
		o->blocks[o->nblocks++] = 131072;
	if (o->first < 1 || o->last > 22 || o->first > o->last || o->runs < 1 ||
	    !(o->min_seconds >= 0 && o->min_seconds <= 60) || i >= argc)
		return -1;
	return i;
}

int main(int argc, char **argv)
{
	struct opts o;
	int first_file = parse(argc, argv, &o);

	if (first_file < 0) {
		fprintf(stderr, "usage: codec_bench [-L FIRST[-LAST]] [-B SIZE,...] [-n RUNS] "
				"[-t SECONDS] [-d] [-o ours|ref] FILE...\n");
		return 2;
	}
	for (int f = first_file; f < argc; f++) {
		struct sample s;
		const char *slash = strrchr(argv[f], '/');

		s.name = slash ? slash + 1 : argv[f];
		s.data = load(argv[f], &s.len);
		s.out = malloc(s.len);
		if (s.out == NULL)
			return 1;
		memset(s.out, 0, s.len);
		for (int b = 0; b < o.nblocks; b++)
			for (int level = o.first; level <= o.last; level++)
				bench_level(&o, &s, o.blocks[b], level);
		free(s.data);
		free(s.out);
	}
	return 0;
}
