/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tree.c — building and freeing the in-memory image tree: every reader (directory scan, pseudo
 * definitions, tar stream, existing image) makes inodes and entries through these calls. */
#include "config.h"
#include "mksquashfs/tree.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/error.h"
#include "common/util/sizes.h"
#include "common/util/xxhash64.h"
#include "mksquashfs/spill.h"

/* Directories at least this large get a hash index for lookups. */
#define TREE_INDEX_MIN 16

/* The room an inode of this type takes: a regular file's file_data and a directory's tree_dir
 * follow the inode in the same allocation (one malloc header and rounding fewer each). */
static size_t inode_bytes(uint32_t mode)
{
	if (S_ISDIR(mode))
		return sizeof(struct tree_inode) + sizeof(struct tree_dir);
	if (S_ISREG(mode))
		return sizeof(struct tree_inode) + sizeof(struct file_data);
	return sizeof(struct tree_inode);
}

/* Set up a zeroed inode of this mode. */
static struct tree_inode *inode_init(struct tree_inode *n, uint32_t mode)
{
	n->mode = mode & (S_IFMT | 07777);
	n->nlink = 1;
	if (S_ISDIR(mode)) {
		n->dir = (struct tree_dir *)(n + 1);
		n->dir->parent = n;
	} else if (S_ISREG(mode)) {
		n->file = (struct file_data *)(n + 1);
		n->file->fragment_index = SQFS_NO_FRAGMENT;
	}
	return n;
}

void tree_begin(struct tree *tree)
{
	struct spill *spill = tree->spill;
	struct tree_arena *arena = tree->arena;
	memset(tree, 0, sizeof(*tree));
	tree->spill = spill;
	tree->arena = arena;
}

struct tree_inode *tree_inode_new(uint32_t mode, struct sq_error *err)
{
	struct tree_inode *n = calloc(1, inode_bytes(mode));
	if (n == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	return inode_init(n, mode);
}

struct tree_inode *tree_inode_new_in(struct tree *tree, uint32_t mode, struct sq_error *err)
{
	struct tree_inode *n = tree_alloc(tree, inode_bytes(mode), err);
	if (n == NULL)
		return NULL;
	n = inode_init(n, mode);
	n->flags |= TREE_IN_ARENA;
	return n;
}

void tree_xattrs_free(struct xattr_set *s)
{
	if (s == NULL)
		return;
	for (uint32_t i = 0; i < s->count; i++) {
		free(s->entries[i].key);
		free(s->entries[i].value);
	}
	free(s->entries);
	free(s);
}

/* The namespaces squashfs stores, indexed by their type number. */
static const char *const xattr_namespaces[] = {
	[SQFS_XATTR_USER] = "user.",
	[SQFS_XATTR_TRUSTED] = "trusted.",
	[SQFS_XATTR_SECURITY] = "security.",
};

int tree_xattr_type(const char *name, const char **key)
{
	for (size_t t = 0; t < sizeof(xattr_namespaces) / sizeof(xattr_namespaces[0]); t++) {
		size_t len = strlen(xattr_namespaces[t]);
		if (strncmp(name, xattr_namespaces[t], len) == 0) {
			*key = name + len;
			return (int)t;
		}
	}
	return -1;
}

static int xattr_order(const void *a, const void *b)
{
	const struct xattr_entry *x = a, *y = b;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	return strcmp(x->key, y->key);
}

void tree_xattrs_sort(struct xattr_set *s)
{
	qsort(s->entries, s->count, sizeof(*s->entries), xattr_order);
}

void tree_inode_free(struct tree_inode *n)
{
	if (n->file != NULL)
		free(n->file->block_sizes);
	free(n->symlink_target);
	tree_xattrs_free(n->xattrs);
	if (!(n->flags & TREE_SOURCE_CHAIN))
		free(n->source_path);
	if (!(n->flags & TREE_SPAN_IN_ARENA))
		free(n->span);
	if (n->dir != NULL) {
		if (!(n->dir->in_arena & TREE_DIR_ENTRIES_IN_ARENA))
			free(n->dir->entries);
		free(n->dir->index);
		if (!(n->dir->in_arena & TREE_DIR_NAMES_IN_ARENA))
			free(n->dir->names);
	}
	if (!(n->flags & TREE_IN_ARENA))
		free(n);
}

static uint32_t name_hash(const char *name, size_t len)
{
	return (uint32_t)sq_xxh64(name, len, 0);
}

/* Put entry i into the index (which has room). */
static void index_put(struct tree_dir *d, uint32_t i)
{
	uint32_t mask = d->index_cap - 1;
	uint32_t h = name_hash(d->entries[i].name, d->entries[i].name_len) & mask;
	while (d->index[h] != 0)
		h = (h + 1) & mask;
	d->index[h] = i + 1;
}

/* (Re)build the index with room for twice the entries; false when memory is short (lookups
 * then scan). */
static bool index_build(struct tree_dir *d)
{
	uint32_t cap = TREE_INDEX_MIN * 2;
	while (cap < d->count * 2 + 2)
		cap *= 2;
	uint32_t *idx = calloc(cap, sizeof(*idx));
	if (idx == NULL)
		return false;
	free(d->index);
	d->index = idx;
	d->index_cap = cap;
	for (uint32_t i = 0; i < d->count; i++)
		index_put(d, i);
	return true;
}

static bool same_name(const struct tree_entry *e, const char *name, size_t len)
{
	return e->name_len == len && memcmp(e->name, name, len) == 0;
}

struct tree_entry *tree_dir_find(struct tree_inode *dir, const char *name, size_t len)
{
	struct tree_dir *d = dir->dir;
	if (d->count >= TREE_INDEX_MIN && d->index == NULL)
		index_build(d);
	if (d->index == NULL) {
		for (uint32_t i = 0; i < d->count; i++)
			if (same_name(&d->entries[i], name, len))
				return &d->entries[i];
		return NULL;
	}
	uint32_t mask = d->index_cap - 1;
	for (uint32_t h = name_hash(name, len) & mask; d->index[h] != 0; h = (h + 1) & mask) {
		struct tree_entry *e = &d->entries[d->index[h] - 1];
		if (same_name(e, name, len))
			return e;
	}
	return NULL;
}

int tree_dir_add(struct tree_inode *dir, const char *name, size_t len, struct tree_inode *child,
		 struct sq_error *err)
{
	struct tree_dir *d = dir->dir;
	if (d->count == d->cap) {
		uint32_t cap = d->cap ? d->cap * 2 : 8;
		/* An array in the arena cannot be resized: it is copied to the heap. */
		bool copy = d->in_arena & TREE_DIR_ENTRIES_IN_ARENA;
		struct tree_entry *grown = sq_realloc_array(copy ? NULL : d->entries, cap,
							    sizeof(*grown));
		if (grown == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		if (copy)
			memcpy(grown, d->entries, (size_t)d->count * sizeof(*grown));
		d->in_arena &= ~(uint32_t)TREE_DIR_ENTRIES_IN_ARENA;
		d->entries = grown;
		d->cap = cap;
	}
	struct tree_entry *e = &d->entries[d->count];
	e->name = strndup(name, len);
	if (e->name == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	e->name_len = (uint32_t)len;
	e->inode = child;
	d->count++;
	if (child->dir != NULL)
		child->dir->parent = dir;
	if (d->index != NULL) {
		if (d->count * 2 + 2 > d->index_cap) {
			if (!index_build(d)) {
				free(d->index);
				d->index = NULL;
			}
		} else {
			index_put(d, d->count - 1);
		}
	}
	return 0;
}

void tree_name_free(const struct tree_dir *d, char *name)
{
	uintptr_t p = (uintptr_t)name, block = (uintptr_t)d->names;
	if (d->names == NULL || p < block || p >= block + d->names_len)
		free(name);
}

/* Move the names of d's entries into one block (in tree's arena when there is a tree); kept as
 * they are when memory is short. */
static void pack_names(struct tree *tree, struct tree_dir *d)
{
	size_t total = 0;
	for (uint32_t i = 0; i < d->count; i++)
		total += (size_t)d->entries[i].name_len + 1;
	struct sq_error ignored;
	char *block = tree != NULL ? tree_alloc(tree, total, &ignored) : malloc(total), *at = block;
	if (block == NULL)
		return;
	if (tree != NULL)
		d->in_arena |= TREE_DIR_NAMES_IN_ARENA;
	for (uint32_t i = 0; i < d->count; i++) {
		struct tree_entry *e = &d->entries[i];
		memcpy(at, e->name, (size_t)e->name_len + 1);
		free(e->name);
		e->name = at;
		at += e->name_len + 1;
	}
	d->names = block;
	d->names_len = total;
}

/* Move d's entry array into tree's arena; kept where it is when that fails. */
static void entries_to_arena(struct tree *tree, struct tree_dir *d)
{
	struct sq_error ignored;
	struct tree_entry *moved = tree_alloc(tree, (size_t)d->count * sizeof(*moved), &ignored);
	if (moved == NULL)
		return;
	memcpy(moved, d->entries, (size_t)d->count * sizeof(*moved));
	free(d->entries);
	d->entries = moved;
	d->cap = d->count;
	d->in_arena |= TREE_DIR_ENTRIES_IN_ARENA;
}

void tree_dir_trim(struct tree *tree, struct tree_inode *dir)
{
	struct tree_dir *d = dir->dir;
	/* Packed once: names added after that are freed one by one. */
	if (d->names == NULL && d->count > 0)
		pack_names(tree, d);
	if (tree != NULL) {
		/* A complete directory is looked up rarely (a tar hard link): the index goes. */
		free(d->index);
		d->index = NULL;
		d->index_cap = 0;
	}
	if (d->in_arena & TREE_DIR_ENTRIES_IN_ARENA)
		return;
	if (d->count == 0) {
		free(d->entries);
		d->entries = NULL;
		d->cap = 0;
		return;
	}
	/* An array that is full still leaves the heap when there is an arena. */
	if (tree != NULL) {
		entries_to_arena(tree, d);
		return;
	}
	if (d->count == d->cap)
		return;
	/* Shrinking cannot fail in practice; if it does, the larger array is kept. */
	struct tree_entry *fit = sq_realloc_array(d->entries, d->count, sizeof(*fit));
	if (fit != NULL) {
		d->entries = fit;
		d->cap = d->count;
	}
}

void tree_dir_remove(struct tree_inode *dir, uint32_t i)
{
	struct tree_dir *d = dir->dir;
	tree_name_free(d, d->entries[i].name);
	d->entries[i] = d->entries[d->count - 1];
	d->count--;
	/* Rebuilt on the next lookup. */
	free(d->index);
	d->index = NULL;
	d->index_cap = 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct tree_entry *x = a, *y = b;
	uint32_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int r = memcmp(x->name, y->name, n);
	if (r != 0)
		return r;
	return x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

/* Sort one directory and its subdirectories; depth-first with an explicit stack would save
 * nothing here: the writer recurses as deep anyway. */
static int sort_dir(struct tree *trim, struct tree_inode *dir, struct sq_error *err)
{
	struct tree_dir *d = dir->dir;
	if (trim != NULL)
		tree_dir_trim(trim, dir);
	if (d->count > 1)
		qsort(d->entries, d->count, sizeof(*d->entries), entry_cmp);
	free(d->index);
	d->index = NULL;
	d->index_cap = 0;
	for (uint32_t i = 0; i < d->count; i++) {
		if (i > 0 && entry_cmp(&d->entries[i - 1], &d->entries[i]) == 0)
			return sq_fail(err, SQ_ERR_UNSUPPORTED, "the name %s is in one directory twice",
				       d->entries[i].name);
		if (d->entries[i].inode->dir != NULL &&
		    sort_dir(trim, d->entries[i].inode, err) != 0)
			return -1;
	}
	return 0;
}

int tree_sort(struct tree *tree, struct sq_error *err)
{
	return tree->root != NULL ? sort_dir(NULL, tree->root, err) : 0;
}

int tree_sort_trim(struct tree *tree, struct sq_error *err)
{
	/* The readers that cannot tell when a directory is complete (tar, pseudo definitions, an
	 * appended image) leave its arrays on the heap until now: into the arena with them. */
	return tree->root != NULL ? sort_dir(tree, tree->root, err) : 0;
}

/* Hard links make the tree a DAG of non-directories: free an inode when its last entry goes,
 * counting down nlink (directories have exactly one entry). */
static void free_dir_tree(struct tree_inode *dir)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_entry *e = &dir->dir->entries[i];
		struct tree_inode *n = e->inode;
		tree_name_free(dir->dir, e->name);
		if (n->dir != NULL) {
			free_dir_tree(n);
			tree_inode_free(n);
		} else if (n->nlink <= 1) {
			tree_inode_free(n);
		} else {
			n->nlink--;
		}
	}
}

int tree_keep_fd(struct tree *tree, int fd, struct sq_error *err)
{
	int *grown = sq_realloc_array(tree->spool_fds, (size_t)tree->spool_count + 1, sizeof(int));
	if (grown == NULL) {
		close(fd);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	tree->spool_fds = grown;
	tree->spool_fds[tree->spool_count++] = fd;
	return 0;
}

/* One block of the arena; blocks are chained and freed together. Its bytes are zeroed when it
 * is made and never reused, so every record starts zeroed. */
struct tree_arena {
	struct tree_arena *next;
	size_t used, cap;
	bool mapped;  /* from the spill file (spill_chunk) */
	_Alignas(max_align_t) unsigned char bytes[];
};

#define TREE_ARENA_BLOCK ((size_t)256 * 1024)

/* Blocks are small while they come from the heap, large once they come from the spill file
 * (each is a mapping). */
static size_t arena_block(const struct tree *tree)
{
	const struct spill *s = tree->spill;
	if (s != NULL && s->anon_bytes + TREE_ARENA_BLOCK > s->anon_limit)
		return SPILL_CHUNK - sizeof(struct tree_arena);
	return TREE_ARENA_BLOCK;
}

void *tree_alloc(struct tree *tree, size_t len, struct sq_error *err)
{
	len = (len + 7) & ~(size_t)7;
	struct tree_arena *a = tree->arena;
	if (a == NULL || a->cap - a->used < len) {
		size_t block = arena_block(tree);
		size_t cap = len > block ? len : block;
		bool mapped;
		struct tree_arena *b = spill_chunk(tree->spill, sizeof(*b) + cap, &mapped, err);
		if (b == NULL)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->mapped = mapped;
		/* A record larger than a block gets a block of its own, behind the open one, which
		 * stays open for the records that follow. */
		if (a != NULL && cap > block) {
			b->next = a->next;
			a->next = b;
			b->used = len;
			return b->bytes;
		}
		b->next = a;
		tree->arena = a = b;
	}
	void *p = a->bytes + a->used;
	a->used += len;
	return p;
}

static const struct tree_source *source_of(const char *name)
{
	return (const struct tree_source *)(const void *)(name - offsetof(struct tree_source, name));
}

char *tree_source_add(struct tree *tree, const char *parent, const char *name, size_t len,
		      struct sq_error *err)
{
	struct tree_source *s = tree_alloc(tree, offsetof(struct tree_source, name) + len + 1, err);
	if (s == NULL)
		return NULL;
	s->parent = parent != NULL ? source_of(parent) : NULL;
	memcpy(s->name, name, len);
	s->name[len] = '\0';
	return s->name;
}

/* Append s's path at buf[*at] as sq_path_join builds it (a '/' between a directory and a name
 * unless the directory ends in one); *last is the last byte written, even past cap. */
static void source_put(const struct tree_source *s, char *buf, size_t cap, size_t *at, char *last)
{
	if (s->parent != NULL) {
		source_put(s->parent, buf, cap, at, last);
		if (*at > 0 && *last != '/') {
			if (*at + 1 < cap)
				buf[*at] = '/';
			++*at;
			*last = '/';
		}
	}
	size_t len = strlen(s->name);
	if (*at + 1 < cap)
		memcpy(buf + *at, s->name, *at + len < cap ? len : cap - 1 - *at);
	if (len > 0)
		*last = s->name[len - 1];
	*at += len;
}

size_t tree_source_record_path(const struct tree_source *s, char *buf, size_t cap)
{
	size_t at = 0;
	char last = '\0';
	source_put(s, buf, cap, &at, &last);
	if (cap > 0)
		buf[at < cap ? at : cap - 1] = '\0';
	return at;
}

size_t tree_source_path(const struct tree_inode *n, char *buf, size_t cap)
{
	size_t at = 0;
	if (n->source_path != NULL && (n->flags & TREE_SOURCE_CHAIN)) {
		return tree_source_record_path(source_of(n->source_path), buf, cap);
	} else if (n->source_path != NULL) {
		at = strlen(n->source_path);
		if (cap > 0)
			memcpy(buf, n->source_path, at < cap ? at : cap - 1);
	}
	if (cap > 0)
		buf[at < cap ? at : cap - 1] = '\0';
	return at;
}

const struct tree_source *tree_source_dir(const struct tree_inode *n)
{
	if (n->source_path == NULL || !(n->flags & TREE_SOURCE_CHAIN))
		return NULL;
	return source_of(n->source_path)->parent;
}

void tree_free(struct tree *tree)
{
	if (tree->root != NULL) {
		if (tree->root->dir != NULL)
			free_dir_tree(tree->root);
		tree_inode_free(tree->root);
	}
	tree->root = NULL;
	for (uint32_t i = 0; i < tree->spool_count; i++)
		close(tree->spool_fds[i]);
	free(tree->spool_fds);
	tree->spool_fds = NULL;
	tree->spool_count = 0;
	while (tree->arena != NULL) {
		struct tree_arena *next = tree->arena->next;
		spill_chunk_free(tree->arena, sizeof(*tree->arena) + tree->arena->cap,
				 tree->arena->mapped);
		tree->arena = next;
	}
}
