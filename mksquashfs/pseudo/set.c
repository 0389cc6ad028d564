/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* set.c — the tree the definitions form, whatever their order: each name once, found through one
 * hash of (parent, name). A second definition of a name, a non-directory that other definitions
 * need as a directory, and a root that is not a directory are refused here, naming both lines. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util/path.h"
#include "common/util/sizes.h"
#include "common/util/xxhash64.h"
#include "mksquashfs/pseudo/internal.h"

struct pseudo_set *pseudo_set_new(struct sq_error *err)
{
	struct pseudo_set *set = calloc(1, sizeof(*set));
	if (set == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	set->root.name = NULL;
	set->root.path = NULL;
	set->spool.fd = -1;
	return set;
}

void pseudo_def_free(struct pseudo_def *def)
{
	if (def == NULL)
		return;
	free(def->arg);
	free(def->xattr.key);
	free(def->xattr.value);
	free(def);
}

static void node_free(struct pseudo_node *n)
{
	for (uint32_t i = 0; i < n->count; i++) {
		node_free(n->children[i]);
		free(n->children[i]);
	}
	free(n->children);
	free(n->name);
	free(n->path);
}

void pseudo_set_free(struct pseudo_set *set)
{
	if (set == NULL)
		return;
	node_free(&set->root);
	free(set->index);
	for (size_t i = 0; i < set->def_count; i++)
		pseudo_def_free(set->defs[i]);
	free(set->defs);
	pseudo_def_free(set->default_dir);
	for (size_t i = 0; i < set->origin_count; i++)
		free(set->origins[i]);
	free(set->origins);
	for (size_t i = 0; i < set->data_count; i++) {
		if (set->datas[i]->owned && set->datas[i]->fd >= 0)
			close(set->datas[i]->fd);
		free(set->datas[i]);
	}
	free(set->datas);
	pseudo_spool_close(&set->spool);
	free(set);
}

static void *grow(void *p, size_t *cap, size_t count, size_t size)
{
	if (count < *cap)
		return p;
	size_t n = *cap ? *cap * 2 : 16;
	void *q = sq_realloc_array(p, n, size);
	if (q != NULL)
		*cap = n;
	return q;
}

const char *pseudo_set_keep(struct pseudo_set *set, const char *s)
{
	char **o = grow(set->origins, &set->origin_cap, set->origin_count, sizeof(char *));
	if (o == NULL)
		return NULL;
	set->origins = o;
	char *copy = strdup(s);
	if (copy != NULL)
		set->origins[set->origin_count++] = copy;
	return copy;
}

int pseudo_set_keep_data(struct pseudo_set *set, struct pseudo_data *d, struct sq_error *err)
{
	struct pseudo_data **a = grow(set->datas, &set->data_cap, set->data_count, sizeof(*a));
	if (a == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	set->datas = a;
	set->datas[set->data_count++] = d;
	return 0;
}

static uint64_t node_hash(const struct pseudo_node *parent, const char *name, size_t len)
{
	return sq_xxh64(name, len, (uint64_t)(uintptr_t)parent);
}

static struct pseudo_node **index_slot(struct pseudo_node **index, size_t cap,
				       const struct pseudo_node *parent, const char *name,
				       size_t len)
{
	size_t mask = cap - 1;
	for (size_t i = node_hash(parent, name, len) & mask;; i = (i + 1) & mask) {
		struct pseudo_node *n = index[i];
		if (n == NULL || (n->parent == parent && n->name_len == len &&
				  memcmp(n->name, name, len) == 0))
			return &index[i];
	}
}

static int index_grow(struct pseudo_set *set, struct sq_error *err)
{
	size_t cap = set->index_cap ? set->index_cap * 2 : 64;
	struct pseudo_node **idx = sq_alloc_array(cap, sizeof(*idx));
	if (idx == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < set->index_cap; i++) {
		struct pseudo_node *n = set->index[i];
		if (n != NULL)
			*index_slot(idx, cap, n->parent, n->name, n->name_len) = n;
	}
	free(set->index);
	set->index = idx;
	set->index_cap = cap;
	return 0;
}

static struct pseudo_node *child_find(struct pseudo_set *set, struct pseudo_node *parent,
				      const char *name)
{
	if (set->index_cap == 0)
		return NULL;
	return *index_slot(set->index, set->index_cap, parent, name, strlen(name));
}

static struct pseudo_node *child_add(struct pseudo_set *set, struct pseudo_node *parent,
				     const char *name, struct pseudo_def *first,
				     struct sq_error *err)
{
	if ((set->node_count + 1) * 2 > set->index_cap && index_grow(set, err) != 0)
		return NULL;
	if (parent->count == parent->cap) {
		uint32_t cap = parent->cap ? parent->cap * 2 : 4;
		struct pseudo_node **kids = sq_realloc_array(parent->children, cap, sizeof(*kids));
		if (kids == NULL) {
			sq_fail(err, SQ_ERR_NOMEM, "out of memory");
			return NULL;
		}
		parent->children = kids;
		parent->cap = cap;
	}
	struct pseudo_node *n = calloc(1, sizeof(*n));
	if (n == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	n->name = strdup(name);
	n->path = sq_path_join(parent->path, name);
	if (n->name == NULL || n->path == NULL) {
		free(n->name);
		free(n->path);
		free(n);
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	n->name_len = (uint32_t)strlen(name);
	n->parent = parent;
	n->first = first;
	parent->children[parent->count++] = n;
	*index_slot(set->index, set->index_cap, parent, n->name, n->name_len) = n;
	set->node_count++;
	return n;
}

struct pseudo_node *pseudo_set_lookup(struct pseudo_set *set, char **parts)
{
	struct pseudo_node *n = &set->root;
	for (size_t i = 0; n != NULL && parts[i] != NULL; i++)
		n = child_find(set, n, parts[i]);
	return n;
}

static bool is_dir_def(const struct pseudo_def *d)
{
	return d->type == 'd' || d->type == 'm';
}

static const char *type_name(char t)
{
	switch (t) {
	case 'd': return "a directory";
	case 'm': return "a modification";
	case 'b': return "a block device";
	case 'c': return "a character device";
	case 'f': return "a file from a command";
	case 'R': return "a regular file";
	case 's': return "a symlink";
	case 'i': return "a socket or fifo";
	case 'l': case 'h': return "a hard link to a host file";
	case 'L': return "a hard link to a pseudo file";
	}
	return "an entry";
}

/* Walk to the node of parts, making directories on the way; a non-directory definition on the
 * way is an error. */
static struct pseudo_node *walk(struct pseudo_set *set, struct pseudo_def *def, char **parts,
				struct sq_error *err)
{
	char where[200];
	struct pseudo_node *n = &set->root;
	for (size_t i = 0; parts[i] != NULL; i++) {
		if (n->def != NULL && !is_dir_def(n->def)) {
			pseudo_fail(err, &def->where, "/%s is %s (%s), not a directory", n->path,
				    type_name(n->def->type),
				    pseudo_where_text(&n->def->where, where, sizeof(where)));
			return NULL;
		}
		struct pseudo_node *c = child_find(set, n, parts[i]);
		n = c != NULL ? c : child_add(set, n, parts[i], def, err);
		if (n == NULL)
			return NULL;
	}
	return n;
}

static int keep_def(struct pseudo_set *set, struct pseudo_def *def, struct sq_error *err)
{
	struct pseudo_def **a = grow(set->defs, &set->def_cap, set->def_count, sizeof(*a));
	if (a == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	set->defs = a;
	set->defs[set->def_count++] = def;
	return 0;
}

int pseudo_set_add(struct pseudo_set *set, struct pseudo_def *def, char **parts,
		   struct sq_error *err)
{
	if (keep_def(set, def, err) != 0) {
		pseudo_def_free(def);
		return -1;
	}
	struct pseudo_node *n = walk(set, def, parts, err);
	if (n == NULL)
		return -1;
	char where[200];
	const char *path = n->path ? n->path : "";
	if (def->type == 'x') {
		if (n->xattrs_last != NULL)
			n->xattrs_last->next_xattr = def;
		else
			n->xattrs = def;
		n->xattrs_last = def;
		return 0;
	}
	if (n == &set->root && def->type != 'd')
		return pseudo_fail(err, &def->where, "the root / can only be a directory (d or D)");
	if (n->def != NULL)
		return pseudo_fail(err, &def->where, "/%s is defined twice (first %s)", path,
				   pseudo_where_text(&n->def->where, where, sizeof(where)));
	if (n->count > 0 && !is_dir_def(def)) {
		return pseudo_fail(err, &def->where, "/%s cannot be %s: %s defines entries below it",
				   path, type_name(def->type),
				   pseudo_where_text(&n->children[0]->first->where, where,
						     sizeof(where)));
	}
	n->def = def;
	return 0;
}
