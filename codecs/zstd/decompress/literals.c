/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* literals.c — the literals section of a compressed block: raw, RLE, Huffman (1 or 4 streams), treeless. */
#include "config.h"

#include <string.h>

#include "codecs/zstd/decompress/dctx.h"
#include "codecs/zstd/zstd.h"

ptrdiff_t zs_decode_literals(struct zs_dctx *d, const uint8_t *src, size_t len, size_t block_max)
{
	if (len == 0)
		return ZS_ERR_LITERALS_HEADER;
	unsigned type = src[0] & 3u;
	unsigned size_format = (src[0] >> 2) & 3u;

	if (type == ZS_LIT_RAW || type == ZS_LIT_RLE) {
		size_t hdr, regen;

		/* Size_Format 0 and 2 both mean a 5-bit size in a 1-byte header. */
		if (size_format == 1) {
			hdr = 2;
			if (len < hdr)
				return ZS_ERR_LITERALS_HEADER;
			regen = (src[0] >> 4) | ((size_t)src[1] << 4);
		} else if (size_format == 3) {
			hdr = 3;
			if (len < hdr)
				return ZS_ERR_LITERALS_HEADER;
			regen = (src[0] >> 4) | ((size_t)src[1] << 4) | ((size_t)src[2] << 12);
		} else {
			hdr = 1;
			regen = src[0] >> 3;
		}
		if (regen > block_max)
			return ZS_ERR_LITERALS_HEADER;
		if (type == ZS_LIT_RLE) {
			if (len < hdr + 1)
				return ZS_ERR_SRC_TRUNCATED;
			memset(d->lit_buf, src[hdr], regen);
			d->lit = d->lit_buf;
			d->lit_len = regen;
			return (ptrdiff_t)(hdr + 1);
		}
		if (len - hdr < regen)
			return ZS_ERR_SRC_TRUNCATED;
		/* In place when the rest of the block gives the over-read slack; else copied. */
		if (len - hdr - regen >= ZS_LIT_SLACK) {
			d->lit = src + hdr;
		} else {
			memcpy(d->lit_buf, src + hdr, regen);
			d->lit = d->lit_buf;
		}
		d->lit_len = regen;
		return (ptrdiff_t)(hdr + regen);
	}

	/* Huffman-coded: sizes of 10, 14 or 18 bits each for regenerated and compressed. */
	size_t hdr, bits;
	int four_streams = size_format != 0;

	switch (size_format) {
	case 0:
	case 1: hdr = 3; bits = 10; break;
	case 2: hdr = 4; bits = 14; break;
	default: hdr = 5; bits = 18; break;
	}
	if (len < hdr)
		return ZS_ERR_LITERALS_HEADER;
	uint64_t h = 0;

	for (size_t i = 0; i < hdr; i++)
		h |= (uint64_t)src[i] << (8 * i);
	size_t mask = ((size_t)1 << bits) - 1;
	size_t regen = (size_t)(h >> 4) & mask;
	size_t comp = (size_t)(h >> (4 + bits)) & mask;

	if (regen > block_max)
		return ZS_ERR_LITERALS_HEADER;
	if (comp > len - hdr)
		return ZS_ERR_SRC_TRUNCATED;
	const uint8_t *p = src + hdr;
	size_t plen = comp;

	if (type == ZS_LIT_COMPRESSED) {
		ptrdiff_t used = zs_huf_read_table(&d->huf, p, plen);

		if (used < 0)
			return ZS_ERR_HUFFMAN_TABLE;
		p += used;
		plen -= (size_t)used;
	} else if (d->huf.max_bits == 0) {
		return ZS_ERR_NO_HUFFMAN_TABLE;
	}
	int rc = zs_huf_decode(&d->huf, d->lit_buf, regen, p, plen, four_streams, d->bmi2);

	if (rc != 0)
		return ZS_ERR_HUFFMAN_STREAM;
	d->lit = d->lit_buf;
	d->lit_len = regen;
	return (ptrdiff_t)(hdr + comp);
}
