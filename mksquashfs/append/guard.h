/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* guard.h — what SIGINT, SIGTERM and SIGHUP do to the image being written: a new image is
 * removed, an existing one (append) is put back as it was found, then the process dies of the
 * signal. No handler and no global: the signals are blocked in every thread and one thread waits
 * for them (sigwait), so cleaning up can use locks and a second signal waits its turn. A signal
 * ignored when mksquashfs starts (nohup; SIGINT for a script's background job) stays ignored. */
#ifndef SQ_MKSQUASHFS_APPEND_GUARD_H
#define SQ_MKSQUASHFS_APPEND_GUARD_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>

#include "common/util/error.h"
#include "mksquashfs/image.h"

struct out_guard {
	struct image_out *out;   /* what to clean up (its lock says when it may) */
	pthread_t thread;
	bool running;
	sigset_t set;            /* the signals guarded */
	sigset_t old_mask;       /* the caller's mask, back after guard_stop */
	pthread_mutex_t lock;    /* held while the output is being opened */
};

/* Block the signals in the calling thread (threads it starts later inherit that) and start the
 * waiting thread. out may still be closed (fd -1): nothing is cleaned up until it is open. */
int guard_start(struct out_guard *g, struct image_out *out, struct sq_error *err);

/* Around opening the output: a signal meanwhile is handled once the file is there (and so is
 * removed), never between its creation and the image_out knowing it. */
void guard_hold(struct out_guard *g);
void guard_release(struct out_guard *g);

/* Stop the waiting thread and restore the caller's signal mask (a signal that came in the
 * meantime is then delivered as usual). Safe after a failed guard_start. */
void guard_stop(struct out_guard *g);

#endif
