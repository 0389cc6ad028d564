/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pool.c — the data-writing thread pool: a bounded job ring, per-worker decoders, one writer. */
#include "config.h"
#include "unsquashfs/pool.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RING_SLOTS 512
#define FRAG_SLOTS 8
/* Jobs travel in batches both ways: a small file is one job, and a lock round and a wake-up
 * per job cost the workers more than writing the file's few hundred bytes. */
#define BATCH_JOBS 16
#define TAKE_MAX 8
/* Files one write batch may carry: a batch's buffer fills with tails first on the text tree
 * (about 17 tails of 7.6 KB each in 128 KiB). */
#define WITEMS 64

/* Decoded fragment blocks shared by all workers: consecutive small files share a fragment,
 * and their tails land on different workers, so a per-worker cache would decode each
 * fragment block once per worker. */
struct frag_slot {
	uint64_t start;
	uint32_t word;
	int state; /* FRAG_EMPTY, FRAG_LOADING (by one worker), FRAG_READY */
	unsigned users;
	uint64_t stamp;
	size_t len;
	uint8_t *data; /* block_size bytes */
};
enum { FRAG_EMPTY, FRAG_LOADING, FRAG_READY };

enum job_kind {
	JOB_BLOCK,    /* a data block (or hole) of f */
	JOB_TAIL,     /* f's tail, from a fragment block */
	JOB_PREFETCH, /* decode a fragment block ahead into the cache (f is NULL) */
};

struct job {
	enum job_kind kind;
	struct unsq_out_file *f;
	uint64_t pos;       /* data block position, or fragment block position for a tail */
	uint32_t word;
	uint32_t frag_offset;
	uint64_t off;
	uint32_t len;
};

/* One file's bytes in a write batch. */
struct witem {
	struct unsq_out_file *f;
	uint64_t off;  /* in the file */
	size_t at;     /* in the batch's buffer */
	uint32_t len;
};

/* Decoded data on its way to the writer: a whole block, or the tails of several small files
 * copied out of their fragment blocks. The decoders hand the pwrite and each file's finish
 * (owner, times, close) to one writer thread, so that at -processors 1 the one decoder does
 * nothing but decode, as the reference's inflator thread beside its writer thread. */
struct wbatch {
	struct wbatch *next;  /* in the free list or the writer's queue */
	uint8_t *buf;         /* block_size bytes */
	size_t used;
	size_t n;
	struct witem item[WITEMS];
};

struct worker {
	struct unsq_pool *pool;
	pthread_t thread;
	int started;
	struct sqfs_decoder dec;
	struct wbatch *cur; /* being filled with tails; the writer gets it when full or when idle */
};

struct unsq_pool {
	struct sqfs_fs *fs;
	unsq_finish_fn finish;
	void *ctx;
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full, drained;
	struct job ring[RING_SLOTS];
	size_t head, count, busy;
	int stop;
	int failed;
	int io_nonfatal;  /* -ignore-errors: output write failures are reported, not fatal */
	int saw_nonfatal;
	struct sq_error err; /* first failure */
	unsigned nworkers;
	struct worker *workers;
	pthread_cond_t frag_changed;
	uint64_t frag_clock;
	struct frag_slot frag[FRAG_SLOTS];
	struct job batch[BATCH_JOBS]; /* the submitter's, not yet in the ring: no lock */
	size_t batch_len;
	/* The writer stage, under the same lock: batches cycle free -> a worker -> queue -> writer. */
	pthread_t writer;
	int writer_started;
	pthread_cond_t w_not_empty, wb_free;
	struct wbatch *wfree;
	struct wbatch *wq_head, *wq_tail;
	size_t wbusy;          /* batches queued or being written */
	struct wbatch *wbatches; /* the allocation */
	size_t nwbatches;
};

/* Find or decode fragment block (start, word); the slot stays pinned until put_frag. */
static struct frag_slot *get_frag(struct unsq_pool *p, struct sqfs_decoder *dec, uint64_t start, uint32_t word,
				  struct sq_error *err)
{
	if (word & ~(SQFS_DATA_SIZE_MASK | SQFS_DATA_UNCOMPRESSED) || (word & SQFS_DATA_SIZE_MASK) == 0) {
		sq_fail(err, SQ_ERR_CORRUPT, "fragment at %" PRIu64 ": bad size word 0x%08x", start, word);
		return NULL;
	}
	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct frag_slot *hit = NULL, *victim = NULL;
		for (size_t i = 0; i < FRAG_SLOTS; i++) {
			struct frag_slot *s = &p->frag[i];
			if (s->state != FRAG_EMPTY && s->start == start && s->word == word)
				hit = s;
			else if (s->users == 0 && s->state != FRAG_LOADING && (victim == NULL || s->stamp < victim->stamp))
				victim = s;
		}
		if (hit != NULL && hit->state == FRAG_READY) {
			hit->users++;
			hit->stamp = ++p->frag_clock;
			pthread_mutex_unlock(&p->lock);
			return hit;
		}
		if (hit == NULL && victim != NULL) {
			victim->state = FRAG_LOADING;
			victim->start = start;
			victim->word = word;
			victim->users = 1;
			victim->stamp = ++p->frag_clock;
			pthread_mutex_unlock(&p->lock);
			int rc = sqfs_decoder_read_block(dec, start, word & SQFS_DATA_SIZE_MASK,
							 !(word & SQFS_DATA_UNCOMPRESSED), victim->data,
							 p->fs->img.sb.block_size, &victim->len, "fragment block", err);
			pthread_mutex_lock(&p->lock);
			if (rc) {
				victim->state = FRAG_EMPTY;
				victim->users = 0;
				victim = NULL;
			} else {
				victim->state = FRAG_READY;
			}
			pthread_cond_broadcast(&p->frag_changed);
			pthread_mutex_unlock(&p->lock);
			return victim;
		}
		pthread_cond_wait(&p->frag_changed, &p->lock); /* being loaded, or every slot pinned */
	}
}

static void put_frag(struct unsq_pool *p, struct frag_slot *s)
{
	pthread_mutex_lock(&p->lock);
	if (--s->users == 0)
		pthread_cond_broadcast(&p->frag_changed);
	pthread_mutex_unlock(&p->lock);
}

static void record(struct unsq_pool *p, const struct sq_error *e)
{
	/* Called with the lock held. */
	if (!p->failed) {
		p->failed = 1;
		p->err = *e;
	}
}

/* Drop one reference; the last one finishes the file. The acquire-release decrement makes
 * every writer's pwrite happen before the finisher's metadata and close. */
static int put_file(struct unsq_pool *p, struct unsq_out_file *f, struct sq_error *err)
{
	if (atomic_fetch_sub_explicit(&f->refs, 1, memory_order_acq_rel) != 1)
		return 0;
	return p->finish(p->ctx, f, err);
}

static int write_all(const struct unsq_out_file *f, const uint8_t *data, size_t len, uint64_t off,
		     struct sq_error *err)
{
	int fd = f->fd;
	size_t done = 0;
	while (done < len) {
		ssize_t n = pwrite(fd, data + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? sq_fail_errno(err, "cannot write %s", f->name)
				     : sq_fail(err, SQ_ERR_IO, "cannot write %s: short write", f->name);
		done += (size_t)n;
	}
	return 0;
}

/* Lock held: nothing queued, decoding, or waiting to be written. */
static int idle_locked(const struct unsq_pool *p)
{
	return p->count == 0 && p->busy == 0 && p->wbusy == 0;
}

/* Lock held: queue b for the writer; an empty batch goes straight back to the free list. */
static void wq_push_locked(struct unsq_pool *p, struct wbatch *b)
{
	if (b->n == 0) {
		b->next = p->wfree;
		p->wfree = b;
		pthread_cond_signal(&p->wb_free);
		return;
	}
	b->next = NULL;
	if (p->wq_tail != NULL)
		p->wq_tail->next = b;
	else
		p->wq_head = b;
	p->wq_tail = b;
	p->wbusy++;
	pthread_cond_signal(&p->w_not_empty);
}

/* Hand the worker's batch, if any, to the writer. */
static void hand_over(struct worker *w)
{
	struct unsq_pool *p = w->pool;
	if (w->cur == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	wq_push_locked(p, w->cur);
	pthread_mutex_unlock(&p->lock);
	w->cur = NULL;
}

/* The worker's batch with room for len more bytes (len <= block_size); a batch without room
 * goes to the writer and a free one replaces it, waiting for the writer to return one. The
 * writer never waits for a worker, so this wait ends. */
static struct wbatch *batch_room(struct worker *w, size_t len)
{
	struct unsq_pool *p = w->pool;
	struct wbatch *b = w->cur;
	if (b != NULL && b->n < WITEMS && len <= p->fs->img.sb.block_size - b->used)
		return b;
	pthread_mutex_lock(&p->lock);
	if (b != NULL)
		wq_push_locked(p, b);
	while (p->wfree == NULL)
		pthread_cond_wait(&p->wb_free, &p->lock);
	b = p->wfree;
	p->wfree = b->next;
	pthread_mutex_unlock(&p->lock);
	b->used = 0;
	b->n = 0;
	w->cur = b;
	return b;
}

/* Records len bytes just placed at the end of the worker's batch as f's at off; the batch
 * goes to the writer once it is full. The item keeps the job's reference to f. */
static void add_item(struct worker *w, struct unsq_out_file *f, uint64_t off, uint32_t len)
{
	struct wbatch *b = w->cur;
	b->item[b->n++] = (struct witem){.f = f, .off = off, .at = b->used, .len = len};
	b->used += len;
	if (b->n == WITEMS || b->used == w->pool->fs->img.sb.block_size)
		hand_over(w);
}

/* A tail is copied out of its fragment block (a few KB, cheaper than the pwrite it joins), so
 * no fragment slot stays pinned while the writer is behind. */
static int run_tail(struct worker *w, const struct job *j, struct sq_error *err)
{
	struct unsq_pool *p = w->pool;
	if (j->len > p->fs->img.sb.block_size)
		return sq_fail(err, SQ_ERR_CORRUPT, "a file tail lies outside its fragment block at %" PRIu64, j->pos);
	struct wbatch *b = batch_room(w, j->len);
	struct frag_slot *s = get_frag(p, &w->dec, j->pos, j->word, err);
	if (s == NULL)
		return -1;
	int bad = j->frag_offset > s->len || j->len > s->len - j->frag_offset;
	if (!bad)
		memcpy(b->buf + b->used, s->data + j->frag_offset, j->len);
	put_frag(p, s);
	if (bad)
		return sq_fail(err, SQ_ERR_CORRUPT, "a file tail lies outside its fragment block at %" PRIu64, j->pos);
	add_item(w, j->f, j->off, j->len);
	return 1;
}

/* 0: done (the caller drops the job's reference), 1: handed to the writer with the
 * reference, -1 with err. */
static int run_job(struct worker *w, const struct job *j, struct sq_error *err)
{
	if (j->kind == JOB_PREFETCH) {
		/* A guess: if it fails, the tail that really needs the block reports it. */
		struct frag_slot *s = get_frag(w->pool, &w->dec, j->pos, j->word, err);
		if (s != NULL)
			put_frag(w->pool, s);
		sq_error_clear(err);
		return 0;
	}
	if (j->kind == JOB_TAIL)
		return run_tail(w, j, err);
	if (j->word == 0)
		return 0; /* a hole: the finisher's ftruncate sets the size */
	/* A block takes a batch of its own: the decoder wants block_size bytes of room. */
	if (w->cur != NULL && w->cur->used > 0)
		hand_over(w);
	struct wbatch *b = batch_room(w, w->pool->fs->img.sb.block_size);
	if (sqfs_decoder_read_data(&w->dec, j->pos, j->word, b->buf, j->len, "data block", err))
		return -1;
	add_item(w, j->f, j->off, j->len);
	hand_over(w);
	return 1;
}

/* A job or write of f failed with e: recorded as the pool's failure, or only printed (a
 * write failure under -ignore-errors); f is marked failed either way. */
static void job_failed(struct unsq_pool *p, struct unsq_out_file *f, struct sq_error *e)
{
	pthread_mutex_lock(&p->lock);
	if (f != NULL)
		f->failed = 1;
	if (e->code == SQ_ERR_IO && p->io_nonfatal) {
		fprintf(stderr, "unsquashfs: %s\n", e->msg);
		p->saw_nonfatal = 1;
	} else {
		record(p, e);
	}
	pthread_mutex_unlock(&p->lock);
	sq_error_clear(e);
}

/* Drops one reference to f, recording a failure of its finish. */
static void drop_file(struct unsq_pool *p, struct unsq_out_file *f)
{
	struct sq_error e;
	sq_error_clear(&e);
	if (f != NULL && put_file(p, f, &e)) {
		pthread_mutex_lock(&p->lock);
		record(p, &e);
		pthread_mutex_unlock(&p->lock);
	}
}

/* Runs one job taken from the ring; the job's ref is dropped here unless the writer got it. */
static void finish_job(struct unsq_pool *p, struct worker *w, const struct job *j, int skip)
{
	struct sq_error e;
	sq_error_clear(&e);
	int rc = skip ? 0 : run_job(w, j, &e);
	if (rc == 1)
		return;
	if (rc < 0)
		job_failed(p, j->f, &e);
	drop_file(p, j->f);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct unsq_pool *p = w->pool;
	struct job jobs[TAKE_MAX];
	int skip[TAKE_MAX];
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->count == 0 && !p->stop)
			pthread_cond_wait(&p->not_empty, &p->lock);
		if (p->count == 0 && p->stop)
			break;
		/* A fair share of what waits, so the other workers are not left idle. */
		size_t n = p->count / p->nworkers;
		n = n < 1 ? 1 : n > TAKE_MAX ? TAKE_MAX : n;
		int was_full = p->count == RING_SLOTS;
		for (size_t k = 0; k < n; k++) {
			jobs[k] = p->ring[p->head];
			p->head = (p->head + 1) % RING_SLOTS;
			skip[k] = p->failed || (jobs[k].f != NULL && jobs[k].f->failed);
			if (skip[k] && jobs[k].f != NULL)
				jobs[k].f->failed = 1;
		}
		p->count -= n;
		p->busy += n;
		if (was_full)
			pthread_cond_signal(&p->not_full);
		pthread_mutex_unlock(&p->lock);

		for (size_t k = 0; k < n; k++)
			finish_job(p, w, &jobs[k], skip[k]);

		pthread_mutex_lock(&p->lock);
		p->busy -= n;
		/* Out of work: the tails gathered so far go to the writer rather than wait here. */
		if (p->count == 0 && w->cur != NULL) {
			wq_push_locked(p, w->cur);
			w->cur = NULL;
		}
		if (idle_locked(p))
			pthread_cond_broadcast(&p->drained);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* Writes one batch's items and drops their references (each file's last one finishes it). */
static void write_batch(struct unsq_pool *p, const struct wbatch *b, const int *skip)
{
	for (size_t k = 0; k < b->n; k++) {
		const struct witem *it = &b->item[k];
		struct sq_error e;
		sq_error_clear(&e);
		if (!skip[k] && write_all(it->f, b->buf + it->at, it->len, it->off, &e))
			job_failed(p, it->f, &e);
		drop_file(p, it->f);
	}
}

static void *writer_main(void *arg)
{
	struct unsq_pool *p = arg;
	int skip[WITEMS];
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->wq_head == NULL && !p->stop)
			pthread_cond_wait(&p->w_not_empty, &p->lock);
		struct wbatch *b = p->wq_head;
		if (b == NULL)
			break; /* stopped, and everything was written before the stop */
		p->wq_head = b->next;
		if (p->wq_head == NULL)
			p->wq_tail = NULL;
		for (size_t k = 0; k < b->n; k++) {
			struct unsq_out_file *f = b->item[k].f;
			skip[k] = p->failed || f->failed;
			if (skip[k])
				f->failed = 1;
		}
		pthread_mutex_unlock(&p->lock);

		write_batch(p, b, skip);

		pthread_mutex_lock(&p->lock);
		b->next = p->wfree;
		p->wfree = b;
		p->wbusy--;
		pthread_cond_signal(&p->wb_free);
		if (idle_locked(p))
			pthread_cond_broadcast(&p->drained);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* The fragment cache and the write batches: nthreads + 2 batches let the writer write one
 * while another waits and every worker fills its own. */
static int alloc_buffers(struct unsq_pool *p, unsigned nthreads, struct sq_error *err)
{
	const size_t bs = p->fs->img.sb.block_size;
	for (size_t i = 0; i < FRAG_SLOTS; i++) {
		p->frag[i].data = malloc(bs);
		if (p->frag[i].data == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the fragment cache");
	}
	p->wbatches = calloc((size_t)nthreads + 2, sizeof(*p->wbatches));
	if (p->wbatches == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the write buffers");
	for (size_t i = 0; i < (size_t)nthreads + 2; i++) {
		struct wbatch *b = &p->wbatches[i];
		b->buf = malloc(bs);
		if (b->buf == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the write buffers");
		p->nwbatches = i + 1;
		b->next = p->wfree;
		p->wfree = b;
	}
	return 0;
}

static int start_threads(struct unsq_pool *p, unsigned nthreads, struct sq_error *err)
{
	p->workers = calloc(nthreads, sizeof(*p->workers));
	if (p->workers == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the worker pool");
	if (pthread_create(&p->writer, NULL, writer_main, p) != 0)
		return sq_fail(err, SQ_ERR_NOMEM, "cannot start the writer thread");
	p->writer_started = 1;
	for (unsigned i = 0; i < nthreads; i++) {
		struct worker *w = &p->workers[i];
		w->pool = p;
		if (sqfs_decoder_init(&w->dec, &p->fs->img, err))
			return -1;
		p->nworkers = i + 1;
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
			return sq_fail(err, SQ_ERR_NOMEM, "cannot start a worker thread");
		w->started = 1;
	}
	return 0;
}

struct unsq_pool *unsq_pool_new(struct sqfs_fs *fs, unsigned nthreads, int io_nonfatal, unsq_finish_fn finish,
				void *ctx, struct sq_error *err)
{
	struct unsq_pool *p = calloc(1, sizeof(*p));
	if (p == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory for the worker pool");
		return NULL;
	}
	p->io_nonfatal = io_nonfatal;
	p->fs = fs;
	p->finish = finish;
	p->ctx = ctx;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->not_empty, NULL);
	pthread_cond_init(&p->not_full, NULL);
	pthread_cond_init(&p->drained, NULL);
	pthread_cond_init(&p->frag_changed, NULL);
	pthread_cond_init(&p->w_not_empty, NULL);
	pthread_cond_init(&p->wb_free, NULL);
	sq_error_clear(&p->err);
	if (alloc_buffers(p, nthreads, err) || start_threads(p, nthreads, err)) {
		unsq_pool_free(p, NULL);
		return NULL;
	}
	return p;
}

/* Drops the refs of batched jobs that will never run (the pool has failed). */
static void drop_batch(struct unsq_pool *p, size_t from)
{
	for (size_t k = from; k < p->batch_len; k++) {
		struct unsq_out_file *f = p->batch[k].f;
		if (f == NULL)
			continue;
		pthread_mutex_lock(&p->lock);
		f->failed = 1;
		pthread_mutex_unlock(&p->lock);
		struct sq_error e;
		sq_error_clear(&e);
		put_file(p, f, &e); /* a failed file's finish only closes it */
	}
	p->batch_len = 0;
}

int unsq_pool_flush(struct unsq_pool *p, struct sq_error *err)
{
	size_t done = 0;
	pthread_mutex_lock(&p->lock);
	while (done < p->batch_len && !p->failed) {
		while (p->count == RING_SLOTS && !p->failed)
			pthread_cond_wait(&p->not_full, &p->lock);
		while (done < p->batch_len && p->count < RING_SLOTS) {
			p->ring[(p->head + p->count) % RING_SLOTS] = p->batch[done++];
			p->count++;
		}
		pthread_cond_broadcast(&p->not_empty);
	}
	if (p->failed) {
		sq_fail(err, p->err.code, "%s", p->err.msg);
		pthread_mutex_unlock(&p->lock);
		drop_batch(p, done);
		return -1;
	}
	pthread_mutex_unlock(&p->lock);
	p->batch_len = 0;
	return 0;
}

static int push(struct unsq_pool *p, const struct job *j, struct sq_error *err)
{
	if (j->f != NULL)
		atomic_fetch_add_explicit(&j->f->refs, 1, memory_order_relaxed);
	p->batch[p->batch_len++] = *j;
	return p->batch_len == BATCH_JOBS ? unsq_pool_flush(p, err) : 0;
}

int unsq_pool_block(struct unsq_pool *p, struct unsq_out_file *f, uint64_t pos, uint32_t word, uint64_t off,
		    uint32_t len, struct sq_error *err)
{
	struct job j = {.f = f, .pos = pos, .word = word, .off = off, .len = len};
	return push(p, &j, err);
}

int unsq_pool_tail(struct unsq_pool *p, struct unsq_out_file *f, uint64_t frag_start, uint32_t frag_word,
		   uint32_t frag_offset, uint64_t off, uint32_t len, struct sq_error *err)
{
	struct job j = {.f = f, .pos = frag_start, .word = frag_word, .frag_offset = frag_offset, .off = off,
			.len = len, .kind = JOB_TAIL};
	return push(p, &j, err);
}

int unsq_pool_prefetch(struct unsq_pool *p, uint64_t frag_start, uint32_t frag_word, struct sq_error *err)
{
	struct job j = {.kind = JOB_PREFETCH, .pos = frag_start, .word = frag_word};
	return push(p, &j, err);
}

int unsq_pool_release(struct unsq_pool *p, struct unsq_out_file *f, struct sq_error *err)
{
	return put_file(p, f, err);
}

int unsq_pool_free(struct unsq_pool *p, struct sq_error *err)
{
	if (p == NULL)
		return 0;
	struct sq_error ignored;
	sq_error_clear(&ignored);
	unsq_pool_flush(p, &ignored); /* a failure is in p->err, reported below */
	pthread_mutex_lock(&p->lock);
	while (!idle_locked(p))
		pthread_cond_wait(&p->drained, &p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->not_empty);
	pthread_cond_broadcast(&p->w_not_empty);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nworkers; i++) {
		struct worker *w = &p->workers[i];
		if (w->started)
			pthread_join(w->thread, NULL);
		sqfs_decoder_free(&w->dec);
	}
	if (p->writer_started)
		pthread_join(p->writer, NULL);
	int rc = p->saw_nonfatal ? 2 : 0;
	if (p->failed) {
		if (err != NULL)
			sq_fail(err, p->err.code, "%s", p->err.msg);
		rc = -1;
	}
	free(p->workers);
	for (size_t i = 0; i < FRAG_SLOTS; i++)
		free(p->frag[i].data);
	for (size_t i = 0; i < p->nwbatches; i++)
		free(p->wbatches[i].buf);
	free(p->wbatches);
	pthread_cond_destroy(&p->frag_changed);
	pthread_cond_destroy(&p->w_not_empty);
	pthread_cond_destroy(&p->wb_free);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->not_empty);
	pthread_cond_destroy(&p->not_full);
	pthread_cond_destroy(&p->drained);
	free(p);
	return rc;
}
