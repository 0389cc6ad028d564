/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* data_reader.c — the data stage's producer: reads files in order, cuts them into blocks,
 * packs tails into fragments and confirms duplicates of fragmented files. Every layout decision
 * is made here, on one thread, so the image does not depend on how many workers compress. */
#include "config.h"
#include "mksquashfs/data_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/io.h"
#include "common/util/sizes.h"
#include "mksquashfs/content.h"
#include "mksquashfs/dedup.h"
#include "mksquashfs/hash.h"

static int flush_fragment(struct data_reader *r)
{
	if (r->frag_used == 0)
		return 0;
	struct slot *s = pipeline_acquire(r->pipe);
	if (s == NULL)
		return -1;
	s->kind = SLOT_FRAGMENT;
	s->work = r->cfg->image->uncompressed_fragments ? WORK_RAW : WORK_COMPRESS;
	memcpy(s->in, r->frag, r->frag_used);
	s->in_len = r->frag_used;
	s->arg[0] = r->frag_index;
	s->arg[1] = r->frag_tail_bytes;
	pipeline_submit(r->pipe, s);
	r->frag_index++;
	r->frag_used = 0;
	r->frag_tail_bytes = 0;
	return 0;
}

static int open_source(struct data_reader *r, const struct tree_inode *n, struct content *c)
{
	if (content_open_cached(n, c, &r->dir, &r->err) != 0)
		return -1;
	/* Read-ahead hints pay only on files spanning many reads; small files are one read. */
	if (c->owned && n->file->size > 4u * r->cfg->image->block_size)
		posix_fadvise(c->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

static int read_exact(struct data_reader *r, const struct content *c, const struct tree_inode *n,
		      uint8_t *buf, size_t len, uint64_t offset)
{
	ssize_t got = content_pread(c, buf, len, offset);
	if (got < 0)
		return sq_fail_errno(&r->err, "cannot read %s", content_name(n));
	if ((size_t)got < len)
		return sq_fail(&r->err, SQ_ERR_IO, "%s shrank while being read", content_name(n));
	return 0;
}

/* Byte comparison behind a hash match: the earlier file is read again from its source and
 * compared with the current one (whose tail is in r->tail; its blocks, if any, are read again
 * too). Returns 1 identical, 0 different, -1 error. */
static int same_content(struct data_reader *r, const struct tree_inode *cur,
			const struct tree_inode *old, uint32_t tail_len)
{
	uint32_t bs = r->cfg->image->block_size;
	uint64_t body = cur->file->size - tail_len;
	struct content a = { .fd = -1 }, b = { .fd = -1 };
	int rc = -1;
	if (open_source(r, old, &a) != 0)
		goto out;
	if (body > 0 && open_source(r, cur, &b) != 0)
		goto out;
	for (uint64_t off = 0; off < body; off += bs) {
		size_t len = body - off < bs ? (size_t)(body - off) : bs;
		if (read_exact(r, &a, old, r->cmp_a, len, off) != 0 ||
		    read_exact(r, &b, cur, r->cmp_b, len, off) != 0)
			goto out;
		if (memcmp(r->cmp_a, r->cmp_b, len) != 0) {
			rc = 0;
			goto out;
		}
	}
	if (read_exact(r, &a, old, r->cmp_a, tail_len, body) != 0)
		goto out;
	rc = memcmp(r->cmp_a, r->tail, tail_len) == 0;
out:
	content_close(&a);
	content_close(&b);
	return rc;
}

/* Is the tail of old (its last tail_len bytes, read again from its source) equal to r->tail? */
static int same_tail(struct data_reader *r, const struct tree_inode *old, uint32_t tail_len)
{
	struct content c;
	if (open_source(r, old, &c) != 0)
		return -1;
	int rc = read_exact(r, &c, old, r->cmp_a, tail_len, old->file->size - tail_len);
	content_close(&c);
	if (rc != 0)
		return -1;
	return memcmp(r->cmp_a, r->tail, tail_len) == 0;
}

static int remember_tail(struct data_reader *r, struct tree_inode *n, uint32_t tail_len,
			 uint64_t hash, uint32_t offset)
{
	if (r->tail_count == r->tail_cap) {
		size_t cap = r->tail_cap ? r->tail_cap * 2 : 256;
		struct packed_tail *grown = sq_realloc_array(r->tails, cap, sizeof(*grown));
		if (grown == NULL)
			return sq_fail(&r->err, SQ_ERR_NOMEM, "out of memory");
		r->tails = grown;
		r->tail_cap = cap;
	}
	r->tails[r->tail_count].inode = n;
	r->tails[r->tail_count].frag_index = r->frag_index;
	r->tails[r->tail_count].frag_offset = offset;
	r->tail_count++;
	/* Items are indexes + 1: the array moves when it grows. */
	if (dedup_insert(r->tail_table, tail_len, hash, (void *)(uintptr_t)r->tail_count) != 0)
		return sq_fail(&r->err, SQ_ERR_NOMEM, "out of memory");
	return 0;
}

static int submit_end(struct data_reader *r, struct tree_inode *n, uint32_t blocks,
		      uint32_t frag_index, uint32_t frag_offset, int kind, struct tree_inode *peer)
{
	struct slot *s = pipeline_acquire_marker(r->pipe);
	if (s == NULL)
		return -1;
	s->kind = SLOT_FILE_END;
	s->tag = n;
	s->peer = peer;
	s->arg[0] = blocks;
	s->arg[1] = frag_index;
	s->arg[2] = frag_offset;
	s->arg[3] = (uint64_t)kind;
	pipeline_submit(r->pipe, s);
	return 0;
}

/* What read_file decided about one file's layout. */
struct file_layout {
	uint64_t full;          /* whole blocks */
	uint32_t tail;          /* bytes after them */
	bool to_fragment;       /* the tail goes into a fragment block */
	uint64_t blocks;        /* stored blocks: full, plus the tail when not fragmented */
};

/* Submit the file's blocks to the workers; *hash accumulates the whole-file hash when the tail
 * goes to a fragment (only such files are confirmed as duplicates here). */
static int submit_blocks(struct data_reader *r, struct tree_inode *n, const struct content *src,
			 const struct file_layout *l, uint64_t *hash)
{
	const struct image_settings *img = r->cfg->image;
	uint32_t bs = img->block_size;
	/* Holes of sparse files are found with SEEK_DATA, so a block lying wholly in one is
	 * neither read nor scanned: a 5 GiB hole costs a few lseeks, not 5 GiB of zero reads. */
	bool find_holes = r->cfg->sparse && l->full >= 4;
	uint64_t next_data = 0;
	for (uint64_t b = 0; b < l->blocks; b++) {
		struct slot *s = pipeline_acquire(r->pipe);
		if (s == NULL)
			return -1;
		size_t len = b < l->full ? bs : l->tail;
		uint64_t off = b * bs;
		if (find_holes && next_data < off + len && len == bs) {
			int found = content_next_data(src, off, &next_data);
			if (found == 1)
				next_data = n->file->size; /* only a hole up to the end */
			else if (found < 0)
				find_holes = false; /* filesystem cannot tell: read everything */
		}
		bool hole = find_holes && len == bs && next_data >= off + len;
		if (hole) {
			if (r->zero_hash == 0)
				r->zero_hash = sq_hash64(r->zeros, bs, 0);
			s->known_sparse = true;
			s->hash = r->zero_hash;
		} else if (read_exact(r, src, n, s->in, len, off) != 0) {
			pipeline_abort(r->pipe);
			return -1;
		}
		s->kind = SLOT_BLOCK;
		s->work = hole ? WORK_NONE : img->uncompressed_data ? WORK_RAW : WORK_COMPRESS;
		s->sparse_ok = r->cfg->sparse;
		s->want_hash = img->duplicates && !hole;
		s->in_len = len;
		s->tag = n;
		s->arg[0] = b;
		s->arg[1] = l->blocks;
		/* Only fragmented files need the whole hash here; the writer folds the workers'
		 * block hashes for the others. */
		if (l->to_fragment && img->duplicates)
			*hash = sq_hash_combine(*hash, hole ? r->zero_hash : sq_hash64(s->in, len, 0));
		pipeline_submit(r->pipe, s);
	}
	return 0;
}

/* The tail (in r->tail) of a file whose blocks are submitted: the file may duplicate an earlier
 * fragmented file, its tail may equal one already packed, or it is packed now. */
static int place_tail(struct data_reader *r, struct tree_inode *n, const struct file_layout *l,
		      uint64_t hash)
{
	const struct image_settings *img = r->cfg->image;
	uint32_t tail = l->tail, blocks = (uint32_t)l->blocks;
	uint64_t size = n->file->size;
	/* Unless -always-use-fragments packs tails of larger files too, every packed tail is a
	 * whole file: a file that is only a tail then duplicates the file whose tail it matches,
	 * and the table of whole files (64 bytes a file) is not needed. */
	bool whole_by_tail = l->full == 0 && !img->always_fragments;
	if (img->duplicates && !whole_by_tail) {
		hash = sq_hash_combine(hash, sq_hash64(r->tail, tail, 0));
		size_t cursor = 0;
		struct tree_inode *old;
		while ((old = dedup_next(r->table, size, hash, &cursor)) != NULL) {
			int same = same_content(r, n, old, tail);
			if (same < 0)
				return -1;
			if (same)
				return submit_end(r, n, blocks, SQFS_NO_FRAGMENT, 0, END_DUPLICATE, old);
		}
		if (dedup_insert(r->table, size, hash, n) != 0)
			return sq_fail(&r->err, SQ_ERR_NOMEM, "out of memory");
	}
	uint64_t tail_hash = img->duplicates ? sq_hash64(r->tail, tail, 1) : 0;
	if (img->duplicates) {
		size_t cursor = 0;
		void *item;
		while ((item = dedup_next(r->tail_table, tail, tail_hash, &cursor)) != NULL) {
			const struct packed_tail *pt = &r->tails[(uintptr_t)item - 1];
			int same = same_tail(r, pt->inode, tail);
			if (same < 0)
				return -1;
			if (same && whole_by_tail)
				return submit_end(r, n, blocks, SQFS_NO_FRAGMENT, 0, END_DUPLICATE,
						  pt->inode);
			if (same)
				return submit_end(r, n, blocks, pt->frag_index, pt->frag_offset, END_NEW,
						  NULL);
		}
	}
	if (r->frag_used + tail > img->block_size && flush_fragment(r) != 0)
		return -1;
	uint32_t offset = r->frag_used;
	memcpy(r->frag + offset, r->tail, tail);
	r->frag_used += tail;
	r->frag_tail_bytes += tail;
	if (img->duplicates && remember_tail(r, n, tail, tail_hash, offset) != 0)
		return -1;
	return submit_end(r, n, blocks, r->frag_index, offset, END_NEW, NULL);
}

static int read_file(struct data_reader *r, struct tree_inode *n)
{
	const struct image_settings *img = r->cfg->image;
	uint32_t bs = img->block_size;
	uint64_t size = n->file->size;
	struct file_layout l = { .full = size / bs, .tail = (uint32_t)(size % bs) };
	l.to_fragment = !img->no_fragments && l.tail > 0 && (l.full == 0 || img->always_fragments);
	l.blocks = l.full + (l.tail > 0 && !l.to_fragment);
	if (l.blocks > UINT32_MAX)
		return sq_fail(&r->err, SQ_ERR_UNSUPPORTED, "%s is too large", content_name(n));
	if (size == 0)
		return submit_end(r, n, 0, SQFS_NO_FRAGMENT, 0, END_NEW, NULL);

	struct content src;
	if (open_source(r, n, &src) != 0)
		return -1;
	uint64_t hash = 0;
	int rc = submit_blocks(r, n, &src, &l, &hash);
	if (rc == 0 && l.to_fragment)
		rc = read_exact(r, &src, n, r->tail, l.tail, l.full * bs);
	content_close(&src);
	if (rc != 0)
		return -1;
	if (!l.to_fragment)
		return submit_end(r, n, (uint32_t)l.blocks, SQFS_NO_FRAGMENT, 0, END_BLOCKS, NULL);
	return place_tail(r, n, &l, hash);
}

void *data_reader_main(void *arg)
{
	struct data_reader *r = arg;
	r->rc = 0;
	for (size_t i = 0; i < r->files->count; i++) {
		if (read_file(r, r->files->files[i]) != 0) {
			r->rc = -1;
			break;
		}
	}
	if (r->rc == 0 && flush_fragment(r) != 0)
		r->rc = -1;
	if (r->rc == 0) {
		struct slot *s = pipeline_acquire_marker(r->pipe);
		if (s == NULL) {
			r->rc = -1;
		} else {
			s->kind = SLOT_END;
			pipeline_submit(r->pipe, s);
		}
	}
	if (r->rc != 0)
		pipeline_abort(r->pipe);
	return NULL;
}
