/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_bt.h — binary-tree match finder for the optimal parser: every longer match along one descent
 * (trees keyed on 4 bytes), and the most recent 3-byte match when the levels take them. */
#ifndef SQ_ZSTD_COMPRESS_MATCH_BT_H
#define SQ_ZSTD_COMPRESS_MATCH_BT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codecs/zstd/compress/cctx.h"

#define ZS_BT_NULL UINT32_MAX /* empty head or child */

struct zs_match {
	uint32_t len;
	uint32_t off;
};

/* Empties the 3-byte table (a frame, or a first block parsed again, starts without history). */
static inline void zs_hash3_reset(struct zs_cctx *c)
{
	memset(c->hash3, 0xFF, ((size_t)1 << c->hash3_log) * sizeof(uint32_t));
}

/* Inserts pos into its tree and, if out != NULL, appends to out[] (at most max_out entries,
 * the last one replaced when full) the matches longer than *best found on the way, lengths
 * capped at end - pos. attempts bounds the descent. Returns the number appended. */
unsigned zs_bt_insert_find(struct zs_cctx *c, const uint8_t *src, size_t pos, size_t end,
			   unsigned attempts, size_t *best, struct zs_match *out, unsigned max_out);

#endif
