/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* super.h — the 96-byte squashfs 4.0 superblock in memory, its encoder and checking decoder. */
#ifndef SQ_COMMON_SUPER_H
#define SQ_COMMON_SUPER_H

#include <stdint.h>

#include "common/util/error.h"
#include "common/format.h"

/* One field per on-disk field (format.h enum sqfs_super_offset), host byte order.
 * Absent optional tables are SQFS_NO_TABLE. */
struct sqfs_super {
	uint32_t magic;
	uint32_t inode_count;
	uint32_t mod_time;
	uint32_t block_size;
	uint32_t fragment_count;
	uint16_t compressor;
	uint16_t block_log;
	uint16_t flags;
	uint16_t id_count;
	uint16_t version_major;
	uint16_t version_minor;
	uint64_t root_inode;
	uint64_t bytes_used;
	uint64_t id_table;
	uint64_t xattr_id_table;
	uint64_t inode_table;
	uint64_t directory_table;
	uint64_t fragment_table;
	uint64_t export_table;
};

/* Write every field of *sb little-endian into out[0..96). No checks: the writer is trusted to
 * fill magic/version/block_log (sqfs_super_init does). */
void sqfs_super_encode(const struct sqfs_super *sb, uint8_t out[SQFS_SUPER_SIZE]);

/* Fill *sb with a fresh superblock for block_size (a power of two 4K..1M) and compressor id:
 * magic, version 4.0, block_log, every optional table absent, counts 0. */
void sqfs_super_init(struct sqfs_super *sb, uint32_t block_size, uint16_t compressor);

/* Decode in[0..96) into *sb and check it: magic, version 4.0, block size a power of two
 * 4 KiB..1 MiB matching block_log, bytes_used >= 96, every present table offset inside
 * [96, bytes_used], inode table <= directory table. Returns 0, or -1 with SQ_ERR_CORRUPT in err
 * (SQ_ERR_UNSUPPORTED for another squashfs version). Safe on any 96 bytes. */
int sqfs_super_decode(struct sqfs_super *sb, const uint8_t in[SQFS_SUPER_SIZE], struct sq_error *err);

#endif
