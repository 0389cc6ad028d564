/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* walk.h — visiting an image's tree in directory order with selection and loop checks. */
#ifndef SQ_UNSQUASHFS_WALK_H
#define SQ_UNSQUASHFS_WALK_H

#include <stddef.h>

#include "common/fs_read.h"
#include "unsquashfs/select.h"

/* Callbacks get the path below the root ("" for the root, "a/b" otherwise) and the inode.
 * enter_dir returns a handle for the directory's children (e.g. a directory fd) via *child;
 * leave_dir gets it back after the children, with the number visited ((size_t)-1 when the
 * walk is being abandoned: release the handle only). Any -1 stops the walk. A NULL callback
 * does nothing (the child handle is then NULL). */
struct unsq_visitor {
	void *ctx;
	int (*enter_dir)(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino,
			 void *parent, void **child, struct sq_error *err);
	int (*leave_dir)(void *ctx, const char *path, const struct sqfs_inode *ino, void *self,
			 size_t children, struct sq_error *err);
	int (*leaf)(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino,
		    void *parent, struct sq_error *err);
};

struct unsq_walk_opts {
	struct unsq_select *sel; /* extract/exclude pathnames (NULL: everything); matched marks updated */
	long max_depth;          /* -1 unlimited; else list a directory at depth d (root 0) only when d < max */
};

/* Walk fs from the root, depth first, with the walk's own stack on the heap: no depth limit,
 * memory grows with the depth. Directories must each appear once (a second visit is a loop or
 * a hard-linked directory: refused), entry types must match their inodes. */
int unsq_walk(struct sqfs_fs *fs, const struct unsq_walk_opts *wo, const struct unsq_visitor *v,
	      struct sq_error *err);

#endif
