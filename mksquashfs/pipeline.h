/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pipeline.h — the data stage's engine: one producer filling slots in order, N worker threads
 * compressing them in any order, one consumer taking them back in the producer's order.
 *
 * Slots live in a fixed ring allocated once, and block buffers in a second, smaller ring handed
 * out in the same order (markers that carry no bytes take a slot but no buffer, so a run of small
 * files does not hold 256 KiB per file in flight). Memory is bounded by the rings whatever the
 * tree size and nothing is allocated per block. Because slots are consumed strictly in the order
 * they were filled, and each block's compression depends only on its own bytes, the output does
 * not depend on the number of workers. */
#ifndef SQ_MKSQUASHFS_PIPELINE_H
#define SQ_MKSQUASHFS_PIPELINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/util/error.h"

enum slot_kind {
	SLOT_BLOCK,      /* a data block of a file */
	SLOT_FRAGMENT,   /* a full (or final) fragment block */
	SLOT_FILE_END,   /* no data: a file is complete (see struct data_file_end) */
	SLOT_END,        /* the producer is done */
};

/* What a worker does with a slot's input. */
enum slot_work {
	WORK_NONE,       /* pass through */
	WORK_COMPRESS,   /* compress, store raw when not smaller */
	WORK_RAW,        /* store raw (-noD / -noF), but still check for a sparse block */
};

struct slot {
	enum slot_kind kind;
	enum slot_work work;
	bool sparse_ok;       /* an all-zero block may become sparse */
	bool want_hash;       /* compute hash of the input bytes */
	bool known_sparse;    /* the producer knows the block is all zero (a hole): in is not
	                         filled, hash is set by the producer, the result is sparse */
	uint8_t *in;          /* block_size bytes (NULL in a marker: pipeline_acquire_marker) */
	size_t in_len;
	uint8_t *out;         /* block_size bytes */
	/* Filled by the worker. */
	const uint8_t *result;  /* in or out */
	size_t result_len;
	uint32_t size_word;     /* SQFS_DATA_UNCOMPRESSED | len, or 0 for a sparse block */
	uint64_t hash;          /* content hash of in[0..in_len) when want_hash */
	/* The producer's description of the slot, opaque to the pipeline. */
	void *tag;
	void *peer;
	uint64_t arg[4];
	int state;              /* private */
	bool buffered;          /* private: in/out come from the buffer ring */
};

struct pipeline;

/* Create the rings (buffer_count buffers of block_size in + out, and enough slots for markers
 * between them) and start `workers` threads, each with its own codec state. NULL with err set on
 * failure (nothing left running). */
struct pipeline *pipeline_create(unsigned workers, unsigned buffer_count, uint32_t block_size,
				 const struct codec *codec, const struct codec_opts *opts,
				 struct sq_error *err);

/* Producer: the next free slot in ring order (waits while the ring is full); NULL once the
 * pipeline was aborted. Fill it, then submit it; slots must be submitted in acquire order. */
struct slot *pipeline_acquire(struct pipeline *p);
/* The same for a slot that carries no bytes (a file's end, the end): in and out are NULL. */
struct slot *pipeline_acquire_marker(struct pipeline *p);
void pipeline_submit(struct pipeline *p, struct slot *s);

/* Consumer: the oldest submitted slot once its work is done (waits); NULL once aborted. Give it
 * back with pipeline_release when its bytes are no longer needed. */
struct slot *pipeline_next(struct pipeline *p);
void pipeline_release(struct pipeline *p, struct slot *s);

/* Make every waiting and future call return NULL (an error on either side). A worker's codec
 * failure aborts too, with its message kept for pipeline_error. */
void pipeline_abort(struct pipeline *p);
/* The first error a worker hit (codec failure), or NULL. */
const char *pipeline_error(struct pipeline *p);

/* Stop the workers and free everything. */
void pipeline_destroy(struct pipeline *p);

#endif
