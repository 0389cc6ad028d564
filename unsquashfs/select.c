/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* select.c — compiling extract/exclude pathnames into per-component matchers. */
#include "config.h"
#include "unsquashfs/select.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "common/util/path.h"

#ifndef FNM_EXTMATCH
#define FNM_EXTMATCH 0 /* extended patterns are a GNU extension; plain globbing elsewhere */
#endif

static void free_pattern(struct unsq_pattern *p)
{
	for (size_t j = 0; j < p->ncomp; j++)
		free(p->comp[j]);
	free(p->comp);
	sq_path_regfree(p->re, p->ncomp);
}

static int add_comp(struct unsq_pattern *p, const char *s, size_t len, struct sq_error *err)
{
	char **n = realloc(p->comp, (p->ncomp + 1) * sizeof(char *));
	if (n == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	p->comp = n;
	p->comp[p->ncomp] = strndup(s, len);
	if (p->comp[p->ncomp] == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	p->ncomp++;
	return 0;
}

static int compile_regex(struct unsq_pattern *p, struct sq_error *err)
{
	p->re = sq_path_regcomp(p->comp, p->ncomp, "bad regular expression", p->text, err);
	return p->re != NULL ? 0 : -1;
}

/* Split text at '/' into components; an exclude beginning "... " matches at any depth. */
static int make_pattern(struct unsq_pattern *p, const char *text, int is_exclude, enum unsq_match how,
			struct sq_error *err)
{
	memset(p, 0, sizeof(*p));
	p->text = text;
	p->anchored = 1;
	const char *s = text;
	if (is_exclude && strncmp(s, "... ", 4) == 0) {
		p->anchored = 0;
		s += 4;
	}
	while (*s) {
		while (*s == '/')
			s++;
		size_t len = strcspn(s, "/");
		if (len == 0)
			break;
		if (!(len == 1 && s[0] == '.') && add_comp(p, s, len, err))
			return -1;
		s += len;
	}
	if (how == UNSQ_MATCH_REGEX && compile_regex(p, err))
		return -1;
	return 0;
}

static int make_list(struct unsq_pattern **out, size_t *count, char *const *texts, size_t n, int is_exclude,
		     enum unsq_match how, struct sq_error *err)
{
	*out = calloc(n ? n : 1, sizeof(**out));
	if (*out == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		*count = i + 1; /* freed by unsq_select_free even when half made */
		if (make_pattern(&(*out)[i], texts[i], is_exclude, how, err))
			return -1;
	}
	*count = n;
	return 0;
}

int unsq_select_init(struct unsq_select *s, enum unsq_match how, char *const *extract, size_t nextract,
		     char *const *exclude, size_t nexclude, struct sq_error *err)
{
	memset(s, 0, sizeof(*s));
	s->how = how;
	if (make_list(&s->extract, &s->nextract, extract, nextract, 0, how, err) ||
	    make_list(&s->exclude, &s->nexclude, exclude, nexclude, 1, how, err)) {
		unsq_select_free(s);
		return -1;
	}
	s->all = nextract == 0;
	for (size_t i = 0; i < s->nextract; i++)
		if (s->extract[i].ncomp == 0)
			s->all = 1; /* "/" or "." selects everything */
	return 0;
}

void unsq_select_free(struct unsq_select *s)
{
	for (size_t i = 0; i < s->nextract; i++)
		free_pattern(&s->extract[i]);
	for (size_t i = 0; i < s->nexclude; i++)
		free_pattern(&s->exclude[i]);
	free(s->extract);
	free(s->exclude);
	s->extract = s->exclude = NULL;
	s->nextract = s->nexclude = 0;
}

int unsq_select_match(const struct unsq_select *s, const struct unsq_pattern *p, size_t c, const char *name)
{
	switch (s->how) {
	case UNSQ_MATCH_LITERAL:
		return strcmp(p->comp[c], name) == 0;
	case UNSQ_MATCH_REGEX:
		return regexec(&p->re[c], name, 0, NULL, 0) == 0;
	default:
		return fnmatch(p->comp[c], name, FNM_PERIOD | FNM_EXTMATCH) == 0;
	}
}

void unsq_select_reset(struct unsq_select *s)
{
	for (size_t i = 0; i < s->nextract; i++)
		s->extract[i].matched = 0;
	for (size_t i = 0; i < s->nexclude; i++)
		s->exclude[i].matched = 0;
}

int unsq_select_check(const struct unsq_select *s, struct sq_error *err)
{
	for (size_t i = 0; i < s->nextract; i++)
		if (!s->extract[i].matched && s->extract[i].ncomp > 0)
			return sq_fail(err, SQ_ERR_USAGE, "extract pathname \"%s\" did not match anything (-match)",
				       s->extract[i].text);
	for (size_t i = 0; i < s->nexclude; i++)
		if (!s->exclude[i].matched)
			return sq_fail(err, SQ_ERR_USAGE, "exclude pathname \"%s\" did not match anything (-match)",
				       s->exclude[i].text);
	return 0;
}
