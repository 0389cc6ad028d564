/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* path.c — joining path components. */
#include "config.h"
#include "common/util/path.h"

#include <stdlib.h>
#include <string.h>

char *sq_path_join(const char *dir, const char *name)
{
	size_t dl = dir != NULL ? strlen(dir) : 0, nl = strlen(name);
	char *p = malloc(dl + nl + 2);
	if (p == NULL)
		return NULL;
	size_t at = dl;
	if (dl > 0) {
		memcpy(p, dir, dl);
		if (dir[dl - 1] != '/')
			p[at++] = '/';
	}
	memcpy(p + at, name, nl + 1);
	return p;
}
