/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* bitstream.h — the backward bit reader of zstd's FSE and Huffman streams (read from the last byte down). */
#ifndef SQ_ZSTD_COMMON_BITSTREAM_H
#define SQ_ZSTD_COMMON_BITSTREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codecs/zstd/common/mem.h"

/* Forced inline so each use compiles with its caller's target options (see ZS_TARGET_BMI2). */
#define ZS_BIT_INLINE static inline __attribute__((always_inline))

/* A 64-bit container loaded from `ptr` (8 bytes); `consumed` counts bits used from its top.
 * Streams shorter than 8 bytes are copied into a caller-owned 8-byte pad (zero above the
 * data), so every load is an in-bounds 8-byte read; the pad must outlive the reader. The
 * struct holds no pointer to itself, so compilers keep it in registers.
 *
 * Reads never touch memory outside the stream: past its start they return unspecified bits
 * and `consumed` exceeds 64, which zs_bitin_overflowed() reports. Callers only use such bits
 * as table indices masked to the table size, so corrupt input cannot steer memory accesses. */
struct zs_bitin {
	uint64_t bits;
	unsigned consumed;
	const uint8_t *ptr;
	const uint8_t *start;
};

/* 0 on success; -1 when the stream is empty or its last byte (which holds the end marker)
 * is zero. */
ZS_BIT_INLINE int zs_bitin_init(struct zs_bitin *b, const uint8_t *src, size_t len, uint8_t pad[8])
{
	if (len == 0 || src[len - 1] == 0)
		return -1;
	if (len >= 8) {
		b->start = src;
		b->ptr = src + len - 8;
	} else {
		memset(pad, 0, 8);
		memcpy(pad, src, len);
		b->start = pad;
		b->ptr = pad;
	}
	b->bits = zs_read64(b->ptr);
	/* The highest set bit is the end marker: skip it and the zero padding above it. */
	b->consumed = (unsigned)__builtin_clzll(b->bits) + 1;
	return 0;
}

/* n in 0..56 (and no more than 64 - consumed after the last reload for meaningful bits). */
ZS_BIT_INLINE uint64_t zs_bitin_read(struct zs_bitin *b, unsigned n)
{
	uint64_t v = ((b->bits << (b->consumed & 63)) >> 1) >> (63 - n);

	b->consumed += n;
	return v;
}

/* The next n bits (1..56) without consuming them. */
ZS_BIT_INLINE uint64_t zs_bitin_peek(const struct zs_bitin *b, unsigned n)
{
	return (b->bits << (b->consumed & 63)) >> (64 - n);
}

ZS_BIT_INLINE void zs_bitin_skip(struct zs_bitin *b, unsigned n)
{
	b->consumed += n;
}

/* Refill so that at least 57 bits are available (fewer near the stream start). Branch-free:
 * the step back is clamped to the bytes left before the start. */
ZS_BIT_INLINE void zs_bitin_reload(struct zs_bitin *b)
{
	size_t back = b->consumed >> 3;
	size_t avail = (size_t)(b->ptr - b->start);

	if (back > avail)
		back = avail;
	b->ptr -= back;
	b->consumed -= (unsigned)back * 8;
	b->bits = zs_read64(b->ptr);
}

/* After a reload: every bit of the stream used, no more and no less. */
ZS_BIT_INLINE int zs_bitin_finished(const struct zs_bitin *b)
{
	return b->ptr == b->start && b->consumed == 64;
}

/* After a reload: more bits were read than the stream holds. */
ZS_BIT_INLINE int zs_bitin_overflowed(const struct zs_bitin *b)
{
	return b->consumed > 64;
}

#endif
