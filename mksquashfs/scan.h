/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan.h — walking the sources into the tree.h tree: metadata, hard links, xattrs, exclusions,
 * and the ordered list of regular files the data stage reads. */
#ifndef SQ_MKSQUASHFS_SCAN_H
#define SQ_MKSQUASHFS_SCAN_H

#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/options.h"
#include "mksquashfs/tree.h"

/* Regular files in the order their data is written: depth first, entries in directory order,
 * each inode once (hard links share it). */
struct file_list {
	struct tree_inode **files;
	size_t count;
	size_t cap;
	uint64_t total_bytes;   /* sum of sizes */
	char **image_paths;     /* with -info: each file's path in the image ("/dir/name"),
	                           parallel to files; NULL otherwise */
};

struct scan_stats {
	uint32_t hard_links;    /* entries beyond the first naming a non-directory inode */
	uint32_t xattrs_skipped;
};

/* Build tree->root from o->sources (one directory: its contents unless -keep-as-directory;
 * otherwise a made-up root holding each source, clashing names renamed name_1, name_2, ... as
 * squashfs-tools does). now is the made-up root's mtime (before clamping). Warnings (skipped
 * xattr namespaces, renames) go to warn unless it is NULL. Every file's content is filled later
 * by the data stage; file->size is set here. */
int scan_sources(const struct mksq_options *o, const struct exclude_list *x, uint32_t now,
		 struct tree *tree, struct file_list *files, struct scan_stats *stats, FILE *warn,
		 struct sq_error *err);

/* Free every inode, entry, name, xattr and file block list of the tree. */
void scan_tree_free(struct tree *tree);
void file_list_free(struct file_list *files);

#endif
