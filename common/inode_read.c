/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* inode_read.c — inode decoding: common header, per-kind fields, file block lists, symlinks. */
#include "config.h"
#include "common/inode_read.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util/endian.h"

unsigned sqfs_inode_type_bits(uint16_t type)
{
	switch (type) {
	case SQFS_INODE_DIR: return S_IFDIR;
	case SQFS_INODE_FILE: return S_IFREG;
	case SQFS_INODE_SYMLINK: return S_IFLNK;
	case SQFS_INODE_BLKDEV: return S_IFBLK;
	case SQFS_INODE_CHRDEV: return S_IFCHR;
	case SQFS_INODE_FIFO: return S_IFIFO;
	case SQFS_INODE_SOCKET: return S_IFSOCK;
	default: return 0;
	}
}

void sqfs_inode_free(struct sqfs_inode *ino)
{
	if (ino->type == SQFS_INODE_SYMLINK)
		free(ino->u.symlink.target);
	ino->type = 0;
}

void sqfs_blocklist_start(struct sqfs_blocklist *bl, struct sqfs_meta_reader *mr, const struct sqfs_inode *ino)
{
	bl->mr = mr;
	bl->pos = ino->u.file.blocks_at;
	bl->number = ino->number;
	bl->left = ino->u.file.nblocks;
	bl->have = bl->next = 0;
}

int sqfs_blocklist_next(struct sqfs_blocklist *bl, uint32_t *word, struct sq_error *err)
{
	if (bl->next == bl->have) {
		if (bl->left == 0)
			return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: read past its block list", bl->number);
		uint32_t chunk = bl->left < 256 ? bl->left : 256;
		uint8_t raw[4 * 256];
		if (sqfs_meta_read(bl->mr, &bl->pos, raw, (size_t)chunk * 4, err))
			return -1;
		for (uint32_t i = 0; i < chunk; i++)
			bl->words[i] = get_le32(raw + 4 * i);
		bl->have = chunk;
		bl->next = 0;
		bl->left -= chunk;
	}
	uint32_t w = bl->words[bl->next++];
	if (w & ~(SQFS_DATA_SIZE_MASK | SQFS_DATA_UNCOMPRESSED))
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: a block has a bad size word 0x%08x", bl->number, w);
	*word = w;
	return 0;
}

static int read_file(struct sqfs_meta_reader *mr, struct sqfs_meta_pos *pos, uint32_t block_size,
		     struct sqfs_inode *ino, struct sq_error *err)
{
	uint8_t b[SQFS_EXT_FILE_INODE_SIZE];
	if (sqfs_meta_read(mr, pos, b, ino->extended ? SQFS_EXT_FILE_INODE_SIZE : SQFS_FILE_INODE_SIZE,
			   err))
		return -1;
	if (ino->extended) {
		ino->u.file.blocks_start = get_le64(b);
		ino->u.file.size = get_le64(b + 8);
		ino->u.file.sparse = get_le64(b + 16);
		ino->nlink = get_le32(b + 24);
		ino->u.file.frag = get_le32(b + 28);
		ino->u.file.frag_offset = get_le32(b + 32);
		ino->xattr = get_le32(b + 36);
	} else {
		ino->u.file.blocks_start = get_le32(b);
		ino->u.file.frag = get_le32(b + 4);
		ino->u.file.frag_offset = get_le32(b + 8);
		ino->u.file.size = get_le32(b + 12);
		ino->nlink = 1;
	}
	uint64_t size = ino->u.file.size;
	uint64_t full = size / block_size;
	uint64_t tail = size % block_size;
	int has_frag = ino->u.file.frag != SQFS_NO_FRAGMENT;
	if (has_frag && tail == 0)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: a fragment for a file of whole blocks", ino->number);
	if (has_frag && ino->u.file.frag_offset >= block_size)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: fragment offset %u is outside a block", ino->number,
			       ino->u.file.frag_offset);
	uint64_t nblocks = full + (!has_frag && tail ? 1 : 0);
	if (nblocks > UINT32_MAX)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: file size %" PRIu64 " is too large", ino->number, size);
	ino->u.file.nblocks = (uint32_t)nblocks;
	ino->u.file.blocks_at = *pos;
	return 0;
}

static int read_dir(struct sqfs_meta_reader *mr, struct sqfs_meta_pos *pos, struct sqfs_inode *ino,
		    struct sq_error *err)
{
	uint8_t b[SQFS_EXT_DIR_INODE_SIZE];
	if (sqfs_meta_read(mr, pos, b, ino->extended ? SQFS_EXT_DIR_INODE_SIZE : SQFS_DIR_INODE_SIZE,
			   err))
		return -1;
	if (ino->extended) {
		ino->nlink = get_le32(b);
		ino->u.dir.size = get_le32(b + 4);
		ino->u.dir.block_start = get_le32(b + 8);
		ino->u.dir.parent = get_le32(b + 12);
		ino->u.dir.index_count = get_le16(b + 16);
		ino->u.dir.offset = get_le16(b + 18);
		ino->xattr = get_le32(b + 20);
	} else {
		ino->u.dir.block_start = get_le32(b);
		ino->nlink = get_le32(b + 4);
		ino->u.dir.size = get_le16(b + 8);
		ino->u.dir.offset = get_le16(b + 10);
		ino->u.dir.parent = get_le32(b + 12);
		ino->u.dir.index_count = 0;
	}
	if (ino->u.dir.size < SQFS_DIR_SIZE_BIAS)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: directory size %u is too small", ino->number,
			       ino->u.dir.size);
	if (ino->u.dir.offset >= SQFS_META_BLOCK_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: directory offset %u is outside a block", ino->number,
			       ino->u.dir.offset);
	return 0;
}

static int read_symlink(struct sqfs_meta_reader *mr, struct sqfs_meta_pos *pos, struct sqfs_inode *ino,
			struct sq_error *err)
{
	uint8_t b[SQFS_SYMLINK_INODE_SIZE];
	if (sqfs_meta_read(mr, pos, b, sizeof(b), err))
		return -1;
	ino->nlink = get_le32(b);
	uint32_t len = get_le32(b + 4);
	if (len == 0 || len > 4095)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: symlink target length %u is out of range", ino->number,
			       len);
	char *t = malloc(len + 1);
	if (t == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for a symlink target");
	if (sqfs_meta_read(mr, pos, t, len, err)) {
		free(t);
		return -1;
	}
	t[len] = '\0';
	if (memchr(t, '\0', len) != NULL) {
		free(t);
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: symlink target contains a NUL byte", ino->number);
	}
	ino->u.symlink.size = len;
	ino->u.symlink.target = t;
	if (ino->extended) {
		uint8_t x[4];
		if (sqfs_meta_read(mr, pos, x, 4, err)) {
			free(t);
			ino->u.symlink.target = NULL;
			return -1;
		}
		ino->xattr = get_le32(x);
	}
	return 0;
}

static int read_special(struct sqfs_meta_reader *mr, struct sqfs_meta_pos *pos, struct sqfs_inode *ino,
			struct sq_error *err)
{
	int dev = ino->type == SQFS_INODE_BLKDEV || ino->type == SQFS_INODE_CHRDEV;
	uint8_t b[12];
	size_t len = (dev ? SQFS_DEV_INODE_SIZE : SQFS_IPC_INODE_SIZE) + (ino->extended ? 4 : 0);
	if (sqfs_meta_read(mr, pos, b, len, err))
		return -1;
	ino->nlink = get_le32(b);
	if (dev)
		ino->u.dev.rdev = get_le32(b + 4);
	if (ino->extended)
		ino->xattr = get_le32(b + len - 4);
	return 0;
}

int sqfs_inode_read(struct sqfs_meta_reader *mr, uint64_t ref, uint32_t block_size, uint32_t inode_count,
		    struct sqfs_inode *ino, struct sq_error *err)
{
	memset(ino, 0, sizeof(*ino));
	struct sqfs_meta_pos pos;
	if (sqfs_meta_locate(mr, sqfs_meta_ref_block(ref), sqfs_meta_ref_offset(ref), &pos, err))
		return -1;
	uint8_t h[SQFS_INODE_HEADER_SIZE];
	if (sqfs_meta_read(mr, &pos, h, sizeof(h), err))
		return -1;
	uint16_t type = get_le16(h);
	if (type < SQFS_INODE_DIR || type > SQFS_INODE_EXT_SOCKET)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode at 0x%" PRIx64 ": unknown type %u", ref, type);
	ino->extended = type > SQFS_INODE_SOCKET;
	ino->mode = get_le16(h + 2) & 07777;
	ino->uid_idx = get_le16(h + 4);
	ino->gid_idx = get_le16(h + 6);
	ino->mtime = get_le32(h + 8);
	ino->number = get_le32(h + 12);
	ino->xattr = SQFS_NO_XATTR;
	if (ino->number == 0 || ino->number > inode_count)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode at 0x%" PRIx64 ": number %u is out of range (1..%u)", ref,
			       ino->number, inode_count);
	uint16_t basic = ino->extended ? (uint16_t)(type - SQFS_INODE_EXT_OFFSET) : type;
	ino->type = basic; /* the per-kind readers branch on it; reset on failure (nothing to free) */
	int rc;
	switch (basic) {
	case SQFS_INODE_DIR:
		rc = read_dir(mr, &pos, ino, err);
		break;
	case SQFS_INODE_FILE:
		rc = read_file(mr, &pos, block_size, ino, err);
		break;
	case SQFS_INODE_SYMLINK:
		rc = read_symlink(mr, &pos, ino, err);
		break;
	default:
		rc = read_special(mr, &pos, ino, err);
		break;
	}
	if (rc) {
		ino->type = 0;
		return -1;
	}
	return 0;
}
