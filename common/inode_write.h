/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* inode_write.h — encoding every squashfs inode kind, basic and extended, into bytes. */
#ifndef SQ_COMMON_INODE_WRITE_H
#define SQ_COMMON_INODE_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "common/format.h"

/* Everything an inode of any kind may store, host byte order. Fields a kind does not have are
 * ignored. */
struct sqfs_inode_w {
	uint16_t type;         /* enum sqfs_inode_type, basic or extended */
	uint16_t mode;         /* the 12 permission bits */
	uint16_t uid_index;
	uint16_t gid_index;
	uint32_t mtime;
	uint32_t inode_number;
	uint32_t nlink;        /* basic files store none (1 implied) */
	uint32_t xattr_index;  /* extended kinds; SQFS_NO_XATTR when none */

	/* directories */
	uint32_t dir_block_start;  /* listing's metadata block, relative to the directory table */
	uint16_t dir_offset;       /* listing's offset in that block */
	uint32_t dir_size;         /* listing bytes + SQFS_DIR_SIZE_BIAS */
	uint32_t dir_parent;       /* parent's inode number */
	uint16_t dir_index_count;  /* extended: number of index entries in dir_index */
	const uint8_t *dir_index;  /* extended: encoded index entries (dir_write.h) */
	size_t dir_index_len;

	/* regular files */
	uint64_t blocks_start;
	uint64_t file_size;
	uint64_t sparse_bytes;     /* extended only */
	uint32_t fragment_index;   /* SQFS_NO_FRAGMENT when none */
	uint32_t fragment_offset;
	uint32_t block_count;
	const uint32_t *block_sizes;

	/* symlinks */
	const char *target;
	uint32_t target_len;

	/* devices: sqfs_encode_dev(major, minor) */
	uint32_t rdev;
};

/* Turn a basic type in in->type into the extended one when a field does not fit the basic
 * form, as squashfs-tools decides: xattrs for every kind; files also for nlink > 1, size or
 * blocks_start beyond 32 bits, or sparse bytes; directories also for a listing over 64 KiB or
 * an index. */
void sqfs_inode_pick_kind(struct sqfs_inode_w *in);

/* Bytes sqfs_inode_encode writes for *in; 0 for an unknown type. */
size_t sqfs_inode_encoded_size(const struct sqfs_inode_w *in);

/* Write the inode at out (sqfs_inode_encoded_size bytes). Returns that size, 0 for an unknown
 * type (nothing written). */
size_t sqfs_inode_encode(const struct sqfs_inode_w *in, uint8_t *out);

#endif
