/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* attrs.c — owner, mode and time options applied to the finished tree, whatever reader made an
 * inode, in squashfs-tools' order: the -root-* options on the root, then -all-root/-force-uid/
 * -force-gid and -force-file-mode/-force-dir-mode (which pseudo entries escape with
 * -pseudo-override), then -all-time or SOURCE_DATE_EPOCH clamping, and -uid-gid-offset last.
 * Each pass is idempotent, so an inode reached through several hard links may be visited more
 * than once; -uid-gid-offset is not, and is applied through a visited mark. */
#include "config.h"
#include "mksquashfs/attrs.h"

#include <sys/stat.h>

/* Whether the global owner/mode options reach this inode. */
static bool forced(const struct mksq_options *o, const struct tree_inode *n)
{
	return !(o->attrs.pseudo_override && (n->flags & TREE_PSEUDO));
}

static void apply_inode(const struct mksq_options *o, struct tree_inode *n)
{
	if (n->flags & TREE_EXISTING)
		return;
	if (forced(o, n)) {
		if (o->all_root)
			n->uid = n->gid = 0;
		if (o->force_uid_set)
			n->uid = o->force_uid;
		if (o->force_gid_set)
			n->gid = o->force_gid;
		if (S_ISDIR(n->mode) && o->attrs.dir_mode_set)
			n->mode = (n->mode & S_IFMT) | mode_apply(&o->attrs.dir_mode, n->mode);
		else if (!S_ISDIR(n->mode) && o->attrs.file_mode_set)
			n->mode = (n->mode & S_IFMT) | mode_apply(&o->attrs.file_mode, n->mode);
	}
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

/* The -root-* options; -force-dir-mode, when given, decides the root's mode instead. */
static void apply_root(const struct mksq_options *o, struct tree_inode *root)
{
	const struct attr_options *a = &o->attrs;
	if (a->root_mode_set && !a->dir_mode_set)
		root->mode = (root->mode & S_IFMT) | mode_apply(&a->root_mode, root->mode);
	if (a->root_uid_set)
		root->uid = a->root_uid;
	if (a->root_gid_set)
		root->gid = a->root_gid;
	if (a->root_time_set)
		root->mtime = a->root_time;
}

/* inode_number is the writer's, unused until it runs: borrowed as a visited mark. */
static int offset_ids(struct tree_inode *n, uint32_t off, struct sq_error *err)
{
	if (n->inode_number != 0)
		return 0;
	n->inode_number = 1;
	if (n->uid > UINT32_MAX - off || n->gid > UINT32_MAX - off)
		return sq_fail(err, SQ_ERR_USAGE, "-uid-gid-offset %u: uid %u or gid %u would pass "
			       "4294967295", off, n->uid, n->gid);
	n->uid += off;
	n->gid += off;
	if (n->dir == NULL)
		return 0;
	for (uint32_t i = 0; i < n->dir->count; i++)
		if (offset_ids(n->dir->entries[i].inode, off, err) != 0)
			return -1;
	return 0;
}

static void clear_marks(struct tree_inode *n)
{
	n->inode_number = 0;
	if (n->dir != NULL)
		for (uint32_t i = 0; i < n->dir->count; i++)
			clear_marks(n->dir->entries[i].inode);
}

int attrs_apply(const struct mksq_options *o, struct tree *tree, struct sq_error *err)
{
	apply_root(o, tree->root);
	apply_inode(o, tree->root);
	apply_dir(o, tree->root);
	if (o->attrs.uid_gid_offset == 0)
		return 0;
	int rc = offset_ids(tree->root, o->attrs.uid_gid_offset, err);
	clear_marks(tree->root);
	return rc;
}
