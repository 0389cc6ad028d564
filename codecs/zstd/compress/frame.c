/* frame.c — zstd frame assembly: header, block headers, raw/RLE fallbacks, checksum (first version: raw blocks). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/common/xxhash64.h"
#include "codecs/zstd/zstd.h"

struct zs_cctx {
	int level;
	size_t max_input;
};

zs_cctx *zs_cctx_new(int level, size_t max_input)
{
	zs_cctx *c;

	if (level < ZS_MIN_LEVEL || level > ZS_MAX_LEVEL)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->level = level;
	c->max_input = max_input;
	return c;
}

void zs_cctx_free(zs_cctx *cctx)
{
	free(cctx);
}

size_t zs_compress_bound(size_t len)
{
	return 18 + 4 + len + 3 * (len / 65536 + 2);
}

ptrdiff_t zs_compress(zs_cctx *cctx, const void *src, size_t src_len, void *dst, size_t dst_cap,
		      int checksum)
{
	const uint8_t *in = src;
	uint8_t *out = dst, *op = out;
	size_t pos = 0;

	if (cctx == NULL || (src == NULL && src_len) || dst == NULL || src_len > cctx->max_input)
		return ZS_ERR_PARAM;
	if (dst_cap < zs_compress_bound(src_len))
		return ZS_ERR_DST_TOO_SMALL;
	zs_write32(op, ZS_MAGIC);
	op += 4;
	if (src_len < 256) {
		*op++ = (uint8_t)(0x20 | (checksum ? 4 : 0));
		*op++ = (uint8_t)src_len;
	} else if (src_len < 65536 + 256) {
		*op++ = (uint8_t)(0x60 | (checksum ? 4 : 0));
		zs_write16(op, (uint16_t)(src_len - 256));
		op += 2;
	} else {
		*op++ = (uint8_t)(0xA0 | (checksum ? 4 : 0));
		zs_write32(op, (uint32_t)src_len);
		op += 4;
	}
	do {
		size_t n = src_len - pos > 65536 ? 65536 : src_len - pos;
		int last = pos + n == src_len;

		zs_write24(op, (uint32_t)(last | (ZS_BLOCK_RAW << 1) | (n << 3)));
		op += 3;
		if (n)
			memcpy(op, in + pos, n);
		op += n;
		pos += n;
	} while (pos < src_len);
	if (checksum) {
		zs_write32(op, (uint32_t)zs_xxh64(in, src_len, 0));
		op += 4;
	}
	return op - out;
}
