/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* info.h — the -info / -info-file listing: every entry of the finished image. */
#ifndef SQ_MKSQUASHFS_INFO_H
#define SQ_MKSQUASHFS_INFO_H

#include <stdio.h>

#include "mksquashfs/tree.h"

/* One line per entry, as squashfs-tools 4.5.1 prints them while it writes: a directory's entries
 * in order (a subdirectory's contents first), then the directory; files with their size and
 * DUPLICATE, further names of a hard-linked inode with LINK, other types with their inode
 * reference. Needs the table writer's inode numbers and references. -1 when memory is short. */
int info_print(FILE *out, const struct tree *tree);

#endif
