/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sink.h — a file's contents streamed to a stdio stream (-cat, sqfscat, -pf). */
#ifndef SQ_UNSQUASHFS_SINK_H
#define SQ_UNSQUASHFS_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"

/* An sqfs_data_sink whose arg is a FILE *: bytes written in order, holes as zeros. */
int unsq_stream_sink(void *file, uint64_t offset, const uint8_t *data, size_t len, struct sq_error *err);

#endif
