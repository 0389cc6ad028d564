/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* read_tree.h — an existing image's directory tree read into tree.h inodes (append). */
#ifndef SQ_MKSQUASHFS_APPEND_READ_TREE_H
#define SQ_MKSQUASHFS_APPEND_READ_TREE_H

#include <stdint.h>

#include "common/fs_read.h"
#include "common/util/error.h"
#include "mksquashfs/tree.h"

/* Where the image's data may lie: every file's blocks inside [data_start, data_end), fragment
 * indexes below frag_count. */
struct read_limits {
	uint64_t data_start;
	uint64_t data_end;
	uint32_t frag_count;
};

/* The whole tree of fs from its root: every inode TREE_EXISTING, regular files TREE_STORED with
 * their size, block list, fragment and sparse bytes; hard links share one inode (nlink = its
 * entries). *inodes gets the distinct inodes read, *file_bytes the sum of their file sizes. On
 * failure *root (possibly partial) is still the caller's to free with tree_free. The inodes are
 * allocated in tree's arena (tree_inode_new_in: spillable), so they live as long as tree. */
int append_read_tree(struct sqfs_fs *fs, const struct read_limits *lim, struct tree *tree,
		     struct tree_inode **root, uint32_t *inodes, uint64_t *file_bytes,
		     struct sq_error *err);

#endif
