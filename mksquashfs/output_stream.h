/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* output_stream.h — output.c's -stream branch: writes in order to standard output. */
#ifndef SQ_MKSQUASHFS_OUTPUT_STREAM_H
#define SQ_MKSQUASHFS_OUTPUT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"
#include "mksquashfs/image.h"

/* An append at out->pos goes out now; the superblock rewrite at offset 0 is held back. */
int stream_write_at(struct image_out *out, const void *buf, size_t len, uint64_t offset,
		    struct sq_error *err);
/* On success the held-back superblock ends the stream. Standard output stays open. */
int stream_close(struct image_out *out, bool success, struct sq_error *err);

#endif
