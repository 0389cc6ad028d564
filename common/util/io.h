/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* io.h — reads that do not stop short, and a line reader for list files (-e, -ef). */
#ifndef SQ_UTIL_IO_H
#define SQ_UTIL_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Read exactly len bytes at offset (pread, retrying EINTR and short reads). Returns len on
 * success, the number of bytes read when end of file came first, or -1 with errno set. */
ssize_t sq_pread_full(int fd, void *buf, size_t len, uint64_t offset);

/* Read up to len bytes (read, retrying EINTR and short reads); same returns as sq_pread_full. */
ssize_t sq_read_full(int fd, void *buf, size_t len);

struct sq_error;

/* Call fn for each non-empty line of a text file (-e/-ef lists), with the trailing newline and
 * CR removed; the line is only valid during the call. `what` names the file in errors ("exclude
 * file"). Stops at fn's first non-zero return. 0, or -1 with err set. */
int sq_for_each_line(const char *path, const char *what,
		     int (*fn)(void *ctx, const char *line, size_t len, struct sq_error *err),
		     void *ctx, struct sq_error *err);

#endif
