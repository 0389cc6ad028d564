/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* block_split.h — optional cutting of a parsed block into several compressed blocks. */
#ifndef SQ_ZSTD_COMPRESS_BLOCK_SPLIT_H
#define SQ_ZSTD_COMPRESS_BLOCK_SPLIT_H

#include <stddef.h>

#include "codecs/zstd/compress/cctx.h"

/* Tries cutting the block just parsed into c->store (n bytes of content) into several
 * compressed blocks. Returns their total size with headers, written to c->split_out, when it
 * is below to_beat (c->next_entropy then holds the tables after the last piece); else 0. */
size_t zs_split_block(struct zs_cctx *c, size_t n, int last, size_t to_beat);

/* The cuts zs_split_block would make in the block in c->store (n bytes of content), without
 * encoding anything: c->split_cut[0..returned) are sequence indices, c->split_pos[i] the
 * content offset of sequence i. */
size_t zs_split_plan(struct zs_cctx *c, size_t n);

#endif
