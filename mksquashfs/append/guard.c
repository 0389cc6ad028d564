/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* guard.c — the thread that waits for SIGINT/SIGTERM/SIGHUP during a build and cleans up the
 * image before the process dies of the signal (see guard.h). */
#include "config.h"
#include "mksquashfs/append/guard.h"

#include <string.h>
#include <unistd.h>

static void *guard_main(void *arg)
{
	struct out_guard *g = arg;
	int sig = 0;
	for (;;) {
		/* guard_stop cancels the thread here, the only cancellation point it reaches
		 * enabled. */
		while (sigwait(&g->set, &sig) != 0)
			;
		pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
		/* The output is not being opened meanwhile (guard_hold), so it is either not there
		 * yet, or its state is under its own lock. */
		pthread_mutex_lock(&g->lock);
		/* Removes a new image or puts an existing one back, and keeps every writer out
		 * from then on; the signals stay blocked, so a second one cannot cut it short. An
		 * image finished before the signal is left to its run, which is about to end. */
		bool end = image_out_interrupt(g->out);
		pthread_mutex_unlock(&g->lock);
		if (end)
			break;
		pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	}
	/* Die of the signal, so the parent sees what happened (128 + n in a shell). */
	signal(sig, SIG_DFL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);
}

void guard_hold(struct out_guard *g)
{
	if (g->running)
		pthread_mutex_lock(&g->lock);
}

void guard_release(struct out_guard *g)
{
	if (g->running)
		pthread_mutex_unlock(&g->lock);
}

int guard_start(struct out_guard *g, struct image_out *out, struct sq_error *err)
{
	memset(g, 0, sizeof(*g));
	g->out = out;
	sigemptyset(&g->set);
	static const int guarded[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof(guarded) / sizeof(guarded[0]); i++) {
		/* A signal ignored from the start (nohup, or SIGINT for a script's background job)
		 * stays ignored: waiting for it would take it back. */
		struct sigaction now;
		if (sigaction(guarded[i], NULL, &now) == 0 && now.sa_handler == SIG_IGN)
			continue;
		sigaddset(&g->set, guarded[i]);
	}
	if (pthread_mutex_init(&g->lock, NULL) != 0)
		return sq_fail(err, SQ_ERR_NOMEM, "cannot set up the signal guard");
	if (pthread_sigmask(SIG_BLOCK, &g->set, &g->old_mask) != 0) {
		pthread_mutex_destroy(&g->lock);
		return sq_fail(err, SQ_ERR_NOMEM, "cannot block signals");
	}
	if (pthread_create(&g->thread, NULL, guard_main, g) != 0) {
		pthread_sigmask(SIG_SETMASK, &g->old_mask, NULL);
		pthread_mutex_destroy(&g->lock);
		return sq_fail(err, SQ_ERR_NOMEM, "cannot start the signal guard");
	}
	g->running = true;
	return 0;
}

void guard_stop(struct out_guard *g)
{
	if (!g->running)
		return;
	pthread_cancel(g->thread);
	pthread_join(g->thread, NULL);
	pthread_sigmask(SIG_SETMASK, &g->old_mask, NULL);
	pthread_mutex_destroy(&g->lock);
	g->running = false;
}
