/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* error.c — recording the first error of an operation with its message. */
#include "config.h"
#include "common/util/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int sq_fail(struct sq_error *err, enum sq_errcode code, const char *fmt, ...)
{
	if (err == NULL || err->code != SQ_OK)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->code = code;
	return -1;
}

int sq_fail_errno(struct sq_error *err, const char *fmt, ...)
{
	int saved = errno;
	if (err == NULL || err->code != SQ_OK)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - (size_t)n, ": %s", strerror(saved));
	err->code = saved == ENOMEM ? SQ_ERR_NOMEM : SQ_ERR_IO;
	return -1;
}
