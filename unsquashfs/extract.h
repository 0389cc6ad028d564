/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* extract.h — writing an image's tree below a destination directory, safely. */
#ifndef SQ_UNSQUASHFS_EXTRACT_H
#define SQ_UNSQUASHFS_EXTRACT_H

#include "common/fs_read.h"
#include "unsquashfs/options.h"
#include "unsquashfs/select.h"

struct unsq_counts {
	unsigned long files, dirs, symlinks, devices, fifos, sockets, hardlinks;
};

/* Extract the tree sel selects to o->dest (made, or an existing directory extracted into).
 * Every file is created relative to a directory fd opened with O_NOFOLLOW, names come checked
 * from the reader, nothing is created through a symlink, an existing name is replaced only
 * under -f.
 * Returns 0 (exit status 0), 2 after non-fatal problems (owners, xattrs, devices as non-root,
 * write errors under -ignore-errors), or -1 with err on a fatal one. Unless -q, prints the
 * reference's "Parallel unsquashfs" and "N inodes (M blocks) to write" lines first. */
int unsq_extract(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, long processors,
		 struct unsq_counts *counts, struct sq_error *err);

/* Count what an extraction would write (for "N inodes (M blocks) to write"). */
int unsq_count(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, unsigned long *inodes,
	       unsigned long *blocks, struct sq_error *err);

#endif
