/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* files.c — regular files of an extraction: created here, written by the pool's workers,
 * finished (size, metadata, close) by whichever thread writes last. */
#include "config.h"
#include "unsquashfs/extract_ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a pool finisher needs to close a file: its inode (block list dropped) and xattrs. */
struct pending {
	struct ex *x;
	struct sqfs_inode ino;
	uint64_t data_end; /* end of the last stored block: below the size, ftruncate makes the hole */
	struct sqfs_xattr_list xattrs;
	char shown[];
};

/* Files are created with their permission bits, less group/other write and the special
 * bits: while it is written the file is still root's and incomplete, and must not be opened
 * for writing by anyone else. Most modes need no chmod afterwards. */
static mode_t file_create_mode(const struct ex *x, const struct sqfs_inode *ino)
{
	return ex_final_mode(x, ino) & 0755;
}

/* Output files in flight are counted without the lock (only the main thread opens files);
 * the lock and the condition are used only around the -max-files limit. */
static void file_closed(struct ex *x)
{
	long before = atomic_fetch_sub(&x->open_files, 1);
	if (before >= x->max_files) {
		pthread_mutex_lock(&x->lock);
		pthread_cond_signal(&x->file_closed);
		pthread_mutex_unlock(&x->lock);
	}
}

/* -max-files: wait until fewer than max output files are open. The files that close are
 * those whose jobs the workers have, so the batch goes to them first. */
static void file_opening(struct ex *x)
{
	if (atomic_load(&x->open_files) >= x->max_files) {
		struct sq_error e;
		sq_error_clear(&e);
		unsq_pool_flush(x->pool, &e); /* a failure stops the extraction at the next flush */
		pthread_mutex_lock(&x->lock);
		while (atomic_load(&x->open_files) >= x->max_files)
			pthread_cond_wait(&x->file_closed, &x->lock);
		pthread_mutex_unlock(&x->lock);
	}
	atomic_fetch_add(&x->open_files, 1);
}

/* Pool finisher: size, then metadata, then close; runs on whichever thread wrote last. */
int ex_finish_file(void *ctx, struct unsq_out_file *f, struct sq_error *err)
{
	(void)ctx;
	struct pending *pd = f->user;
	struct ex *x = pd->x;
	int rc = 0;
	if (!f->failed) {
		if (pd->data_end < pd->ino.u.file.size && ftruncate(f->fd, (off_t)pd->ino.u.file.size) != 0)
			rc = ex_write_error(x, err, errno, "cannot set the size of %s", pd->shown);
		if (rc == 0)
			rc = ex_apply_meta(x, f->fd, -1, NULL, pd->shown, &pd->ino, file_create_mode(x, &pd->ino),
					   &pd->xattrs, err);
	}
	if (close(f->fd) != 0 && rc == 0 && !f->failed)
		rc = ex_write_error(x, err, errno, "cannot close %s", pd->shown);
	file_closed(x);
	sqfs_xattr_list_free(&pd->xattrs);
	free(pd);
	free(f);
	return rc;
}

/* Images list their files' tails in fragment order, so the walk meets fragment blocks one
 * after the other. Decoding a block takes about as long as writing the few dozen tails in it,
 * so blocks are decoded FRAG_AHEAD ahead of the walk: enough that no worker waits, few enough
 * to stay in the pool's fragment cache. Any other order gets no guesses. */
#define FRAG_AHEAD 3u

static void prefetch_fragment(struct ex *x, uint32_t frag)
{
	uint64_t start;
	uint32_t word;
	struct sq_error e;
	sq_error_clear(&e);
	if (frag < x->fs->tables.frag.count && sqfs_tables_fragment(&x->fs->tables, frag, &start, &word, &e) == 0)
		unsq_pool_prefetch(x->pool, start, word, &e);
	sq_error_clear(&e); /* a guess: the tail that needs the block reports its problems */
}

static void prefetch_next_fragment(struct ex *x, uint32_t frag)
{
	if (frag == x->last_frag)
		return;
	uint32_t last = x->last_frag;
	x->last_frag = frag;
	if (last == SQFS_NO_FRAGMENT) {
		for (uint32_t k = 1; k <= FRAG_AHEAD; k++)
			prefetch_fragment(x, frag + k);
	} else if (frag == last + 1) {
		prefetch_fragment(x, frag + FRAG_AHEAD);
	}
}

static int queue_blocks(struct ex *x, struct unsq_out_file *f, struct pending *pd, const struct sqfs_inode *ino,
			uint64_t fstart, uint32_t fword, struct sq_error *err)
{
	const uint32_t bs = x->fs->img.sb.block_size;
	const uint64_t size = ino->u.file.size;
	uint64_t pos = ino->u.file.blocks_start, off = 0;
	int rc = 0;
	struct sqfs_blocklist bl;
	sqfs_blocklist_start(&bl, x->fs->inodes, ino);
	for (uint32_t i = 0; i < ino->u.file.nblocks && rc == 0; i++) {
		uint32_t word;
		if (sqfs_blocklist_next(&bl, &word, err))
			return -1;
		uint32_t want = size - off < bs ? (uint32_t)(size - off) : bs;
		rc = unsq_pool_block(x->pool, f, pos, word, off, want, err);
		if (word != 0)
			pd->data_end = off + want;
		pos += word & SQFS_DATA_SIZE_MASK;
		off += want;
		unsq_meter_advance(&x->meter, 1);
	}
	if (rc == 0 && off < size) {
		if (ino->u.file.frag == SQFS_NO_FRAGMENT)
			return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: file data ends early", ino->number);
		rc = unsq_pool_tail(x->pool, f, fstart, fword, ino->u.file.frag_offset, off, (uint32_t)(size - off),
				    err);
		pd->data_end = size;
		if (rc == 0)
			prefetch_next_fragment(x, ino->u.file.frag);
		unsq_meter_advance(&x->meter, 1);
	}
	return rc;
}

/* Hand a created file's blocks to the pool: the main thread only reads metadata. */
static int write_file_pooled(struct ex *x, int fd, const char *shown, const struct sqfs_inode *ino,
			     uint64_t fstart, uint32_t fword, struct sq_error *err)
{
	size_t slen = strlen(shown) + 1;
	struct pending *pd = calloc(1, sizeof(*pd) + slen);
	struct unsq_out_file *f = calloc(1, sizeof(*f));
	if (pd == NULL || f == NULL) {
		free(pd);
		free(f);
		close(fd);
		file_closed(x);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	pd->x = x;
	pd->ino = *ino;
	memcpy(pd->shown, shown, slen);
	f->fd = fd;
	f->name = pd->shown;
	atomic_init(&f->refs, 1);
	f->user = pd;
	if (x->o->xattrs && ino->xattr != SQFS_NO_XATTR && sqfs_fs_xattrs(x->fs, ino, &pd->xattrs, err)) {
		f->failed = 1;
		unsq_pool_release(x->pool, f, err);
		return -1;
	}
	int rc = queue_blocks(x, f, pd, ino, fstart, fword, err);
	if (rc != 0)
		f->failed = 1;
	if (unsq_pool_release(x->pool, f, err))
		rc = -1;
	if (rc == 0)
		x->counts->files++;
	return rc;
}

int ex_write_file(struct ex *x, int dirfd, const char *name, const char *shown, const struct sqfs_inode *ino,
		  struct sq_error *err)
{
	uint64_t fstart;
	uint32_t fword;
	if (sqfs_fs_fragment(x->fs, ino, &fstart, &fword, err))
		return -1;
	file_opening(x);
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, file_create_mode(x, ino));
	if (fd < 0) {
		int e = errno;
		file_closed(x);
		if (e == EEXIST)
			return ex_write_error(x, err, e, "cannot create %s (use -f to overwrite)", shown);
		return ex_write_error(x, err, e, "cannot create file %s", shown);
	}
	return write_file_pooled(x, fd, shown, ino, fstart, fword, err);
}
