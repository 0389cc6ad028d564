/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* meta_read.h — reading byte runs from a metadata table across 8 KiB blocks, with a small cache. */
#ifndef SQ_COMMON_META_READ_H
#define SQ_COMMON_META_READ_H

#include <stddef.h>
#include <stdint.h>

#include "common/image_read.h"

#define SQFS_META_CACHE_SLOTS 8

struct sqfs_meta_slot {
	uint64_t pos;  /* absolute position of the block header; UINT64_MAX when empty */
	uint64_t next; /* position of the following block */
	uint32_t len;  /* decoded bytes */
	uint64_t used; /* LRU stamp */
	uint8_t data[SQFS_META_BLOCK_SIZE];
};

/* One table's reader: blocks must start in [start, end). Not thread-safe (one per thread). */
struct sqfs_meta_reader {
	struct sqfs_decoder *dec;
	uint64_t start;
	uint64_t end;
	const char *what; /* "inode table", ... for messages */
	uint64_t clock;
	struct sqfs_meta_slot slot[SQFS_META_CACHE_SLOTS];
};

/* A position inside a table: block is absolute (image position of a block header). */
struct sqfs_meta_pos {
	uint64_t block;
	uint32_t offset;
};

/* Set up a reader for the table whose blocks lie in [start, end). Allocates nothing that needs
 * freeing beyond *mr itself (allocate it on the heap: it holds the cache). */
void sqfs_meta_reader_init(struct sqfs_meta_reader *mr, struct sqfs_decoder *dec, uint64_t start,
			   uint64_t end, const char *what);

/* A position from a table-relative block start and an offset (e.g. an inode reference). */
int sqfs_meta_locate(const struct sqfs_meta_reader *mr, uint64_t rel_block, uint32_t offset,
		     struct sqfs_meta_pos *pos, struct sq_error *err);

/* Copy len bytes at *pos into out and advance *pos, crossing blocks as needed. Fails on a
 * block outside the table, a block that does not decode, an offset past a block's end. */
int sqfs_meta_read(struct sqfs_meta_reader *mr, struct sqfs_meta_pos *pos, void *out, size_t len,
		   struct sq_error *err);

/* Decode the whole block at absolute position block; *data points into the cache until the
 * next call on mr. */
int sqfs_meta_block(struct sqfs_meta_reader *mr, uint64_t block, const uint8_t **data, uint32_t *len,
		    uint64_t *next, struct sq_error *err);

#endif
