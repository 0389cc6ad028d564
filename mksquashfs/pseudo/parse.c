/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* parse.c — one pseudo definition's text to a struct pseudo_def: "NAME TYPE FIELDS". Names, link
 * paths and times are words (double quotes group, a backslash takes the next character as is);
 * mode, owner and numbers are plain tokens; commands and symlink targets are the rest of the
 * line. Any error names where the definition came from and what is wrong. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util/sizes.h"
#include "mksquashfs/pseudo/internal.h"

/* Linux's rdev encoding in squashfs keeps 12 bits of major and 20 of minor. */
#define MAX_MAJOR 0xfffu
#define MAX_MINOR 0xfffffu
/* squashfs-tools' limit on symlink targets. */
#define MAX_SYMLINK 65535u
#define MAX_NAME 255u

const char *pseudo_where_text(const struct pseudo_where *w, char *buf, size_t len)
{
	if (w->line == 0)
		snprintf(buf, len, "%.120s%s", w->origin, strlen(w->origin) > 120 ? "...\"" : "");
	else
		snprintf(buf, len, "%s line %u", w->origin, w->line);
	return buf;
}

int pseudo_fail(struct sq_error *err, const struct pseudo_where *w, const char *fmt, ...)
{
	char where[200], what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sq_fail(err, SQ_ERR_USAGE, "%s: %s", pseudo_where_text(w, where, sizeof(where)),
		       what);
}

static void skip_space(const char **p)
{
	while (isspace((unsigned char)**p))
		(*p)++;
}

/* A word at *p: double quotes group spaces, a backslash takes the next character literally.
 * NULL when memory is short. */
static char *read_word(const char **p, size_t *len)
{
	skip_space(p);
	char *out = malloc(strlen(*p) + 1);
	if (out == NULL)
		return NULL;
	size_t n = 0;
	bool quoted = false;
	while (**p != '\0' && (quoted || !isspace((unsigned char)**p))) {
		if (**p == '"') {
			quoted = !quoted;
			(*p)++;
			continue;
		}
		if (**p == '\\' && (*p)[1] != '\0')
			(*p)++;
		out[n++] = *(*p)++;
	}
	out[n] = '\0';
	*len = n;
	return out;
}

/* A plain token (up to white space) copied into buf; false when absent or too long. */
static bool read_token(const char **p, char *buf, size_t cap)
{
	skip_space(p);
	size_t n = 0;
	while (**p != '\0' && !isspace((unsigned char)**p)) {
		if (n + 1 >= cap)
			return false;
		buf[n++] = *(*p)++;
	}
	buf[n] = '\0';
	return n > 0;
}

void pseudo_parts_free(char **parts)
{
	if (parts == NULL)
		return;
	for (size_t i = 0; parts[i] != NULL; i++)
		free(parts[i]);
	free(parts);
}

/* Split a path into its names: empty components are skipped, "." and ".." refused. */
static int split_path(const char *path, const struct pseudo_where *w, char ***out,
		      struct sq_error *err)
{
	size_t max = 1;
	for (const char *c = path; *c; c++)
		max += *c == '/';
	char **parts = sq_alloc_array(max + 1, sizeof(*parts));
	if (parts == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (const char *c = path; *c;) {
		const char *end = strchr(c, '/');
		size_t len = end ? (size_t)(end - c) : strlen(c);
		if ((len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.')) {
			pseudo_parts_free(parts);
			return pseudo_fail(err, w, "\"%.*s\" in the path \"%.100s\" (paths are from "
					   "the image root; . and .. are not allowed)", (int)len, c, path);
		}
		if (len > MAX_NAME) {
			pseudo_parts_free(parts);
			return pseudo_fail(err, w, "a name in \"%.60s...\" is %zu bytes long (at most "
					   "255)", path, len);
		}
		if (len > 0 && (parts[n++] = strndup(c, len)) == NULL) {
			pseudo_parts_free(parts);
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		}
		c += len + (end != NULL);
	}
	*out = parts;
	return 0;
}

static int parse_mode(const char **p, const struct pseudo_where *w, uint32_t *mode,
		      struct sq_error *err)
{
	char tok[32];
	skip_space(p);
	if (**p == '\0')
		return pseudo_fail(err, w, "missing mode");
	bool ok = read_token(p, tok, sizeof(tok));
	uint32_t v = 0;
	for (const char *c = tok; ok && *c; c++) {
		ok = *c >= '0' && *c <= '7';
		v = v * 8 + (uint32_t)(*c - '0');
		ok = ok && v <= 07777;
	}
	if (!ok)
		return pseudo_fail(err, w, "bad mode \"%s\" (octal number <= 07777 expected)", tok);
	*mode = v;
	return 0;
}

static int parse_owner(const char **p, const struct pseudo_where *w, bool group, uint32_t *id,
		       struct sq_error *err)
{
	char tok[256];
	const char *what = group ? "gid" : "uid";
	if (!read_token(p, tok, sizeof(tok)))
		return pseudo_fail(err, w, "missing or too long %s", what);
	uint64_t v;
	if (isdigit((unsigned char)tok[0])) {
		if (sq_parse_uint(tok, UINT32_MAX, &v) != 0)
			return pseudo_fail(err, w, "%s \"%s\" is not a number below 2^32", what, tok);
		*id = (uint32_t)v;
		return 0;
	}
	if (group) {
		struct group *g = getgrnam(tok);
		if (g == NULL)
			return pseudo_fail(err, w, "unknown group \"%s\"", tok);
		*id = (uint32_t)g->gr_gid;
	} else {
		struct passwd *u = getpwnam(tok);
		if (u == NULL)
			return pseudo_fail(err, w, "unknown user \"%s\"", tok);
		*id = (uint32_t)u->pw_uid;
	}
	return 0;
}

static int parse_number(const char **p, const struct pseudo_where *w, const char *what,
			uint64_t max, uint64_t *out, struct sq_error *err)
{
	char tok[32];
	skip_space(p);
	if (**p == '\0')
		return pseudo_fail(err, w, "missing %s", what);
	if (!read_token(p, tok, sizeof(tok)) || sq_parse_uint(tok, max, out) != 0)
		return pseudo_fail(err, w, "bad %s \"%s\" (a number up to %llu expected)", what, tok,
				   (unsigned long long)max);
	return 0;
}

static int parse_time_word(const char **p, const struct pseudo_where *w, uint32_t *t,
			   struct sq_error *err)
{
	size_t len;
	char *word = read_word(p, &len);
	if (word == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	char why[160] = "";
	int rc = len == 0 ? -1 : pseudo_parse_time(word, t, why, sizeof(why));
	if (rc != 0)
		pseudo_fail(err, w, "bad time \"%.60s\": %s", word, why[0] ? why : "missing");
	free(word);
	return rc;
}

/* The rest of the line after white space (commands, symlink targets). */
static int rest_of_line(const char **p, const struct pseudo_where *w, const char *what,
			size_t max, char **out, struct sq_error *err)
{
	skip_space(p);
	size_t len = strlen(*p);
	if (len == 0)
		return pseudo_fail(err, w, "missing %s", what);
	if (len > max)
		return pseudo_fail(err, w, "%s is %zu bytes long (at most %zu)", what, len, max);
	*out = strdup(*p);
	if (*out == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	*p += len;
	return 0;
}

/* mode uid gid, and the fields that follow them for each type. */
static int parse_attrs(const char **p, const struct pseudo_where *w, struct pseudo_def *d,
		       struct sq_error *err)
{
	if (parse_mode(p, w, &d->mode, err) != 0 || parse_owner(p, w, false, &d->uid, err) != 0 ||
	    parse_owner(p, w, true, &d->gid, err) != 0)
		return -1;
	uint64_t v;
	char tok[8];
	switch (d->type) {
	case 'b':
	case 'c':
		if (parse_number(p, w, "major", MAX_MAJOR, &v, err) != 0)
			return -1;
		d->major = (uint32_t)v;
		if (parse_number(p, w, "minor", MAX_MINOR, &v, err) != 0)
			return -1;
		d->minor = (uint32_t)v;
		return 0;
	case 'i':
		if (!read_token(p, tok, sizeof(tok)) || (strcmp(tok, "s") != 0 && strcmp(tok, "f") != 0))
			return pseudo_fail(err, w, "expected s (socket) or f (fifo) after the gid");
		d->ipc = tok[0];
		return 0;
	case 'f':
		return rest_of_line(p, w, "command", SIZE_MAX, &d->arg, err);
	case 's':
		return rest_of_line(p, w, "symlink target", MAX_SYMLINK, &d->arg, err);
	}
	return 0;
}

/* R: time mode uid gid length offset [sparse], bytes of the pseudo file's data section. */
static int parse_regular(const char **p, const struct pseudo_where *w, struct pseudo_data *data,
			 struct pseudo_def *d, struct sq_error *err)
{
	if (data == NULL)
		return pseudo_fail(err, w, "R definitions are only allowed in a pseudo file (-pf) "
				   "with a data section");
	d->data = data;
	uint64_t v;
	if (parse_time_word(p, w, &d->mtime, err) != 0 || parse_mode(p, w, &d->mode, err) != 0 ||
	    parse_owner(p, w, false, &d->uid, err) != 0 ||
	    parse_owner(p, w, true, &d->gid, err) != 0 ||
	    parse_number(p, w, "length", INT64_MAX, &d->length, err) != 0 ||
	    parse_number(p, w, "offset", INT64_MAX, &d->offset, err) != 0)
		return -1;
	skip_space(p);
	/* 4.6 adds a sparse flag; how the file is stored does not depend on it here. */
	if (**p != '\0' && parse_number(p, w, "sparse flag", 1, &v, err) != 0)
		return -1;
	return 0;
}

static int parse_link(struct pseudo_set *set, const char **p, const struct pseudo_where *w,
		      struct pseudo_def *d, struct sq_error *err);

static int parse_fields(struct pseudo_set *set, const char **p, const struct pseudo_where *w,
			struct pseudo_data *data, struct pseudo_def *d, struct sq_error *err)
{
	char why[200] = "";
	switch (d->type) {
	case 'R':
		return parse_regular(p, w, data, d, err);
	case 'l':
	case 'h':
	case 'L':
		return parse_link(set, p, w, d, err);
	case 'x':
		skip_space(p);
		if (pseudo_parse_xattr(*p, &d->xattr, why, sizeof(why)) != 0)
			return pseudo_fail(err, w, "bad xattr \"%.80s\": %s", *p, why);
		*p += strlen(*p);
		return 0;
	}
	if (d->timed && parse_time_word(p, w, &d->mtime, err) != 0)
		return -1;
	return parse_attrs(p, w, d, err);
}

/* l/h: a host path (h follows symlinks); L: an earlier pseudo definition. */
static int parse_link(struct pseudo_set *set, const char **p, const struct pseudo_where *w,
		      struct pseudo_def *d, struct sq_error *err)
{
	size_t len;
	char *word = read_word(p, &len);
	if (word == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	int rc = -1;
	if (len == 0) {
		pseudo_fail(err, w, "missing link target");
	} else if (d->type == 'L') {
		char **parts = NULL;
		if (split_path(word, w, &parts, err) == 0) {
			struct pseudo_node *n = parts[0] ? pseudo_set_lookup(set, parts) : NULL;
			if (n == NULL || n->def == NULL)
				pseudo_fail(err, w, "L target \"%.100s\" is not an earlier pseudo "
					    "definition", word);
			else if (n->def->type == 'd' || n->def->type == 'm')
				pseudo_fail(err, w, "L target \"%.100s\" is a directory or modify "
					    "definition, which cannot be hard-linked", word);
			else {
				d->target = n->def->type == 'L' ? n->def->target : n->def;
				rc = 0;
			}
			pseudo_parts_free(parts);
		}
	} else {
		char *path = d->type == 'h' ? realpath(word, NULL) : strdup(word);
		struct stat st;
		if (path == NULL)
			pseudo_fail(err, w, "cannot resolve link target %.100s: %s", word, strerror(errno));
		else if (lstat(path, &st) != 0)
			pseudo_fail(err, w, "cannot stat link target %.100s: %s", word, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			pseudo_fail(err, w, "link target %.100s is a directory, which cannot be "
				    "hard-linked", word);
		else {
			d->arg = path;
			path = NULL;
			rc = 0;
		}
		free(path);
	}
	free(word);
	return rc;
}

static bool known_type(char c)
{
	return c != '\0' && strchr("dmbcfsilhLxDMBCFSIR", c) != NULL;
}

int pseudo_parse(struct pseudo_set *set, const char *text, const struct pseudo_where *where,
		 struct pseudo_data *data, struct pseudo_def *def, char ***parts,
		 struct sq_error *err)
{
	memset(def, 0, sizeof(*def));
	def->where = *where;
	*parts = NULL;
	const char *p = text;
	size_t len;
	char *name = read_word(&p, &len);
	if (name == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	int rc = -1;
	skip_space(&p);
	char type = *p;
	if (len == 0) {
		pseudo_fail(err, where, "missing file name");
	} else if (!known_type(type) || (p[1] != '\0' && !isspace((unsigned char)p[1]))) {
		int tlen = 0;
		while (p[tlen] != '\0' && !isspace((unsigned char)p[tlen]) && tlen < 16)
			tlen++;
		pseudo_fail(err, where, "%s type \"%.*s\" after \"%.60s\" (one of d m b c f s "
			    "i x l h L, or D M B C F S I R with a time; quote or backslash spaces "
			    "in names)", tlen ? "unknown" : "missing", tlen, p, name);
	} else if (split_path(name, where, parts, err) == 0) {
		p++;
		def->type = type == 'R' || type == 'L' ? type : (char)tolower((unsigned char)type);
		def->timed = type != 'L' && isupper((unsigned char)type);
		rc = parse_fields(set, &p, where, data, def, err);
		skip_space(&p);
		if (rc == 0 && *p != '\0')
			rc = pseudo_fail(err, where, "unexpected trailing characters \"%.40s\"", p);
		if (rc != 0) {
			pseudo_parts_free(*parts);
			*parts = NULL;
		}
	}
	free(name);
	return rc;
}

int pseudo_parse_dir(const char *text, const struct pseudo_where *where, struct pseudo_def *def,
		     struct sq_error *err)
{
	memset(def, 0, sizeof(*def));
	def->where = *where;
	const char *p = text;
	skip_space(&p);
	if ((*p != 'd' && *p != 'D') || (p[1] != '\0' && !isspace((unsigned char)p[1])))
		return pseudo_fail(err, where, "expected \"d mode uid gid\" or \"D time mode uid "
				   "gid\"");
	def->type = 'd';
	def->timed = *p == 'D';
	p++;
	if ((def->timed && parse_time_word(&p, where, &def->mtime, err) != 0) ||
	    parse_attrs(&p, where, def, err) != 0)
		return -1;
	skip_space(&p);
	if (*p != '\0')
		return pseudo_fail(err, where, "unexpected trailing characters \"%.40s\"", p);
	return 0;
}
