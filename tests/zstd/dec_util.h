/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dec_util.h — helpers shared by the zstd decoder tests: whole-file reads, corpus location, sorted listings. */
#ifndef SQ_TESTS_ZSTD_DEC_UTIL_H
#define SQ_TESTS_ZSTD_DEC_UTIL_H

#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64: the tests' reproducible pseudo-random sequence (the caller keeps the state). */
static inline uint64_t dec_xorshift64(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* text[0..n) = "abcd...zabc...": compressible test input. */
static inline void dec_alphabet(uint8_t *text, size_t n)
{
	for (size_t i = 0; i < n; i++)
		text[i] = (uint8_t)('a' + i % 26);
}

/* The whole file in a malloc'd buffer (NULL on failure; *len 0 for an empty file). */
static inline uint8_t *dec_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		goto fail;
	buf = malloc((size_t)size + 1);
	if (buf == NULL || fread(buf, 1, (size_t)size, f) != (size_t)size)
		goto fail;
	fclose(f);
	*len = (size_t)size;
	return buf;
fail:
	free(buf);
	fclose(f);
	return NULL;
}

/* snprintf into a path buffer; an overlong path is cut (and then simply not found). */
static inline __attribute__((format(printf, 3, 4))) void dec_path(char *buf, size_t cap,
								   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
}

/* $ZSTD_CORPUS, else $top_srcdir/../shared/zstd-corpus (where the team keeps it beside the
 * main checkout), or NULL (with a message) when it is absent: a clone elsewhere sets ZSTD_CORPUS. */
static inline const char *dec_corpus_dir(char *buf, size_t cap)
{
	const char *top = getenv("top_srcdir"), *set = getenv("ZSTD_CORPUS");
	DIR *d;

	if (set != NULL && set[0] != '\0')
		dec_path(buf, cap, "%s", set);
	else
		dec_path(buf, cap, "%s/../shared/zstd-corpus", top ? top : ".");
	d = opendir(buf);
	if (d == NULL) {
		fprintf(stderr, "zstd corpus not found at %s: skipped\n", buf);
		return NULL;
	}
	closedir(d);
	return buf;
}

static int dec_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending with suffix; returns the count (-1 on failure), *names malloc'd. */
static inline int dec_list(const char *dir, const char *suffix, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, cap = 0;
	char **v = NULL;
	size_t sl = strlen(suffix);

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);

		if (e->d_name[0] == '.' || l < sl || strcmp(e->d_name + l - sl, suffix) != 0)
			continue;
		if (n == cap) {
			char **nv = realloc(v, sizeof(*v) * (size_t)(cap = cap ? cap * 2 : 64));

			if (nv == NULL)
				break;
			v = nv;
		}
		v[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(v, (size_t)n, sizeof(*v), dec_cmp_names);
	*names = v;
	return n;
}

static inline void dec_free_list(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

#endif
