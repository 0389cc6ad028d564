/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* table_write.h — lookup tables (ids, fragments, export, xattr ids): fixed-size entries packed
 * into metadata blocks, then the u64 list of those blocks' image offsets. */
#ifndef SQ_COMMON_TABLE_WRITE_H
#define SQ_COMMON_TABLE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/util/error.h"

/* A table laid out for image offset `pos`: bytes[0..len) go at pos; the superblock (or the
 * xattr id header) points at pos + list_offset. */
struct sqfs_table_image {
	uint8_t *bytes;
	size_t len;
	size_t list_offset; /* where the prefix (if any) and then the u64 locations begin */
};

/* Lay out entry_len bytes of entries (entry_size divides 8192, so no entry straddles a block)
 * for image offset pos. prefix (prefix_len bytes, may be 0) is placed between the blocks and the
 * location list: the xattr id table's header. An empty table is just the prefix and an empty
 * list, as squashfs-tools writes the fragment table of an image without fragments.
 * Returns 0, or -1 with a message (memory, codec). On success the caller frees t->bytes. */
int sqfs_table_build(struct sqfs_table_image *t, const uint8_t *entries, size_t entry_len,
		     const uint8_t *prefix, size_t prefix_len, uint64_t pos,
		     const struct codec *codec, void *state, bool store_raw, struct sq_error *err);

#endif
