/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* progress.c — the terminal progress bar: counters are atomics, drawing is rate-limited and
 * serialised by a try-lock so worker threads never wait on the terminal. */
#include "config.h"
#include "common/util/progress.h"

#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_REDRAW_NS 200000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void progress_init(struct progress *p, FILE *out, bool want)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	atomic_init(&p->done, 0);
	atomic_init(&p->total, 0);
	pthread_mutex_init(&p->lock, NULL);
	atomic_init(&p->found, 0);
	p->width = 80;
	p->last_percent = -1;
	p->enabled = want && out != NULL && isatty(fileno(out));
}

void progress_set_percentage(struct progress *p)
{
	p->percent = true;
	p->enabled = p->out != NULL;
}

/* The terminal's width now: a resized window gets a bar that fits at the next redraw. */
static void update_width(struct progress *p)
{
	struct winsize ws;
	if (ioctl(fileno(p->out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		p->width = ws.ws_col > 1000 ? 1000 : ws.ws_col;
}

static void draw_percent(struct progress *p, uint64_t done, uint64_t total)
{
	int pct = total ? (int)(done * 100 / total) : 0;
	if (pct == p->last_percent)
		return;
	fprintf(p->out, "%d\n", pct);
	fflush(p->out);
	p->last_percent = pct;
}

/* While the total is unknown: how many entries the scan found so far. */
static void draw_found(struct progress *p)
{
	fprintf(p->out, "\r\033[KScanning: %llu entries",
		(unsigned long long)atomic_load(&p->found));
	fflush(p->out);
	p->drawn = true;
}

static void draw(struct progress *p)
{
	uint64_t done = atomic_load(&p->done);
	uint64_t total = atomic_load(&p->total);
	if (done > total)
		total = done;
	if (p->percent) {
		draw_percent(p, done, total);
		return;
	}
	update_width(p);
	if (total == 0 && atomic_load(&p->found) > 0) {
		draw_found(p);
		return;
	}
	char counts[64];
	unsigned pct = total ? (unsigned)(done * 100 / total) : 100;
	int clen = snprintf(counts, sizeof(counts), " %llu/%llu %3u%%", (unsigned long long)done,
			    (unsigned long long)total, pct);
	int bar = p->width - clen - 3;
	if (bar < 10)
		bar = 10;
	int filled = total ? (int)((double)done / (double)total * bar) : bar;
	char line[1024];
	int n = 0;
	line[n++] = '\r';
	/* Clear what a longer earlier line (a wider window) left behind. */
	memcpy(line + n, "\033[K", 3);
	n += 3;
	line[n++] = '[';
	for (int i = 0; i < bar && n < (int)sizeof(line) - 80; i++)
		line[n++] = i < filled ? '=' : (i == filled ? '|' : ' ');
	line[n++] = ']';
	memcpy(line + n, counts, (size_t)clen);
	n += clen;
	fwrite(line, 1, (size_t)n, p->out);
	fflush(p->out);
	p->drawn = true;
}

/* Redraw unless another thread is drawing or the last drawing is recent: callers never wait. */
static void redraw_if_due(struct progress *p)
{
	if (pthread_mutex_trylock(&p->lock) != 0)
		return;
	uint64_t t = now_ns();
	if (t - p->last_draw_ns >= PROGRESS_REDRAW_NS) {
		p->last_draw_ns = t;
		draw(p);
	}
	pthread_mutex_unlock(&p->lock);
}

void progress_add_total(struct progress *p, uint64_t n)
{
	if (p->enabled)
		atomic_fetch_add(&p->total, n);
}

void progress_advance(struct progress *p, uint64_t n)
{
	if (!p->enabled)
		return;
	atomic_fetch_add(&p->done, n);
	redraw_if_due(p);
}

void progress_found(struct progress *p, uint64_t n)
{
	if (!p->enabled)
		return;
	atomic_fetch_add(&p->found, n);
	if (!p->percent)
		redraw_if_due(p);
}

void progress_finish(struct progress *p)
{
	if (!p->enabled)
		return;
	pthread_mutex_lock(&p->lock);
	draw(p);
	if (p->percent) {
		if (p->last_percent != 100) {
			fprintf(p->out, "100\n");
			fflush(p->out);
		}
		pthread_mutex_unlock(&p->lock);
		return;
	}
	fputc('\n', p->out);
	fflush(p->out);
	pthread_mutex_unlock(&p->lock);
}

void progress_destroy(struct progress *p)
{
	pthread_mutex_destroy(&p->lock);
}
