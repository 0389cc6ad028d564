/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* times.h — the "inode" forms of the time options: the latest time found in the sources. */
#ifndef SQ_MKSQUASHFS_TIMES_H
#define SQ_MKSQUASHFS_TIMES_H

#include <stdint.h>

#include "mksquashfs/options.h"
#include "mksquashfs/tree.h"

/* The latest mtime of the inodes read from the sources (TREE_MADE_UP ones left out); 0 when
 * there is none. */
uint32_t times_latest(const struct tree *tree);

/* -inode-time inode: every inode gets the latest source time; -mkfs-time inode (-repro): made-up
 * inodes get it, so a rebuild of the same sources is identical. */
void times_apply(const struct mksq_options *o, struct tree *tree);

/* The superblock time: -mkfs-time inode's latest source time, or what the options set. */
uint32_t times_mkfs(const struct mksq_options *o, const struct tree *tree);

#endif
