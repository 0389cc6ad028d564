/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sizes.c — checked allocation and number parsing with size suffixes. */
#include "config.h"
#include "common/util/sizes.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void *sq_alloc_array(size_t n, size_t size)
{
	size_t total;
	if (!sq_mul_size(n, size, &total))
		return NULL;
	return calloc(total ? n : 1, total ? size : 1);
}

void *sq_realloc_array(void *p, size_t n, size_t size)
{
	size_t total;
	if (!sq_mul_size(n, size, &total))
		return NULL;
	return realloc(p, total ? total : 1);
}

void *sq_grow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	if (need <= *cap)
		return p;
	size_t n = *cap ? *cap : first;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return NULL;
		n *= 2;
	}
	void *grown = sq_realloc_array(p, n, size);
	if (grown != NULL)
		*cap = n;
	return grown;
}

int sq_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (s == NULL || *s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (!sq_mul_u64(v, 10, &v) || !sq_add_u64(v, (uint64_t)(*s - '0'), &v))
			return -1;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int sq_parse_size(const char *s, const char *suffixes, uint64_t *out)
{
	uint64_t v = 0;
	size_t digits = 0;
	if (s == NULL)
		return -1;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (!sq_mul_u64(v, 10, &v) || !sq_add_u64(v, (uint64_t)(*s - '0'), &v))
			return -1;
	}
	if (digits == 0)
		return -1;
	if (*s != '\0') {
		char c = (char)toupper((unsigned char)*s);
		unsigned shift;
		if (s[1] != '\0' || strchr(suffixes, c) == NULL)
			return -1;
		switch (c) {
		case 'K': shift = 10; break;
		case 'M': shift = 20; break;
		case 'G': shift = 30; break;
		default: return -1;
		}
		if (v > (UINT64_MAX >> shift))
			return -1;
		v <<= shift;
	}
	*out = v;
	return 0;
}
