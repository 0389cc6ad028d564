/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dir_write.c — laying out one directory's listing and its index (doc/format.adoc,
 * "Directory Table", "Directory Index"). */
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

int sqfs_dir_write(struct sqfs_meta_writer *w, const struct sqfs_dir_entry_w *entries,
		   uint32_t count, struct sqfs_dir_listing *out, struct sq_error *err)
{
	struct grow_buf listing = { 0 };
	struct index_point *points = NULL;
	size_t npoints = 0, points_cap = 0;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (w->out_len > 0xFFFFFFFFu)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "directory table larger than 4 GiB");
	out->block_start = (uint32_t)w->out_len;
	out->offset = (uint16_t)w->fill;
	const uint64_t start_raw = w->raw_len;
	size_t last_index_pos = 0; /* listing offset of the last index point (or the start) */

	bool have_header = false;
	uint8_t *header_count = NULL; /* patched when the run ends; re-derived after reallocs */
	size_t header_at = 0;
	uint32_t run = 0;
	uint64_t header_inode_block = 0;
	uint32_t base_number = 0;

	for (uint32_t i = 0; i < count; i++) {
		const struct sqfs_dir_entry_w *e = &entries[i];
		if (e->name_len == 0 || e->name_len > SQFS_NAME_MAX) {
			sq_fail(err, SQ_ERR_UNSUPPORTED, "file name of %u bytes cannot be stored",
				(unsigned)e->name_len);
			goto cleanup;
		}
		uint64_t inode_block = sqfs_meta_ref_block(e->inode_ref);
		if (inode_block > 0xFFFFFFFFu) {
			sq_fail(err, SQ_ERR_UNSUPPORTED, "inode table larger than 4 GiB");
			goto cleanup;
		}
		int64_t delta = (int64_t)e->inode_number - (int64_t)base_number;
		/* As squashfs-tools: an index point when this entry would take the listing more
		 * than one metadata block past the previous index point. */
		bool crossing = have_header && listing.len + SQFS_DIR_ENTRY_SIZE + e->name_len -
						       last_index_pos > SQFS_META_BLOCK_SIZE;
		bool new_header = !have_header || run == SQFS_DIR_MAX_ENTRIES_PER_HEADER ||
				  inode_block != header_inode_block || delta < -32768 ||
				  delta > 32767 || crossing;
		if (new_header) {
			if (have_header)
				put_le32(listing.p + header_at, run - 1);
			header_at = listing.len;
			if ((header_count = grow(&listing, SQFS_DIR_HEADER_SIZE, err)) == NULL)
				goto cleanup;
			put_le32(header_count + 4, (uint32_t)inode_block);
			put_le32(header_count + 8, e->inode_number);
			have_header = true;
			run = 0;
			header_inode_block = inode_block;
			base_number = e->inode_number;
			delta = 0;
			if (crossing) {
				if (npoints == points_cap) {
					size_t cap = points_cap ? points_cap * 2 : 16;
					struct index_point *p = realloc(points, cap * sizeof(*p));
					if (p == NULL) {
						sq_fail(err, SQ_ERR_NOMEM,
							"out of memory for a directory index");
						goto cleanup;
					}
					points = p;
					points_cap = cap;
				}
				points[npoints].listing_pos = (uint32_t)header_at;
				points[npoints].raw_block = (start_raw + header_at) / SQFS_META_BLOCK_SIZE;
				points[npoints].entry = i;
				npoints++;
				last_index_pos = header_at;
			}
		}
		uint8_t *p = grow(&listing, SQFS_DIR_ENTRY_SIZE + e->name_len, err);
		if (p == NULL)
			goto cleanup;
		put_le16(p + 0, (uint16_t)sqfs_meta_ref_offset(e->inode_ref));
		put_le16(p + 2, (uint16_t)(int16_t)delta);
		put_le16(p + 4, e->basic_type);
		put_le16(p + 6, (uint16_t)(e->name_len - 1));
		memcpy(p + 8, e->name, e->name_len);
		run++;
		if (listing.len > 0xFFFFFFFFu - SQFS_DIR_SIZE_BIAS) {
			sq_fail(err, SQ_ERR_UNSUPPORTED, "directory listing larger than 4 GiB");
			goto cleanup;
		}
	}
	if (have_header)
		put_le32(listing.p + header_at, run - 1);
	if (npoints > 0xFFFF) {
		sq_fail(err, SQ_ERR_UNSUPPORTED, "directory too large for its index");
		goto cleanup;
	}

	if (listing.len > 0 && sqfs_meta_writer_append(w, listing.p, listing.len, err) != 0)
		goto cleanup;
	out->size = (uint32_t)listing.len + SQFS_DIR_SIZE_BIAS;

	struct grow_buf index = { 0 };
	for (size_t k = 0; k < npoints; k++) {
		const struct sqfs_dir_entry_w *e = &entries[points[k].entry];
		uint64_t start = sqfs_meta_writer_block_of(w, points[k].raw_block *
								  SQFS_META_BLOCK_SIZE);
		uint8_t *p = grow(&index, SQFS_DIR_INDEX_ENTRY_SIZE + e->name_len, err);
		if (p == NULL || start > 0xFFFFFFFFu) {
			if (p != NULL)
				sq_fail(err, SQ_ERR_UNSUPPORTED, "directory table larger than 4 GiB");
			free(index.p);
			goto cleanup;
		}
		put_le32(p + 0, points[k].listing_pos);
		put_le32(p + 4, (uint32_t)start);
		put_le32(p + 8, e->name_len - 1);
		memcpy(p + 12, e->name, e->name_len);
	}
	out->index = index.p;
	out->index_len = index.len;
	out->index_count = (uint16_t)npoints;
	rc = 0;
cleanup:
	free(listing.p);
	free(points);
	return rc;
}
