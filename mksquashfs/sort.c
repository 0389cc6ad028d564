/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sort.c — -sort: the sort file's host paths become (device, inode) priorities; the file list is
 * then reordered so higher priorities are written first. Within one priority squashfs-tools
 * writes the files in the reverse of its walk order (it stacks them), and so do we: the same
 * sort file gives the same data block order as the reference. */
#include "config.h"
#include "mksquashfs/sort.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util/sizes.h"

struct sort_key {
	dev_t dev;
	ino_t ino;
	int32_t priority;
	uint32_t line;       /* a later line for the same file wins */
};

struct sort_table {
	struct sort_key *keys;
	size_t count, cap;
	bool cwd_style;      /* an entry was found from the current directory only */
};

void sort_table_free(struct sort_table *t)
{
	if (t == NULL)
		return;
	free(t->keys);
	free(t);
}

static int add_key(struct sort_table *t, const struct stat *st, int32_t prio, uint32_t line,
		   struct sq_error *err)
{
	struct sort_key *k = sq_grow(t->keys, &t->cap, t->count + 1, sizeof(*k), 64);
	if (k == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	t->keys = k;
	t->keys[t->count++] = (struct sort_key){ st->st_dev, st->st_ino, prio, line };
	return 0;
}

struct sort_reader {
	struct sort_table *t;
	const char *file;
	uint32_t line;
	char *const *sources;
	int source_count;
	FILE *warn;
};

/* Find path on the host (as squashfs-tools resolves sort entries) and record it. */
static int resolve(struct sort_reader *r, char *path, int32_t prio, struct sq_error *err)
{
	size_t len = strlen(path);
	if (len > 2 && strcmp(path + len - 2, "/*") == 0)
		path[len - 2] = '\0';
	struct stat st;
	bool direct = path[0] == '/' || strncmp(path, "./", 2) == 0 || strncmp(path, "../", 3) == 0;
	if (direct || r->t->cwd_style) {
		if (lstat(path, &st) == 0)
			return add_key(r->t, &st, prio, r->line, err);
	} else {
		int found = 0;
		for (int i = 0; i < r->source_count; i++) {
			size_t n = strlen(r->sources[i]) + strlen(path) + 2;
			char *full = malloc(n);
			if (full == NULL)
				return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
			snprintf(full, n, "%s/%s", r->sources[i], path);
			struct stat here;
			if (lstat(full, &here) == 0 && found++ == 0)
				st = here;
			free(full);
		}
		if (found > 1)
			return sq_fail(err, SQ_ERR_USAGE, "sort file %s line %u: \"%s\" is in more than "
				       "one source: use an absolute path", r->file, r->line, path);
		if (found == 1)
			return add_key(r->t, &st, prio, r->line, err);
		if (lstat(path, &st) == 0) {
			if (r->warn != NULL)
				fprintf(r->warn, "sort file %s line %u: \"%s\" is not in a source but "
					"exists from the current directory: mkisofs-style sort list, "
					"every entry is now taken from the current directory\n",
					r->file, r->line, path);
			r->t->cwd_style = true;
			return add_key(r->t, &st, prio, r->line, err);
		}
	}
	if (r->warn != NULL)
		fprintf(r->warn, "sort file %s line %u: cannot stat \"%s\": ignored (paths are taken "
			"inside the sources unless they start with /, ./ or ../)\n", r->file, r->line,
			path);
	return 0;
}

/* "name priority": the name up to white space, a backslash taking the next character. */
static int parse_line(struct sort_reader *r, const char *line, struct sq_error *err)
{
	while (isspace((unsigned char)*line))
		line++;
	if (*line == '#' || *line == '\0')
		return 0;
	char *name = malloc(strlen(line) + 1);
	if (name == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	size_t n = 0;
	while (*line != '\0' && !isspace((unsigned char)*line)) {
		if (*line == '\\' && line[1] != '\0')
			line++;
		name[n++] = *line++;
	}
	name[n] = '\0';
	char *end;
	errno = 0;
	long prio = strtol(line, &end, 10);
	int rc;
	if (end == line)
		rc = sq_fail(err, SQ_ERR_USAGE, "sort file %s line %u: no priority after \"%s\"",
			     r->file, r->line, name);
	else if (errno == ERANGE || prio < -32768 || prio > 32767)
		rc = sq_fail(err, SQ_ERR_USAGE, "sort file %s line %u: priority of \"%s\" outside "
			     "-32768..32767", r->file, r->line, name);
	else if (*(end += strspn(end, " \t\r\n\v\f")) != '\0')
		rc = sq_fail(err, SQ_ERR_USAGE, "sort file %s line %u: trailing characters after "
			     "the priority of \"%s\"", r->file, r->line, name);
	else
		rc = resolve(r, name, (int32_t)prio, err);
	free(name);
	return rc;
}

static int line_cb(void *ctx, const char *line, size_t len, struct sq_error *err)
{
	(void)len;
	struct sort_reader *r = ctx;
	r->line++;
	return parse_line(r, line, err);
}

static int key_cmp(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int sort_table_read(const char *path, char *const *sources, int source_count, FILE *warn,
		    struct sort_table **out, struct sq_error *err)
{
	struct sort_table *t = calloc(1, sizeof(*t));
	if (t == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	struct sort_reader r = { .t = t, .file = path, .sources = sources,
				 .source_count = source_count, .warn = warn };
	/* sq_for_each_line skips empty lines: count them by reading the file ourselves. */
	FILE *f = fopen(path, "re");
	if (f == NULL) {
		sort_table_free(t);
		return sq_fail_errno(err, "cannot open sort file %s", path);
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;
	while (rc == 0 && (got = getline(&line, &cap, f)) >= 0)
		rc = line_cb(&r, line, (size_t)got, err);
	if (rc == 0 && ferror(f))
		rc = sq_fail_errno(err, "cannot read sort file %s", path);
	free(line);
	fclose(f);
	if (rc != 0) {
		sort_table_free(t);
		return -1;
	}
	if (t->count > 1)
		qsort(t->keys, t->count, sizeof(*t->keys), key_cmp);
	*out = t;
	return 0;
}

/* The priority of a host file, or fallback when the table has none. */
static int32_t lookup(const struct sort_table *t, const struct tree_inode *n, int32_t fallback)
{
	struct stat st;
	char path[PATH_MAX];
	/* A path longer than PATH_MAX could not be stat'ed whole either. */
	if (n->source_path == NULL || tree_source_path(n, path, sizeof(path)) >= sizeof(path) ||
	    lstat(path, &st) != 0)
		return fallback;
	size_t lo = 0, hi = t->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sort_key *k = &t->keys[mid];
		if (k->dev < st.st_dev || (k->dev == st.st_dev && k->ino < st.st_ino))
			lo = mid + 1;
		else
			hi = mid;
	}
	int32_t prio = fallback;
	for (; lo < t->count && t->keys[lo].dev == st.st_dev && t->keys[lo].ino == st.st_ino; lo++)
		prio = t->keys[lo].priority; /* the last line for it wins */
	return prio;
}

/* One name of a listed file met in the walk. */
struct sort_hit {
	size_t index;     /* in the file list */
	int32_t priority;
	size_t seq;       /* walk order */
};

struct sort_walk {
	const struct sort_table *t;
	struct tree_inode **slots;   /* listed inode -> its index, open addressing */
	size_t *slot_index;
	size_t slot_cap;
	struct sort_hit *hits;
	size_t hit_count, hit_cap, seq;
	struct sq_error *err;
};

static size_t ptr_slot(const struct sort_walk *w, const struct tree_inode *n)
{
	size_t mask = w->slot_cap - 1;
	size_t i = (size_t)(((uintptr_t)n >> 4) * 0x9E3779B97F4A7C15ull) & mask;
	while (w->slots[i] != NULL && w->slots[i] != n)
		i = (i + 1) & mask;
	return i;
}

static int walk_dir(struct sort_walk *w, struct tree_inode *dir, int32_t prio)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *n = dir->dir->entries[i].inode;
		if (n->dir != NULL) {
			if (walk_dir(w, n, lookup(w->t, n, prio)) != 0)
				return -1;
			continue;
		}
		size_t s;
		if (n->file == NULL || w->slots[s = ptr_slot(w, n)] == NULL)
			continue;
		struct sort_hit *h = sq_grow(w->hits, &w->hit_cap, w->hit_count + 1, sizeof(*h), 256);
		if (h == NULL)
			return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
		w->hits = h;
		int32_t own = n->span != NULL ? prio : lookup(w->t, n, prio);
		w->hits[w->hit_count++] = (struct sort_hit){ w->slot_index[s], own, w->seq++ };
	}
	return 0;
}

static int hit_cmp(const void *a, const void *b)
{
	const struct sort_hit *x = a, *y = b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

/* Put the list in hit order, each file at its first (best) name. */
static int permute(struct sort_walk *w, struct file_list *files)
{
	struct tree_inode **order = sq_alloc_array(files->count, sizeof(*order));
	char **paths = files->image_paths ? sq_alloc_array(files->count, sizeof(*paths)) : NULL;
	bool *done = sq_alloc_array(files->count, sizeof(*done));
	if (order == NULL || done == NULL || (files->image_paths && paths == NULL)) {
		free(order), free(paths), free(done);
		return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
	}
	size_t n = 0;
	for (size_t i = 0; i < w->hit_count; i++) {
		size_t k = w->hits[i].index;
		if (done[k])
			continue;
		done[k] = true;
		order[n] = files->files[k];
		if (paths)
			paths[n] = files->image_paths[k];
		n++;
	}
	for (size_t k = 0; k < files->count; k++) { /* not reached by the walk: keep, at the end */
		if (!done[k]) {
			order[n] = files->files[k];
			if (paths)
				paths[n] = files->image_paths[k];
			n++;
		}
	}
	memcpy(files->files, order, files->count * sizeof(*order));
	if (paths)
		memcpy(files->image_paths, paths, files->count * sizeof(*paths));
	free(order), free(paths), free(done);
	return 0;
}

int sort_apply(const struct sort_table *t, struct tree *tree, struct file_list *files,
	       struct sq_error *err)
{
	if (t == NULL || files->count == 0)
		return 0;
	struct sort_walk w = { .t = t, .err = err };
	w.slot_cap = 16;
	while (w.slot_cap < files->count * 2)
		w.slot_cap *= 2;
	w.slots = sq_alloc_array(w.slot_cap, sizeof(*w.slots));
	w.slot_index = sq_alloc_array(w.slot_cap, sizeof(*w.slot_index));
	int rc = -1;
	if (w.slots == NULL || w.slot_index == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < files->count; i++) {
		size_t s = ptr_slot(&w, files->files[i]);
		w.slots[s] = files->files[i];
		w.slot_index[s] = i;
	}
	if (walk_dir(&w, tree->root, lookup(t, tree->root, 0)) != 0)
		goto out;
	qsort(w.hits, w.hit_count, sizeof(*w.hits), hit_cmp);
	rc = permute(&w, files);
out:
	free(w.slots);
	free(w.slot_index);
	free(w.hits);
	return rc;
}
