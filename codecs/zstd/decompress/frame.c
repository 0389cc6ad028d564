/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* frame.c — the decoder's entry points: contexts, frame headers, the block loop, checksums, skippable frames. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/common/mem.h"
#include "common/util/xxhash64.h"
#include "codecs/zstd/decompress/dctx.h"
#include "codecs/zstd/zstd.h"

zs_dctx *zs_dctx_new(void)
{
	zs_dctx *d = calloc(1, sizeof(*d));

	if (d == NULL)
		return NULL;
	/* The environment switch lets tests cover the generic paths on BMI2 machines too. */
	d->bmi2 = zs_cpu_has_bmi2() && getenv("ZS_DISABLE_BMI2") == NULL;
	zs_build_default_tables(d);
	zs_dctx_reset_frame(d);
	return d;
}

void zs_dctx_free(zs_dctx *dctx)
{
	free(dctx);
}

void zs_dctx_reset_frame(struct zs_dctx *d)
{
	d->huf.max_bits = 0;
	d->ll.cells = NULL;
	d->of.cells = NULL;
	d->ml.cells = NULL;
	d->rep[0] = ZS_REP_START_1;
	d->rep[1] = ZS_REP_START_2;
	d->rep[2] = ZS_REP_START_3;
}

struct frame_header {
	uint64_t window;
	uint64_t content_size;
	int has_content_size;
	int has_checksum;
	size_t size; /* bytes, magic included */
};

/* RFC 8878 3.1.1.1: the descriptor byte, then optional window, dictionary id, content size. */
static int parse_frame_header(const uint8_t *src, size_t len, size_t max_window,
			      struct frame_header *fh)
{
	static const uint8_t did_bytes[4] = { 0, 1, 2, 4 };

	if (len < 5)
		return ZS_ERR_SRC_TRUNCATED;
	unsigned fhd = src[4];
	unsigned fcs_flag = fhd >> 6;
	int single = (fhd >> 5) & 1;
	size_t fcs_bytes = fcs_flag == 0 ? (size_t)single : (size_t)1 << fcs_flag;

	if (fhd & 0x08)
		return ZS_ERR_FRAME_HEADER;
	fh->has_checksum = (fhd >> 2) & 1;
	fh->has_content_size = fcs_bytes != 0;
	fh->size = 5 + (single ? 0 : 1) + did_bytes[fhd & 3] + fcs_bytes;
	if (len < fh->size)
		return ZS_ERR_SRC_TRUNCATED;

	const uint8_t *p = src + 5;

	if (!single) {
		unsigned exponent = *p >> 3, mantissa = *p & 7;
		uint64_t base = (uint64_t)1 << (ZS_WINDOW_LOG_MIN + exponent);

		fh->window = base + (base >> 3) * mantissa;
		p++;
	}
	uint32_t dict_id = 0;

	switch (fhd & 3) {
	case 1: dict_id = p[0]; break;
	case 2: dict_id = zs_read16(p); break;
	case 3: dict_id = zs_read32(p); break;
	default: break;
	}
	p += did_bytes[fhd & 3];
	if (dict_id != 0)
		return ZS_ERR_DICTIONARY;

	switch (fcs_bytes) {
	case 1: fh->content_size = p[0]; break;
	case 2: fh->content_size = (uint64_t)zs_read16(p) + 256; break;
	case 4: fh->content_size = zs_read32(p); break;
	case 8: fh->content_size = zs_read64(p); break;
	default: fh->content_size = 0; break;
	}
	if (single)
		fh->window = fh->content_size;
	if (max_window != 0 && fh->window > max_window)
		return ZS_ERR_WINDOW_TOO_LARGE;
	return ZS_OK;
}

/* One zstd frame at src (magic already recognised) into [frame_start, dst_end). Sets *used
 * (input bytes) and *produced; returns a zs_status. */
static int decode_frame(struct zs_dctx *d, const uint8_t *src, size_t len, uint8_t *frame_start,
			uint8_t *dst_end, size_t max_window, size_t *used, size_t *produced)
{
	struct frame_header fh = { 0 };
	int rc = parse_frame_header(src, len, max_window, &fh);

	if (rc != ZS_OK)
		return rc;
	if (fh.has_content_size && fh.content_size > (uint64_t)(dst_end - frame_start))
		return ZS_ERR_DST_TOO_SMALL;

	size_t block_max = fh.window < ZS_BLOCK_SIZE_MAX ? (size_t)fh.window : ZS_BLOCK_SIZE_MAX;
	struct zs_out out = {
		.frame_start = frame_start,
		.op = frame_start,
		.dst_end = dst_end,
		.window = fh.window,
	};
	size_t pos = fh.size;
	int last = 0;

	zs_dctx_reset_frame(d);
	while (!last) {
		if (len - pos < 3)
			return ZS_ERR_SRC_TRUNCATED;
		uint32_t bh = zs_read24(src + pos);
		unsigned type = (bh >> 1) & 3u;
		size_t bsize = bh >> 3;
		size_t room = (size_t)(dst_end - out.op);

		last = bh & 1;
		pos += 3;
		if (bsize > block_max)
			return ZS_ERR_BLOCK_SIZE;
		switch (type) {
		case ZS_BLOCK_RAW:
			if (len - pos < bsize)
				return ZS_ERR_SRC_TRUNCATED;
			if (room < bsize)
				return ZS_ERR_DST_TOO_SMALL;
			memcpy(out.op, src + pos, bsize);
			out.op += bsize;
			pos += bsize;
			break;
		case ZS_BLOCK_RLE:
			if (len - pos < 1)
				return ZS_ERR_SRC_TRUNCATED;
			if (room < bsize)
				return ZS_ERR_DST_TOO_SMALL;
			memset(out.op, src[pos], bsize);
			out.op += bsize;
			pos += 1;
			break;
		case ZS_BLOCK_COMPRESSED:
			if (len - pos < bsize)
				return ZS_ERR_SRC_TRUNCATED;
			out.block_end = out.op + (room < block_max ? room : block_max);
			rc = zs_decode_block(d, src + pos, bsize, &out);
			if (rc != ZS_OK)
				return rc;
			pos += bsize;
			break;
		default:
			return ZS_ERR_BLOCK_TYPE;
		}
	}
	size_t n = (size_t)(out.op - frame_start);

	if (fh.has_content_size && n != fh.content_size)
		return ZS_ERR_CONTENT_SIZE;
	if (fh.has_checksum) {
		if (len - pos < ZS_CHECKSUM_SIZE)
			return ZS_ERR_SRC_TRUNCATED;
		uint32_t want = zs_read32(src + pos);

		if ((uint32_t)sq_xxh64(frame_start, n, 0) != want)
			return ZS_ERR_CHECKSUM;
		pos += ZS_CHECKSUM_SIZE;
	}
	*used = pos;
	*produced = n;
	return ZS_OK;
}

ptrdiff_t zs_decompress(zs_dctx *dctx, const void *src, size_t src_len, void *dst, size_t dst_cap,
			size_t max_window)
{
	const uint8_t *in = src;
	uint8_t none[1];
	uint8_t *op = dst != NULL ? dst : none; /* keeps pointer arithmetic defined for dst_cap 0 */
	size_t pos = 0, total = 0;

	if (dctx == NULL || (src == NULL && src_len != 0) || (dst == NULL && dst_cap != 0))
		return ZS_ERR_PARAM;
	if (dst_cap > (size_t)PTRDIFF_MAX)
		dst_cap = (size_t)PTRDIFF_MAX;
	if (src_len == 0)
		return ZS_ERR_SRC_TRUNCATED;
	while (pos < src_len) {
		size_t left = src_len - pos;

		if (left < 4)
			return ZS_ERR_SRC_TRUNCATED;
		uint32_t magic = zs_read32(in + pos);

		if ((magic & ZS_SKIPPABLE_MASK) == ZS_SKIPPABLE_MAGIC) {
			if (left < 8)
				return ZS_ERR_SRC_TRUNCATED;
			uint32_t skip = zs_read32(in + pos + 4);

			if (skip > left - 8)
				return ZS_ERR_SRC_TRUNCATED;
			pos += 8 + (size_t)skip;
			continue;
		}
		if (magic != ZS_MAGIC)
			return ZS_ERR_BAD_MAGIC;

		size_t used = 0, produced = 0;
		int rc = decode_frame(dctx, in + pos, left, op + total, op + dst_cap, max_window,
				      &used, &produced);

		if (rc != ZS_OK)
			return rc;
		pos += used;
		total += produced;
	}
	return (ptrdiff_t)total;
}
