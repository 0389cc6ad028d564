/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sort.h — -sort: files with a higher priority have their data written first. The sort file
 * names host paths ("path priority" per line, priority -32768..32767); a directory's priority
 * is inherited by everything below it that has none of its own; the default is 0. */
#ifndef SQ_MKSQUASHFS_SORT_H
#define SQ_MKSQUASHFS_SORT_H

#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/file_list.h"
#include "mksquashfs/tree.h"

struct sort_table;

/* Read the sort file. A path is taken as it is when absolute or starting with ./ or ../,
 * otherwise inside each source (as squashfs-tools; a path found in none of them but from the
 * current directory is accepted with a warning); a path that does not exist is a warning on
 * warn (unless NULL), a path found in two sources, a bad priority or trailing text is an error
 * naming the file and line. */
int sort_table_read(const char *path, char *const *sources, int source_count, FILE *warn,
		    struct sort_table **out, struct sq_error *err);
void sort_table_free(struct sort_table *t);

/* Reorder files (built from tree) by priority, highest first; equal priorities keep the order
 * squashfs-tools gives them. */
int sort_apply(const struct sort_table *t, struct tree *tree, struct file_list *files,
	       struct sq_error *err);

#endif
