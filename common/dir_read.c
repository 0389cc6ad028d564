/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dir_read.c — directory listings: header runs, entries, and the name rules a reader enforces. */
#include "config.h"
#include "common/dir_read.h"

#include <string.h>

#include "common/util/endian.h"

int sqfs_dir_open(struct sqfs_dir_iter *it, struct sqfs_meta_reader *mr, const struct sqfs_inode *dir,
		  uint32_t inode_count, struct sq_error *err)
{
	memset(it, 0, sizeof(*it));
	it->mr = mr;
	it->inode_count = inode_count;
	it->dir_number = dir->number;
	it->remaining = dir->u.dir.size - SQFS_DIR_SIZE_BIAS;
	if (it->remaining == 0)
		return 0;
	return sqfs_meta_locate(mr, dir->u.dir.block_start, dir->u.dir.offset, &it->pos, err);
}

static int bad(struct sqfs_dir_iter *it, struct sq_error *err, const char *why)
{
	return sq_fail(err, SQ_ERR_CORRUPT, "directory inode %u: %s", it->dir_number, why);
}

/* The listing's next size bytes into b; a listing that ends first is corrupt (short says where). */
static int take(struct sqfs_dir_iter *it, uint8_t *b, size_t size, const char *short_msg,
		struct sq_error *err)
{
	if (it->remaining < size)
		return bad(it, err, short_msg);
	if (sqfs_meta_read(it->mr, &it->pos, b, size, err))
		return -1;
	it->remaining -= size;
	return 0;
}

int sqfs_dir_next(struct sqfs_dir_iter *it, struct sqfs_dirent *ent, struct sq_error *err)
{
	if (it->left_in_header == 0) {
		if (it->remaining == 0)
			return 0;
		uint8_t h[SQFS_DIR_HEADER_SIZE];
		if (take(it, h, sizeof(h), "the listing ends inside a header", err))
			return -1;
		uint32_t count = get_le32(h) + 1u;
		if (count == 0 || count > SQFS_DIR_MAX_ENTRIES_PER_HEADER)
			return bad(it, err, "a header with too many entries");
		it->left_in_header = count;
		it->start = get_le32(h + 4);
		it->base = get_le32(h + 8);
	}
	uint8_t e[SQFS_DIR_ENTRY_SIZE];
	if (take(it, e, sizeof(e), "the listing ends inside an entry", err))
		return -1;
	uint16_t off = get_le16(e);
	int16_t delta = (int16_t)get_le16(e + 2);
	uint16_t type = get_le16(e + 4);
	uint32_t nlen = (uint32_t)get_le16(e + 6) + 1u;
	if (nlen > SQFS_NAME_MAX || it->remaining < nlen)
		return bad(it, err, "an entry name is too long");
	if (sqfs_meta_read(it->mr, &it->pos, ent->name, nlen, err))
		return -1;
	it->remaining -= nlen;
	it->left_in_header--;
	ent->name[nlen] = '\0';
	ent->name_len = nlen;
	if (memchr(ent->name, '\0', nlen) != NULL || memchr(ent->name, '/', nlen) != NULL ||
	    strcmp(ent->name, ".") == 0 || strcmp(ent->name, "..") == 0)
		return sq_fail(err, SQ_ERR_UNSAFE, "directory inode %u: illegal entry name \"%.*s\"",
			       it->dir_number, (int)strnlen(ent->name, nlen), ent->name);
	if (type < SQFS_INODE_DIR || type > SQFS_INODE_SOCKET)
		return sq_fail(err, SQ_ERR_CORRUPT, "directory inode %u: entry \"%s\" has bad type %u",
			       it->dir_number, ent->name, type);
	if (it->have_prev) {
		int c = strcmp(it->prev, ent->name);
		if (c == 0)
			return sq_fail(err, SQ_ERR_UNSAFE, "directory inode %u: duplicate entry \"%s\"", it->dir_number,
				       ent->name);
		if (c > 0)
			return sq_fail(err, SQ_ERR_CORRUPT, "directory inode %u: entry \"%s\" is out of order",
				       it->dir_number, ent->name);
	}
	memcpy(it->prev, ent->name, nlen + 1);
	it->have_prev = 1;
	int64_t num = (int64_t)it->base + delta;
	if (num < 1 || num > (int64_t)it->inode_count)
		return sq_fail(err, SQ_ERR_CORRUPT, "directory inode %u: entry \"%s\" has inode number %lld out of range",
			       it->dir_number, ent->name, (long long)num);
	if (off >= SQFS_META_BLOCK_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "directory inode %u: entry \"%s\" has bad inode offset %u",
			       it->dir_number, ent->name, off);
	ent->type = type;
	ent->inode_number = (uint32_t)num;
	ent->inode_ref = sqfs_meta_ref(it->start, off);
	return 1;
}
