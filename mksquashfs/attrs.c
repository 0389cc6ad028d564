/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* attrs.c — owner and time options applied to the finished tree. Each pass is idempotent, so an
 * inode reached through several hard links may be visited more than once. */
#include "config.h"
#include "mksquashfs/attrs.h"

static void apply_inode(const struct mksq_options *o, struct tree_inode *n)
{
	if (o->all_root)
		n->uid = n->gid = 0;
	if (o->force_uid_set)
		n->uid = o->force_uid;
	if (o->force_gid_set)
		n->gid = o->force_gid;
	if (o->all_time_set)
		n->mtime = o->all_time;
	else if (o->clamp_set && n->mtime > o->clamp_time)
		n->mtime = o->clamp_time;
}

static void apply_dir(const struct mksq_options *o, struct tree_inode *dir)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *n = dir->dir->entries[i].inode;
		apply_inode(o, n);
		if (n->dir != NULL)
			apply_dir(o, n);
	}
}

int attrs_apply(const struct mksq_options *o, struct tree *tree, struct sq_error *err)
{
	(void)err;
	apply_inode(o, tree->root);
	apply_dir(o, tree->root);
	return 0;
}
