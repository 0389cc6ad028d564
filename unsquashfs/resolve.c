/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* resolve.c — pathname resolution inside an image, a component at a time, like the kernel's
 * but over the image's own tree: links never leave it. */
#include "config.h"
#include "unsquashfs/resolve.h"
#include "common/util/sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	char *s;
	size_t len, cap;
};

static int buf_reserve(struct buf *b, size_t need, struct sq_error *err)
{
	char *n = sq_grow(b->s, &b->cap, need, 1, 64);
	if (n == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	b->s = n;
	return 0;
}

static int buf_set(struct buf *b, const char *s, size_t len, struct sq_error *err)
{
	if (buf_reserve(b, len + 1, err))
		return -1;
	memmove(b->s, s, len);
	b->len = len;
	b->s[len] = '\0';
	return 0;
}

/* canon += "/" + name (no slash at the root). */
static int canon_push(struct buf *c, const char *name, size_t len, struct sq_error *err)
{
	if (buf_reserve(c, c->len + len + 2, err))
		return -1;
	if (c->len)
		c->s[c->len++] = '/';
	memcpy(c->s + c->len, name, len);
	c->len += len;
	c->s[c->len] = '\0';
	return 0;
}

static void canon_pop(struct buf *c)
{
	char *slash = c->len ? strrchr(c->s, '/') : NULL;
	c->len = slash ? (size_t)(slash - c->s) : 0;
	c->s[c->len] = '\0';
}

/* rest = target + "/" + rest (the link's target goes first). */
static int prepend(struct buf *rest, const char *target, struct sq_error *err)
{
	size_t tl = strlen(target);
	if (buf_reserve(rest, rest->len + tl + 2, err))
		return -1;
	memmove(rest->s + tl + 1, rest->s, rest->len + 1);
	memcpy(rest->s, target, tl);
	rest->s[tl] = '/';
	rest->len += tl + 1;
	return 0;
}

/* One step: the next component of rest applied to canon. 1 go on, 0 unresolvable, -1 error. */
static int step(struct sqfs_fs *fs, struct buf *canon, struct buf *rest, int follow_last, int *hops,
		unsq_link_fn on_link, void *ctx, struct sq_error *err)
{
	while (rest->len && rest->s[0] == '/') {
		memmove(rest->s, rest->s + 1, rest->len--);
	}
	size_t len = strcspn(rest->s, "/");
	char name[SQFS_NAME_MAX + 1];
	if (len > SQFS_NAME_MAX)
		return 0;
	memcpy(name, rest->s, len);
	name[len] = '\0';
	memmove(rest->s, rest->s + len, rest->len - len + 1);
	rest->len -= len;
	if (len == 0 || strcmp(name, ".") == 0)
		return 1;
	if (strcmp(name, "..") == 0) {
		canon_pop(canon);
		return 1;
	}
	size_t before = canon->len;
	if (canon_push(canon, name, len, err))
		return -1;
	struct sqfs_inode ino;
	int r = sqfs_fs_lookup(fs, canon->s, &ino, err);
	if (r <= 0)
		return r;
	int more = strspn(rest->s, "/") < rest->len;
	int rc = 1;
	if (ino.type == SQFS_INODE_SYMLINK && (more || follow_last)) {
		if (++*hops > UNSQ_MAX_LINK_HOPS)
			rc = 0;
		else if (on_link != NULL && on_link(ctx, canon->s, err))
			rc = -1;
		else if (prepend(rest, ino.u.symlink.target, err))
			rc = -1;
		else if (ino.u.symlink.target[0] == '/')
			canon->len = 0, canon->s[0] = '\0';
		else
			canon->len = before, canon->s[before] = '\0';
	} else if (more && ino.type != SQFS_INODE_DIR) {
		rc = 0;
	}
	sqfs_inode_free(&ino);
	return rc;
}

int unsq_resolve(struct sqfs_fs *fs, const char *base, const char *path, int follow_last, unsq_link_fn on_link,
		 void *ctx, char **canonical, struct sqfs_inode *ino, struct sq_error *err)
{
	struct buf canon = {0}, rest = {0};
	int hops = 0, r;
	const char *b = path[0] == '/' ? "" : base;
	if (buf_set(&canon, b, strlen(b), err) || buf_set(&rest, path, strlen(path), err)) {
		r = -1;
		goto out;
	}
	do {
		r = step(fs, &canon, &rest, follow_last, &hops, on_link, ctx, err);
	} while (r == 1 && rest.len > 0);
	if (r == 1)
		r = sqfs_fs_lookup(fs, canon.s, ino, err);
	if (r == 1) {
		*canonical = canon.s;
		canon.s = NULL;
	}
out:
	free(canon.s);
	free(rest.s);
	return r;
}

struct follow_out {
	char **list;
	size_t n, cap;
};

static int add_unique(void *ctx, const char *canonical, struct sq_error *err)
{
	struct follow_out *f = ctx;
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->list[i], canonical) == 0)
			return 0;
	char **n = sq_grow(f->list, &f->cap, f->n + 1, sizeof(char *), 8);
	char *copy = n != NULL ? strdup(canonical) : NULL;
	if (n != NULL)
		f->list = n;
	if (copy == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	f->list[f->n++] = copy;
	return 0;
}

void unsq_free_strings(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

int unsq_follow_extracts(struct sqfs_fs *fs, char *const *paths, size_t npaths, int missing, FILE *report,
			 char ***out, size_t *nout, size_t *unresolved, struct sq_error *err)
{
	struct follow_out f = {0};
	*unresolved = 0;
	for (size_t i = 0; i < npaths; i++) {
		char *canon = NULL;
		struct sqfs_inode ino;
		int r = unsq_resolve(fs, "", paths[i], 1, add_unique, &f, &canon, &ino, err);
		if (r == 1) {
			sqfs_inode_free(&ino);
			/* The root itself ("" once canonical) selects everything, as "/" does. */
			r = add_unique(&f, canon[0] ? canon : "/", err);
			free(canon);
			if (r == 0)
				continue;
		}
		if (r < 0) {
			unsq_free_strings(f.list, f.n);
			return -1;
		}
		if (missing) {
			unsq_free_strings(f.list, f.n);
			return sq_fail(err, SQ_ERR_CORRUPT, "extract filename %s can't be resolved", paths[i]);
		}
		if (report != NULL)
			fprintf(report, "Extract filename %s can't be resolved\n", paths[i]);
		(*unresolved)++;
	}
	*out = f.list;
	*nout = f.n;
	return 0;
}
