/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pool.h — worker threads that decode file blocks, and a writer that pwrites them into created files. */
#ifndef SQ_UNSQUASHFS_POOL_H
#define SQ_UNSQUASHFS_POOL_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/fs_read.h"

/* One output file in flight. The main thread creates it (refs = 1), submits its blocks (each
 * holds a ref from its submission on, also while it waits in the submitter's batch) and drops
 * its own ref; whoever drops the last ref calls the pool's finish callback, which restores
 * metadata and closes fd. */
struct unsq_out_file {
	int fd;
	const char *name;     /* for messages */
	atomic_uint refs;     /* atomic: the submitter takes refs before the workers see the job */
	int failed;           /* a block failed: finish is told, metadata is skipped */
	void *user;           /* owned by the finish callback */
};

/* finish runs on whichever thread drops the last reference (the writer, mostly), without the
 * pool lock held; it must be thread-safe. Returns 0 or -1 with err. */
typedef int (*unsq_finish_fn)(void *ctx, struct unsq_out_file *f, struct sq_error *err);

struct unsq_pool;

/* Start nthreads decoding workers (each with its own decoder) and one writer over fs: the
 * workers decode, the writer pwrites and finishes files, so decoding never waits for the
 * kernel's copies, owners and times (the reference's inflator and writer threads). With
 * io_nonfatal a failure to write an output file is printed and the file abandoned instead of
 * stopping all. NULL with err. */
struct unsq_pool *unsq_pool_new(struct sqfs_fs *fs, unsigned nthreads, int io_nonfatal, unsq_finish_fn finish,
				void *ctx, struct sq_error *err);

/* Queue one data block (word == 0: a hole) of len bytes at file offset off. Jobs gather in a
 * batch of the submitter's and reach the workers a batch at a time (unsq_pool_flush, or a full
 * batch): one lock and one wake-up for many small files. Blocks while the queue is full. -1
 * once any worker has failed (err gets the first failure). */
int unsq_pool_block(struct unsq_pool *p, struct unsq_out_file *f, uint64_t pos, uint32_t word, uint64_t off,
		    uint32_t len, struct sq_error *err);

/* Queue a file's tail: len bytes at frag_offset in the fragment block (frag_start, frag_word). */
int unsq_pool_tail(struct unsq_pool *p, struct unsq_out_file *f, uint64_t frag_start, uint32_t frag_word,
		   uint32_t frag_offset, uint64_t off, uint32_t len, struct sq_error *err);

/* Decode the fragment block (frag_start, frag_word) into the shared cache ahead of the tails
 * that will need it: while one worker decodes a fragment block, the others would otherwise
 * wait for it, since consecutive small files share one. */
int unsq_pool_prefetch(struct unsq_pool *p, uint64_t frag_start, uint32_t frag_word, struct sq_error *err);

/* Hand the submitter's batch to the workers. Call it before waiting for anything the workers
 * do (an output file to close, say): jobs still in the batch would never run. */
int unsq_pool_flush(struct unsq_pool *p, struct sq_error *err);

/* Drop the submitter's reference to f (finishing it here if the workers are done). */
int unsq_pool_release(struct unsq_pool *p, struct unsq_out_file *f, struct sq_error *err);

/* Wait for every queued block and finish, stop the workers, free the pool. 0, 2 after
 * non-fatal write failures, or -1 with the first failure in err. Accepts NULL. */
int unsq_pool_free(struct unsq_pool *p, struct sq_error *err);

#endif
