/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* check.h — the assertion helpers every C unit test uses: a failed check prints where and why and
 * is counted, the test goes on, and main ends with `return check_exit("name");`. */
#ifndef SQ_TESTS_CHECK_H
#define SQ_TESTS_CHECK_H

#include <stddef.h>

extern unsigned check_count;     /* checks evaluated */
extern unsigned check_failures;  /* checks that failed */

/* CHECK(cond) or CHECK(cond, "printf format", args...): the message says what was expected. */
#define CHECK(cond, ...)                                                                   \
	do {                                                                               \
		check_count++;                                                             \
		if (!(cond))                                                               \
			check_fail(__FILE__, __LINE__, #cond, " " __VA_ARGS__);           \
	} while (0)

/* Compare len bytes, naming the first that differs. */
#define CHECK_BYTES(got, want, len) check_bytes(__FILE__, __LINE__, (got), (want), (len))

void check_fail(const char *file, int line, const char *expr, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void check_bytes(const char *file, int line, const void *got, const void *want, size_t len);

/* Print "name: N checks, M failed" and return the exit status: 0 when none failed, else 1. */
int check_exit(const char *name);

#endif
