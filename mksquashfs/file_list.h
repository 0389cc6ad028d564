/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* file_list.h — the regular files of the finished tree in the order the data stage writes them. */
#ifndef SQ_MKSQUASHFS_FILE_LIST_H
#define SQ_MKSQUASHFS_FILE_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"
#include "mksquashfs/tree.h"

/* Depth first, entries in directory order, each inode once (hard links share it); files whose
 * data is already stored (TREE_STORED) are not listed. */
struct file_list {
	struct tree_inode **files;
	size_t count;
	size_t cap;
	uint64_t total_bytes;   /* sum of sizes */
	char **image_paths;     /* with_paths: each file's path in the image ("/dir/name"),
	                           parallel to files; NULL otherwise */
	bool files_in_arena;    /* files is in the tree's arena (freed with the tree) */
};

/* List the files of a sorted tree (tree_sort). with_paths keeps image paths (-info). The list
 * is counted first and then allocated once, in the tree's arena: at a hundred million files a
 * doubling array would hold 2.4 GB at once, outside any bound. */
int file_list_build(struct tree *tree, bool with_paths, struct file_list *files,
		    struct sq_error *err);
void file_list_free(struct file_list *files);

#endif
