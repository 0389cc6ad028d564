/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* table_read.c — lookup tables: block lists, on-demand entries, and the superblock's tables. */
#include "config.h"
#include "common/table_read.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/util/endian.h"

int sqfs_table_open(struct sqfs_table *t, struct sqfs_decoder *dec, uint64_t list_pos, uint64_t data_start,
		    uint32_t count, uint32_t entry_size, const char *what, struct sq_error *err)
{
	memset(t, 0, sizeof(*t));
	t->count = count;
	t->entry_size = entry_size;
	if (count == 0)
		return 0;
	uint64_t bytes = (uint64_t)count * entry_size;
	uint64_t nblocks = (bytes + SQFS_META_BLOCK_SIZE - 1) / SQFS_META_BLOCK_SIZE;
	uint64_t used = dec->img->sb.bytes_used;
	if (list_pos > used || nblocks > (used - list_pos) / 8)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: %u entries need a block list past the image end", what,
			       count);
	if (data_start > list_pos)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: the block list precedes its table", what);
	t->nblocks = (uint32_t)nblocks;
	t->blocks = malloc(nblocks * sizeof(uint64_t));
	uint8_t *raw = malloc(nblocks * 8);
	t->mr = malloc(sizeof(*t->mr));
	int rc = -1;
	if (t->blocks == NULL || raw == NULL || t->mr == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory for the %s", what);
		goto out;
	}
	if (sqfs_image_read(dec->img, list_pos, raw, nblocks * 8, what, err))
		goto out;
	for (uint64_t i = 0; i < nblocks; i++) {
		t->blocks[i] = get_le64(raw + 8 * i);
		if (t->blocks[i] < data_start || t->blocks[i] >= list_pos) {
			sq_fail(err, SQ_ERR_CORRUPT, "%s: block %" PRIu64 " at %" PRIu64 " is outside the table", what,
				i, t->blocks[i]);
			goto out;
		}
	}
	sqfs_meta_reader_init(t->mr, dec, data_start, list_pos, what);
	rc = 0;
out:
	free(raw);
	if (rc)
		sqfs_table_close(t);
	return rc;
}

void sqfs_table_close(struct sqfs_table *t)
{
	free(t->blocks);
	free(t->mr);
	t->blocks = NULL;
	t->mr = NULL;
	t->count = 0;
}

int sqfs_table_get(struct sqfs_table *t, uint32_t index, uint8_t *out, struct sq_error *err)
{
	if (index >= t->count)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: index %u is out of range (%u entries)",
			       t->mr ? t->mr->what : "table", index, t->count);
	uint64_t byte = (uint64_t)index * t->entry_size;
	uint64_t b = byte / SQFS_META_BLOCK_SIZE;
	uint32_t off = (uint32_t)(byte % SQFS_META_BLOCK_SIZE);
	const uint8_t *data;
	uint32_t len;
	uint64_t next;
	if (sqfs_meta_block(t->mr, t->blocks[b], &data, &len, &next, err))
		return -1;
	uint64_t want = (uint64_t)t->count * t->entry_size - b * SQFS_META_BLOCK_SIZE;
	if (want > SQFS_META_BLOCK_SIZE)
		want = SQFS_META_BLOCK_SIZE;
	if (len != want)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: block %" PRIu64 " holds %u bytes, expected %" PRIu64,
			       t->mr->what, b, len, want);
	memcpy(out, data + off, t->entry_size);
	return 0;
}

/* Tables follow each other in the order the reference writes them; the end of one is the
 * smallest table position after its start. */
static uint64_t next_table_after(const struct sqfs_super *sb, uint64_t start)
{
	uint64_t cand[] = {sb->inode_table, sb->directory_table, sb->fragment_table, sb->export_table,
			   sb->id_table, sb->xattr_id_table, sb->bytes_used};
	uint64_t best = sb->bytes_used;
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
		if (cand[i] != SQFS_NO_TABLE && cand[i] > start && cand[i] < best)
			best = cand[i];
	return best;
}

int sqfs_tables_open(struct sqfs_tables *tb, struct sqfs_decoder *dec, struct sq_error *err)
{
	const struct sqfs_super *sb = &dec->img->sb;
	memset(tb, 0, sizeof(*tb));
	tb->inode_end = sb->directory_table;
	tb->dir_end = next_table_after(sb, sb->directory_table);
	/* Blocks of the id, fragment and export tables sit between the directory table and their lists. */
	uint64_t data_start = sb->directory_table;

	if (sb->id_count == 0)
		return sq_fail(err, SQ_ERR_CORRUPT, "superblock: the id table is empty");
	struct sqfs_table idt;
	if (sqfs_table_open(&idt, dec, sb->id_table, data_start, sb->id_count, SQFS_ID_ENTRY_SIZE, "id table",
			    err))
		return -1;
	tb->id_count = sb->id_count;
	tb->ids = malloc(sizeof(uint32_t) * sb->id_count);
	if (tb->ids == NULL) {
		sqfs_table_close(&idt);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the id table");
	}
	for (uint32_t i = 0; i < sb->id_count; i++) {
		uint8_t e[SQFS_ID_ENTRY_SIZE];
		if (sqfs_table_get(&idt, i, e, err)) {
			sqfs_table_close(&idt);
			goto fail;
		}
		tb->ids[i] = get_le32(e);
	}
	sqfs_table_close(&idt);

	if (sb->fragment_table != SQFS_NO_TABLE && sb->fragment_count > 0 &&
	    sqfs_table_open(&tb->frag, dec, sb->fragment_table, data_start, sb->fragment_count,
			    SQFS_FRAGMENT_ENTRY_SIZE, "fragment table", err))
		goto fail;
	if (sb->fragment_table == SQFS_NO_TABLE && sb->fragment_count > 0) {
		sq_fail(err, SQ_ERR_CORRUPT, "superblock: %u fragments but no fragment table", sb->fragment_count);
		goto fail;
	}

	if (sb->xattr_id_table != SQFS_NO_TABLE) {
		uint8_t h[SQFS_XATTR_ID_TABLE_HEADER_SIZE];
		if (sqfs_image_read(dec->img, sb->xattr_id_table, h, sizeof(h), "xattr id table", err))
			goto fail;
		tb->xattr_kv_start = get_le64(h);
		uint32_t n = get_le32(h + 8);
		if (tb->xattr_kv_start < SQFS_SUPER_SIZE || tb->xattr_kv_start > sb->xattr_id_table) {
			sq_fail(err, SQ_ERR_CORRUPT, "xattr id table: key/value table at %" PRIu64 " is outside the image",
				tb->xattr_kv_start);
			goto fail;
		}
		if (n > 0 && sqfs_table_open(&tb->xattr, dec, sb->xattr_id_table + SQFS_XATTR_ID_TABLE_HEADER_SIZE,
					     tb->xattr_kv_start, n, SQFS_XATTR_ID_ENTRY_SIZE, "xattr id table", err))
			goto fail;
	}
	return 0;
fail:
	sqfs_tables_close(tb);
	return -1;
}

void sqfs_tables_close(struct sqfs_tables *tb)
{
	free(tb->ids);
	tb->ids = NULL;
	sqfs_table_close(&tb->frag);
	sqfs_table_close(&tb->xattr);
}

int sqfs_tables_id(const struct sqfs_tables *tb, uint16_t index, uint32_t *id, struct sq_error *err)
{
	if (index >= tb->id_count)
		return sq_fail(err, SQ_ERR_CORRUPT, "id index %u is out of range (%u ids)", index, tb->id_count);
	*id = tb->ids[index];
	return 0;
}

int sqfs_tables_fragment(struct sqfs_tables *tb, uint32_t index, uint64_t *start, uint32_t *word,
			 struct sq_error *err)
{
	if (index >= tb->frag.count)
		return sq_fail(err, SQ_ERR_CORRUPT, "fragment index %u is out of range (%u fragments)", index,
			       tb->frag.count);
	uint8_t e[SQFS_FRAGMENT_ENTRY_SIZE];
	if (sqfs_table_get(&tb->frag, index, e, err))
		return -1;
	*start = get_le64(e);
	*word = get_le32(e + 8);
	return 0;
}
