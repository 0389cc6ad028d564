/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* block.c — one compressed block: its literals section, then its sequences section, executed into the output. */
#include "config.h"

#include <string.h>

#include "codecs/zstd/decompress/dctx.h"
#include "codecs/zstd/zstd.h"

/* Blocks up to this many bytes are prefetched whole before decoding. */
#define PREFETCH_MAX 8192u

int zs_decode_block(struct zs_dctx *d, const uint8_t *src, size_t len, struct zs_out *out)
{
	size_t block_max = (size_t)(out->block_end - out->op);
	/* Literals never exceed the block's own limit; the output bound is checked as they land. */
	if (block_max > ZS_BLOCK_SIZE_MAX)
		block_max = ZS_BLOCK_SIZE_MAX;

	/* A small block is read from several places at once (the ends of up to four literal
	 * streams, backwards, and of the sequence stream): asking for all of its lines now
	 * overlaps their misses instead of taking them one stream at a time. Large blocks are
	 * long sequential reads that the hardware prefetcher follows. */
	if (len <= PREFETCH_MAX)
		for (size_t off = 0; off < len; off += 64)
			__builtin_prefetch(src + off);

	ptrdiff_t used = zs_decode_literals(d, src, len, ZS_BLOCK_SIZE_MAX);

	if (used < 0)
		return (int)used;
	src += used;
	len -= (size_t)used;

	uint32_t nseq;
	ptrdiff_t hdr = zs_decode_seq_header(d, src, len, &nseq);

	if (hdr < 0)
		return (int)hdr;
	src += hdr;
	len -= (size_t)hdr;

	if (nseq == 0) {
		if (d->lit_len > block_max)
			return out->block_end < out->dst_end ? ZS_ERR_BLOCK_SIZE : ZS_ERR_DST_TOO_SMALL;
		memcpy(out->op, d->lit, d->lit_len);
		out->op += d->lit_len;
		return ZS_OK;
	}
	return zs_execute_sequences(d, src, len, nseq, out);
}
