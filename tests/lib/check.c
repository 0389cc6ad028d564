/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* check.c — failure counting and reporting behind check.h. */
#include "tests/lib/check.h"

#include <stdarg.h>
#include <stdio.h>

unsigned check_count;
unsigned check_failures;

void check_fail(const char *file, int line, const char *expr, const char *fmt, ...)
{
	check_failures++;
	fprintf(stderr, "FAIL %s:%d: %s:", file, line, expr);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void check_bytes(const char *file, int line, const void *got, const void *want, size_t len)
{
	const unsigned char *g = got, *w = want;
	check_count++;
	for (size_t i = 0; i < len; i++) {
		if (g[i] != w[i]) {
			check_fail(file, line, "bytes equal", " byte %zu of %zu is %02x, expected %02x", i,
				   len, g[i], w[i]);
			return;
		}
	}
}

int check_exit(const char *name)
{
	fprintf(check_failures ? stderr : stdout, "%s: %u checks, %u failed\n", name, check_count,
		check_failures);
	return check_failures ? 1 : 0;
}
