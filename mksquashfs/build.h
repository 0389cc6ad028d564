/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* build.h — one mksquashfs run, from parsed options to a finished image. */
#ifndef SQ_MKSQUASHFS_BUILD_H
#define SQ_MKSQUASHFS_BUILD_H

#include <stdio.h>

#include "common/util/error.h"
#include "common/util/progress.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/file_list.h"
#include "mksquashfs/options.h"
#include "mksquashfs/scan.h"
#include "mksquashfs/tree.h"

/* Every input into one sorted tree with the attribute options applied, and the list of files
 * the data stage writes. base is what an image being appended to contributes (scan.h; NULL for
 * a new image; consumed). Warnings go to warn unless NULL; entries found are counted on progress
 * (may be NULL). On failure the caller still frees tree and files. */
int build_tree(const struct mksq_options *o, const struct exclude_list *x,
	       struct tree_inode *base, struct tree *tree, struct file_list *files,
	       struct scan_stats *stats, FILE *warn, struct progress *progress,
	       struct sq_error *err);

/* Read the inputs into the tree, apply the attribute options, write the data and the tables,
 * print the summary. 0, or -1 with a one-line message in err and no image left behind. */
int mksq_build(const struct mksq_options *o, struct sq_error *err);

/* Memory for queued blocks when neither -mem nor -mem-percent is given (-mem-default). */
uint64_t mksq_default_mem(void);

#endif
