/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan.h — walking the source directories into the tree.h tree: metadata, hard links, xattrs,
 * exclusions. */
#ifndef SQ_MKSQUASHFS_SCAN_H
#define SQ_MKSQUASHFS_SCAN_H

#include <stdio.h>

#include "common/util/error.h"
#include "common/util/progress.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/inode_map.h"
#include "mksquashfs/options.h"
#include "mksquashfs/tree.h"

struct scan_stats {
	uint32_t hard_links;    /* entries beyond the first naming a non-directory inode */
	uint32_t xattrs_skipped;
	uint32_t skipped;       /* entries left out because they could not be read (or vanished) */
};

/* Build tree->root from o->sources (one directory: its contents unless -keep-as-directory;
 * otherwise a made-up root holding each source, clashing names renamed name_1, name_2, ... as
 * squashfs-tools does; the made-up root has the build time o->now). Inodes carry what lstat
 * said: attribute options (-all-root, -all-time, ...) are applied to the finished tree later.
 * Warnings (skipped xattr namespaces, renames, sources that cannot be read: left out with a
 * warning, or fatal with -exit-on-error) go to warn unless it is NULL; every entry added is
 * counted on progress (may be NULL). Regular files get file->size and source_path; their
 * content is read by the data stage. links (may be NULL) receives every non-directory's host
 * (dev, ino) -> inode, for pseudo l/h definitions. -no-hardlinks, -one-file-system[-x] and
 * -max-depth (o->walk) shape the walk.
 * Appending, base (NULL otherwise) is a directory inode holding what the image contributes
 * (its root's entries, or its root under the -root-becomes name): the new root is made as for a
 * new image and starts with those entries; source entries whose names they take are renamed
 * name_1, name_2, ... (in a source directory, after the entries whose names are free). base is
 * consumed, also on failure. */
int scan_sources(const struct mksq_options *o, const struct exclude_list *x,
		 struct tree_inode *base, struct tree *tree, struct scan_stats *stats,
		 struct inode_map *links, FILE *warn, struct progress *progress,
		 struct sq_error *err);

/* Add base's entries (see scan_sources) to a root made otherwise (source "-"): an entry of the
 * same name already there is dropped, as squashfs-tools keeps the image's. base is consumed. */
int scan_merge_base(struct tree_inode *root, struct tree_inode *base, struct sq_error *err);

/* Sources at their whole path, as tar and cpio take them: -no-strip / -tarstyle (each source
 * with what it holds) and -cpiostyle (each name, a directory without its contents: recurse
 * false). next gives the paths one by one: 1 with *path (valid until the next call), 0 at the
 * end, -1 with err set. Directories on the way take their metadata from the file system; the
 * root is "/" when the first path is absolute, else the current directory. */
typedef int (*scan_path_fn)(void *ctx, const char **path, struct sq_error *err);
int scan_paths(const struct mksq_options *o, const struct exclude_list *x, struct tree *tree,
	       struct scan_stats *stats, FILE *warn, bool recurse, scan_path_fn next, void *ctx,
	       struct sq_error *err);

#endif
