/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* inode_write.c — the byte layout of each inode kind (squashfs-tools-ng's doc/format.adoc,
 * section "Inode Table"). */
#include "config.h"
#include "common/inode_write.h"

#include <stdbool.h>
#include <string.h>

#include "common/util/endian.h"

void sqfs_inode_pick_kind(struct sqfs_inode_w *in)
{
	bool ext = in->xattr_index != SQFS_NO_XATTR;
	switch (in->type) {
	case SQFS_INODE_DIR:
		ext = ext || in->dir_size > 0xFFFFu || in->dir_index_count > 0;
		break;
	case SQFS_INODE_FILE:
		ext = ext || in->nlink > 1 || in->file_size > 0xFFFFFFFFu ||
		      in->blocks_start > 0xFFFFFFFFu || in->sparse_bytes != 0;
		break;
	case SQFS_INODE_SYMLINK:
	case SQFS_INODE_BLKDEV:
	case SQFS_INODE_CHRDEV:
	case SQFS_INODE_FIFO:
	case SQFS_INODE_SOCKET:
		break;
	default:
		return; /* already extended, or unknown: left for encode to refuse */
	}
	if (ext)
		in->type = (uint16_t)(in->type + SQFS_INODE_EXT_OFFSET);
}

size_t sqfs_inode_encoded_size(const struct sqfs_inode_w *in)
{
	size_t h = SQFS_INODE_HEADER_SIZE;
	switch (in->type) {
	case SQFS_INODE_DIR:
		return h + SQFS_DIR_INODE_SIZE;
	case SQFS_INODE_EXT_DIR:
		return h + SQFS_EXT_DIR_INODE_SIZE + in->dir_index_len;
	case SQFS_INODE_FILE:
		return h + SQFS_FILE_INODE_SIZE + 4 * (size_t)in->block_count;
	case SQFS_INODE_EXT_FILE:
		return h + SQFS_EXT_FILE_INODE_SIZE + 4 * (size_t)in->block_count;
	case SQFS_INODE_SYMLINK:
		return h + SQFS_SYMLINK_INODE_SIZE + in->target_len;
	case SQFS_INODE_EXT_SYMLINK:
		return h + SQFS_SYMLINK_INODE_SIZE + in->target_len + 4;
	case SQFS_INODE_BLKDEV:
	case SQFS_INODE_CHRDEV:
		return h + SQFS_DEV_INODE_SIZE;
	case SQFS_INODE_EXT_BLKDEV:
	case SQFS_INODE_EXT_CHRDEV:
		return h + SQFS_DEV_INODE_SIZE + 4;
	case SQFS_INODE_FIFO:
	case SQFS_INODE_SOCKET:
		return h + SQFS_IPC_INODE_SIZE;
	case SQFS_INODE_EXT_FIFO:
	case SQFS_INODE_EXT_SOCKET:
		return h + SQFS_IPC_INODE_SIZE + 4;
	default:
		return 0;
	}
}

static uint8_t *put_blocks(uint8_t *p, const struct sqfs_inode_w *in)
{
	for (uint32_t i = 0; i < in->block_count; i++, p += 4)
		put_le32(p, in->block_sizes[i]);
	return p;
}

size_t sqfs_inode_encode(const struct sqfs_inode_w *in, uint8_t *out)
{
	size_t size = sqfs_inode_encoded_size(in);
	if (size == 0)
		return 0;

	put_le16(out + 0, in->type);
	put_le16(out + 2, (uint16_t)(in->mode & 07777));
	put_le16(out + 4, in->uid_index);
	put_le16(out + 6, in->gid_index);
	put_le32(out + 8, in->mtime);
	put_le32(out + 12, in->inode_number);
	uint8_t *p = out + SQFS_INODE_HEADER_SIZE;

	switch (in->type) {
	case SQFS_INODE_DIR:
		put_le32(p + 0, in->dir_block_start);
		put_le32(p + 4, in->nlink);
		put_le16(p + 8, (uint16_t)in->dir_size);
		put_le16(p + 10, in->dir_offset);
		put_le32(p + 12, in->dir_parent);
		break;
	case SQFS_INODE_EXT_DIR:
		put_le32(p + 0, in->nlink);
		put_le32(p + 4, in->dir_size);
		put_le32(p + 8, in->dir_block_start);
		put_le32(p + 12, in->dir_parent);
		put_le16(p + 16, in->dir_index_count);
		put_le16(p + 18, in->dir_offset);
		put_le32(p + 20, in->xattr_index);
		if (in->dir_index_len > 0)
			memcpy(p + 24, in->dir_index, in->dir_index_len);
		break;
	case SQFS_INODE_FILE:
		put_le32(p + 0, (uint32_t)in->blocks_start);
		put_le32(p + 4, in->fragment_index);
		put_le32(p + 8, in->fragment_offset);
		put_le32(p + 12, (uint32_t)in->file_size);
		put_blocks(p + 16, in);
		break;
	case SQFS_INODE_EXT_FILE:
		put_le64(p + 0, in->blocks_start);
		put_le64(p + 8, in->file_size);
		put_le64(p + 16, in->sparse_bytes);
		put_le32(p + 24, in->nlink);
		put_le32(p + 28, in->fragment_index);
		put_le32(p + 32, in->fragment_offset);
		put_le32(p + 36, in->xattr_index);
		put_blocks(p + 40, in);
		break;
	case SQFS_INODE_SYMLINK:
	case SQFS_INODE_EXT_SYMLINK:
		put_le32(p + 0, in->nlink);
		put_le32(p + 4, in->target_len);
		if (in->target_len > 0)
			memcpy(p + 8, in->target, in->target_len);
		if (in->type == SQFS_INODE_EXT_SYMLINK)
			put_le32(p + 8 + in->target_len, in->xattr_index);
		break;
	case SQFS_INODE_BLKDEV:
	case SQFS_INODE_CHRDEV:
	case SQFS_INODE_EXT_BLKDEV:
	case SQFS_INODE_EXT_CHRDEV:
		put_le32(p + 0, in->nlink);
		put_le32(p + 4, in->rdev);
		if (in->type >= SQFS_INODE_EXT_DIR)
			put_le32(p + 8, in->xattr_index);
		break;
	default: /* fifo, socket, basic or extended */
		put_le32(p + 0, in->nlink);
		if (in->type >= SQFS_INODE_EXT_DIR)
			put_le32(p + 4, in->xattr_index);
		break;
	}
	return size;
}
