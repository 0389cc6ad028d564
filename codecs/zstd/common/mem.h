/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mem.h — unaligned little-endian loads/stores and wide copies shared by the zstd encoder and decoder. */
#ifndef SQ_ZSTD_COMMON_MEM_H
#define SQ_ZSTD_COMMON_MEM_H

#include <stdint.h>
#include <string.h>

/* memcpy-based so compilers emit one unaligned load or store on x86 and stay legal under
 * UBSan; the byte swap keeps big-endian hosts correct. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ZS_LE16(v) __builtin_bswap16(v)
#define ZS_LE32(v) __builtin_bswap32(v)
#define ZS_LE64(v) __builtin_bswap64(v)
#else
#define ZS_LE16(v) (v)
#define ZS_LE32(v) (v)
#define ZS_LE64(v) (v)
#endif

/* zs_readN(p) and zs_writeN(p, v) for N = 16, 32, 64: one definition for the three widths. */
#define ZS_LE_ACCESS(n)                                                  \
	static inline uint##n##_t zs_read##n(const void *p)              \
	{                                                                \
		uint##n##_t v;                                           \
		memcpy(&v, p, sizeof(v));                                \
		return ZS_LE##n(v);                                      \
	}                                                                \
	static inline void zs_write##n(void *p, uint##n##_t v)           \
	{                                                                \
		v = ZS_LE##n(v);                                         \
		memcpy(p, &v, sizeof(v));                                \
	}
ZS_LE_ACCESS(16)
ZS_LE_ACCESS(32)
ZS_LE_ACCESS(64)
#undef ZS_LE_ACCESS

static inline uint32_t zs_read24(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16);
}

static inline void zs_write24(void *p, uint32_t v)
{
	uint8_t *b = p;
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
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
