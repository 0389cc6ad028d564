/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan_xattr.h — reading a file's extended attributes into a tree.h xattr set. */
#ifndef SQ_MKSQUASHFS_SCAN_XATTR_H
#define SQ_MKSQUASHFS_SCAN_XATTR_H

#include <stdint.h>
#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/tree.h"

/* Read every xattr of path (not following a symlink) in the user, trusted and security
 * namespaces into n->xattrs, sorted by (type, key); others are counted in *skipped and named on
 * warn (unless NULL), as squashfs-tools skips them. A filesystem without xattrs gives none.
 * Without xattr support built in, does nothing. */
int scan_read_xattrs(const char *path, struct tree_inode *n, uint32_t *skipped, FILE *warn,
		     struct sq_error *err);

#endif
