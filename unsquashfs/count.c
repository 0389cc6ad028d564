/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* count.c — the pre-pass that counts what an extraction writes ("N inodes (M blocks) to write"). */
#include "config.h"
#include "unsquashfs/extract.h"

#include "unsquashfs/numset.h"
#include "unsquashfs/walk.h"

struct count_ctx {
	unsigned long inodes, blocks;
	struct numset seen; /* hard-linked files count their blocks once */
};

static int c_leaf(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		  struct sq_error *err)
{
	(void)path, (void)name, (void)parent;
	struct count_ctx *c = ctx;
	c->inodes++;
	if (ino->type != SQFS_INODE_FILE)
		return 0;
	if (ino->nlink > 1) {
		int r = numset_add(&c->seen, ino->number, NULL, err);
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
	}
	c->blocks += ino->u.file.nblocks + (ino->u.file.frag != SQFS_NO_FRAGMENT);
	return 0;
}

int unsq_count(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, unsigned long *inodes,
	       unsigned long *blocks, struct sq_error *err)
{
	struct count_ctx c = {0};
	struct unsq_visitor v = {.ctx = &c, .leaf = c_leaf};
	struct unsq_walk_opts wo = {.sel = sel, .max_depth = o->max_depth};
	int rc = unsq_walk(fs, &wo, &v, err);
	numset_free(&c.seen);
	*inodes = c.inodes;
	*blocks = c.blocks;
	return rc;
}
