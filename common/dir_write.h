/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dir_write.h — directory listings: runs of entries under headers, and the directory index that
 * extended directory inodes carry for lookups in large directories. */
#ifndef SQ_COMMON_DIR_WRITE_H
#define SQ_COMMON_DIR_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"
#include "common/meta_write.h"

/* One name in a directory, its inode already written (so its reference is known). */
struct sqfs_dir_entry_w {
	const char *name;     /* name_len bytes, 1..SQFS_NAME_MAX, no NUL needed */
	uint32_t name_len;
	uint64_t inode_ref;   /* (inode table block << 16) | offset */
	uint32_t inode_number;
	uint16_t basic_type;  /* SQFS_INODE_DIR .. SQFS_INODE_SOCKET, never extended */
};

/* Where a listing went and what its directory inode must store. */
struct sqfs_dir_listing {
	uint32_t block_start;  /* metadata block of the first header, relative to the table */
	uint16_t offset;       /* offset of the first header in that block */
	uint32_t size;         /* listing bytes + SQFS_DIR_SIZE_BIAS (the inode's size field) */
	uint16_t index_count;  /* index entries: about one per 8 KiB of listing after the first */
	uint8_t *index;        /* encoded index entries (malloc'd, NULL when none) */
	size_t index_len;
};

/* Append the listing of entries (sorted by name, as the kernel's lookup needs) to the directory
 * table w. A new header starts after 256 entries, when the inode block changes, when the inode
 * number delta leaves the s16 range, and when an entry would end more than 8 KiB of listing after
 * the previous index point (or the start); that last kind of header becomes an index point
 * naming its first entry. These are squashfs-tools' rules, so listings and indexes come out
 * byte-identical to its own. Returns 0, or -1 with a message
 * (memory, codec, a listing or name beyond what the format can hold). On success the caller
 * frees out->index. */
int sqfs_dir_write(struct sqfs_meta_writer *w, const struct sqfs_dir_entry_w *entries,
		   uint32_t count, struct sqfs_dir_listing *out, struct sq_error *err);

#endif
