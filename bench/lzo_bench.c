/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzo_bench.c — our LZO1X encoder and liblzo2's lzo1x_999 (level 8 unless -L, then lzo1x_optimize, as
 * squashfs-tools calls them) side by side in one process, on independent blocks as squashfs
 * writes them. Built by bench/lzo.sh at benchmark time; never part of the project's build.
 *
 * usage: lzo_bench [-B SIZE] [-n RUNS] [-L LEVEL] [-o ours|ref] FILE...
 * -L: lzo1x_999 level of both sides (default 8, squashfs-tools' default; ours has 8 and 9).
 * One line per file: file block in_bytes our_bytes ref_bytes our_MBps ref_MBps worse_blocks
 * (a block stored raw counts its own size; worse_blocks: blocks where ours is larger). Every
 * block of ours is decoded by lzo1x_decompress_safe and compared. Times are this process's CPU
 * time, best of RUNS, the two sides alternating. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzo/lzo1x.h>

#include "codecs/lzo/lzo1x_enc.h"

static int ref_level = 8;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The whole file, or exit. */
static uint8_t *load(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	uint8_t *data = NULL;
	size_t got = 0;

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (data = malloc((size_t)st.st_size)) != NULL)
		for (ssize_t r = 1; got < (size_t)st.st_size && r > 0; got += r > 0 ? (size_t)r : 0)
			r = read(fd, data + got, (size_t)st.st_size - got);
	if (data == NULL || got != (size_t)st.st_size) {
		fprintf(stderr, "lzo_bench: %s: cannot read\n", path);
		exit(1);
	}
	close(fd);
	*len = got;
	return data;
}

struct side {
	size_t *len; /* per block, compressed (or raw) */
	uint8_t *buf;
	size_t cap, total;
	double best;
};

static void run_ours(struct lzo1x_enc *e, const uint8_t *data, size_t n, size_t block,
		     struct side *s)
{
	s->total = 0;
	for (size_t i = 0, k = 0; i < n; i += block, k++) {
		size_t l = n - i < block ? n - i : block;
		size_t z = lzo1x_enc_compress(e, data + i, (uint32_t)l, s->buf + k * s->cap, l - 1);

		s->len[k] = z == 0 ? l : z;
		s->total += s->len[k];
	}
}

static void run_ref(void *wrk, uint8_t *tmp, const uint8_t *data, size_t n, size_t block,
		    struct side *s)
{
	s->total = 0;
	for (size_t i = 0, k = 0; i < n; i += block, k++) {
		size_t l = n - i < block ? n - i : block;
		lzo_uint z = 0, orig = l;
		uint8_t *out = s->buf + k * s->cap;

		if (lzo1x_999_compress_level(data + i, l, out, &z, wrk, NULL, 0, 0, ref_level) != LZO_E_OK ||
		    (z < l && lzo1x_optimize(out, z, tmp, &orig, NULL) != LZO_E_OK)) {
			fprintf(stderr, "lzo_bench: liblzo2 failed\n");
			exit(1);
		}
		s->len[k] = z < l ? z : l;
		s->total += s->len[k];
	}
}

static void verify(const uint8_t *data, size_t n, size_t block, const struct side *s, uint8_t *tmp)
{
	for (size_t i = 0, k = 0; i < n; i += block, k++) {
		size_t l = n - i < block ? n - i : block;
		lzo_uint out = block;

		if (s->len[k] == l)
			continue;
		if (lzo1x_decompress_safe(s->buf + k * s->cap, s->len[k], tmp, &out, NULL) != LZO_E_OK ||
		    out != l || memcmp(tmp, data + i, l) != 0) {
			fprintf(stderr, "lzo_bench: block %zu of ours does not decode\n", k);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	size_t block = 131072;
	int runs = 3, only = 0, a = 1;

	for (; a < argc && argv[a][0] == '-'; a += 2) {
		if (a + 1 >= argc)
			return 2;
		if (strcmp(argv[a], "-B") == 0)
			block = strtoul(argv[a + 1], NULL, 0);
		else if (strcmp(argv[a], "-n") == 0)
			runs = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "-L") == 0)
			ref_level = atoi(argv[a + 1]);
		else if (strcmp(argv[a], "-o") == 0)
			only = strcmp(argv[a + 1], "ours") == 0 ? 1 : 2;
	}
	if (lzo_init() != LZO_E_OK)
		return 1;
	struct lzo1x_enc *e = lzo1x_enc_new((uint32_t)block, ref_level);
	void *wrk = malloc(LZO1X_999_MEM_COMPRESS);
	uint8_t *tmp = malloc(block);
	for (; a < argc; a++) {
		size_t n;
		uint8_t *data = load(argv[a], &n);
		size_t nb = (n + block - 1) / block;
		struct side s[2];
		for (int i = 0; i < 2; i++) {
			s[i].cap = block + block / 16 + 67;
			s[i].len = calloc(nb, sizeof(size_t));
			s[i].buf = malloc(nb * s[i].cap);
			memset(s[i].buf, 0, nb * s[i].cap);
			s[i].best = 1e30;
			s[i].total = 0;
		}
		for (int r = 0; r < runs; r++)
			for (int j = 0; j < 2; j++) {
				int w = (r & 1) ? 1 - j : j;
				if (only != 0 && w != only - 1)
					continue;
				double t0 = now();
				if (w == 0)
					run_ours(e, data, n, block, &s[0]);
				else
					run_ref(wrk, tmp, data, n, block, &s[1]);
				double t = now() - t0;
				if (t < s[w].best)
					s[w].best = t;
			}
		unsigned worse = 0;
		if (only != 2)
			verify(data, n, block, &s[0], tmp);
		if (only == 0)
			for (size_t k = 0; k < nb; k++)
				worse += s[0].len[k] > s[1].len[k];
		printf("%s %zu %zu %zu %zu %.2f %.2f %u\n", argv[a], block, n, s[0].total, s[1].total,
		       only == 2 ? 0 : n / s[0].best / 1e6, only == 1 ? 0 : n / s[1].best / 1e6, worse);
		fflush(stdout);
		for (int i = 0; i < 2; i++) {
			free(s[i].len);
			free(s[i].buf);
		}
		free(data);
	}
	lzo1x_enc_free(e);
	free(wrk);
	free(tmp);
	return 0;
}
