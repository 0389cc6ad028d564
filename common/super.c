/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* super.c — superblock encoding and the checks every reader applies before trusting it. */
#include "config.h"
#include "common/super.h"

#include <inttypes.h>
#include <string.h>

#include "common/util/endian.h"

void sqfs_super_encode(const struct sqfs_super *sb, uint8_t out[SQFS_SUPER_SIZE])
{
	memset(out, 0, SQFS_SUPER_SIZE);
	put_le32(out + SQFS_SB_MAGIC, sb->magic);
	put_le32(out + SQFS_SB_INODE_COUNT, sb->inode_count);
	put_le32(out + SQFS_SB_MOD_TIME, sb->mod_time);
	put_le32(out + SQFS_SB_BLOCK_SIZE, sb->block_size);
	put_le32(out + SQFS_SB_FRAGMENT_COUNT, sb->fragment_count);
	put_le16(out + SQFS_SB_COMPRESSOR, sb->compressor);
	put_le16(out + SQFS_SB_BLOCK_LOG, sb->block_log);
	put_le16(out + SQFS_SB_FLAGS, sb->flags);
	put_le16(out + SQFS_SB_ID_COUNT, sb->id_count);
	put_le16(out + SQFS_SB_VERSION_MAJOR, sb->version_major);
	put_le16(out + SQFS_SB_VERSION_MINOR, sb->version_minor);
	put_le64(out + SQFS_SB_ROOT_INODE, sb->root_inode);
	put_le64(out + SQFS_SB_BYTES_USED, sb->bytes_used);
	put_le64(out + SQFS_SB_ID_TABLE, sb->id_table);
	put_le64(out + SQFS_SB_XATTR_ID_TABLE, sb->xattr_id_table);
	put_le64(out + SQFS_SB_INODE_TABLE, sb->inode_table);
	put_le64(out + SQFS_SB_DIRECTORY_TABLE, sb->directory_table);
	put_le64(out + SQFS_SB_FRAGMENT_TABLE, sb->fragment_table);
	put_le64(out + SQFS_SB_EXPORT_TABLE, sb->export_table);
}

void sqfs_super_init(struct sqfs_super *sb, uint32_t block_size, uint16_t compressor)
{
	memset(sb, 0, sizeof(*sb));
	sb->magic = SQFS_MAGIC;
	sb->block_size = block_size;
	uint16_t log = 0;
	while (log < 32 && (UINT32_C(1) << log) < block_size)
		log++;
	sb->block_log = log;
	sb->compressor = compressor;
	sb->version_major = SQFS_VERSION_MAJOR;
	sb->version_minor = SQFS_VERSION_MINOR;
	sb->id_table = SQFS_NO_TABLE;
	sb->xattr_id_table = SQFS_NO_TABLE;
	sb->inode_table = SQFS_NO_TABLE;
	sb->directory_table = SQFS_NO_TABLE;
	sb->fragment_table = SQFS_NO_TABLE;
	sb->export_table = SQFS_NO_TABLE;
}

static int check_table(const struct sqfs_super *sb, uint64_t where, const char *name, int optional,
		       struct sq_error *err)
{
	if (where == SQFS_NO_TABLE) {
		if (optional)
			return 0;
		return sq_fail(err, SQ_ERR_CORRUPT, "superblock: the %s is missing", name);
	}
	if (where < SQFS_SUPER_SIZE || where > sb->bytes_used)
		return sq_fail(err, SQ_ERR_CORRUPT,
			       "superblock: %s offset %" PRIu64 " is outside the image (%" PRIu64 " bytes)",
			       name, where, sb->bytes_used);
	return 0;
}

int sqfs_super_decode(struct sqfs_super *sb, const uint8_t in[SQFS_SUPER_SIZE], struct sq_error *err)
{
	sb->magic = get_le32(in + SQFS_SB_MAGIC);
	sb->inode_count = get_le32(in + SQFS_SB_INODE_COUNT);
	sb->mod_time = get_le32(in + SQFS_SB_MOD_TIME);
	sb->block_size = get_le32(in + SQFS_SB_BLOCK_SIZE);
	sb->fragment_count = get_le32(in + SQFS_SB_FRAGMENT_COUNT);
	sb->compressor = get_le16(in + SQFS_SB_COMPRESSOR);
	sb->block_log = get_le16(in + SQFS_SB_BLOCK_LOG);
	sb->flags = get_le16(in + SQFS_SB_FLAGS);
	sb->id_count = get_le16(in + SQFS_SB_ID_COUNT);
	sb->version_major = get_le16(in + SQFS_SB_VERSION_MAJOR);
	sb->version_minor = get_le16(in + SQFS_SB_VERSION_MINOR);
	sb->root_inode = get_le64(in + SQFS_SB_ROOT_INODE);
	sb->bytes_used = get_le64(in + SQFS_SB_BYTES_USED);
	sb->id_table = get_le64(in + SQFS_SB_ID_TABLE);
	sb->xattr_id_table = get_le64(in + SQFS_SB_XATTR_ID_TABLE);
	sb->inode_table = get_le64(in + SQFS_SB_INODE_TABLE);
	sb->directory_table = get_le64(in + SQFS_SB_DIRECTORY_TABLE);
	sb->fragment_table = get_le64(in + SQFS_SB_FRAGMENT_TABLE);
	sb->export_table = get_le64(in + SQFS_SB_EXPORT_TABLE);

	if (sb->magic != SQFS_MAGIC)
		return sq_fail(err, SQ_ERR_CORRUPT, "not a squashfs image (bad magic 0x%08x)", sb->magic);
	if (sb->version_major != SQFS_VERSION_MAJOR || sb->version_minor != SQFS_VERSION_MINOR)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "squashfs version %u.%u is not supported (only 4.0)",
			       sb->version_major, sb->version_minor);
	if (sb->block_log < SQFS_MIN_BLOCK_LOG || sb->block_log > SQFS_MAX_BLOCK_LOG)
		return sq_fail(err, SQ_ERR_CORRUPT, "superblock: block log %u is out of range (12..20)",
			       sb->block_log);
	if (sb->block_size != (UINT32_C(1) << sb->block_log))
		return sq_fail(err, SQ_ERR_CORRUPT,
			       "superblock: block size %u does not match block log %u", sb->block_size,
			       sb->block_log);
	if (sb->bytes_used < SQFS_SUPER_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "superblock: bytes used %" PRIu64 " is too small",
			       sb->bytes_used);
	if (check_table(sb, sb->inode_table, "inode table", 0, err) ||
	    check_table(sb, sb->directory_table, "directory table", 0, err) ||
	    check_table(sb, sb->id_table, "id table", 0, err) ||
	    check_table(sb, sb->xattr_id_table, "xattr id table", 1, err) ||
	    check_table(sb, sb->fragment_table, "fragment table", 1, err) ||
	    check_table(sb, sb->export_table, "export table", 1, err))
		return -1;
	if (sb->inode_table > sb->directory_table)
		return sq_fail(err, SQ_ERR_CORRUPT, "superblock: inode table starts after the directory table");
	if (sb->inode_count == 0)
		return sq_fail(err, SQ_ERR_CORRUPT, "superblock: inode count is 0");
	return 0;
}
