/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* walk.c — depth-first traversal of the directory tree with path selection and loop refusal. */
#include "config.h"
#include "unsquashfs/walk.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "unsquashfs/numset.h"

struct pattern {
	char **comp;
	size_t ncomp;
};

struct walk {
	struct sqfs_fs *fs;
	const struct unsq_walk_opts *wo;
	const struct unsq_visitor *v;
	struct pattern *pat;
	size_t npat;
	struct numset seen; /* directories entered: a second entry is a loop or a hard-linked dir */
	char *path;
	size_t path_cap;
};

static int mark_dir(struct walk *w, uint32_t num, struct sq_error *err)
{
	int r = numset_add(&w->seen, num, NULL, err);
	if (r == 0)
		return sq_fail(err, SQ_ERR_CORRUPT,
			       "directory inode %u is reached twice (a directory loop or hard-linked directory)", num);
	return r < 0 ? -1 : 0;
}

static void free_patterns(struct pattern *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < p[i].ncomp; j++)
			free(p[i].comp[j]);
		free(p[i].comp);
	}
	free(p);
}

static int split_patterns(struct walk *w, struct sq_error *err)
{
	w->pat = calloc(w->wo->npaths ? w->wo->npaths : 1, sizeof(*w->pat));
	if (w->pat == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	w->npat = w->wo->npaths;
	for (size_t i = 0; i < w->npat; i++) {
		const char *s = w->wo->paths[i];
		struct pattern *p = &w->pat[i];
		while (*s) {
			while (*s == '/')
				s++;
			size_t len = strcspn(s, "/");
			if (len == 0)
				break;
			if (!(len == 1 && s[0] == '.')) {
				char **n = realloc(p->comp, (p->ncomp + 1) * sizeof(char *));
				char *c = strndup(s, len);
				if (n == NULL || c == NULL) {
					free(c);
					if (n != NULL)
						p->comp = n;
					return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
				}
				p->comp = n;
				p->comp[p->ncomp++] = c;
			}
			s += len;
		}
	}
	return 0;
}

static int matches(const struct walk *w, const char *pattern, const char *name)
{
	if (w->wo->no_wildcards)
		return strcmp(pattern, name) == 0;
	return fnmatch(pattern, name, FNM_PERIOD) == 0;
}

static int walk_dir(struct walk *w, const struct sqfs_inode *dir, size_t depth, size_t path_len, void *handle,
		    const size_t *active, size_t nactive, int all, struct sq_error *err)
{
	struct sqfs_dir_iter it;
	struct sqfs_dirent ent;
	size_t children = 0;
	size_t *next_active = NULL;
	int rc = -1, more;
	if (nactive > 0) {
		next_active = malloc(nactive * sizeof(size_t));
		if (next_active == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	int descend = w->wo->max_depth < 0 || (long)depth < w->wo->max_depth;
	if (!descend) {
		rc = 0;
		goto leave;
	}
	if (sqfs_dir_open(&it, w->fs->dirs, dir, w->fs->img.sb.inode_count, err))
		goto out;
	while ((more = sqfs_dir_next(&it, &ent, err)) == 1) {
		int child_all = all;
		size_t child_n = 0;
		if (!all) {
			for (size_t i = 0; i < nactive; i++) {
				const struct pattern *p = &w->pat[active[i]];
				if (!matches(w, p->comp[depth], ent.name))
					continue;
				if (depth + 1 == p->ncomp)
					child_all = 1;
				else if (ent.type == SQFS_INODE_DIR)
					next_active[child_n++] = active[i];
			}
			if (!child_all && child_n == 0)
				continue;
		}
		struct sqfs_inode ino;
		if (sqfs_fs_inode(w->fs, ent.inode_ref, &ino, err))
			goto out;
		if (ino.type != ent.type) {
			sq_fail(err, SQ_ERR_CORRUPT, "entry \"%s\" claims type %u but its inode has type %u", ent.name,
				ent.type, ino.type);
			sqfs_inode_free(&ino);
			goto out;
		}
		if (ino.number != ent.inode_number) {
			sqfs_inode_free(&ino);
			sq_fail(err, SQ_ERR_CORRUPT, "entry \"%s\" names inode %u but finds inode %u", ent.name,
				ent.inode_number, ino.number);
			goto out;
		}
		size_t len = path_len + (path_len ? 1 : 0) + ent.name_len;
		if (len + 1 > w->path_cap) {
			sqfs_inode_free(&ino);
			sq_fail(err, SQ_ERR_CORRUPT, "path too long below %s", w->path);
			goto out;
		}
		if (path_len)
			w->path[path_len] = '/';
		memcpy(w->path + path_len + (path_len ? 1 : 0), ent.name, ent.name_len + 1);
		children++;
		int r;
		if (ino.type == SQFS_INODE_DIR) {
			void *child = NULL;
			if (depth + 1 >= UNSQ_MAX_DEPTH) {
				sq_fail(err, SQ_ERR_CORRUPT, "directories nest deeper than %d levels at %s", UNSQ_MAX_DEPTH,
					w->path);
				goto out;
			}
			if (mark_dir(w, ino.number, err))
				goto out;
			r = w->v->enter_dir(w->v->ctx, w->path, ent.name, &ino, handle, &child, err);
			if (r == 0)
				r = walk_dir(w, &ino, depth + 1, len, child, next_active, child_n, child_all, err);
		} else {
			r = w->v->leaf(w->v->ctx, w->path, ent.name, &ino, handle, err);
			sqfs_inode_free(&ino);
		}
		w->path[path_len] = '\0';
		if (r)
			goto out;
	}
	if (more < 0)
		goto out;
	rc = 0;
leave:
	if (w->v->leave_dir(w->v->ctx, w->path, dir, handle, children, err))
		rc = -1;
	free(next_active);
	return rc;
out:
	/* Let the visitor release the handle; the first error is kept in err. */
	w->path[path_len] = '\0';
	w->v->leave_dir(w->v->ctx, w->path, dir, handle, (size_t)-1, err);
	free(next_active);
	return -1;
}

int unsq_walk(struct sqfs_fs *fs, const struct unsq_walk_opts *wo, const struct unsq_visitor *v,
	      struct sq_error *err)
{
	struct walk w = {.fs = fs, .wo = wo, .v = v};
	struct sqfs_inode root;
	size_t *active = NULL;
	int rc = -1;
	w.path_cap = (size_t)UNSQ_MAX_DEPTH * (SQFS_NAME_MAX + 1) + 1;
	w.path = malloc(w.path_cap);
	if (w.path == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	w.path[0] = '\0';
	if (split_patterns(&w, err))
		goto out;
	int all = wo->npaths == 0;
	size_t nactive = 0;
	active = malloc((w.npat ? w.npat : 1) * sizeof(size_t));
	if (active == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < w.npat; i++) {
		if (w.pat[i].ncomp == 0)
			all = 1; /* "/" or "." selects everything */
		else
			active[nactive++] = i;
	}
	if (sqfs_fs_root(fs, &root, err))
		goto out;
	if (mark_dir(&w, root.number, err))
		goto out;
	void *child = NULL;
	if (v->enter_dir(v->ctx, "", NULL, &root, NULL, &child, err))
		goto out;
	rc = walk_dir(&w, &root, 0, 0, child, active, nactive, all, err);
out:
	free(active);
	free(w.path);
	numset_free(&w.seen);
	if (w.pat != NULL)
		free_patterns(w.pat, w.npat);
	return rc;
}
