/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* list.h — -l/-ll/-lln/-lc/-llc listings and the -li line, in squashfs-tools' exact format. */
#ifndef SQ_UNSQUASHFS_LIST_H
#define SQ_UNSQUASHFS_LIST_H

#include <stdio.h>

#include "common/fs_read.h"
#include "unsquashfs/options.h"
#include "unsquashfs/walk.h"

/* Owner names looked up once per id index. */
struct unsq_names {
	char **names; /* id_count entries, NULL until looked up */
	uint32_t count;
	int numeric;
};

int unsq_names_init(struct unsq_names *n, uint32_t count, int numeric, struct sq_error *err);
void unsq_names_free(struct unsq_names *n);

/* One ls -l style line for prefix/path (path "" is the root: prints prefix alone); o gives
 * -UTC and -full-precision. */
int unsq_print_long(FILE *out, struct sqfs_fs *fs, struct unsq_names *users, struct unsq_names *groups,
		    const struct unsq_options *o, const char *prefix, const char *path, const struct sqfs_inode *ino,
		    struct sq_error *err);

/* The -l family: walk the image and print to stdout. */
int unsq_list(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, struct sq_error *err);

#endif
