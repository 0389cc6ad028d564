/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* path.h — joining path components. */
#ifndef SQ_UTIL_PATH_H
#define SQ_UTIL_PATH_H

/* "dir/name" in a new string (malloc'd): no slash is added after a dir ending in one, and a
 * NULL or empty dir gives a copy of name. NULL when memory is short. */
char *sq_path_join(const char *dir, const char *name);

#endif
