/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* path.h — joining path components, and compiling a path pattern's components as regexes. */
#ifndef SQ_UTIL_PATH_H
#define SQ_UTIL_PATH_H

#include <regex.h>
#include <stddef.h>

struct sq_error;

/* "dir/name" in a new string (malloc'd): no slash is added after a dir ending in one, and a
 * NULL or empty dir gives a copy of name. NULL when memory is short. */
char *sq_path_join(const char *dir, const char *name);

/* The n components of a path pattern compiled as POSIX extended regular expressions
 * (REG_NOSUB), in a new array for sq_path_regfree. NULL with err set when memory is short or one
 * does not compile: "WHAT \"component\": reason", or with pattern given
 * "WHAT \"component\" in \"pattern\": reason"; nothing is left allocated then. */
regex_t *sq_path_regcomp(char *const *parts, size_t n, const char *what, const char *pattern,
			 struct sq_error *err);

/* Frees the first n expressions of re and re itself (NULL: nothing). */
void sq_path_regfree(regex_t *re, size_t n);

#endif
