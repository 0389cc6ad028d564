/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* data_internal.h — what the data stage's reader (data_reader.c) and writer (data.c) agree on:
 * the meaning of a slot's tag/peer/arg fields. */
#ifndef SQ_MKSQUASHFS_DATA_INTERNAL_H
#define SQ_MKSQUASHFS_DATA_INTERNAL_H

#include "mksquashfs/content.h"
#include "mksquashfs/data.h"
#include "mksquashfs/pipeline.h"

/* SLOT_BLOCK:    tag = the file's inode, arg[0] = block index, arg[1] = the file's stored block
 *                count (full blocks + tail block when not fragmented).
 * SLOT_FRAGMENT: arg[0] = fragment index, arg[1] = tail bytes packed in it.
 * SLOT_FILE_END: tag = the inode, arg[0] = block count, arg[1] = fragment index or
 *                SQFS_NO_FRAGMENT, arg[2] = offset in the fragment, arg[3] = one of the
 *                END_* values; peer = the earlier inode it duplicates (END_DUPLICATE) or may
 *                duplicate (END_CANDIDATE: all in blocks, confirmed by the writer). */
enum {
	END_NEW = 0,
	END_DUPLICATE = 1,   /* confirmed by the reader: identical bytes, reuse peer's data */
	END_BLOCKS = 2,      /* all content in blocks: the writer looks for a duplicate itself */
};

/* A tail already in a fragment, for sharing identical tails of different files. */
struct packed_tail {
	struct tree_inode *inode;
	uint32_t frag_index;
	uint32_t frag_offset;
};

struct data_reader {
	const struct data_config *cfg;
	const struct file_list *files;
	struct pipeline *pipe;
	struct sq_error err;
	uint8_t *frag;         /* the fragment being filled */
	uint32_t frag_used;
	uint32_t frag_index;
	uint64_t frag_tail_bytes;
	uint8_t *tail;         /* the current file's tail */
	uint8_t *cmp_a, *cmp_b;
	const uint8_t *zeros;  /* block_size zero bytes */
	uint64_t zero_hash;    /* of a whole zero block, once needed */
	struct dedup_table *table;       /* fragmented files by (size, whole hash) */
	struct dedup_table *tail_table;  /* packed tails by (length, hash) -> tails[i - 1] */
	struct packed_tail *tails;
	size_t tail_count, tail_cap;
	size_t tail_limit;               /* tails remembered at most (-mem), 0: no limit */
	struct content_dir dir;          /* the directory files are opened relative to */
	uint32_t unreadable;   /* files stored empty: could not be opened or read */
	uint32_t changed;      /* files that changed size while being read */
	int rc;
};

/* Thread entry: run the reader over cfg/files; on failure sets r->rc = -1 and r->err, and
 * aborts the pipeline. Always ends with SLOT_END unless aborted. */
void *data_reader_main(void *arg);

/* A packed tail (len bytes hashing to hash, in fragment frag_index at offset) that later files'
 * tails are compared with; also seeded from an image being appended to. */
int data_reader_remember_tail(struct data_reader *r, struct tree_inode *n, uint32_t tail_len,
			      uint64_t hash, uint32_t frag_index, uint32_t offset);

#endif
