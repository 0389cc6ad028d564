/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* crc.c — the xz checks: CRC32 (slice-by-8, it runs over every decoded byte) and CRC64. */
#include "config.h"
#include "codecs/xz/xz_internal.h"
#include "common/util/endian.h"

/* Reflected polynomials of the xz format (the same as gzip's CRC32 and ECMA-182's CRC64). */
#define CRC32_POLY UINT32_C(0xEDB88320)
#define CRC64_POLY UINT64_C(0xC96C5795D7870F42)

void xz_crc_init(struct xz_crc *c)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t r = i;
		uint64_t r64 = i;
		for (int k = 0; k < 8; k++) {
			r = (r >> 1) ^ (CRC32_POLY & (0u - (r & 1)));
			r64 = (r64 >> 1) ^ (CRC64_POLY & (0u - (r64 & 1)));
		}
		c->t32[0][i] = r;
		c->t64[i] = r64;
	}
	/* t32[k][i]: the CRC of byte i followed by k zero bytes, so 8 bytes fold in one step. */
	for (int k = 1; k < 8; k++)
		for (int i = 0; i < 256; i++) {
			uint32_t prev = c->t32[k - 1][i];
			c->t32[k][i] = (prev >> 8) ^ c->t32[0][prev & 0xff];
		}
}

uint32_t xz_crc32(const struct xz_crc *c, const uint8_t *p, size_t n)
{
	uint32_t crc = UINT32_MAX;
	const uint32_t(*t)[256] = c->t32;
	while (n >= 8) {
		uint32_t a = get_le32(p) ^ crc, b = get_le32(p + 4);
		crc = t[7][a & 0xff] ^ t[6][(a >> 8) & 0xff] ^ t[5][(a >> 16) & 0xff] ^
		      t[4][a >> 24] ^ t[3][b & 0xff] ^ t[2][(b >> 8) & 0xff] ^
		      t[1][(b >> 16) & 0xff] ^ t[0][b >> 24];
		p += 8;
		n -= 8;
	}
	while (n-- > 0)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

uint64_t xz_crc64(const struct xz_crc *c, const uint8_t *p, size_t n)
{
	uint64_t crc = UINT64_MAX;
	while (n-- > 0)
		crc = c->t64[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
