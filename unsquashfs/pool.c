/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pool.c — the data-writing thread pool: a bounded job ring, per-worker decoders, pwrite. */
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

struct worker {
	struct unsq_pool *pool;
	pthread_t thread;
	int started;
	struct sqfs_decoder dec;
	struct sqfs_file_reader fr; /* block and fragment buffers with the fragment cache */
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

static int run_job(struct worker *w, const struct job *j, struct sq_error *err)
{
	struct sqfs_file_reader *fr = &w->fr;
	if (j->kind == JOB_PREFETCH) {
		/* A guess: if it fails, the tail that really needs the block reports it. */
		struct frag_slot *s = get_frag(w->pool, fr->dec, j->pos, j->word, err);
		if (s != NULL)
			put_frag(w->pool, s);
		sq_error_clear(err);
		return 0;
	}
	if (j->kind == JOB_TAIL) {
		struct frag_slot *s = get_frag(w->pool, fr->dec, j->pos, j->word, err);
		if (s == NULL)
			return -1;
		int rc;
		if (j->frag_offset > s->len || j->len > s->len - j->frag_offset)
			rc = sq_fail(err, SQ_ERR_CORRUPT, "a file tail lies outside its fragment block at %" PRIu64,
				     j->pos);
		else
			rc = write_all(j->f, s->data + j->frag_offset, j->len, j->off, err);
		put_frag(w->pool, s);
		return rc;
	}
	if (j->word == 0)
		return 0; /* a hole: the finisher's ftruncate sets the size */
	if (sqfs_decoder_read_data(fr->dec, j->pos, j->word, fr->block, j->len, "data block", err))
		return -1;
	return write_all(j->f, fr->block, j->len, j->off, err);
}

/* Runs one job taken from the ring; a failure is recorded (or only printed, for a write
 * failure under -ignore-errors) and marks the job's file failed. Then drops the job's ref. */
static void finish_job(struct unsq_pool *p, struct worker *w, const struct job *j, int skip)
{
	struct sq_error e;
	sq_error_clear(&e);
	if (!skip && run_job(w, j, &e)) {
		pthread_mutex_lock(&p->lock);
		if (j->f != NULL)
			j->f->failed = 1;
		if (e.code == SQ_ERR_IO && p->io_nonfatal) {
			fprintf(stderr, "unsquashfs: %s\n", e.msg);
			p->saw_nonfatal = 1;
		} else {
			record(p, &e);
		}
		pthread_mutex_unlock(&p->lock);
		sq_error_clear(&e);
	}
	if (j->f != NULL && put_file(p, j->f, &e)) {
		pthread_mutex_lock(&p->lock);
		record(p, &e);
		pthread_mutex_unlock(&p->lock);
	}
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
		if (p->count == 0 && p->busy == 0)
			pthread_cond_broadcast(&p->drained);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
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
	sq_error_clear(&p->err);
	for (size_t i = 0; i < FRAG_SLOTS; i++) {
		p->frag[i].data = malloc(fs->img.sb.block_size);
		if (p->frag[i].data == NULL) {
			sq_fail(err, SQ_ERR_NOMEM, "out of memory for the fragment cache");
			unsq_pool_free(p, NULL);
			return NULL;
		}
	}
	p->workers = calloc(nthreads, sizeof(*p->workers));
	if (p->workers == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory for the worker pool");
		unsq_pool_free(p, NULL);
		return NULL;
	}
	for (unsigned i = 0; i < nthreads; i++) {
		struct worker *w = &p->workers[i];
		w->pool = p;
		if (sqfs_decoder_init(&w->dec, &fs->img, err))
			goto fail;
		p->nworkers = i + 1;
		if (sqfs_file_reader_init(&w->fr, fs, &w->dec, err))
			goto fail;
		if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
			sq_fail(err, SQ_ERR_NOMEM, "cannot start a worker thread");
			goto fail;
		}
		w->started = 1;
	}
	return p;
fail:
	unsq_pool_free(p, NULL);
	return NULL;
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
	while (p->count > 0 || p->busy > 0)
		pthread_cond_wait(&p->drained, &p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->not_empty);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nworkers; i++) {
		struct worker *w = &p->workers[i];
		if (w->started)
			pthread_join(w->thread, NULL);
		sqfs_file_reader_free(&w->fr);
		sqfs_decoder_free(&w->dec);
	}
	int rc = p->saw_nonfatal ? 2 : 0;
	if (p->failed) {
		if (err != NULL)
			sq_fail(err, p->err.code, "%s", p->err.msg);
		rc = -1;
	}
	free(p->workers);
	for (size_t i = 0; i < FRAG_SLOTS; i++)
		free(p->frag[i].data);
	pthread_cond_destroy(&p->frag_changed);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->not_empty);
	pthread_cond_destroy(&p->not_full);
	pthread_cond_destroy(&p->drained);
	free(p);
	return rc;
}
