/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mem.h — unaligned little-endian loads/stores and wide copies shared by the zstd encoder and decoder. */
#ifndef SQ_ZSTD_COMMON_MEM_H
#define SQ_ZSTD_COMMON_MEM_H

#include <stdint.h>
#include <string.h>

/* memcpy-based so compilers emit one unaligned load on x86 and stay legal under UBSan;
 * the byte swap keeps big-endian hosts correct. */
static inline uint16_t zs_read16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap16(v);
#endif
	return v;
}

static inline uint32_t zs_read24(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16);
}

static inline uint32_t zs_read32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	return v;
}

static inline uint64_t zs_read64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void zs_write16(void *p, uint16_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap16(v);
#endif
	memcpy(p, &v, sizeof(v));
}

static inline void zs_write24(void *p, uint32_t v)
{
	uint8_t *b = p;
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
}

static inline void zs_write32(void *p, uint32_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap32(v);
#endif
	memcpy(p, &v, sizeof(v));
}

static inline void zs_write64(void *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/* Index of the highest set bit; v must be non-zero. */
static inline unsigned zs_highbit32(uint32_t v)
{
	return 31u - (unsigned)__builtin_clz(v);
}

static inline void zs_copy8(void *dst, const void *src)
{
	memcpy(dst, src, 8);
}

static inline void zs_copy16(void *dst, const void *src)
{
	memcpy(dst, src, 16);
}

#endif
