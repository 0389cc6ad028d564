/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* meter.c — a progress bar or a stream of percentages (for dialog --gauge). */
#include "config.h"
#include "unsquashfs/meter.h"

#include <stdio.h>

static void print_percent(struct unsq_meter *m)
{
	int pc = m->total ? (int)(m->done * 100 / m->total) : 100;
	if (pc != m->last) {
		printf("%d\n", pc);
		fflush(stdout);
		m->last = pc;
	}
}

void unsq_meter_start(struct unsq_meter *m, bool want_bar, bool percentage, uint64_t total)
{
	m->percentage = percentage;
	m->done = 0;
	m->total = total;
	m->last = -1;
	progress_init(&m->bar, stdout, want_bar && !percentage);
	progress_add_total(&m->bar, total);
	m->ready = true;
	if (percentage)
		print_percent(m);
}

void unsq_meter_advance(struct unsq_meter *m, uint64_t n)
{
	if (!m->ready)
		return;
	m->done += n;
	if (m->percentage)
		print_percent(m);
	else
		progress_advance(&m->bar, n);
}

void unsq_meter_finish(struct unsq_meter *m)
{
	if (!m->ready)
		return;
	if (m->percentage) {
		m->done = m->total;
		print_percent(m);
	}
	progress_finish(&m->bar);
	progress_destroy(&m->bar);
	m->ready = false;
}
