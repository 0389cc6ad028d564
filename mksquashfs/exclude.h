/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* exclude.h — -e / -ef exclusions: plain paths (matched by identity, as squashfs-tools does),
 * or with -wildcards / -regex, patterns matched component by component against image paths. */
#ifndef SQ_MKSQUASHFS_EXCLUDE_H
#define SQ_MKSQUASHFS_EXCLUDE_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/util/error.h"

struct exclude_id {
	dev_t dev;
	ino_t ino;
};

struct exclude_pattern {
	char **parts;       /* path components of the pattern */
	regex_t *regexes;   /* -regex: one compiled expression per component */
	uint32_t count;
	bool anywhere;      /* "... pattern": may match at any depth, not only from the root */
};

struct exclude_list {
	bool wildcards;     /* patterns (fnmatch, or regex when regex is set) instead of paths */
	bool regex;
	struct exclude_id *ids;
	uint32_t id_count;
	struct exclude_pattern *patterns;
	uint32_t pattern_count;
};

/* Build the list. Plain excludes are looked up now: an absolute or ./ ../ path as given, any
 * other path relative to each source (a path that does not exist excludes nothing, as in
 * squashfs-tools). A bad regular expression is an error naming it. */
int exclude_init(struct exclude_list *x, char *const *patterns, uint32_t count, bool wildcards,
		 bool regex, char *const *sources, int source_count, struct sq_error *err);
/* Exclude one more identity (the image itself, when it lies inside a source). */
int exclude_add_id(struct exclude_list *x, dev_t dev, ino_t ino, struct sq_error *err);

/* Is the entry at image path parts[0..depth) (parts[depth-1] is its name), with this identity,
 * excluded? */
bool exclude_match(const struct exclude_list *x, const char *const *parts, uint32_t depth,
		   dev_t dev, ino_t ino);

void exclude_free(struct exclude_list *x);

#endif
