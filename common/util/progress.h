/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* progress.h — a one-line progress bar shared by both tools: drawn only on a terminal, safe to
 * advance from any thread. Before any total is known (while sources are scanned) it counts what
 * was found; -percentage prints bare percentages, one a line, for dialog --gauge and the like. */
#ifndef SQ_UTIL_PROGRESS_H
#define SQ_UTIL_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct progress {
	bool enabled;            /* false: every call is a cheap no-op */
	FILE *out;
	atomic_uint_fast64_t done;
	atomic_uint_fast64_t total;
	pthread_mutex_t lock;    /* only one thread redraws at a time */
	uint64_t last_draw_ns;
	int width;               /* terminal columns (asked again at each redraw) */
	bool drawn;
	bool percent;            /* bare percentages, one per line (progress_set_percentage) */
	int last_percent;        /* the last percentage printed, -1 before the first */
	atomic_uint_fast64_t found; /* entries counted by progress_found (scan phase) */
};

/* Set up a bar on out. It is enabled only when want is true and out is a terminal, so pipes,
 * logs and tests see no escape codes or carriage returns. */
void progress_init(struct progress *p, FILE *out, bool want);
/* Raise the total (work discovered later, e.g. while scanning). */
void progress_add_total(struct progress *p, uint64_t n);
/* Count n units done; redraws at most a few times a second. */
void progress_advance(struct progress *p, uint64_t n);
/* Print bare percentages ("42\n", each once) instead of the bar, on any kind of output (the
 * reader is a program, not a person). */
void progress_set_percentage(struct progress *p);
/* Count n entries found while no total is known yet: drawn as "Scanning: N entries". */
void progress_found(struct progress *p, uint64_t n);
/* Draw the final state and end the line (when anything was drawn). */
void progress_finish(struct progress *p);
void progress_destroy(struct progress *p);

#endif
