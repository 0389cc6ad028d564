/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* summary.h — the end-of-run report, line for line what squashfs-tools 4.5.1 prints, with our
 * figures. */
#ifndef SQ_MKSQUASHFS_SUMMARY_H
#define SQ_MKSQUASHFS_SUMMARY_H

#include <stdio.h>

#include "mksquashfs/data.h"
#include "mksquashfs/image.h"
#include "mksquashfs/scan.h"
#include "mksquashfs/tree.h"

struct summary_input {
	const struct image_settings *image;
	const struct image_stats *image_stats;
	const struct data_stats *data_stats;
	const struct scan_stats *scan_stats;
	const struct tree *tree;       /* for the uid and gid lists */
};

/* Print the summary; -1 when memory is short for the id lists (nothing printed then). */
int summary_print(FILE *out, const struct summary_input *in);

/* One line counting the sources that could not be stored as they were found (left out, stored
 * empty, changed while read); nothing when there were none. Printed even with -quiet. */
void summary_print_skipped(FILE *out, const struct scan_stats *scan, const struct data_stats *data);

#endif
