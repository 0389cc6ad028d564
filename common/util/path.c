/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* path.c — joining path components, and a path pattern's components compiled as regexes. */
#include "config.h"
#include "common/util/path.h"
#include "common/util/error.h"
#include "common/util/sizes.h"

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

regex_t *sq_path_regcomp(char *const *parts, size_t n, const char *what, const char *pattern,
			 struct sq_error *err)
{
	regex_t *re = sq_alloc_array(n, sizeof(*re));
	if (re == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		int rc = regcomp(&re[i], parts[i], REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			char why[200];
			regerror(rc, &re[i], why, sizeof(why));
			sq_path_regfree(re, i);
			sq_fail(err, SQ_ERR_USAGE, "%s \"%s\"%s%s%s: %s", what, parts[i],
				pattern != NULL ? " in \"" : "", pattern != NULL ? pattern : "",
				pattern != NULL ? "\"" : "", why);
			return NULL;
		}
	}
	return re;
}

void sq_path_regfree(regex_t *re, size_t n)
{
	if (re == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		regfree(&re[i]);
	free(re);
}
