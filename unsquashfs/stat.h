/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stat.h — the -s superblock report and -mkfs-time, worded as squashfs-tools prints them. */
#ifndef SQ_UNSQUASHFS_STAT_H
#define SQ_UNSQUASHFS_STAT_H

#include "common/fs_read.h"
#include "unsquashfs/options.h"

void unsq_print_stat(const struct sqfs_image *img, const char *image_name, int utc, uint32_t xattr_ids);

/* -s (o->mode UNSQ_STAT) or -mkfs-time (UNSQ_MKFS_TIME) of the image in fd when its compressor
 * is built out of this unsquashfs: what they print needs no decompression (the superblock, the
 * xattr id table's header), so they work as squashfs-tools' do; only the compressor's options
 * are left out, with a note. 1 done, 0 when the image's compressor can be read or its
 * superblock is unusable (the usual open then reports it), -1 with err set. */
int unsq_stat_built_out(int fd, const struct unsq_options *o, struct sq_error *err);

#endif
