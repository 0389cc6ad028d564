/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* walk.c — depth-first traversal of the directory tree on a heap stack, with extract/exclude
 * selection and loop refusal. */
#include "config.h"
#include "unsquashfs/walk.h"

#include <stdlib.h>
#include <string.h>

#include "unsquashfs/numset.h"
#include "common/util/sizes.h"

/* An exclude pattern part-way matched: component comp is the next to match. */
struct exstate {
	size_t pat, comp;
};

struct frame {
	struct sqfs_inode dir;
	struct sqfs_dir_iter it;
	void *handle;
	size_t children;
	size_t path_len;
	int all;      /* every entry below is selected by the extract pathnames */
	int listing;  /* within -max-depth: the children are visited */
	size_t *ext;  /* extract patterns whose first `depth` components matched the path */
	size_t next;
	struct exstate *exc;
	size_t nexc;
};

struct walk {
	struct sqfs_fs *fs;
	const struct unsq_walk_opts *wo;
	struct unsq_select *sel;
	const struct unsq_visitor *v;
	struct numset seen; /* directories entered: a second entry is a loop or a hard-linked dir */
	struct frame *stack;
	size_t depth, cap; /* frames in use (the root is frame 0) */
	size_t nonanchored; /* exclude patterns that may start matching at any depth */
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

static int grow_path(struct walk *w, size_t need, struct sq_error *err)
{
	char *p = sq_grow(w->path, &w->path_cap, need, 1, 256);
	if (p == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for a path of %zu bytes", need);
	w->path = p;
	return 0;
}

static void free_frame(struct frame *f)
{
	sqfs_inode_free(&f->dir);
	free(f->ext);
	free(f->exc);
}

/* The extract side: does the entry belong to the selection, and which patterns go on into it?
 * 1 selected (child->all set when wholly), 0 not. */
static int extract_select(struct walk *w, const struct frame *f, const struct sqfs_dirent *ent, struct frame *child)
{
	if (f->all) {
		child->all = 1;
		return 1;
	}
	size_t comp = w->depth - 1;
	for (size_t i = 0; i < f->next; i++) {
		struct unsq_pattern *p = &w->sel->extract[f->ext[i]];
		if (!unsq_select_match(w->sel, p, comp, ent->name))
			continue;
		if (comp + 1 == p->ncomp) {
			p->matched = 1;
			child->all = 1;
		} else if (ent->type == SQFS_INODE_DIR) {
			child->ext[child->next++] = f->ext[i];
		}
	}
	return child->all || child->next > 0;
}

static void add_exstate(struct frame *child, size_t pat, size_t comp)
{
	for (size_t i = 0; i < child->nexc; i++)
		if (child->exc[i].pat == pat && child->exc[i].comp == comp)
			return;
	child->exc[child->nexc].pat = pat;
	child->exc[child->nexc].comp = comp;
	child->nexc++;
}

/* The exclude side: 1 when a pattern ends on this entry; else the part-way matches go on. */
static int exclude_step(struct walk *w, const struct frame *f, const struct sqfs_dirent *ent, struct frame *child,
			size_t pat, size_t comp)
{
	struct unsq_pattern *p = &w->sel->exclude[pat];
	if (!unsq_select_match(w->sel, p, comp, ent->name))
		return 0;
	if (comp + 1 == p->ncomp) {
		p->matched = 1;
		return 1;
	}
	(void)f;
	if (ent->type == SQFS_INODE_DIR)
		add_exstate(child, pat, comp + 1);
	return 0;
}

static int excluded(struct walk *w, const struct frame *f, const struct sqfs_dirent *ent, struct frame *child)
{
	for (size_t i = 0; i < f->nexc; i++)
		if (exclude_step(w, f, ent, child, f->exc[i].pat, f->exc[i].comp))
			return 1;
	for (size_t i = 0; i < w->sel->nexclude; i++)
		if (!w->sel->exclude[i].anchored && w->sel->exclude[i].ncomp > 0 &&
		    exclude_step(w, f, ent, child, i, 0))
			return 1;
	return 0;
}

/* Selection of one entry into child's lists. 1 visit, 0 skip, -1 out of memory. */
static int select_entry(struct walk *w, const struct frame *f, const struct sqfs_dirent *ent, struct frame *child,
			struct sq_error *err)
{
	memset(child, 0, sizeof(*child));
	if (!f->all && f->next > 0) {
		child->ext = malloc(f->next * sizeof(size_t));
		if (child->ext == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	size_t nexc = f->nexc + w->nonanchored;
	if (nexc > 0) {
		child->exc = malloc(nexc * sizeof(struct exstate));
		if (child->exc == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	if (extract_select(w, f, ent, child) && !excluded(w, f, ent, child))
		return 1;
	free(child->ext);
	free(child->exc);
	child->ext = NULL;
	child->exc = NULL;
	return 0;
}

/* The visitor's enter_dir, when it has one. */
static int enter(struct walk *w, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		 void **child, struct sq_error *err)
{
	*child = NULL;
	return w->v->enter_dir ? w->v->enter_dir(w->v->ctx, path, name, ino, parent, child, err) : 0;
}

static int check_entry(const struct sqfs_dirent *ent, const struct sqfs_inode *ino, struct sq_error *err)
{
	if (ino->type != ent->type)
		return sq_fail(err, SQ_ERR_CORRUPT, "entry \"%s\" claims type %u but its inode has type %u", ent->name,
			       ent->type, ino->type);
	if (ino->number != ent->inode_number)
		return sq_fail(err, SQ_ERR_CORRUPT, "entry \"%s\" names inode %u but finds inode %u", ent->name,
			       ent->inode_number, ino->number);
	return 0;
}

/* Room for one more frame, made before a directory is entered so that push cannot fail
 * before the frame owns the visitor's handle. */
static int reserve(struct walk *w, struct sq_error *err)
{
	if (w->depth < w->cap)
		return 0;
	size_t cap = w->cap ? w->cap * 2 : 64;
	struct frame *s = realloc(w->stack, cap * sizeof(*s));
	if (s == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory at directory depth %zu", w->depth);
	w->stack = s;
	w->cap = cap;
	return 0;
}

/* Push a directory's frame (child's lists, dir and handle are taken over) and open its
 * listing; on failure the frame is on the stack, so the caller's cleanup releases it. */
static int push(struct walk *w, struct frame *child, const struct sqfs_inode *dir, size_t path_len, void *handle,
		struct sq_error *err)
{
	struct frame *f = &w->stack[w->depth];
	*f = *child;
	f->dir = *dir;
	f->handle = handle;
	f->path_len = path_len;
	f->children = 0;
	f->listing = w->wo->max_depth < 0 || (long)w->depth < w->wo->max_depth;
	w->depth++;
	if (f->listing && sqfs_dir_open(&f->it, w->fs->dirs, dir, w->fs->img.sb.inode_count, err))
		return -1;
	return 0;
}

/* A selected entry of the top frame: a leaf is visited, a directory entered and pushed. */
static int visit(struct walk *w, struct frame *child, const struct sqfs_dirent *ent, struct sq_error *err)
{
	struct frame *f = &w->stack[w->depth - 1];
	struct sqfs_inode ino;
	if (sqfs_fs_inode(w->fs, ent->inode_ref, &ino, err))
		return -1;
	size_t len = f->path_len + (f->path_len ? 1 : 0) + ent->name_len;
	if (check_entry(ent, &ino, err) || grow_path(w, len + 1, err)) {
		sqfs_inode_free(&ino);
		return -1;
	}
	if (f->path_len)
		w->path[f->path_len] = '/';
	memcpy(w->path + f->path_len + (f->path_len ? 1 : 0), ent->name, ent->name_len + 1);
	f->children++;
	if (ino.type != SQFS_INODE_DIR) {
		int r = w->v->leaf ? w->v->leaf(w->v->ctx, w->path, ent->name, &ino, f->handle, err) : 0;
		sqfs_inode_free(&ino);
		w->path[f->path_len] = '\0';
		return r;
	}
	void *handle = NULL, *parent = f->handle;
	/* reserve may move the stack: f is not used after it. */
	if (reserve(w, err) || mark_dir(w, ino.number, err) ||
	    enter(w, w->path, ent->name, &ino, parent, &handle, err)) {
		sqfs_inode_free(&ino);
		return -1;
	}
	/* From here the visitor holds a handle: the frame owns it (and the inode). */
	int r = push(w, child, &ino, len, handle, err);
	child->ext = NULL;
	child->exc = NULL;
	return r;
}

/* Finish the top frame: leave_dir, then pop. */
static int pop(struct walk *w, int ok, struct sq_error *err)
{
	struct frame *f = &w->stack[w->depth - 1];
	w->path[f->path_len] = '\0';
	int rc = 0;
	if (w->v->leave_dir != NULL)
		rc = w->v->leave_dir(w->v->ctx, w->path, &f->dir, f->handle, ok ? f->children : (size_t)-1, err);
	free_frame(f);
	w->depth--;
	if (w->depth > 0)
		w->path[w->stack[w->depth - 1].path_len] = '\0';
	return ok ? rc : -1;
}

static int run(struct walk *w, struct sq_error *err)
{
	while (w->depth > 0) {
		struct frame *f = &w->stack[w->depth - 1];
		struct sqfs_dirent ent;
		int more = f->listing ? sqfs_dir_next(&f->it, &ent, err) : 0;
		if (more < 0)
			return -1;
		if (more == 0) {
			if (pop(w, 1, err))
				return -1;
			continue;
		}
		struct frame child;
		int r = select_entry(w, f, &ent, &child, err);
		if (r == 1)
			r = visit(w, &child, &ent, err);
		free(child.ext);
		free(child.exc);
		if (r < 0)
			return -1;
	}
	return 0;
}

static int start(struct walk *w, struct sq_error *err)
{
	for (size_t i = 0; i < w->sel->nexclude; i++)
		w->nonanchored += !w->sel->exclude[i].anchored;
	struct frame root = {.all = w->sel->all};
	struct unsq_select *s = w->sel;
	root.ext = malloc((s->nextract ? s->nextract : 1) * sizeof(size_t));
	root.exc = malloc((s->nexclude ? s->nexclude : 1) * sizeof(struct exstate));
	if (root.ext == NULL || root.exc == NULL) {
		free(root.ext);
		free(root.exc);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->nextract; i++)
		root.ext[root.next++] = i;
	for (size_t i = 0; i < s->nexclude; i++)
		if (s->exclude[i].anchored && s->exclude[i].ncomp > 0)
			add_exstate(&root, i, 0);
	struct sqfs_inode ino;
	void *handle = NULL;
	int r = sqfs_fs_root(w->fs, &ino, err);
	if (r == 0 && (reserve(w, err) || mark_dir(w, ino.number, err) ||
		       enter(w, "", NULL, &ino, NULL, &handle, err))) {
		sqfs_inode_free(&ino);
		r = -1;
	}
	if (r) {
		free(root.ext);
		free(root.exc);
		return -1;
	}
	return push(w, &root, &ino, 0, handle, err);
}

int unsq_walk(struct sqfs_fs *fs, const struct unsq_walk_opts *wo, const struct unsq_visitor *v,
	      struct sq_error *err)
{
	struct unsq_select everything = {.all = 1};
	struct walk w = {.fs = fs, .wo = wo, .sel = wo->sel ? wo->sel : &everything, .v = v};
	int rc = grow_path(&w, 4096, err);
	if (rc == 0) {
		w.path[0] = '\0';
		rc = start(&w, err);
	}
	if (rc == 0)
		rc = run(&w, err);
	/* On failure every open frame still gets leave_dir, to release its handle. */
	while (w.depth > 0)
		pop(&w, 0, err);
	free(w.stack);
	free(w.path);
	numset_free(&w.seen);
	return rc;
}
