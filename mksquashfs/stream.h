/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stream.h — -fix: a -stream image (superblock last) made into a normal one. */
#ifndef SQ_MKSQUASHFS_STREAM_H
#define SQ_MKSQUASHFS_STREAM_H

#include "common/util/error.h"

/* Turn the streamed image at path into a normal one, in place. */
int stream_fix(const char *path, struct sq_error *err);

#endif
