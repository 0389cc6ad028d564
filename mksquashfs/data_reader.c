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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/io.h"
#include "common/util/sizes.h"
#include "mksquashfs/append/stored.h"
#include "mksquashfs/content.h"
#include "mksquashfs/dedup.h"
#include "mksquashfs/hash.h"

static uint64_t sq_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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
	if (n->flags & TREE_STORED)
		return stored_open(r->cfg->stored, n, c, &r->err);
	if (content_open_cached(n, c, &r->dir, &r->err) != 0)
		return -1;
	/* Read-ahead hints pay only on files spanning many reads; small files are one read. */
	if (c->owned && n->file->size > 4u * r->cfg->image->block_size)
		posix_fadvise(c->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}

/* -throttle: after a read that took `since` ns, idle so reading takes only (100 - throttle)%
 * of the time. */
static void throttle(const struct data_reader *r, uint64_t since)
{
	if (r->cfg->throttle == 0)
		return;
	uint64_t took = sq_now_ns() - since;
	uint64_t idle = took * r->cfg->throttle / (100 - r->cfg->throttle);
	struct timespec ts = { .tv_sec = (time_t)(idle / 1000000000u),
			       .tv_nsec = (long)(idle % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Up to len bytes at offset: the count read (less at end of file), or -1 with err set. */
static ssize_t read_some(struct data_reader *r, const struct content *c, const struct tree_inode *n,
			 uint8_t *buf, size_t len, uint64_t offset)
{
	uint64_t start = r->cfg->throttle ? sq_now_ns() : 0;
	ssize_t got = content_pread(c, buf, len, offset);
	if (got < 0)
		return sq_fail_errno(&r->err, "cannot read %s", CONTENT_NAME(n));
	throttle(r, start);
	return got;
}

/* len bytes and one more if the file has it (it grew): one pread when the file is as expected,
 * so looking past the end costs no extra call; more calls only after a short first read. A span
 * of a shared file (tar, command output) is followed by other files' bytes: it is not probed. */
static ssize_t read_probe(struct data_reader *r, const struct content *c,
			  const struct tree_inode *n, uint8_t *buf, size_t len, uint64_t offset)
{
	if (!c->owned)
		return read_some(r, c, n, buf, len, offset);
	uint64_t start = r->cfg->throttle ? sq_now_ns() : 0;
	ssize_t got;
	do
		got = pread(c->fd, buf, len + 1, (off_t)(c->base + offset));
	while (got < 0 && errno == EINTR);
	if (got >= 0 && (size_t)got < len) {
		ssize_t more = content_pread(c, buf + got, len - (size_t)got, offset + (uint64_t)got);
		got = more < 0 ? more : got + more;
	}
	if (got < 0)
		return sq_fail_errno(&r->err, "cannot read %s", CONTENT_NAME(n));
	throttle(r, start);
	return got;
}

/* Exactly len bytes: 0, 1 when the file ended first (it changed since it was read before), -1
 * on an error (err set). */
static int read_exact(struct data_reader *r, const struct content *c, const struct tree_inode *n,
		      uint8_t *buf, size_t len, uint64_t offset)
{
	ssize_t got = read_some(r, c, n, buf, len, offset);
	if (got < 0)
		return -1;
	return (size_t)got < len ? 1 : 0;
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
	/* A source that changed or vanished since it was stored is not the same file. */
	int rc = 0, got;
	if (open_source(r, old, &a) != 0)
		goto out;
	if (body > 0 && open_source(r, cur, &b) != 0)
		goto out;
	for (uint64_t off = 0; off < body; off += bs) {
		size_t len = body - off < bs ? (size_t)(body - off) : bs;
		if ((got = read_exact(r, &a, old, r->cmp_a, len, off)) != 0 ||
		    (got = read_exact(r, &b, cur, r->cmp_b, len, off)) != 0) {
			rc = got < 0 ? -1 : 0;
			goto out;
		}
		if (memcmp(r->cmp_a, r->cmp_b, len) != 0)
			goto out;
	}
	if ((got = read_exact(r, &a, old, r->cmp_a, tail_len, body)) != 0) {
		rc = got < 0 ? -1 : 0;
		goto out;
	}
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
		return 0;
	int rc = read_exact(r, &c, old, r->cmp_a, tail_len, old->file->size - tail_len);
	content_close(&c);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	return memcmp(r->cmp_a, r->tail, tail_len) == 0;
}

int data_reader_remember_tail(struct data_reader *r, struct tree_inode *n, uint32_t tail_len,
			      uint64_t hash, uint32_t frag_index, uint32_t offset)
{
	/* Past its share of -mem a tail is not remembered: a later equal tail is packed again. */
	if (r->tail_limit != 0 && r->tail_count >= r->tail_limit)
		return 0;
	if (r->tail_count == r->tail_cap) {
		size_t cap = r->tail_cap ? r->tail_cap * 2 : 256;
		struct packed_tail *grown = sq_realloc_array(r->tails, cap, sizeof(*grown));
		if (grown == NULL)
			return sq_fail(&r->err, SQ_ERR_NOMEM, "out of memory");
		r->tails = grown;
		r->tail_cap = cap;
	}
	r->tails[r->tail_count].inode = n;
	r->tails[r->tail_count].frag_index = frag_index;
	r->tails[r->tail_count].frag_offset = offset;
	r->tail_count++;
	/* Items are indexes + 1: the array moves when it grows. */
	if (dedup_insert(r->tail_table, tail_len, hash, (void *)(uintptr_t)r->tail_count) != 0)
		return sq_fail(&r->err, SQ_ERR_NOMEM, "out of memory");
	return 0;
}

static void fill_end(struct slot *s, struct tree_inode *n, uint32_t blocks, uint32_t frag_index,
		     uint32_t frag_offset, int kind, struct tree_inode *peer)
{
	s->kind = SLOT_FILE_END;
	s->tag = n;
	s->peer = peer;
	s->arg[0] = blocks;
	s->arg[1] = frag_index;
	s->arg[2] = frag_offset;
	s->arg[3] = (uint64_t)kind;
}

static int submit_end(struct data_reader *r, struct tree_inode *n, uint32_t blocks,
		      uint32_t frag_index, uint32_t frag_offset, int kind, struct tree_inode *peer)
{
	struct slot *s = pipeline_acquire_marker(r->pipe);
	if (s == NULL)
		return -1;
	fill_end(s, n, blocks, frag_index, frag_offset, kind, peer);
	pipeline_submit(r->pipe, s);
	return 0;
}

/* A source file that cannot be opened, or gives fewer bytes than its size (r->err says why):
 * squashfs-tools stores it empty and goes on; -exit-on-error makes it fatal. (A read error such
 * as EIO is always fatal: the disk, not the permissions, is failing.) */
static int unreadable(struct data_reader *r, struct tree_inode *n)
{
	if (r->cfg->exit_on_error)
		return -1;
	if (r->cfg->warn != NULL)
		fprintf(r->cfg->warn, "Failed to read file %s, creating empty file\n", CONTENT_NAME(n));
	sq_error_clear(&r->err);
	r->unreadable++;
	n->file->size = 0;
	return submit_end(r, n, 0, SQFS_NO_FRAGMENT, 0, END_NEW, NULL);
}

/* The file changed size after blocks of it went out: what was read is stored, and the inode's
 * size says so (a partial last block is stored as a block of its own). */
static void changed_while_read(struct data_reader *r, struct tree_inode *n, uint64_t kept)
{
	if (r->cfg->warn != NULL)
		fprintf(r->cfg->warn, "File %s changed size while reading filesystem, storing the "
				      "%llu bytes read\n", CONTENT_NAME(n), (unsigned long long)kept);
	r->changed++;
	n->file->size = kept;
}

/* What read_file decided about one file's layout. */
struct file_layout {
	uint64_t full;          /* whole blocks */
	uint32_t tail;          /* bytes after them */
	bool to_fragment;       /* the tail goes into a fragment block */
	uint64_t blocks;        /* stored blocks: full, plus the tail when not fragmented */
};

/* Submit the file's blocks to the workers; *hash accumulates the whole-file hash when the tail
 * goes to a fragment (only such files are confirmed as duplicates here). Returns 0, 1 when the
 * file turned out shorter (what was read is submitted and the file ended), or -1. */
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
		bool cut = false;
		if (hole) {
			if (r->zero_hash == 0)
				r->zero_hash = sq_hash64(r->zeros, bs, 0);
			s->known_sparse = true;
			s->hash = r->zero_hash;
		} else {
			/* A byte more on a partial last block tells a file that grew. */
			ssize_t got = b + 1 == l->blocks && len < bs
					      ? read_probe(r, src, n, s->in, len, off)
					      : read_some(r, src, n, s->in, len, off);
			if (got < 0) {
				pipeline_abort(r->pipe);
				return -1;
			}
			if ((size_t)got > len) {
				changed_while_read(r, n, n->file->size);
				got = (ssize_t)len;
			}
			if ((size_t)got < len) {
				changed_while_read(r, n, off + (uint64_t)got);
				if (got == 0) {
					fill_end(s, n, (uint32_t)b, SQFS_NO_FRAGMENT, 0, END_BLOCKS, NULL);
					pipeline_submit(r->pipe, s);
					return 1;
				}
				len = (size_t)got;
				cut = true; /* this partial block is the file's last */
			}
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
		if (cut)
			return submit_end(r, n, (uint32_t)b + 1, SQFS_NO_FRAGMENT, 0, END_BLOCKS, NULL) == 0
				       ? 1 : -1;
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
			if (old->file->size != size)
				continue; /* a key collision (dedup.h) */
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
			/* Every packed tail is its file's size modulo the block size. */
			if (pt->inode->file->size % img->block_size != tail)
				continue; /* a key collision (dedup.h) */
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
	if (img->duplicates && data_reader_remember_tail(r, n, tail, tail_hash, r->frag_index, offset) != 0)
		return -1;
	return submit_end(r, n, blocks, r->frag_index, offset, END_NEW, NULL);
}

static int plan_layout(struct data_reader *r, const struct tree_inode *n, struct file_layout *l)
{
	const struct image_settings *img = r->cfg->image;
	uint32_t bs = img->block_size;
	uint64_t size = n->file->size;
	*l = (struct file_layout){ .full = size / bs, .tail = (uint32_t)(size % bs) };
	l->to_fragment = !img->no_fragments && l->tail > 0 && (l->full == 0 || img->always_fragments);
	l->blocks = l->full + (l->tail > 0 && !l->to_fragment);
	if (l->blocks > UINT32_MAX)
		return sq_fail(&r->err, SQ_ERR_UNSUPPORTED, "%s is too large", CONTENT_NAME(n));
	return 0;
}

/* A file that fits in a fragment is read whole before any of it is submitted, so when it has
 * changed size it is read again at its new size, as squashfs-tools does. Returns 0 (the bytes
 * in r->tail), 1 when it gives fewer bytes than its unchanged size says (a sysfs file: stored
 * empty, as squashfs-tools does; r->err says why), 2 to start again at the new size, -1 on a
 * read error. */
static int read_small(struct data_reader *r, struct tree_inode *n, const struct content *src,
		      uint32_t tail, int attempt)
{
	/* One byte more than expected tells a file that grew from one that did not. */
	ssize_t got = read_probe(r, src, n, r->tail, tail, 0);
	if (got == (ssize_t)tail)
		return 0;
	if (got < 0)
		return -1; /* an I/O error (EIO) is a failing source, not a permission: fatal */
	struct stat st;
	if (src->owned && attempt < 3 && fstat(src->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size != n->file->size) {
		if (r->cfg->warn != NULL)
			fprintf(r->cfg->warn, "File %s changed size while reading filesystem, "
					      "attempting to re-read\n", CONTENT_NAME(n));
		r->changed++;
		n->file->size = (uint64_t)st.st_size;
		return 2;
	}
	sq_fail(&r->err, SQ_ERR_IO, "%s gave %zd bytes where %u were expected", CONTENT_NAME(n), got,
		tail);
	return 1;
}

/* The tail of a file whose blocks are already out (-tailends): a file that ended early keeps
 * what was read. */
static int read_late_tail(struct data_reader *r, struct tree_inode *n, const struct content *src,
			  struct file_layout *l)
{
	uint64_t at = l->full * r->cfg->image->block_size;
	ssize_t got = read_probe(r, src, n, r->tail, l->tail, at);
	if (got < 0)
		return -1;
	if (got != (ssize_t)l->tail)
		changed_while_read(r, n, got < (ssize_t)l->tail ? at + (uint64_t)got : n->file->size);
	if (got < (ssize_t)l->tail)
		l->tail = (uint32_t)got;
	return 0;
}

static int read_file_once(struct data_reader *r, struct tree_inode *n, int attempt)
{
	struct file_layout l;
	if (plan_layout(r, n, &l) != 0)
		return -1;
	if (n->file->size == 0)
		return submit_end(r, n, 0, SQFS_NO_FRAGMENT, 0, END_NEW, NULL);
	struct content src;
	if (open_source(r, n, &src) != 0)
		return unreadable(r, n);
	uint64_t hash = 0;
	int rc;
	if (l.full == 0 && l.to_fragment) {
		rc = read_small(r, n, &src, l.tail, attempt);
		content_close(&src);
		if (rc < 0)
			return -1;
		if (rc != 0)
			return rc == 1 ? unreadable(r, n) : 2;
		return place_tail(r, n, &l, hash);
	}
	rc = submit_blocks(r, n, &src, &l, &hash);
	if (rc == 0 && l.to_fragment)
		rc = read_late_tail(r, n, &src, &l);
	content_close(&src);
	if (rc != 0)
		return rc > 0 ? 0 : -1;
	if (!l.to_fragment)
		return submit_end(r, n, (uint32_t)l.blocks, SQFS_NO_FRAGMENT, 0, END_BLOCKS, NULL);
	if (l.tail == 0)
		return submit_end(r, n, (uint32_t)l.full, SQFS_NO_FRAGMENT, 0, END_BLOCKS, NULL);
	return place_tail(r, n, &l, hash);
}

static int read_file(struct data_reader *r, struct tree_inode *n)
{
	for (int attempt = 0;; attempt++) {
		int rc = read_file_once(r, n, attempt);
		if (rc != 2)
			return rc;
	}
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
