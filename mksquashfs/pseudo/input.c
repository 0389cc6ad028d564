/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* input.c — where definitions come from: -p words, -pd, and -pf files (or standard input): one
 * definition per line, a trailing backslash continues it, "#" lines are comments, and the
 * "# START OF DATA - DO NOT MODIFY" marker of unsquashfs -pf output starts the bytes that R
 * definitions point into. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mksquashfs/pseudo/internal.h"

/* A logical line (continuations joined) longer than this is refused, not read into memory. */
#define MAX_LINE (16u << 20)
#define DATA_MARKER "# START OF DATA - DO NOT MODIFY"

static int add_text(struct pseudo_set *set, const char *text, const struct pseudo_where *where,
		    struct pseudo_data *data, struct sq_error *err)
{
	struct pseudo_def *def = calloc(1, sizeof(*def));
	if (def == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	char **parts = NULL;
	if (pseudo_parse(set, text, where, data, def, &parts, err) != 0) {
		pseudo_def_free(def);
		return -1;
	}
	int rc = pseudo_set_add(set, def, parts, err);
	pseudo_parts_free(parts);
	return rc;
}

static const char *keep_origin(struct pseudo_set *set, const char *opt, const char *text)
{
	size_t len = strlen(text);
	char buf[160];
	snprintf(buf, sizeof(buf), "%s \"%.*s%s\"", opt, len > 100 ? 100 : (int)len, text,
		 len > 100 ? "..." : "");
	return pseudo_set_keep(set, buf);
}

int pseudo_add_definition(struct pseudo_set *set, const char *text, struct sq_error *err)
{
	struct pseudo_where where = { .origin = keep_origin(set, "-p", text) };
	if (where.origin == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	return add_text(set, text, &where, NULL, err);
}

int pseudo_set_default_dir(struct pseudo_set *set, const char *text, struct sq_error *err)
{
	struct pseudo_where where = { .origin = keep_origin(set, "-pd", text) };
	struct pseudo_def *def = calloc(1, sizeof(*def));
	if (where.origin == NULL || def == NULL) {
		free(def);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	if (pseudo_parse_dir(text, &where, def, err) != 0) {
		pseudo_def_free(def);
		return -1;
	}
	pseudo_def_free(set->default_dir);
	set->default_dir = def;
	return 0;
}

/* One physical line into *buf (newline removed), growing it up to MAX_LINE. 1 a line, 0 end of
 * file, -1 too long or a read error (errno). */
static int read_line(FILE *f, char **buf, size_t *cap, size_t *len)
{
	*len = 0;
	for (;;) {
		if (*cap - *len < 2) {
			size_t n = *cap ? *cap * 2 : 4096;
			char *b = realloc(*buf, n);
			if (b == NULL)
				return -1;
			*buf = b;
			*cap = n;
		}
		if (fgets(*buf + *len, (int)(*cap - *len), f) == NULL)
			return ferror(f) ? -1 : *len > 0;
		*len += strlen(*buf + *len);
		if (*len > 0 && (*buf)[*len - 1] == '\n') {
			(*buf)[--*len] = '\0';
			return 1;
		}
		if (*len > MAX_LINE) {
			errno = EFBIG;
			return -1;
		}
	}
}

struct reader {
	struct pseudo_set *set;
	FILE *f;
	const char *path;
	struct pseudo_where where;
	struct pseudo_data *data;
	char *line, *phys;
	size_t line_cap, phys_cap;
	uint32_t lineno;
	bool found_data;
};

static int read_fail(struct reader *r, const char *what, struct sq_error *err)
{
	if (errno == EFBIG)
		return sq_fail(err, SQ_ERR_USAGE, "%s line %u: %s longer than 16 MiB",
			       r->where.origin, r->lineno, what);
	return sq_fail_errno(err, "cannot read %s", r->where.origin);
}

/* Append a continuation line to the logical line. */
static int append(struct reader *r, const char *s, size_t n, size_t *len)
{
	if (*len + n + 1 > r->line_cap) {
		size_t cap = (*len + n + 1) * 2;
		char *b = realloc(r->line, cap);
		if (b == NULL)
			return -1;
		r->line = b;
		r->line_cap = cap;
	}
	memcpy(r->line + *len, s, n);
	*len += n;
	r->line[*len] = '\0';
	return 0;
}

/* The data section starts after the marker and one more "#" line. */
static int start_data(struct reader *r, struct sq_error *err)
{
	size_t len;
	r->lineno++;
	int got = read_line(r->f, &r->phys, &r->phys_cap, &len);
	if (got < 0)
		return read_fail(r, "the data marker", err);
	if (got == 0 || strcmp(r->phys, "#") != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s line %u: a \"#\" line must follow the START "
			       "OF DATA marker", r->where.origin, r->lineno);
	r->found_data = true;
	return 0;
}

/* One logical line; 1 when one was read, 0 at the end (or the data marker). */
static int next_definition(struct reader *r, struct sq_error *err)
{
	for (;;) {
		size_t len, total = 0;
		r->lineno++;
		int got = read_line(r->f, &r->phys, &r->phys_cap, &len);
		if (got <= 0)
			return got == 0 ? 0 : read_fail(r, "a line", err);
		const char *p = r->phys + strspn(r->phys, " \t\r");
		if (strcmp(p, DATA_MARKER) == 0)
			return start_data(r, err) == 0 ? 0 : -1;
		if (*p == '\0' || *p == '#')
			continue;
		uint32_t first = r->lineno;
		while (len > 0 && r->phys[len - 1] == '\\') {
			if (append(r, r->phys, len - 1, &total) != 0)
				return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
			if (total > MAX_LINE) {
				errno = EFBIG;
				return read_fail(r, "a continued line", err);
			}
			r->lineno++;
			got = read_line(r->f, &r->phys, &r->phys_cap, &len);
			if (got < 0)
				return read_fail(r, "a line", err);
			if (got == 0)
				len = 0, r->phys[0] = '\0';
		}
		if (append(r, r->phys, len, &total) != 0)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		if (len > 0 && r->phys[len - 1] == '\r')
			r->line[--total] = '\0';
		r->where.line = first;
		return 1;
	}
}

/* Where the data section's bytes are: the file itself when it can be read at an offset,
 * otherwise (a pipe) a copy in the spool. */
static int locate_data(struct reader *r, struct sq_error *err)
{
	struct pseudo_data *d = r->data;
	struct stat st;
	off_t at = ftello(r->f);
	if (at >= 0 && fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode)) {
		d->fd = r->path ? open(r->path, O_RDONLY | O_CLOEXEC) : dup(fileno(r->f));
		if (d->fd < 0)
			return sq_fail_errno(err, "cannot reopen %s", r->where.origin);
		d->owned = true;
		d->base = (uint64_t)at;
		d->size = (uint64_t)st.st_size > d->base ? (uint64_t)st.st_size - d->base : 0;
		return 0;
	}
	char why[200] = "";
	if (pseudo_spool_copy(&r->set->spool, r->f, &d->base, &d->size, why, sizeof(why)) != 0)
		return sq_fail(err, SQ_ERR_IO, "%s: cannot copy the data section: %s",
			       r->where.origin, why);
	d->fd = r->set->spool.fd;
	return 0;
}

/* Every R definition of this file must lie inside its data section. */
static int check_data(struct reader *r, struct sq_error *err)
{
	struct pseudo_set *set = r->set;
	for (size_t i = 0; i < set->def_count; i++) {
		const struct pseudo_def *d = set->defs[i];
		if (d->data != r->data)
			continue;
		if (!r->found_data)
			return pseudo_fail(err, &d->where, "R definition but no \"" DATA_MARKER
					   "\" section in the file");
		if (d->offset > r->data->size || d->length > r->data->size - d->offset)
			return pseudo_fail(err, &d->where, "bytes %llu..%llu are beyond the %llu bytes "
					   "of the data section (truncated file?)",
					   (unsigned long long)d->offset,
					   (unsigned long long)(d->offset + d->length),
					   (unsigned long long)r->data->size);
	}
	return 0;
}

static int read_file(struct reader *r, struct sq_error *err)
{
	int got;
	while ((got = next_definition(r, err)) == 1)
		if (add_text(r->set, r->line, &r->where, r->data, err) != 0)
			return -1;
	if (got < 0)
		return -1;
	if (r->found_data && locate_data(r, err) != 0)
		return -1;
	return check_data(r, err);
}

int pseudo_add_file(struct pseudo_set *set, const char *path, struct sq_error *err)
{
	bool is_stdin = strcmp(path, "-") == 0;
	if (is_stdin && set->stdin_read)
		return sq_fail(err, SQ_ERR_USAGE, "-pf - given twice: standard input is read once");
	char origin[4200];
	snprintf(origin, sizeof(origin), "pseudo file %s", is_stdin ? "- (standard input)" : path);
	struct reader r = { .set = set, .path = is_stdin ? NULL : path };
	r.where.origin = pseudo_set_keep(set, origin);
	r.data = calloc(1, sizeof(*r.data));
	if (r.where.origin == NULL || r.data == NULL) {
		free(r.data);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	r.data->fd = -1;
	if (pseudo_set_keep_data(set, r.data, err) != 0) {
		free(r.data);
		return -1;
	}
	r.f = is_stdin ? stdin : fopen(path, "re");
	if (r.f == NULL)
		return sq_fail_errno(err, "cannot open pseudo file %s", path);
	set->stdin_read |= is_stdin;
	int rc = read_file(&r, err);
	if (!is_stdin)
		fclose(r.f);
	free(r.line);
	free(r.phys);
	return rc;
}
