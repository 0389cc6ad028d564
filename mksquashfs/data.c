/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* data.c — the data stage's writer and its set-up: takes slots back in order, appends blocks
 * to the image, fills each file's struct file_data, and confirms duplicates of unfragmented
 * files by comparing the blocks already stored. */
#include "config.h"
#include "mksquashfs/data.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/util/sizes.h"
#include "mksquashfs/append/stored.h"
#include "mksquashfs/data_internal.h"
#include "mksquashfs/dedup.h"
#include "mksquashfs/content.h"
#include "mksquashfs/hash.h"

#define COMPARE_CHUNK (256u * 1024u)

struct data_writer {
	const struct data_config *cfg;
	struct image_out *out;
	struct data_stats *stats;
	const struct file_list *files;
	struct sq_error *err;
	struct fragment_entry *frags;
	uint32_t frag_count, frag_cap;
	struct dedup_table table;     /* unfragmented files, keyed by folded block hashes */
	/* The file whose blocks are arriving. */
	struct tree_inode *cur;
	uint64_t cur_hash;
	uint64_t cur_raw;             /* raw bytes of its blocks so far */
	uint8_t *cmp_a, *cmp_b;
};

static uint64_t stored_bytes(const struct file_data *f)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < f->block_count; i++)
		total += f->block_sizes[i] & SQFS_DATA_SIZE_MASK;
	return total;
}

static int write_block(struct data_writer *w, struct slot *s)
{
	struct tree_inode *n = s->tag;
	struct file_data *f = n->file;
	uint64_t index = s->arg[0];
	if (index == 0) {
		f->block_sizes = sq_alloc_array((size_t)s->arg[1], sizeof(uint32_t));
		if (f->block_sizes == NULL)
			return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory for %s", CONTENT_NAME(n));
		f->blocks_start = w->out->pos;
		f->block_count = 0;
		f->sparse_bytes = 0;
		w->cur = n;
		w->cur_hash = 0;
		w->cur_raw = 0;
	}
	if (w->cur != n || index != f->block_count)
		return sq_fail(w->err, SQ_ERR_IO, "internal error: blocks of %s out of order",
			       CONTENT_NAME(n));
	if (s->result_len > 0 && image_out_write(w->out, s->result, s->result_len, w->err) != 0)
		return -1;
	f->block_sizes[f->block_count++] = s->size_word;
	w->cur_hash = sq_hash_combine(w->cur_hash, s->hash);
	w->cur_raw += s->in_len;
	w->stats->blocks++;
	w->stats->data_bytes_out += s->result_len;
	if (s->size_word == 0) {
		w->stats->sparse_blocks++;
		f->sparse_bytes += s->in_len;
	}
	if (w->cfg->progress != NULL)
		progress_advance(w->cfg->progress, 1);
	return 0;
}

static int write_fragment(struct data_writer *w, struct slot *s)
{
	if (s->arg[0] != w->frag_count)
		return sq_fail(w->err, SQ_ERR_IO, "internal error: fragment blocks out of order");
	if (w->frag_count == w->frag_cap) {
		uint32_t cap = w->frag_cap ? w->frag_cap * 2 : 64;
		struct fragment_entry *grown = sq_realloc_array(w->frags, cap, sizeof(*grown));
		if (grown == NULL)
			return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
		w->frags = grown;
		w->frag_cap = cap;
	}
	w->frags[w->frag_count].start = w->out->pos;
	w->frags[w->frag_count].size_word = s->size_word;
	w->frag_count++;
	if (image_out_write(w->out, s->result, s->result_len, w->err) != 0)
		return -1;
	w->stats->fragment_bytes_out += s->result_len;
	w->stats->fragment_bytes_in += s->arg[1];
	return 0;
}

/* The stored blocks of two files with equal block size lists: are the bytes equal? */
static int same_stored(struct data_writer *w, const struct file_data *a, const struct file_data *b)
{
	if (a->block_count != b->block_count ||
	    memcmp(a->block_sizes, b->block_sizes, (size_t)a->block_count * sizeof(uint32_t)) != 0)
		return 0;
	uint64_t len = stored_bytes(a);
	for (uint64_t off = 0; off < len; off += COMPARE_CHUNK) {
		size_t n = len - off < COMPARE_CHUNK ? (size_t)(len - off) : COMPARE_CHUNK;
		if (image_out_pread(w->out, w->cmp_a, n, a->blocks_start + off, w->err) != 0 ||
		    image_out_pread(w->out, w->cmp_b, n, b->blocks_start + off, w->err) != 0)
			return -1;
		if (memcmp(w->cmp_a, w->cmp_b, n) != 0)
			return 0;
	}
	return 1;
}

/* Point n's block list at old's (the same stored run); the fragment stays n's own. */
static int share_blocks(struct data_writer *w, struct tree_inode *n, const struct tree_inode *old)
{
	struct file_data *f = n->file;
	const struct file_data *o = old->file;
	free(f->block_sizes);
	f->block_sizes = NULL;
	if (o->block_count > 0) {
		f->block_sizes = sq_alloc_array(o->block_count, sizeof(uint32_t));
		if (f->block_sizes == NULL)
			return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
		memcpy(f->block_sizes, o->block_sizes, (size_t)o->block_count * sizeof(uint32_t));
	}
	f->block_count = o->block_count;
	f->blocks_start = o->blocks_start;
	f->sparse_bytes = o->sparse_bytes;
	return 0;
}

/* The blocks of the current file, just written, are not needed: take them back. */
static int take_back_blocks(struct data_writer *w, struct file_data *f)
{
	if (f->block_count == 0)
		return 0;
	uint64_t written = stored_bytes(f);
	if (image_out_truncate(w->out, f->blocks_start, w->err) != 0)
		return -1;
	w->stats->data_bytes_out -= written;
	return 0;
}

/* Blocks identical to an earlier file's run are stored once, whether or not the tails differ
 * (squashfs-tools does the same): the key is the run's raw length and folded block hashes. */
static int dedup_blocks(struct data_writer *w, struct tree_inode *n, struct tree_inode **shared)
{
	struct file_data *f = n->file;
	size_t cursor = 0;
	struct tree_inode *old;
	*shared = NULL;
	while ((old = dedup_next(&w->table, w->cur_raw, w->cur_hash, &cursor)) != NULL) {
		int same = same_stored(w, f, old->file);
		if (same == 0 && (old->flags & TREE_STORED))
			same = stored_same_blocks(w->cfg->stored, f, old->file, w->err);
		if (same < 0)
			return -1;
		if (same) {
			*shared = old;
			if (take_back_blocks(w, f) != 0 || share_blocks(w, n, old) != 0)
				return -1;
			return 0;
		}
	}
	if (dedup_insert(&w->table, w->cur_raw, w->cur_hash, n) != 0)
		return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
	return 0;
}

static int file_end(struct data_writer *w, struct slot *s)
{
	struct tree_inode *n = s->tag;
	struct file_data *f = n->file;
	uint32_t blocks = (uint32_t)s->arg[0];
	bool dup = false;
	/* Files end in list order, so the count so far is this file's index. */
	size_t index = w->stats->files;
	w->stats->files++;
	w->stats->bytes_in += f->size;
	if (blocks == 0) {
		f->block_count = 0;
		f->blocks_start = 0;
	} else if (w->cur != n || f->block_count != blocks) {
		return sq_fail(w->err, SQ_ERR_IO, "internal error: %s ended early", CONTENT_NAME(n));
	}
	w->cur = NULL;
	f->fragment_index = (uint32_t)s->arg[1];
	f->fragment_offset = (uint32_t)s->arg[2];
	if (w->cfg->progress != NULL && blocks == 0)
		progress_advance(w->cfg->progress, 1);

	/* squashfs-tools counts every empty file as a duplicate; so do we, so the summaries
	 * agree. */
	if (f->size == 0 && w->cfg->image->duplicates)
		w->stats->duplicate_files++;
	if (s->arg[3] == END_DUPLICATE) {
		/* The reader confirmed it only after the blocks went out. */
		const struct tree_inode *old = s->peer;
		if (take_back_blocks(w, f) != 0 || share_blocks(w, n, old) != 0)
			return -1;
		f->fragment_index = old->file->fragment_index;
		f->fragment_offset = old->file->fragment_offset;
		dup = true;
	} else if (blocks > 0 && w->cfg->image->duplicates) {
		struct tree_inode *shared;
		if (dedup_blocks(w, n, &shared) != 0)
			return -1;
		/* A whole duplicate only when nothing else differs: no tail elsewhere. */
		dup = shared != NULL && f->fragment_index == SQFS_NO_FRAGMENT &&
		      shared->file->fragment_index == SQFS_NO_FRAGMENT &&
		      shared->file->size == f->size;
	}
	if (dup) {
		w->stats->duplicate_files++;
		n->flags |= TREE_DUPLICATE;
	}
	if (w->cfg->info != NULL)
		fprintf(w->cfg->info, "file %s, uncompressed size %llu bytes%s\n",
			w->files->image_paths != NULL ? w->files->image_paths[index] : CONTENT_NAME(n),
			(unsigned long long)f->size, dup ? " DUPLICATE" : "");
	return 0;
}

static int run_writer(struct data_writer *w, struct pipeline *pipe)
{
	for (;;) {
		struct slot *s = pipeline_next(pipe);
		if (s == NULL)
			return -1;
		int rc = 0;
		switch (s->kind) {
		case SLOT_BLOCK: rc = write_block(w, s); break;
		case SLOT_FRAGMENT: rc = write_fragment(w, s); break;
		case SLOT_FILE_END: rc = file_end(w, s); break;
		case SLOT_END:
			pipeline_release(pipe, s);
			return 0;
		}
		pipeline_release(pipe, s);
		if (rc != 0)
			return -1;
	}
}

unsigned data_threads(unsigned processors)
{
	return (processors < 1 ? 1 : processors) + 1;
}

/* Does a file of this size have a tail that goes into a fragment (as data_reader lays it out)? */
static bool tail_to_fragment(const struct image_settings *img, uint64_t size)
{
	uint64_t full = size / img->block_size;
	bool tail = size % img->block_size != 0;
	return !img->no_fragments && tail && (full == 0 || img->always_fragments);
}

uint64_t data_progress_units(const struct image_settings *img, const struct file_list *files)
{
	uint64_t units = 0;
	for (size_t i = 0; i < files->count; i++) {
		uint64_t size = files->files[i]->file->size;
		uint64_t full = size / img->block_size;
		bool tail = size % img->block_size != 0;
		uint64_t blocks = full + (tail && !tail_to_fragment(img, size));
		units += blocks ? blocks : 1;
	}
	return units;
}

/* Entries per table within table_mem: half for the packed tails (16 bytes each in the array,
 * 16-32 in their table), a quarter each for the reader's and the writer's tables of whole files
 * (16-32 bytes an entry, three times that while one grows). */
static void bound_tables(uint64_t table_mem, struct data_reader *r, struct dedup_table *writer)
{
	if (table_mem == 0)
		return;
	size_t tails = (size_t)(table_mem / 2 / 48), whole = (size_t)(table_mem / 4 / 48);
	r->tail_limit = tails ? tails : 1;
	r->tail_table->limit = r->tail_limit;
	r->table->limit = whole ? whole : 1;
	writer->limit = whole ? whole : 1;
}

/* The tail tables sized for every tail the files can pack, up front: growing them as tails come
 * would, at the end, hold the old and the new table at once (the peak with many small files). */
static int reserve_tails(struct data_reader *r, const struct file_list *files)
{
	const struct image_settings *img = r->cfg->image;
	if (!img->duplicates)
		return 0;
	size_t tails = 0;
	for (size_t i = 0; i < files->count; i++)
		tails += tail_to_fragment(img, files->files[i]->file->size);
	if (r->tail_limit != 0 && tails > r->tail_limit)
		tails = r->tail_limit;
	if (tails == 0)
		return 0;
	r->tails = sq_alloc_array(tails, sizeof(*r->tails));
	if (r->tails == NULL || dedup_reserve(r->tail_table, tails) != 0)
		return -1;
	r->tail_cap = tails;
	return 0;
}

int data_write(const struct data_config *cfg, struct image_out *out,
	       const struct file_list *files, struct fragment_entry **fragments,
	       uint32_t *fragment_count, struct data_stats *stats, struct sq_error *err)
{
	uint32_t bs = cfg->image->block_size;
	struct data_writer w = { .cfg = cfg, .out = out, .stats = stats, .files = files, .err = err };
	struct data_reader r = { .cfg = cfg, .files = files, .dir = CONTENT_DIR_INIT };
	struct dedup_table reader_table = { 0 }, tail_table = { 0 };
	struct pipeline *pipe = NULL;
	uint8_t *zeros = NULL;
	bool reader_started = false;
	pthread_t reader;
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	*fragments = NULL;
	*fragment_count = 0;
	sq_error_clear(&r.err);
	r.table = &reader_table;
	r.tail_table = &tail_table;
	bound_tables(cfg->table_mem, &r, &w.table);
	r.frag = malloc(bs);
	r.tail = malloc(bs);
	r.cmp_a = malloc(bs);
	r.cmp_b = malloc(bs);
	zeros = calloc(1, bs);
	r.zeros = zeros;
	w.cmp_a = malloc(COMPARE_CHUNK);
	w.cmp_b = malloc(COMPARE_CHUNK);
	if (r.frag == NULL || r.tail == NULL || r.cmp_a == NULL || r.cmp_b == NULL || zeros == NULL ||
	    w.cmp_a == NULL || w.cmp_b == NULL || reserve_tails(&r, files) != 0) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (cfg->stored != NULL && stored_begin(cfg->stored, files, &w.table, &r, &w.frags,
						&w.frag_count, &w.frag_cap, err) != 0)
		goto out;
	unsigned threads = data_threads(cfg->workers);
	/* Two buffers per thread keep every thread busy while the writer drains the oldest. */
	unsigned buffers = cfg->slots < threads * 2 + 3 ? threads * 2 + 3 : cfg->slots;
	pipe = pipeline_create(threads, buffers, bs, cfg->image->codec,
			       &cfg->image->codec_opts, err);
	if (pipe == NULL)
		goto out;
	r.pipe = pipe;
	if (pthread_create(&reader, NULL, data_reader_main, &r) != 0) {
		sq_fail(err, SQ_ERR_NOMEM, "cannot start the reader thread");
		goto out;
	}
	reader_started = true;
	rc = run_writer(&w, pipe);
	if (rc != 0)
		pipeline_abort(pipe);
	pthread_join(reader, NULL);
	reader_started = false;
	stats->unreadable_files = r.unreadable;
	stats->changed_files = r.changed;
	if (rc != 0 || r.rc != 0) {
		/* The root cause: our own failure (the image), else the reader's (a file), else a
		 * worker's (the codec). */
		if (err->code == SQ_OK && r.err.code != SQ_OK)
			sq_fail(err, r.err.code, "%s", r.err.msg);
		else if (err->code == SQ_OK && pipeline_error(pipe) != NULL)
			sq_fail(err, SQ_ERR_CODEC, "%s", pipeline_error(pipe));
		else if (err->code == SQ_OK)
			sq_fail(err, SQ_ERR_IO, "the data stage stopped");
		rc = -1;
		goto out;
	}
	*fragments = w.frags;
	*fragment_count = w.frag_count;
	w.frags = NULL;
	rc = 0;
out:
	if (reader_started) {
		pipeline_abort(pipe);
		pthread_join(reader, NULL);
	}
	pipeline_destroy(pipe);
	free(w.frags);
	dedup_free(&w.table);
	dedup_free(&reader_table);
	dedup_free(&tail_table);
	free(r.tails);
	content_dir_close(&r.dir);
	free(r.frag);
	free(r.tail);
	free(r.cmp_a);
	free(r.cmp_b);
	free(zeros);
	free(w.cmp_a);
	free(w.cmp_b);
	return rc;
}
