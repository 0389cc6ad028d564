/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xattr_read.h — an inode's extended attributes from the xattr id and key/value tables. */
#ifndef SQ_COMMON_XATTR_READ_H
#define SQ_COMMON_XATTR_READ_H

#include <stdint.h>

#include "common/meta_read.h"
#include "common/table_read.h"

#define SQFS_XATTR_VALUE_MAX 65536u /* the Linux limit; larger values are refused as corrupt */

struct sqfs_xattr {
	char *name;      /* full name with its namespace prefix ("user.foo"), NUL-terminated */
	uint8_t *value;
	uint32_t value_len;
};

struct sqfs_xattr_list {
	struct sqfs_xattr *items;
	uint32_t count;
};

/* A reader over the key/value table; kv must be allocated by the caller (it holds a cache). */
void sqfs_xattr_reader_init(struct sqfs_meta_reader *kv, struct sqfs_decoder *dec,
			    const struct sqfs_tables *tb);

/* Decode the xattrs of xattr id index (an inode's xattr field) into *out. An index out of range,
 * an unknown namespace, an out-of-line value reference outside the table fail as corrupt. */
int sqfs_xattr_read(struct sqfs_tables *tb, struct sqfs_meta_reader *kv, uint32_t index,
		    struct sqfs_xattr_list *out, struct sq_error *err);

void sqfs_xattr_list_free(struct sqfs_xattr_list *list);

#endif
