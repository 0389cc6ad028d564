/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* resolve.h — following symbolic links inside an image (-follow-symlinks, -cat, sqfscat). */
#ifndef SQ_UNSQUASHFS_RESOLVE_H
#define SQ_UNSQUASHFS_RESOLVE_H

#include <stddef.h>
#include <stdio.h>

#include "common/fs_read.h"

#define UNSQ_MAX_LINK_HOPS 40 /* as the kernel's ELOOP limit for one path */

/* Called with the canonical path ("a/b", no symlinks in it) of each symbolic link followed. */
typedef int (*unsq_link_fn)(void *ctx, const char *canonical, struct sq_error *err);

/* Resolve path (absolute from the image root, or relative to the directory whose canonical
 * path is base) through the image's symbolic links, "." and ".."; the last component's link is
 * followed only when follow_last. On 1, *canonical (malloc'd) and *ino describe the result; 0
 * when a component is missing, not a directory, or links loop; -1 on a read error. */
int unsq_resolve(struct sqfs_fs *fs, const char *base, const char *path, int follow_last, unsq_link_fn on_link,
		 void *ctx, char **canonical, struct sqfs_inode *ino, struct sq_error *err);

/* -follow-symlinks: the extract pathnames made canonical, with the symbolic links needed to
 * reach them, as a list of literal pathnames (*out, *nout; free with unsq_free_strings). A
 * pathname that does not resolve is reported on report (unless NULL) as squashfs-tools does
 * ("Extract filename X can't be resolved"), *unresolved counts them; under missing it is fatal. */
int unsq_follow_extracts(struct sqfs_fs *fs, char *const *paths, size_t npaths, int missing, FILE *report,
			 char ***out, size_t *nout, size_t *unresolved, struct sq_error *err);
void unsq_free_strings(char **list, size_t n);

#endif
