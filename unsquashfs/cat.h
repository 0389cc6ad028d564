/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* cat.h — -cat and sqfscat: files matching the names given, written to standard output. */
#ifndef SQ_UNSQUASHFS_CAT_H
#define SQ_UNSQUASHFS_CAT_H

#include "common/fs_read.h"
#include "unsquashfs/options.h"

/* Each name (a wildcard pattern, a regular expression under -regex, or literal) in turn: the
 * regular files it matches, in directory order, symbolic links followed inside the image. A
 * name matching nothing, a directory or a link that does not resolve is reported as
 * "cat: ..." on stderr and skipped. 0, 2 after such a report, -1 with err on a fatal error. */
int unsq_cat(struct sqfs_fs *fs, const struct unsq_options *o, struct sq_error *err);

#endif
