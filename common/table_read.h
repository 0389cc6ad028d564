/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* table_read.h — the lookup tables (ids, fragments, export, xattr ids): fixed-size entries in
 * metadata blocks found through a u64 list of block positions. */
#ifndef SQ_COMMON_TABLE_READ_H
#define SQ_COMMON_TABLE_READ_H

#include <stdint.h>

#include "common/meta_read.h"

/* Entries are fetched on demand through a private metadata cache, so a hostile entry count
 * costs no more memory than the block list itself (which must fit in the image). */
struct sqfs_table {
	uint32_t count;      /* number of entries */
	uint32_t entry_size;
	uint32_t nblocks;
	uint64_t *blocks;    /* absolute position of each metadata block */
	struct sqfs_meta_reader *mr;
};

/* Open a table of count entries of entry_size bytes whose block list is at list_pos; the blocks
 * must lie in [data_start, list_pos). 0 or -1 with err. */
int sqfs_table_open(struct sqfs_table *t, struct sqfs_decoder *dec, uint64_t list_pos, uint64_t data_start,
		    uint32_t count, uint32_t entry_size, const char *what, struct sq_error *err);
void sqfs_table_close(struct sqfs_table *t);

/* Copy entry index (checked < count) into out (entry_size bytes). */
int sqfs_table_get(struct sqfs_table *t, uint32_t index, uint8_t *out, struct sq_error *err);

/* The decoded tables an image reader needs, opened from the superblock. */
struct sqfs_tables {
	uint32_t *ids;           /* id_count uids/gids, loaded whole (<= 256 KiB) */
	uint32_t id_count;
	struct sqfs_table frag;  /* count 0 when the image has none */
	struct sqfs_table xattr; /* xattr id entries; count 0 when none */
	uint64_t xattr_kv_start; /* start of the xattr key/value metadata */
	uint64_t inode_end;      /* the inode table lies in [inode_table, inode_end) */
	uint64_t dir_end;        /* the directory table lies in [directory_table, dir_end) */
};

int sqfs_tables_open(struct sqfs_tables *tb, struct sqfs_decoder *dec, struct sq_error *err);
void sqfs_tables_close(struct sqfs_tables *tb);

/* Look up a uid/gid by index. */
int sqfs_tables_id(const struct sqfs_tables *tb, uint16_t index, uint32_t *id, struct sq_error *err);

/* A fragment entry: where its block is and its size word. */
int sqfs_tables_fragment(struct sqfs_tables *tb, uint32_t index, uint64_t *start, uint32_t *word,
			 struct sq_error *err);

#endif
