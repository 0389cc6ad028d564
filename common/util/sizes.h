/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sizes.h — overflow-checked arithmetic, checked array allocation, number parsing. */
#ifndef SQ_UTIL_SIZES_H
#define SQ_UTIL_SIZES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* *out = a + b / a * b; false on overflow (then *out is unspecified). */
static inline bool sq_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}
static inline bool sq_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}
static inline bool sq_add_size(size_t a, size_t b, size_t *out)
{
	return !__builtin_add_overflow(a, b, out);
}
static inline bool sq_mul_size(size_t a, size_t b, size_t *out)
{
	return !__builtin_mul_overflow(a, b, out);
}

/* calloc/realloc for n elements of size each, NULL when n * size overflows or memory is short. */
void *sq_alloc_array(size_t n, size_t size);
void *sq_realloc_array(void *p, size_t n, size_t size);

/* Room for need elements of size bytes in p, which holds *cap of them: p itself when it has
 * room, else p reallocated to *cap doubled (starting from first) until need fit, and *cap
 * updated. NULL when memory is short or the size overflows; p and *cap are then unchanged. */
void *sq_grow(void *p, size_t *cap, size_t need, size_t size, size_t first);

/* Parse an unsigned decimal number with an optional K/M/G suffix (case-insensitive, powers of
 * 1024), as squashfs-tools' -b, -mem and -offset accept. The suffixes allowed are given in
 * `suffixes` (e.g. "KM"); a suffix outside it is an error. Returns 0, or -1 on an empty
 * string, trailing garbage or overflow. */
int sq_parse_size(const char *s, const char *suffixes, uint64_t *out);

/* Parse a whole unsigned decimal number fitting in max (no sign, no suffix, no spaces). */
int sq_parse_uint(const char *s, uint64_t max, uint64_t *out);

#endif
