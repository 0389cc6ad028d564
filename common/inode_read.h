/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* inode_read.h — decoding every inode kind (basic and extended) from the inode table. */
#ifndef SQ_COMMON_INODE_READ_H
#define SQ_COMMON_INODE_READ_H

#include <stdint.h>

#include "common/meta_read.h"

/* One decoded inode. Extended kinds are folded into the basic ones (type is always 1..7,
 * extended says which it was); fields absent on disk get their neutral values. */
struct sqfs_inode {
	uint16_t type;     /* SQFS_INODE_DIR .. SQFS_INODE_SOCKET */
	int extended;
	uint16_t mode;     /* permission bits as stored (12 bits used) */
	uint16_t uid_idx, gid_idx;
	uint32_t mtime;
	uint32_t number;   /* 1..inode_count */
	uint32_t nlink;
	uint32_t xattr;    /* SQFS_NO_XATTR when none */
	union {
		struct {
			uint32_t block_start; /* relative to the directory table */
			uint32_t offset;
			uint32_t size;        /* listing bytes + 3, as stored */
			uint32_t parent;
			uint16_t index_count;
		} dir;
		struct {
			uint64_t blocks_start; /* absolute image position of the first data block */
			uint64_t size;
			uint64_t sparse;
			uint32_t frag;         /* SQFS_NO_FRAGMENT when the tail is a full block */
			uint32_t frag_offset;
			uint32_t nblocks;
			/* Where the nblocks size words start in the inode table. They are read while
			 * streaming (sqfs_blocklist_*), never held whole: a hostile sparse file could
			 * claim billions of blocks. */
			struct sqfs_meta_pos blocks_at;
		} file;
		struct {
			uint32_t size;
			char *target;          /* NUL-terminated (malloc'd) */
		} symlink;
		struct {
			uint32_t rdev;
		} dev;
	} u;
};

/* Read and check the inode at reference ref (sqfs_meta_ref form) through mr (the inode table).
 * block_size and inode_count come from the superblock. Checks: type, inode number range,
 * file block count against size and fragment, symlink length, directory size >= 3. */
int sqfs_inode_read(struct sqfs_meta_reader *mr, uint64_t ref, uint32_t block_size, uint32_t inode_count,
		    struct sqfs_inode *ino, struct sq_error *err);

void sqfs_inode_free(struct sqfs_inode *ino);

/* Reading a file's block size words in order, a chunk at a time, through the inode table. */
struct sqfs_blocklist {
	struct sqfs_meta_reader *mr;
	struct sqfs_meta_pos pos;
	uint32_t number; /* the inode, for messages */
	uint32_t left;   /* words not yet returned */
	uint32_t have, next;
	uint32_t words[256];
};

void sqfs_blocklist_start(struct sqfs_blocklist *bl, struct sqfs_meta_reader *mr, const struct sqfs_inode *ino);

/* The next size word (checked for reserved bits). 0 or -1 with err. */
int sqfs_blocklist_next(struct sqfs_blocklist *bl, uint32_t *word, struct sq_error *err);

/* The S_IF* file type bits for an inode type (1..7). */
unsigned sqfs_inode_type_bits(uint16_t type);

#endif
