/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* inode_map.h — host (device, inode) to image inode: how the directory scan finds hard links, and
 * how pseudo "l"/"h" definitions link to a file the scan already holds. */
#ifndef SQ_MKSQUASHFS_INODE_MAP_H
#define SQ_MKSQUASHFS_INODE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/util/error.h"
#include "mksquashfs/tree.h"

struct inode_map_slot {
	dev_t dev;
	ino_t ino;
	struct tree_inode *inode;
};

/* Zero-initialised is empty. The map does not own the inodes. */
struct inode_map {
	struct inode_map_slot *slots;
	size_t cap, count;
	size_t limit;  /* entries the scan records whatever their link count (their share of -mem),
	                  0: no limit; past it only inodes with more than one link (inode_map_full) */
};

/* Has the map reached its limit? The scan then records only inodes whose st_nlink is above 1:
 * a file with one link reached twice (a source given twice, a bind mount) is then stored twice
 * instead of as a hard link. */
bool inode_map_full(const struct inode_map *m);

/* The inode recorded for (dev, ino), or NULL. */
struct tree_inode *inode_map_get(const struct inode_map *m, dev_t dev, ino_t ino);
/* Record (dev, ino) -> inode (replacing an earlier one). */
int inode_map_put(struct inode_map *m, dev_t dev, ino_t ino, struct tree_inode *inode,
		  struct sq_error *err);
void inode_map_free(struct inode_map *m);

#endif
