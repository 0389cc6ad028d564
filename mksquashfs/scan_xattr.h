/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan_xattr.h — reading a file's extended attributes into a tree.h xattr set. */
#ifndef SQ_MKSQUASHFS_SCAN_XATTR_H
#define SQ_MKSQUASHFS_SCAN_XATTR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/options.h"
#include "mksquashfs/tree.h"

/* Is the xattr with this full name ("user.x") kept by -xattrs-exclude / -xattrs-include? The
 * directory scan and the tar reader both ask. f may be NULL (everything is kept). */
bool xattr_name_wanted(const struct xattr_options *f, const char *name);

/* Read every xattr of path (not following a symlink) in the user, trusted and security
 * namespaces into n->xattrs, sorted by (type, key); others are counted in *skipped and named on
 * warn (unless NULL), as squashfs-tools skips them. Names -xattrs-exclude matches, or
 * -xattrs-include does not, are left out (filter may be NULL). A filesystem without xattrs gives
 * none. Without xattr support built in, does nothing. */
int scan_read_xattrs(const char *path, struct tree_inode *n, const struct xattr_options *filter,
		     uint32_t *skipped, FILE *warn, struct sq_error *err);

/* -xattrs-add: every inode of the finished tree gets the added xattrs (user ones only regular
 * files and directories). Fails on a name an inode already has. */
int xattrs_add_apply(const struct mksq_options *o, struct tree *tree, struct sq_error *err);

#endif
