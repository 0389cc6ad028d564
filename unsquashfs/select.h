/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* select.h — which entries a walk visits: extract and exclude pathnames, matched a component
 * at a time as shell wildcards, POSIX regular expressions or literal names. */
#ifndef SQ_UNSQUASHFS_SELECT_H
#define SQ_UNSQUASHFS_SELECT_H

#include <regex.h>
#include <stddef.h>

#include "common/util/error.h"

enum unsq_match {
	UNSQ_MATCH_GLOB,    /* fnmatch with extended patterns (the default) */
	UNSQ_MATCH_LITERAL, /* -no-wildcards */
	UNSQ_MATCH_REGEX,   /* -regex: each component an extended regular expression */
};

struct unsq_pattern {
	const char *text; /* as given, for messages */
	char **comp;      /* components, "." and empty ones dropped */
	regex_t *re;      /* one per component under UNSQ_MATCH_REGEX */
	size_t ncomp;
	int anchored;     /* 0 for an exclude written "... pattern": it matches at any depth */
	int matched;      /* set by the walk when the pattern selected or excluded something */
};

struct unsq_select {
	enum unsq_match how;
	struct unsq_pattern *extract, *exclude;
	size_t nextract, nexclude;
	int all; /* no extract pathname (or one naming the root): everything is selected */
};

/* Compile the pathnames (kept by reference, not copied). A bad regular expression fails
 * naming it. */
int unsq_select_init(struct unsq_select *s, enum unsq_match how, char *const *extract, size_t nextract,
		     char *const *exclude, size_t nexclude, struct sq_error *err);
void unsq_select_free(struct unsq_select *s);

/* Does component c of pattern p match name? */
int unsq_select_match(const struct unsq_select *s, const struct unsq_pattern *p, size_t c, const char *name);

/* Clear the matched marks (before a walk whose -match check should count alone). */
void unsq_select_reset(struct unsq_select *s);

/* -match: fail naming the first extract or exclude pathname that matched nothing. */
int unsq_select_check(const struct unsq_select *s, struct sq_error *err);

#endif
