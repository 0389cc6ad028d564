/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan_xattr.c — llistxattr/lgetxattr into squashfs xattr sets, filtered by -xattrs-exclude and
 * -xattrs-include, and -xattrs-add's attributes merged into every inode of the finished tree. */
#include "config.h"
#include "mksquashfs/scan_xattr.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef HAVE_XATTR
#include <sys/xattr.h>
#endif

#include "common/format.h"
#include "common/util/sizes.h"

bool xattr_name_wanted(const struct xattr_options *f, const char *name)
{
	return f == NULL ||
	       ((f->exclude == NULL || regexec(f->exclude, name, 0, NULL, 0) != 0) &&
		(f->include == NULL || regexec(f->include, name, 0, NULL, 0) == 0));
}

#ifdef HAVE_XATTR

/* Read every xattr of path in a squashfs namespace; others are skipped with a warning, as
 * squashfs-tools does. Files that vanish or whose filesystem lacks xattrs simply have none. */
int scan_read_xattrs(const char *path, struct tree_inode *n, const struct xattr_options *filter,
		     uint32_t *skipped, FILE *warn, struct sq_error *err)
{
	ssize_t len = llistxattr(path, NULL, 0);
	if (len <= 0) {
		if (len < 0 && errno != ENOTSUP && errno != ENODATA)
			return sq_fail_errno(err, "cannot list xattrs of %s", path);
		return 0;
	}
	char *names = malloc((size_t)len);
	struct xattr_set *set = calloc(1, sizeof(*set));
	if (names == NULL || set == NULL) {
		free(names);
		free(set);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	len = llistxattr(path, names, (size_t)len);
	if (len < 0) {
		free(names);
		free(set);
		return sq_fail_errno(err, "cannot list xattrs of %s", path);
	}
	uint32_t max = 0;
	for (ssize_t i = 0; i < len; i++)
		max += names[i] == '\0';
	set->entries = sq_alloc_array(max ? max : 1, sizeof(*set->entries));
	if (set->entries == NULL)
		goto nomem;
	for (char *name = names; name < names + len; name += strlen(name) + 1) {
		const char *key = NULL;
		int type = tree_xattr_type(name, &key);
		if (!xattr_name_wanted(filter, name))
			continue;
		if (type < 0) {
			(*skipped)++;
			if (warn != NULL)
				fprintf(warn, "mksquashfs: unrecognised xattr prefix %s on %s, skipped\n",
					name, path);
			continue;
		}
		ssize_t vlen = lgetxattr(path, name, NULL, 0);
		if (vlen < 0) {
			if (errno == ENODATA)
				continue;
			tree_xattrs_free(set);
			free(names);
			return sq_fail_errno(err, "cannot read xattr %s of %s", name, path);
		}
		struct xattr_entry *e = &set->entries[set->count];
		e->type = (uint16_t)type;
		e->key_len = (uint16_t)strlen(key);
		e->key = strdup(key);
		e->value = malloc(vlen ? (size_t)vlen : 1);
		if (e->key == NULL || e->value == NULL) {
			free(e->key);
			free(e->value);
			goto nomem;
		}
		vlen = lgetxattr(path, name, e->value, (size_t)vlen);
		if (vlen < 0) {
			int saved = errno;
			free(e->key);
			free(e->value);
			tree_xattrs_free(set);
			free(names);
			errno = saved;
			return sq_fail_errno(err, "cannot read xattr %s of %s", name, path);
		}
		e->value_len = (uint32_t)vlen;
		set->count++;
	}
	free(names);
	if (set->count == 0) {
		tree_xattrs_free(set);
		return 0;
	}
	tree_xattrs_sort(set);
	n->xattrs = set;
	return 0;
nomem:
	tree_xattrs_free(set);
	free(names);
	return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
}
#endif



#ifndef HAVE_XATTR
int scan_read_xattrs(const char *path, struct tree_inode *n, const struct xattr_options *filter,
		     uint32_t *skipped, FILE *warn, struct sq_error *err)
{
	(void)filter;
	(void)path;
	(void)n;
	(void)skipped;
	(void)warn;
	(void)err;
	return 0;
}
#endif

/* Inodes already given the added xattrs (hard links reach one inode by several names). */
struct seen_set {
	const struct tree_inode **slots;
	size_t cap, count;
};

static size_t seen_hash(const struct tree_inode *n, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)n * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 17) & (cap - 1);
}

/* 1 when n was already in the set, 0 when added now, -1 when memory is short. */
static int seen_add(struct seen_set *s, const struct tree_inode *n)
{
	if (s->count * 2 >= s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		const struct tree_inode **slots = calloc(cap, sizeof(*slots));
		if (slots == NULL)
			return -1;
		for (size_t i = 0; i < s->cap; i++) {
			if (s->slots[i] == NULL)
				continue;
			size_t k = seen_hash(s->slots[i], cap);
			while (slots[k] != NULL)
				k = (k + 1) & (cap - 1);
			slots[k] = s->slots[i];
		}
		free(s->slots);
		s->slots = slots;
		s->cap = cap;
	}
	size_t k = seen_hash(n, s->cap);
	while (s->slots[k] != NULL) {
		if (s->slots[k] == n)
			return 1;
		k = (k + 1) & (s->cap - 1);
	}
	s->slots[k] = n;
	s->count++;
	return 0;
}

/* Merge the -xattrs-add list into n's set. User xattrs go to regular files and directories only
 * (the kernel allows them nowhere else); a name the file already has is an error, as in
 * squashfs-tools. */
static int add_to_inode(const struct xattr_options *x, struct tree_inode *n, const char *where,
			struct sq_error *err)
{
	bool user_ok = S_ISREG(n->mode) || S_ISDIR(n->mode);
	struct xattr_set *set = n->xattrs;
	uint32_t have = set != NULL ? set->count : 0;
	if (set == NULL) {
		set = calloc(1, sizeof(*set));
		if (set == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		n->xattrs = set;
	}
	struct xattr_entry *grown = sq_realloc_array(set->entries, (size_t)have + x->add_count + 1,
						     sizeof(*grown));
	if (grown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	set->entries = grown;
	for (uint32_t i = 0; i < x->add_count; i++) {
		const struct xattr_add *a = &x->add[i];
		if (a->type == SQFS_XATTR_USER && !user_ok)
			continue;
		for (uint32_t k = 0; k < have; k++)
			if (set->entries[k].type == a->type && strcmp(set->entries[k].key, a->key) == 0)
				return sq_fail(err, SQ_ERR_USAGE, "Duplicate xattr name %s in file %s",
					       a->full_name, where);
		struct xattr_entry *e = &set->entries[set->count];
		e->type = a->type;
		e->key_len = (uint16_t)strlen(a->key);
		e->key = strdup(a->key);
		e->value = malloc(a->value_len ? a->value_len : 1);
		if (e->key == NULL || e->value == NULL) {
			free(e->key);
			free(e->value);
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		}
		memcpy(e->value, a->value, a->value_len);
		e->value_len = a->value_len;
		set->count++;
	}
	if (set->count == 0) {
		tree_xattrs_free(set);
		n->xattrs = NULL;
		return 0;
	}
	tree_xattrs_sort(set);
	return 0;
}

static int add_walk(const struct xattr_options *x, struct tree_inode *n, struct seen_set *seen,
		    struct sq_error *err)
{
	if (n->dir == NULL && n->nlink > 1) {
		int was = seen_add(seen, n);
		if (was < 0)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		if (was)
			return 0;
	}
	const char *where = n->source_path != NULL ? n->source_path : "(made up by mksquashfs)";
	if (add_to_inode(x, n, where, err) != 0)
		return -1;
	if (n->dir == NULL)
		return 0;
	for (uint32_t i = 0; i < n->dir->count; i++)
		if (add_walk(x, n->dir->entries[i].inode, seen, err) != 0)
			return -1;
	return 0;
}

int xattrs_add_apply(const struct mksq_options *o, struct tree *tree, struct sq_error *err)
{
	if (o->xattr.add_count == 0 || o->image.no_xattrs || tree->root == NULL)
		return 0;
	struct seen_set seen = { 0 };
	int rc = add_walk(&o->xattr, tree->root, &seen, err);
	free(seen.slots);
	return rc;
}
