/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* container.c — the .xz container around one block (xz-file-format.txt): stream header, block
 * header, padding and check, index, stream footer; each field checked before it is used. */
#include "config.h"
#include "codecs/xz/xz_dec.h"
#include "codecs/xz/xz_internal.h"
#include "common/util/endian.h"

#include <stdlib.h>
#include <string.h>

#define HEADER_LEN 12u
#define FOOTER_LEN 12u
#define FILTER_LZMA2 0x21u
#define CHECK_NONE 0u
#define CHECK_CRC32 1u
#define CHECK_CRC64 4u

static const uint8_t header_magic[6] = { 0xFD, '7', 'z', 'X', 'Z', 0x00 };

/* A cursor over the input: every read goes through take(), which checks the length. */
struct cursor {
	const uint8_t *p;
	size_t left;
};

static const uint8_t *take(struct cursor *c, size_t n)
{
	if (n > c->left)
		return NULL;
	const uint8_t *at = c->p;
	c->p += n;
	c->left -= n;
	return at;
}

/* A variable-length integer: 7 bits a byte, at most 9 bytes, no needless zero byte at its end. */
static int read_vli(struct cursor *c, uint64_t *v)
{
	*v = 0;
	for (unsigned i = 0; i < 9; i++) {
		const uint8_t *b = take(c, 1);
		if (b == NULL)
			return XZ_ERR_TRUNCATED;
		*v |= (uint64_t)(*b & 0x7F) << (7 * i);
		if ((*b & 0x80) == 0)
			return i > 0 && *b == 0 ? XZ_ERR_CORRUPT : 0;
	}
	return XZ_ERR_CORRUPT;
}

struct block_info {
	size_t header_len;
	uint64_t csize, usize; /* UINT64_MAX when the header leaves them out */
};

/* The filter list inside a CRC-checked block header: LZMA2 alone, else not ours (BCJ filters
 * are liblzma's). */
static int parse_filters(struct cursor *h, unsigned nfilters)
{
	for (unsigned i = 0; i < nfilters; i++) {
		uint64_t id, psize;
		if (read_vli(h, &id) != 0 || read_vli(h, &psize) != 0 || psize > h->left)
			return XZD_NOT_MINE;
		const uint8_t *props = take(h, (size_t)psize);
		int last = i + 1 == nfilters;
		if (last && id == FILTER_LZMA2 && psize == 1 && props[0] <= 40)
			continue;
		return XZD_NOT_MINE;
	}
	return 0;
}

static int parse_block_header(const struct xz_crc *crc, struct cursor *c, struct block_info *b)
{
	const uint8_t *first = take(c, 1);
	if (first == NULL)
		return XZ_ERR_TRUNCATED;
	b->header_len = ((size_t)*first + 1) * 4;
	const uint8_t *rest = take(c, b->header_len - 1);
	if (rest == NULL)
		return XZ_ERR_TRUNCATED;
	if (xz_crc32(crc, first, b->header_len - 4) != get_le32(first + b->header_len - 4))
		return XZ_ERR_CORRUPT;
	struct cursor h = { rest + 1, b->header_len - 6 };
	unsigned flags = rest[0];
	if (flags & 0x3C)
		return XZD_NOT_MINE;
	b->csize = b->usize = UINT64_MAX;
	if (((flags & 0x40) && read_vli(&h, &b->csize) != 0) ||
	    ((flags & 0x80) && read_vli(&h, &b->usize) != 0))
		return XZD_NOT_MINE;
	int ret = parse_filters(&h, (flags & 3) + 1);
	if (ret != 0)
		return ret;
	while (h.left > 0)
		if (*take(&h, 1) != 0)
			return XZD_NOT_MINE;
	return 0;
}

/* The stored check of the block's output: 0, or XZ_ERR_CORRUPT on a mismatch. */
static int verify_check(const struct xz_crc *crc, unsigned type, const uint8_t *stored,
			const uint8_t *data, size_t n)
{
	if (type == CHECK_CRC32)
		return xz_crc32(crc, data, n) == get_le32(stored) ? 0 : XZ_ERR_CORRUPT;
	if (type == CHECK_CRC64)
		return xz_crc64(crc, data, n) == get_le64(stored) ? 0 : XZ_ERR_CORRUPT;
	return 0;
}

/* The block: header, LZMA2 data, padding, check; *unpadded is the size the index records. */
static int decode_block(struct xzd_ctx *ctx, struct cursor *c, unsigned check, uint8_t *dst,
			size_t cap, size_t *out_len, uint64_t *unpadded)
{
	struct block_info b;
	int ret = parse_block_header(&ctx->crc, c, &b);
	if (ret != 0)
		return ret;
	size_t used;
	ret = lzma2_decode(&ctx->lzma, c->p, c->left, &used, dst, cap, out_len);
	if (ret != 0)
		return ret;
	if ((b.csize != UINT64_MAX && b.csize != used) ||
	    (b.usize != UINT64_MAX && b.usize != *out_len))
		return XZ_ERR_CORRUPT;
	take(c, used);
	const uint8_t *pad = take(c, (4 - (b.header_len + used) % 4) % 4);
	if (pad == NULL)
		return XZ_ERR_TRUNCATED;
	for (const uint8_t *q = pad; q < c->p; q++)
		if (*q != 0)
			return XZ_ERR_CORRUPT;
	size_t check_len = check == CHECK_NONE ? 0 : check == CHECK_CRC32 ? 4 : 8;
	const uint8_t *stored = take(c, check_len);
	if (stored == NULL)
		return XZ_ERR_TRUNCATED;
	*unpadded = b.header_len + used + check_len;
	return verify_check(&ctx->crc, check, stored, dst, *out_len);
}

/* The index must list exactly the blocks seen (none or the one) with their sizes. */
static int check_index(const struct xz_crc *crc, struct cursor *c, int blocks, uint64_t unpadded,
		       uint64_t usize, size_t *index_len)
{
	const uint8_t *start = c->p;
	uint64_t count, u, s;
	take(c, 1); /* the indicator, 0x00, seen by the caller */
	int ret = read_vli(c, &count);
	if (ret != 0)
		return ret;
	if (count != (uint64_t)blocks)
		return XZ_ERR_CORRUPT;
	if (blocks == 1) {
		if ((ret = read_vli(c, &u)) != 0 || (ret = read_vli(c, &s)) != 0)
			return ret;
		if (u != unpadded || s != usize)
			return XZ_ERR_CORRUPT;
	}
	size_t len = (size_t)(c->p - start);
	const uint8_t *pad = take(c, (4 - len % 4) % 4);
	if (pad == NULL)
		return XZ_ERR_TRUNCATED;
	for (const uint8_t *q = pad; q < c->p; q++)
		if (*q != 0)
			return XZ_ERR_CORRUPT;
	len = (size_t)(c->p - start);
	const uint8_t *stored = take(c, 4);
	if (stored == NULL)
		return XZ_ERR_TRUNCATED;
	if (xz_crc32(crc, start, len) != get_le32(stored))
		return XZ_ERR_CORRUPT;
	*index_len = len + 4;
	return 0;
}

static int check_footer(const struct xz_crc *crc, struct cursor *c, const uint8_t *flags,
			size_t index_len)
{
	const uint8_t *f = take(c, FOOTER_LEN);
	if (f == NULL)
		return XZ_ERR_TRUNCATED;
	if (f[10] != 'Y' || f[11] != 'Z' || xz_crc32(crc, f + 4, 6) != get_le32(f) ||
	    memcmp(f + 8, flags, 2) != 0 || ((uint64_t)get_le32(f + 4) + 1) * 4 != index_len)
		return XZ_ERR_CORRUPT;
	return 0;
}

static int decode_stream(struct xzd_ctx *ctx, const uint8_t *src, size_t len, uint8_t *dst,
			 size_t cap, size_t *out_len)
{
	struct cursor c = { src, len };
	const uint8_t *h = take(&c, HEADER_LEN);
	if (h == NULL) {
		size_t n = len < sizeof header_magic ? len : sizeof header_magic;
		return memcmp(src, header_magic, n) == 0 ? XZ_ERR_TRUNCATED : XZD_NOT_MINE;
	}
	if (memcmp(h, header_magic, sizeof header_magic) != 0)
		return XZD_NOT_MINE;
	if (xz_crc32(&ctx->crc, h + 6, 2) != get_le32(h + 8))
		return XZ_ERR_CORRUPT;
	unsigned check = h[7];
	if (h[6] != 0 || (check != CHECK_NONE && check != CHECK_CRC32 && check != CHECK_CRC64))
		return XZD_NOT_MINE;
	if (c.left == 0)
		return XZ_ERR_TRUNCATED;
	int blocks = c.p[0] != 0x00;
	uint64_t unpadded = 0;
	*out_len = 0;
	if (blocks) {
		int ret = decode_block(ctx, &c, check, dst, cap, out_len, &unpadded);
		if (ret != 0)
			return ret;
		if (c.left == 0)
			return XZ_ERR_TRUNCATED;
		if (c.p[0] != 0x00)
			return XZD_NOT_MINE; /* a second block: liblzma's */
	}
	size_t index_len;
	int ret = check_index(&ctx->crc, &c, blocks, unpadded, *out_len, &index_len);
	if (ret == 0)
		ret = check_footer(&ctx->crc, &c, h + 6, index_len);
	if (ret == 0 && c.left != 0)
		ret = XZ_ERR_TRAILING;
	return ret;
}

int xzd_decode(struct xzd_ctx *ctx, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
	       size_t *out_len, const char **why)
{
	int ret = decode_stream(ctx, src, len, dst, cap, out_len);
	switch (ret) {
	case 0:
		return XZD_OK;
	case XZD_NOT_MINE:
		return XZD_NOT_MINE;
	case XZ_ERR_TRUNCATED:
		*why = "truncated xz stream";
		break;
	case XZ_ERR_OVERFLOW:
		*why = "xz stream expands beyond the block size";
		break;
	case XZ_ERR_TRAILING:
		*why = "bytes after the end of the xz stream";
		break;
	default:
		*why = "corrupt xz stream";
		break;
	}
	return XZD_ERROR;
}

struct xzd_ctx *xzd_new(void)
{
	struct xzd_ctx *ctx = malloc(sizeof *ctx);
	if (ctx != NULL)
		xz_crc_init(&ctx->crc);
	return ctx;
}

void xzd_free(struct xzd_ctx *ctx)
{
	free(ctx);
}
