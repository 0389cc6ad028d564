/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* attrs.h — the attribute options as passes over the finished tree: whatever reader made an
 * inode, -all-root, -force-uid/-gid, -all-time and SOURCE_DATE_EPOCH clamping apply to it here. */
#ifndef SQ_MKSQUASHFS_ATTRS_H
#define SQ_MKSQUASHFS_ATTRS_H

#include "common/util/error.h"
#include "mksquashfs/options.h"
#include "mksquashfs/tree.h"

/* Apply every attribute option of o to every inode of tree. */
int attrs_apply(const struct mksq_options *o, struct tree *tree, struct sq_error *err);

#endif
