/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/tar.h — tar archives and cpio-style name lists as mksquashfs sources (sqfstar,
 * mksquashfs -tar, -cpiostyle, -no-strip). */
#ifndef SQ_MKSQUASHFS_TAR_TAR_H
#define SQ_MKSQUASHFS_TAR_TAR_H

#include <stdbool.h>
#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/options.h"
#include "mksquashfs/scan.h"
#include "mksquashfs/tree.h"

/* Read an uncompressed tar archive (v7, ustar, GNU, pax; GNU sparse 0.0/0.1/1.0 and old
 * 'S'; SCHILY and LIBARCHIVE xattrs; base-256 numbers) from fd, once, as it arrives (a pipe is
 * fine), into tree->root: a made-up root (0777, or -default-mode; owned by -default-uid/gid or
 * the running user; the build time) holding every member not excluded. Regular files' bytes are
 * copied to an unlinked spool file (tree_keep_fd keeps it open for the data stage; holes of
 * sparse members stay holes), so memory does not grow with the archive's data. Bad input (a
 * truncated archive, a checksum error, a "." or ".." path component, a hard link to a name not
 * yet seen, a size that overflows) fails with a one-line message naming the entry and the
 * offset of its header. Warnings go to warn unless it is NULL. */
int tar_read_tree(const struct mksq_options *o, const struct exclude_list *x, int fd,
		  struct tree *tree, struct scan_stats *stats, FILE *warn, struct sq_error *err);

/* Do the options make the sources a tar archive (-tar, sqfstar), a cpio-style name list
 * (-cpiostyle, -cpiostyle0) or whole paths (-no-strip, -tarstyle), not directories to strip? */
bool tar_style_sources(const struct mksq_options *o);
/* Build the tree from those sources: tar_read_tree on standard input, or scan_paths on the
 * names of standard input (not recursed) or on the command line's sources (recursed). */
int tar_style_read(const struct mksq_options *o, const struct exclude_list *x, struct tree *tree,
		   struct scan_stats *stats, FILE *warn, struct sq_error *err);

#endif
