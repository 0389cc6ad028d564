/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pipeline.c — the slot ring, worker threads and the in-order hand-over to the writer. */
#include "config.h"
#include "mksquashfs/pipeline.h"

#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/util/sizes.h"
#include "mksquashfs/hash.h"

enum slot_state {
	STATE_FREE,
	STATE_SUBMITTED,
	STATE_WORKING,
	STATE_DONE,
};

struct worker {
	struct pipeline *p;
	pthread_t thread;
	void *codec_state;
	bool started;
};

struct pipeline {
	pthread_mutex_t lock;
	pthread_cond_t slot_free;    /* producer waits for ring[head] to be free */
	pthread_cond_t work_ready;   /* workers wait for submitted slots */
	pthread_cond_t slot_done;    /* consumer waits for ring[tail] to be done */
	struct slot *ring;
	unsigned count;
	uint64_t head;      /* next slot the producer acquires */
	/* Slots that need a worker, in submission order; markers with no work skip it and go
	 * straight to the consumer, saving two thread wake-ups per small file. */
	unsigned *work;
	uint64_t work_head; /* pushed by the producer */
	uint64_t work_tail; /* taken by workers */
	uint64_t tail;      /* next slot the consumer takes */
	/* Buffers go out with slots and come back with them, both in ring order: the next one
	 * handed out is buf_head % buf_count, and buf_head - buf_tail are in use. */
	unsigned buf_count;
	size_t buf_size;    /* in + out */
	uint64_t buf_head;
	uint64_t buf_tail;
	bool aborted;
	bool stopping;
	/* Wake the producer or consumer only for the one slot each waits on: most hand-overs
	 * then cost no system call and no context switch. */
	bool producer_waits;
	bool consumer_waits;
	char error[256];
	const struct codec *codec;
	uint8_t *buffers;
	struct worker *workers;
	unsigned worker_count;
};

static bool all_zero(const uint8_t *p, size_t len)
{
	/* Word-wise scan; blocks are multiples of 8 bytes except tails. */
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		if (w != 0)
			return false;
	}
	for (; i < len; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static int do_work(struct pipeline *p, struct worker *w, struct slot *s)
{
	s->result = s->in;
	s->result_len = s->in_len;
	s->size_word = 0;
	if (s->want_hash)
		s->hash = sq_hash64(s->in, s->in_len, 0);
	if (s->work == WORK_NONE)
		return 0;
	if (s->sparse_ok && all_zero(s->in, s->in_len)) {
		s->result_len = 0;
		return 0;
	}
	if (s->work == WORK_COMPRESS) {
		ptrdiff_t n = p->codec->compress(w->codec_state, s->in, s->in_len, s->out, s->in_len);
		if (n < 0)
			return -1;
		if (n > 0 && (size_t)n < s->in_len) {
			s->result = s->out;
			s->result_len = (size_t)n;
			s->size_word = (uint32_t)n;
			return 0;
		}
	}
	s->size_word = SQFS_DATA_UNCOMPRESSED | (uint32_t)s->in_len;
	return 0;
}

/* Called with the lock held. */
static void wake_consumer(struct pipeline *p, const struct slot *s)
{
	if (p->consumer_waits && s == &p->ring[p->tail % p->count])
		pthread_cond_signal(&p->slot_done);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pipeline *p = w->p;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stopping && !p->aborted && p->work_tail == p->work_head)
			pthread_cond_wait(&p->work_ready, &p->lock);
		if (p->stopping || p->aborted)
			break;
		struct slot *s = &p->ring[p->work[p->work_tail % p->count]];
		p->work_tail++;
		s->state = STATE_WORKING;
		pthread_mutex_unlock(&p->lock);
		int rc = do_work(p, w, s);
		pthread_mutex_lock(&p->lock);
		if (rc != 0) {
			if (p->error[0] == '\0')
				snprintf(p->error, sizeof(p->error), "%s compression of a block failed",
					 p->codec->name);
			p->aborted = true;
			pthread_cond_broadcast(&p->slot_free);
			pthread_cond_broadcast(&p->slot_done);
			pthread_cond_broadcast(&p->work_ready);
			break;
		}
		s->state = STATE_DONE;
		wake_consumer(p, s);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Markers between buffered slots: a file's end per file, so small files need many more slots
 * than buffers. A slot is about a hundred bytes. */
#define SLOTS_PER_BUFFER 8u
#define MIN_SLOTS 1024u

struct pipeline *pipeline_create(unsigned workers, unsigned buffer_count, uint32_t block_size,
				 const struct codec *codec, const struct codec_opts *opts,
				 struct sq_error *err)
{
	if (workers < 1)
		workers = 1;
	if (buffer_count < 2)
		buffer_count = 2;
	struct pipeline *p = calloc(1, sizeof(*p));
	if (p == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->slot_free, NULL);
	pthread_cond_init(&p->work_ready, NULL);
	pthread_cond_init(&p->slot_done, NULL);
	p->codec = codec;
	p->buf_count = buffer_count;
	p->count = buffer_count > MIN_SLOTS / SLOTS_PER_BUFFER ? buffer_count * SLOTS_PER_BUFFER
							       : MIN_SLOTS;
	p->buf_size = (size_t)block_size * 2;
	size_t total;
	p->ring = sq_alloc_array(p->count, sizeof(*p->ring));
	p->work = sq_alloc_array(p->count, sizeof(*p->work));
	p->workers = sq_alloc_array(workers, sizeof(*p->workers));
	if (!sq_mul_size(p->buf_size, buffer_count, &total) || p->ring == NULL || p->work == NULL ||
	    p->workers == NULL ||
	    (p->buffers = malloc(total)) == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory for %u blocks of %u bytes",
			buffer_count * 2, block_size);
		pipeline_destroy(p);
		return NULL;
	}
	for (unsigned i = 0; i < p->count; i++)
		p->ring[i].state = STATE_FREE;
	for (unsigned i = 0; i < workers; i++) {
		struct worker *w = &p->workers[i];
		w->p = p;
		w->codec_state = codec->state_new(opts, block_size);
		if (w->codec_state == NULL) {
			sq_fail(err, SQ_ERR_NOMEM, "cannot set up the %s compressor", codec->name);
			pipeline_destroy(p);
			return NULL;
		}
		p->worker_count = i + 1;
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
			sq_fail(err, SQ_ERR_NOMEM, "cannot start a compression thread");
			pipeline_destroy(p);
			return NULL;
		}
		w->started = true;
	}
	return p;
}

static struct slot *acquire(struct pipeline *p, bool buffered)
{
	pthread_mutex_lock(&p->lock);
	struct slot *s = &p->ring[p->head % p->count];
	while (!p->aborted &&
	       (s->state != STATE_FREE || (buffered && p->buf_head - p->buf_tail >= p->buf_count))) {
		p->producer_waits = true;
		pthread_cond_wait(&p->slot_free, &p->lock);
	}
	p->producer_waits = false;
	if (p->aborted) {
		pthread_mutex_unlock(&p->lock);
		return NULL;
	}
	p->head++;
	s->buffered = buffered;
	if (buffered) {
		s->in = p->buffers + p->buf_size * (size_t)(p->buf_head % p->buf_count);
		s->out = s->in + p->buf_size / 2;
		p->buf_head++;
	} else {
		s->in = s->out = NULL;
	}
	pthread_mutex_unlock(&p->lock);
	s->work = WORK_NONE;
	s->sparse_ok = false;
	s->want_hash = false;
	s->known_sparse = false;
	s->peer = NULL;
	s->in_len = 0;
	s->tag = NULL;
	memset(s->arg, 0, sizeof(s->arg));
	return s;
}

struct slot *pipeline_acquire(struct pipeline *p)
{
	return acquire(p, true);
}

struct slot *pipeline_acquire_marker(struct pipeline *p)
{
	return acquire(p, false);
}

void pipeline_submit(struct pipeline *p, struct slot *s)
{
	bool needs_worker = s->work != WORK_NONE || s->want_hash;
	if (!needs_worker) {
		s->result = s->in;
		s->result_len = s->known_sparse ? 0 : s->in_len;
		s->size_word = 0;
	}
	pthread_mutex_lock(&p->lock);
	if (needs_worker) {
		s->state = STATE_SUBMITTED;
		p->work[p->work_head % p->count] = (unsigned)(s - p->ring);
		p->work_head++;
		pthread_cond_signal(&p->work_ready);
	} else {
		s->state = STATE_DONE;
		wake_consumer(p, s);
	}
	pthread_mutex_unlock(&p->lock);
}

struct slot *pipeline_next(struct pipeline *p)
{
	pthread_mutex_lock(&p->lock);
	struct slot *s = &p->ring[p->tail % p->count];
	while (!p->aborted && s->state != STATE_DONE) {
		p->consumer_waits = true;
		pthread_cond_wait(&p->slot_done, &p->lock);
	}
	p->consumer_waits = false;
	if (p->aborted) {
		pthread_mutex_unlock(&p->lock);
		return NULL;
	}
	p->tail++;
	pthread_mutex_unlock(&p->lock);
	return s;
}

void pipeline_release(struct pipeline *p, struct slot *s)
{
	pthread_mutex_lock(&p->lock);
	s->state = STATE_FREE;
	if (s->buffered)
		p->buf_tail++;
	/* The producer waits for the slot at its head, or for a buffer. */
	if (p->producer_waits && (s->buffered || s == &p->ring[p->head % p->count]))
		pthread_cond_signal(&p->slot_free);
	pthread_mutex_unlock(&p->lock);
}

void pipeline_abort(struct pipeline *p)
{
	pthread_mutex_lock(&p->lock);
	p->aborted = true;
	pthread_cond_broadcast(&p->slot_free);
	pthread_cond_broadcast(&p->slot_done);
	pthread_cond_broadcast(&p->work_ready);
	pthread_mutex_unlock(&p->lock);
}

const char *pipeline_error(struct pipeline *p)
{
	return p->error[0] ? p->error : NULL;
}

void pipeline_destroy(struct pipeline *p)
{
	if (p == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = true;
	pthread_cond_broadcast(&p->work_ready);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->worker_count; i++) {
		if (p->workers[i].started)
			pthread_join(p->workers[i].thread, NULL);
		if (p->workers[i].codec_state != NULL)
			p->codec->state_free(p->workers[i].codec_state);
	}
	free(p->workers);
	free(p->buffers);
	free(p->ring);
	free(p->work);
	pthread_cond_destroy(&p->slot_free);
	pthread_cond_destroy(&p->work_ready);
	pthread_cond_destroy(&p->slot_done);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
