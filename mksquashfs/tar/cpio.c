/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/cpio.c — the sources that keep their whole path: -no-strip / -tarstyle (the command line's
 * sources, recursed) and -cpiostyle / -cpiostyle0 (names read from standard input, one per line
 * or NUL-terminated, each added alone, as cpio takes `find` output); and the choice between
 * them, a tar archive and directory sources. */
#include "config.h"
#include "mksquashfs/tar/tar.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct source_list {
	const struct mksq_options *o;
	int next;
};

static int next_source(void *ctx, const char **path, struct sq_error *err)
{
	(void)err;
	struct source_list *l = ctx;
	if (l->next >= l->o->source_count)
		return 0;
	*path = l->o->sources[l->next++];
	return 1;
}

struct name_reader {
	FILE *in;
	int delim;
	char *line;
	size_t cap;
	unsigned long number;
};

/* The next name: lines (or NUL-terminated names) of standard input, empty ones skipped; at
 * most PATH_MAX bytes, as squashfs-tools 4.5.1 bounds them. */
static int next_name(void *ctx, const char **path, struct sq_error *err)
{
	struct name_reader *r = ctx;
	for (;;) {
		ssize_t len = getdelim(&r->line, &r->cap, r->delim, r->in);
		if (len < 0) {
			if (ferror(r->in))
				return sq_fail_errno(err, "cannot read file names from standard input");
			return 0;
		}
		r->number++;
		if (len > 0 && r->line[len - 1] == r->delim)
			r->line[--len] = '\0';
		if (len == 0)
			continue;
		if (len >= PATH_MAX || strlen(r->line) != (size_t)len)
			return sq_fail(err, SQ_ERR_USAGE,
				       "file name %lu on standard input is %s", r->number,
				       len >= PATH_MAX ? "longer than PATH_MAX" : "holding a NUL byte");
		*path = r->line;
		return 1;
	}
}

bool tar_style_sources(const struct mksq_options *o)
{
	return o->tar.enabled || o->tar.cpiostyle || o->tar.no_strip;
}

int tar_style_read(const struct mksq_options *o, const struct exclude_list *x, struct tree *tree,
		   struct scan_stats *stats, FILE *warn, struct sq_error *err)
{
	if (o->tar.enabled)
		return tar_read_tree(o, x, STDIN_FILENO, tree, stats, warn, err);
	if (!o->tar.cpiostyle) {
		struct source_list l = { .o = o };
		return scan_paths(o, x, tree, stats, warn, true, next_source, &l, err);
	}
	struct name_reader r = { .in = stdin, .delim = o->tar.cpio_nul ? '\0' : '\n' };
	int rc = scan_paths(o, x, tree, stats, warn, false, next_name, &r, err);
	free(r.line);
	return rc;
}
