/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pseudo.h — -pf: the image as a pseudo file (definitions, then the file data) that mksquashfs
 * -pf rebuilds it from without root. */
#ifndef SQ_UNSQUASHFS_PSEUDO_H
#define SQ_UNSQUASHFS_PSEUDO_H

#include "common/fs_read.h"
#include "unsquashfs/options.h"
#include "unsquashfs/select.h"

/* Write the selected tree to o->pseudo_file ("-": standard output) in squashfs-tools 4.6's
 * format: "/ D time mode uid gid", "name R time mode uid gid size offset sparse", "name L
 * first-name" for further hard links, S, B, C and I lines, "name x key=value" after a node
 * with xattrs, then "# START OF DATA - DO NOT MODIFY" between two "#" lines and each file's
 * bytes at its offset from there. A file written is removed again on failure. 0, 2 when a
 * name could not be written (a newline in it), or -1. */
int unsq_pseudo(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, struct sq_error *err);

#endif
