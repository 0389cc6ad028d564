/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_hc.h — hashing helpers of the fast and optimal parsers' tables (and the hash limit of all). */
#ifndef SQ_ZSTD_COMPRESS_MATCH_HC_H
#define SQ_ZSTD_COMPRESS_MATCH_HC_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/compress/cctx.h"

/* Hash of the first min_match bytes at p; p + 8 must be readable. */
static inline uint32_t zs_hash(const uint8_t *p, unsigned min_match, unsigned log)
{
	if (min_match >= 5) {
		uint64_t v = zs_read64(p) << (64 - 8 * min_match);

		return (uint32_t)((v * 0xCF1BBCDCB7A56463ull) >> (64 - log));
	}
	uint32_t v = zs_read32(p);

	if (min_match == 3)
		v <<= 8;
	return (v * 2654435761u) >> (32 - log);
}

/* Last position that may be hashed (8 bytes readable). */
static inline size_t zs_hash_limit(const struct zs_cctx *c)
{
	return c->src_len >= 8 ? c->src_len - 8 : 0;
}

#endif
