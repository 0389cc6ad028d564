/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* meter.h — extraction progress: the bar, or -percentage's numbers one a line. */
#ifndef SQ_UNSQUASHFS_METER_H
#define SQ_UNSQUASHFS_METER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/util/progress.h"

struct unsq_meter {
	struct progress bar;
	bool ready;
	bool percentage; /* print "N\n" on each whole-percent change instead of the bar */
	uint64_t done, total;
	int last;
};

/* Start with total units; the bar only when want_bar (and stdout is a terminal). Main thread
 * only. */
void unsq_meter_start(struct unsq_meter *m, bool want_bar, bool percentage, uint64_t total);
void unsq_meter_advance(struct unsq_meter *m, uint64_t n);
/* End the bar or print the last percentage; harmless when never started. */
void unsq_meter_finish(struct unsq_meter *m);

#endif
