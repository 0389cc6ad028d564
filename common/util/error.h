/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* error.h — one error context passed down the call chain: a code and a one-line message.
 *
 * Nothing below main() prints and exits: functions return -1 after sq_fail() and the tool's
 * main prints "tool: message" once. */
#ifndef SQ_UTIL_ERROR_H
#define SQ_UTIL_ERROR_H

#include <stddef.h>

enum sq_errcode {
	SQ_OK = 0,
	SQ_ERR_IO,        /* read/write/open failed (errno in the message) */
	SQ_ERR_NOMEM,     /* allocation failed */
	SQ_ERR_USAGE,     /* bad command line */
	SQ_ERR_CORRUPT,   /* the image violates the format or a bound */
	SQ_ERR_UNSUPPORTED,/* valid but not handled (e.g. compressor built out) */
	SQ_ERR_CODEC,     /* a block failed to compress or decompress */
	SQ_ERR_UNSAFE,    /* refused for safety (path traversal, symlink in the way) */
};

struct sq_error {
	enum sq_errcode code;
	char msg[512];
};

/* Record the first failure (later calls keep the first message, which names the root cause).
 * Always returns -1 so callers can write `return sq_fail(err, ...);`. */
int sq_fail(struct sq_error *err, enum sq_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like sq_fail with ": strerror(errno)" appended. */
int sq_fail_errno(struct sq_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void sq_error_clear(struct sq_error *err)
{
	err->code = SQ_OK;
	err->msg[0] = '\0';
}

#endif
