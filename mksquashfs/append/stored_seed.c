/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stored_seed.c — before the data stage of an append: the old fragment table handed to the
 * writer, and the stored files that may equal a new one put into the dedup tables under the
 * keys data.c and data_reader.c compute for new files. Only stored files with a size, block-run
 * length or tail length some new file has are decoded, so appending a few files to a large
 * image does not read the image back. */
#include "config.h"
#include "mksquashfs/append/stored.h"

#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/util/sizes.h"
#include "mksquashfs/append/stored_internal.h"
#include "mksquashfs/data_internal.h"
#include "mksquashfs/dedup.h"
#include "mksquashfs/file_list.h"
#include "mksquashfs/hash.h"

/* The lengths new files have, sorted, for membership tests. */
struct lengths {
	uint64_t *v;
	size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static bool has(const struct lengths *l, uint64_t v)
{
	return l->n > 0 && bsearch(&v, l->v, l->n, sizeof(v), cmp_u64) != NULL;
}

/* What data_reader.c decides for a new file of this size: its block run and its fragment tail. */
static void layout(const struct stored_data *s, uint64_t size, uint64_t *run, uint64_t *tail)
{
	uint64_t full = size / s->bs, rest = size % s->bs;
	bool to_fragment = !s->no_fragments && rest > 0 && (full == 0 || s->always_fragments);
	*run = to_fragment ? full * s->bs : size;
	*tail = to_fragment ? rest : 0;
}

struct wanted {
	struct lengths runs, sizes, tails;
};

static int collect_wanted(const struct stored_data *s, const struct file_list *files,
			  struct wanted *w)
{
	size_t n = files->count ? files->count : 1;
	w->runs.v = sq_alloc_array(n, sizeof(uint64_t));
	w->sizes.v = sq_alloc_array(n, sizeof(uint64_t));
	w->tails.v = sq_alloc_array(n, sizeof(uint64_t));
	if (w->runs.v == NULL || w->sizes.v == NULL || w->tails.v == NULL)
		return -1;
	for (size_t i = 0; i < files->count; i++) {
		uint64_t size = files->files[i]->file->size, run, tail;
		layout(s, size, &run, &tail);
		if (run > 0)
			w->runs.v[w->runs.n++] = run;
		if (tail > 0) {
			w->sizes.v[w->sizes.n++] = size;
			w->tails.v[w->tails.n++] = tail;
		}
	}
	qsort(w->runs.v, w->runs.n, sizeof(uint64_t), cmp_u64);
	qsort(w->sizes.v, w->sizes.n, sizeof(uint64_t), cmp_u64);
	qsort(w->tails.v, w->tails.n, sizeof(uint64_t), cmp_u64);
	return 0;
}

static void wanted_free(struct wanted *w)
{
	free(w->runs.v);
	free(w->sizes.v);
	free(w->tails.v);
}

/* Decode one stored file as far as its keys need, and enter it under them. */
static int seed_file(struct stored_data *s, struct tree_inode *n, const struct wanted *w,
		     struct dedup_table *blocks, struct data_reader *r, struct sq_error *err)
{
	const struct file_data *f = n->file;
	bool fragmented = f->fragment_index != SQFS_NO_FRAGMENT;
	uint64_t in_blocks = 0;
	for (uint32_t i = 0; i < f->block_count; i++)
		in_blocks += stored_block_len(s, f, i);
	uint64_t tail_len = fragmented ? f->size - in_blocks : 0;
	bool want_run = in_blocks > 0 && has(&w->runs, in_blocks);
	bool want_whole = fragmented && has(&w->sizes, f->size);
	bool want_tail = fragmented && tail_len > 0 && has(&w->tails, tail_len);
	if (!want_run && !want_whole && !want_tail)
		return 0;
	uint64_t hash = 0;
	if (want_run || want_whole) {
		for (uint32_t i = 0; i < f->block_count; i++) {
			if (stored_block(s, &s->reader, n, i, err) != 0)
				return -1;
			size_t len = stored_block_len(s, f, i);
			hash = sq_hash_combine(hash, sq_hash64(s->reader.block, len, 0));
		}
	}
	if (want_run && dedup_insert(blocks, in_blocks, hash, n) != 0)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	if (!want_whole && !want_tail)
		return 0;
	const uint8_t *tail;
	size_t len;
	if (stored_tail(s, &s->reader, f, &tail, &len, err) != 0)
		return -1;
	if (want_whole && dedup_insert(r->table, f->size,
				       sq_hash_combine(hash, sq_hash64(tail, len, 0)), n) != 0)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	if (want_tail &&
	    data_reader_remember_tail(r, n, (uint32_t)len, sq_hash64(tail, len, 1),
				      n->file->fragment_index, n->file->fragment_offset) != 0)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	return 0;
}

/* Every stored file once (hard links share an inode): inode_number is the writer's, borrowed
 * here as a mark and cleared again, as file_list.c does. */
static int seed_dir(struct stored_data *s, struct tree_inode *dir, const struct wanted *w,
		    struct dedup_table *blocks, struct data_reader *r, struct sq_error *err)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *n = dir->dir->entries[i].inode;
		if (n->dir != NULL) {
			if (seed_dir(s, n, w, blocks, r, err) != 0)
				return -1;
		} else if ((n->flags & TREE_STORED) && n->file != NULL && n->inode_number == 0) {
			n->inode_number = 1;
			/* A stored file that does not decode stays in the image as it is, but is no
			 * candidate: nothing new is made to share its damaged blocks. */
			struct sq_error e;
			sq_error_clear(&e);
			if (seed_file(s, n, w, blocks, r, &e) != 0 && e.code != SQ_ERR_CODEC &&
			    e.code != SQ_ERR_CORRUPT)
				return sq_fail(err, e.code, "%s", e.msg);
		}
	}
	return 0;
}

static void clear_marks(struct tree_inode *dir)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *n = dir->dir->entries[i].inode;
		if (n->dir != NULL)
			clear_marks(n);
		else
			n->inode_number = 0;
	}
}

int stored_begin(struct stored_data *s, const struct file_list *files, struct dedup_table *blocks,
		 struct data_reader *r, struct fragment_entry **frags, uint32_t *count,
		 uint32_t *cap, struct sq_error *err)
{
	*frags = sq_alloc_array(s->frag_count ? s->frag_count : 1, sizeof(**frags));
	if (*frags == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the fragment table");
	memcpy(*frags, s->frags, (size_t)s->frag_count * sizeof(**frags));
	*count = s->frag_count;
	*cap = s->frag_count ? s->frag_count : 1;
	r->frag_index = s->frag_count;
	if (!s->duplicates || files->count == 0 || s->tree == NULL || s->tree->root == NULL)
		return 0;
	struct wanted w = { 0 };
	int rc = -1;
	if (collect_wanted(s, files, &w) != 0)
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	else
		rc = seed_dir(s, s->tree->root, &w, blocks, r, err);
	clear_marks(s->tree->root);
	wanted_free(&w);
	return rc;
}
