/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dir_read.h — iterating a directory listing (headers and entries) with every name checked. */
#ifndef SQ_COMMON_DIR_READ_H
#define SQ_COMMON_DIR_READ_H

#include <stdint.h>

#include "common/inode_read.h"
#include "common/meta_read.h"

struct sqfs_dirent {
	char name[SQFS_NAME_MAX + 1]; /* NUL-terminated, never ".", "..", empty or with '/' */
	uint32_t name_len;
	uint16_t type;                /* basic inode type 1..7 as the entry claims it */
	uint64_t inode_ref;           /* sqfs_meta_ref form, relative to the inode table */
	uint32_t inode_number;
};

struct sqfs_dir_iter {
	struct sqfs_meta_reader *mr; /* the directory table */
	struct sqfs_meta_pos pos;
	uint64_t remaining;          /* listing bytes left */
	uint32_t left_in_header;
	uint32_t start;
	uint32_t base;
	uint32_t inode_count;
	uint32_t dir_number;
	int have_prev;
	char prev[SQFS_NAME_MAX + 1];
};

/* Start iterating the directory inode dir (type SQFS_INODE_DIR). */
int sqfs_dir_open(struct sqfs_dir_iter *it, struct sqfs_meta_reader *mr, const struct sqfs_inode *dir,
		  uint32_t inode_count, struct sq_error *err);

/* Next entry: 1 with *ent filled, 0 at the end, -1 on a corrupt listing (bad name, names
 * unsorted or duplicated, counts or sizes that disagree, inode numbers out of range). */
int sqfs_dir_next(struct sqfs_dir_iter *it, struct sqfs_dirent *ent, struct sq_error *err);

#endif
