/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* times.c — resolving "inode" times (-mkfs-time inode, -inode-time inode, -repro) once every
 * reader has filled the tree. Hard links are visited more than once; every step is idempotent. */
#include "config.h"
#include "mksquashfs/times.h"

#include <stdbool.h>

static void latest_in(const struct tree_inode *n, uint32_t *latest, bool *any)
{
	if (!(n->flags & TREE_MADE_UP)) {
		if (!*any || n->mtime > *latest)
			*latest = n->mtime;
		*any = true;
	}
	if (n->dir == NULL)
		return;
	for (uint32_t i = 0; i < n->dir->count; i++)
		latest_in(n->dir->entries[i].inode, latest, any);
}

uint32_t times_latest(const struct tree *tree)
{
	uint32_t latest = 0;
	bool any = false;
	if (tree->root != NULL)
		latest_in(tree->root, &latest, &any);
	return latest;
}

static void set_times(struct tree_inode *n, uint32_t t, bool made_up_only)
{
	if (!made_up_only || (n->flags & TREE_MADE_UP))
		n->mtime = t;
	if (n->dir == NULL)
		return;
	for (uint32_t i = 0; i < n->dir->count; i++)
		set_times(n->dir->entries[i].inode, t, made_up_only);
}

void times_apply(const struct mksq_options *o, struct tree *tree)
{
	if (tree->root == NULL || (!o->inode_time_inode && !o->mkfs_time_inode))
		return;
	set_times(tree->root, times_latest(tree), !o->inode_time_inode);
}

uint32_t times_mkfs(const struct mksq_options *o, const struct tree *tree)
{
	return o->mkfs_time_inode ? times_latest(tree) : o->image.mkfs_time;
}
