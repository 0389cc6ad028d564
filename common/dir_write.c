/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dir_write.c — laying out one directory's listing and its index (squashfs-tools-ng's
 * doc/format.adoc, sections "Directory Table" and "Directory Index"). */
#include "config.h"
#include "common/dir_write.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/util/endian.h"
#include "common/format.h"

struct grow_buf {
	uint8_t *p;
	size_t len, cap;
};

static uint8_t *grow(struct grow_buf *b, size_t n, struct sq_error *err)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap - b->len < n)
			cap *= 2;
		uint8_t *p = realloc(b->p, cap);
		if (p == NULL) {
			sq_fail(err, SQ_ERR_NOMEM, "out of memory for a directory listing");
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	uint8_t *at = b->p + b->len;
	b->len += n;
	return at;
}

/* An index point found while laying out: resolved to a stored block offset once the listing is
 * in the table, because blocks after the current one are not compressed yet. */
struct index_point {
	uint32_t listing_pos;
	uint64_t raw_block;
	uint32_t entry;
};

/* The listing being laid out: the current header's run and the index points found so far. */
struct layout {
	struct grow_buf listing;
	struct index_point *points;
	size_t npoints, points_cap;
	uint64_t start_raw;       /* raw offset of the listing's start in the directory table */
	size_t last_index_pos;    /* listing offset of the last index point (or the start) */
	bool have_header;
	size_t header_at;         /* listing offset of the current header */
	uint32_t run;             /* entries under the current header */
	uint64_t header_inode_block;
	uint32_t base_number;
};

static int add_index_point(struct layout *l, uint32_t entry, struct sq_error *err)
{
	if (l->npoints == l->points_cap) {
		size_t cap = l->points_cap ? l->points_cap * 2 : 16;
		struct index_point *p = realloc(l->points, cap * sizeof(*p));
		if (p == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for a directory index");
		l->points = p;
		l->points_cap = cap;
	}
	l->points[l->npoints].listing_pos = (uint32_t)l->header_at;
	l->points[l->npoints].raw_block = (l->start_raw + l->header_at) / SQFS_META_BLOCK_SIZE;
	l->points[l->npoints].entry = entry;
	l->npoints++;
	l->last_index_pos = l->header_at;
	return 0;
}

/* Close the current header's run (its count is stored minus one) and open a new one. */
static int start_header(struct layout *l, uint64_t inode_block, uint32_t inode_number,
			struct sq_error *err)
{
	if (l->have_header)
		put_le32(l->listing.p + l->header_at, l->run - 1);
	l->header_at = l->listing.len;
	uint8_t *h = grow(&l->listing, SQFS_DIR_HEADER_SIZE, err);
	if (h == NULL)
		return -1;
	put_le32(h + 4, (uint32_t)inode_block);
	put_le32(h + 8, inode_number);
	l->have_header = true;
	l->run = 0;
	l->header_inode_block = inode_block;
	l->base_number = inode_number;
	return 0;
}

static int add_entry(struct layout *l, const struct sqfs_dir_entry_w *e, uint32_t i,
		     struct sq_error *err)
{
	if (e->name_len == 0 || e->name_len > SQFS_NAME_MAX)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "file name of %u bytes cannot be stored",
			       (unsigned)e->name_len);
	uint64_t inode_block = sqfs_meta_ref_block(e->inode_ref);
	if (inode_block > 0xFFFFFFFFu)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "inode table larger than 4 GiB");
	int64_t delta = (int64_t)e->inode_number - (int64_t)l->base_number;
	/* As squashfs-tools: an index point when this entry would take the listing more than one
	 * metadata block past the previous index point. */
	bool crossing = l->have_header && l->listing.len + SQFS_DIR_ENTRY_SIZE + e->name_len -
						  l->last_index_pos > SQFS_META_BLOCK_SIZE;
	if (!l->have_header || l->run == SQFS_DIR_MAX_ENTRIES_PER_HEADER ||
	    inode_block != l->header_inode_block || delta < -32768 || delta > 32767 || crossing) {
		if (start_header(l, inode_block, e->inode_number, err) != 0)
			return -1;
		delta = 0;
		if (crossing && add_index_point(l, i, err) != 0)
			return -1;
	}
	uint8_t *p = grow(&l->listing, SQFS_DIR_ENTRY_SIZE + e->name_len, err);
	if (p == NULL)
		return -1;
	put_le16(p + 0, (uint16_t)sqfs_meta_ref_offset(e->inode_ref));
	put_le16(p + 2, (uint16_t)(int16_t)delta);
	put_le16(p + 4, e->basic_type);
	put_le16(p + 6, (uint16_t)(e->name_len - 1));
	memcpy(p + 8, e->name, e->name_len);
	l->run++;
	if (l->listing.len > 0xFFFFFFFFu - SQFS_DIR_SIZE_BIAS)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "directory listing larger than 4 GiB");
	return 0;
}

/* The index entries, once the listing is in the table and its blocks' stored offsets known. */
static int build_index(const struct layout *l, struct sqfs_meta_writer *w,
		       const struct sqfs_dir_entry_w *entries, struct sqfs_dir_listing *out,
		       struct sq_error *err)
{
	struct grow_buf index = { 0 };
	for (size_t k = 0; k < l->npoints; k++) {
		const struct sqfs_dir_entry_w *e = &entries[l->points[k].entry];
		uint64_t start = sqfs_meta_writer_block_of(w, l->points[k].raw_block *
								  SQFS_META_BLOCK_SIZE);
		uint8_t *p = grow(&index, SQFS_DIR_INDEX_ENTRY_SIZE + e->name_len, err);
		if (p == NULL || start > 0xFFFFFFFFu) {
			if (p != NULL)
				sq_fail(err, SQ_ERR_UNSUPPORTED, "directory table larger than 4 GiB");
			free(index.p);
			return -1;
		}
		put_le32(p + 0, l->points[k].listing_pos);
		put_le32(p + 4, (uint32_t)start);
		put_le32(p + 8, e->name_len - 1);
		memcpy(p + 12, e->name, e->name_len);
	}
	out->index = index.p;
	out->index_len = index.len;
	out->index_count = (uint16_t)l->npoints;
	return 0;
}

int sqfs_dir_write(struct sqfs_meta_writer *w, const struct sqfs_dir_entry_w *entries,
		   uint32_t count, struct sqfs_dir_listing *out, struct sq_error *err)
{
	memset(out, 0, sizeof(*out));
	if (w->out_len > 0xFFFFFFFFu)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "directory table larger than 4 GiB");
	out->block_start = (uint32_t)w->out_len;
	out->offset = (uint16_t)w->fill;
	struct layout l = { .start_raw = w->raw_len };
	int rc = -1;
	for (uint32_t i = 0; i < count; i++)
		if (add_entry(&l, &entries[i], i, err) != 0)
			goto cleanup;
	if (l.have_header)
		put_le32(l.listing.p + l.header_at, l.run - 1);
	if (l.npoints > 0xFFFF) {
		sq_fail(err, SQ_ERR_UNSUPPORTED, "directory too large for its index");
		goto cleanup;
	}
	if (l.listing.len > 0 && sqfs_meta_writer_append(w, l.listing.p, l.listing.len, err) != 0)
		goto cleanup;
	out->size = (uint32_t)l.listing.len + SQFS_DIR_SIZE_BIAS;
	rc = build_index(&l, w, entries, out, err);
cleanup:
	free(l.listing.p);
	free(l.points);
	return rc;
}
