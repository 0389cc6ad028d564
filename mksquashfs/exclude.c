/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* exclude.c — deciding which scanned entries stay out of the image. */
#include "config.h"
#include "mksquashfs/exclude.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util/path.h"
#include "common/util/sizes.h"

int exclude_add_id(struct exclude_list *x, dev_t dev, ino_t ino, struct sq_error *err)
{
	struct exclude_id *grown = sq_realloc_array(x->ids, (size_t)x->id_count + 1, sizeof(*grown));
	if (grown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	x->ids = grown;
	x->ids[x->id_count].dev = dev;
	x->ids[x->id_count].ino = ino;
	x->id_count++;
	return 0;
}

static int add_plain(struct exclude_list *x, const char *path, char *const *sources,
		     int source_count, struct sq_error *err)
{
	struct stat st;
	bool as_given = path[0] == '/' || strncmp(path, "./", 2) == 0 ||
			strncmp(path, "../", 3) == 0;
	if (as_given) {
		if (lstat(path, &st) == 0)
			return exclude_add_id(x, st.st_dev, st.st_ino, err);
		return 0;
	}
	for (int i = 0; i < source_count; i++) {
		size_t len = strlen(sources[i]) + strlen(path) + 2;
		char *full = malloc(len);
		if (full == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		snprintf(full, len, "%s/%s", sources[i], path);
		int found = lstat(full, &st) == 0;
		free(full);
		if (found && exclude_add_id(x, st.st_dev, st.st_ino, err) != 0)
			return -1;
	}
	return 0;
}

/* Split on '/', dropping empty components and "." so "./a//b" is {a, b}. */
static int split_pattern(struct exclude_pattern *p, const char *text, struct sq_error *err)
{
	char *copy = strdup(text);
	if (copy == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	uint32_t max = 1;
	for (const char *c = text; *c; c++)
		max += *c == '/';
	p->parts = sq_alloc_array(max, sizeof(char *));
	if (p->parts == NULL) {
		free(copy);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	char *save = NULL;
	for (char *tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		p->parts[p->count] = strdup(tok);
		if (p->parts[p->count] == NULL) {
			free(copy);
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		}
		p->count++;
	}
	free(copy);
	return 0;
}

static int add_pattern(struct exclude_list *x, const char *text, struct sq_error *err)
{
	struct exclude_pattern *grown =
		sq_realloc_array(x->patterns, (size_t)x->pattern_count + 1, sizeof(*grown));
	if (grown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	x->patterns = grown;
	struct exclude_pattern *p = &x->patterns[x->pattern_count++];
	memset(p, 0, sizeof(*p));
	if (strncmp(text, "... ", 4) == 0) {
		p->anywhere = true;
		text += 4;
	}
	if (split_pattern(p, text, err) != 0)
		return -1;
	if (p->count == 0)
		return sq_fail(err, SQ_ERR_USAGE, "exclude pattern \"%s\" names nothing", text);
	if (!x->regex)
		return 0;
	p->regexes = sq_path_regcomp(p->parts, p->count, "invalid exclude regex", NULL, err);
	return p->regexes != NULL ? 0 : -1;
}

int exclude_init(struct exclude_list *x, char *const *patterns, uint32_t count, bool wildcards,
		 bool regex, char *const *sources, int source_count, struct sq_error *err)
{
	memset(x, 0, sizeof(*x));
	x->wildcards = wildcards || regex;
	x->regex = regex;
	for (uint32_t i = 0; i < count; i++) {
		int rc = x->wildcards ? add_pattern(x, patterns[i], err)
				      : add_plain(x, patterns[i], sources, source_count, err);
		if (rc != 0)
			return -1;
	}
	return 0;
}

static bool part_matches(const struct exclude_list *x, const struct exclude_pattern *p,
			 uint32_t i, const char *name)
{
	if (x->regex)
		return regexec(&p->regexes[i], name, 0, NULL, 0) == 0;
	return fnmatch(p->parts[i], name, FNM_PATHNAME | FNM_PERIOD | FNM_EXTMATCH) == 0;
}

static bool pattern_matches_at(const struct exclude_list *x, const struct exclude_pattern *p,
			       const char *const *parts)
{
	for (uint32_t i = 0; i < p->count; i++)
		if (!part_matches(x, p, i, parts[i]))
			return false;
	return true;
}

bool exclude_match(const struct exclude_list *x, const char *const *parts, uint32_t depth,
		   dev_t dev, ino_t ino)
{
	for (uint32_t i = 0; i < x->id_count; i++)
		if (x->ids[i].dev == dev && x->ids[i].ino == ino)
			return true;
	/* Parents were checked when they were scanned, so only patterns ending at this entry
	 * matter: an excluded directory is never entered. */
	for (uint32_t i = 0; i < x->pattern_count; i++) {
		const struct exclude_pattern *p = &x->patterns[i];
		if (p->count > depth)
			continue;
		if (p->anywhere ? pattern_matches_at(x, p, parts + depth - p->count)
				: (p->count == depth && pattern_matches_at(x, p, parts)))
			return true;
	}
	return false;
}

void exclude_free(struct exclude_list *x)
{
	for (uint32_t i = 0; i < x->pattern_count; i++) {
		struct exclude_pattern *p = &x->patterns[i];
		sq_path_regfree(p->regexes, p->count);
		for (uint32_t j = 0; j < p->count; j++)
			free(p->parts[j]);
		free(p->parts);
	}
	free(x->patterns);
	free(x->ids);
	memset(x, 0, sizeof(*x));
}
