/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stat.h — the -s superblock report and -mkfs-time, worded as squashfs-tools prints them. */
#ifndef SQ_UNSQUASHFS_STAT_H
#define SQ_UNSQUASHFS_STAT_H

#include "common/fs_read.h"

void unsq_print_stat(const struct sqfs_image *img, const char *image_name, int utc, uint32_t xattr_ids);

#endif
