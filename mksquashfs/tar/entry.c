/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/entry.c — one member into the tree: its fields with the extension headers applied, its
 * kind, its place (a name already given is kept, as squashfs-tools keeps the first), hard links
 * to names seen before, and a regular file's bytes (sparse maps honoured) into the spool. */
#include "config.h"
#include "mksquashfs/tar/reader.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/util/sizes.h"

/* The header's fields with the pax and GNU extension values over them. */
static void apply_ext(struct tar_reader *r, const struct tar_header *h, struct tar_member *m)
{
	const struct tar_ext *l = &r->local, *g = &r->global;
	m->path = l->sparse_name ? l->sparse_name : l->path ? l->path : g->path ? g->path : h->name;
	m->link = l->linkpath ? l->linkpath : g->linkpath ? g->linkpath : h->linkname;
	m->uname = l->uname ? l->uname : g->uname ? g->uname : h->uname;
	m->gname = l->gname ? l->gname : g->gname ? g->gname : h->gname;
	m->size = l->has_size ? l->size : g->has_size ? g->size : h->size;
	m->uid = l->has_uid ? l->uid : g->has_uid ? g->uid : h->uid;
	m->gid = l->has_gid ? l->gid : g->has_gid ? g->gid : h->gid;
	m->mtime = l->has_mtime ? l->mtime : g->has_mtime ? g->mtime : h->mtime;
	m->mode = h->mode;
	m->devmajor = h->devmajor;
	m->devminor = h->devminor;
}

/* Old GNU 'S' members: the map in the header and its extension blocks. */
static int old_gnu_sparse(struct tar_reader *r, const struct tar_header *h, struct tar_member *m)
{
	for (unsigned i = 0; i < h->sparse_count; i++)
		if (sparse_map_add(&m->own_map, h->sparse[i].offset, h->sparse[i].length) != 0)
			return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	bool more = h->sparse_extended;
	while (more) {
		uint8_t block[TAR_BLOCK];
		struct tar_sparse_entry e[TAR_GNU_SPARSE_IN_EXT];
		unsigned n;
		const char *why = NULL;
		if (tar_in_read(r, block, TAR_BLOCK) != 0)
			return -1;
		if (tar_sparse_ext_decode(block, e, &n, &more, &why) != 0)
			return tar_fail(r, SQ_ERR_CORRUPT, "%s", why);
		for (unsigned i = 0; i < n; i++)
			if (sparse_map_add(&m->own_map, e[i].offset, e[i].length) != 0)
				return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	}
	m->sparse = true;
	m->map = &m->own_map;
	m->realsize = h->realsize;
	return 0;
}

/* The member's kind, from its typeflag (and, in v7 archives, a trailing '/'). */
static int member_type(struct tar_reader *r, const struct tar_header *h, struct tar_member *m)
{
	char t = h->type;
	size_t len = strlen(m->path);
	switch (t) {
	case '0': case '\0': case '7':
		m->type = len > 0 && m->path[len - 1] == '/' && t != '7' ? '5' : '0';
		break;
	case '1': case '2': case '3': case '4': case '5': case '6':
		m->type = t;
		break;
	case 'D': /* GNU incremental dump directory: its data lists names, not content */
		m->type = '5';
		break;
	case 'S':
		m->type = '0';
		return old_gnu_sparse(r, h, m);
	case 'M':
		return tar_fail(r, SQ_ERR_UNSUPPORTED, "multi-volume archives are not supported");
	default:
		/* POSIX: an unknown type is read as a regular file. */
		tar_warn(r, "unknown type '%c', stored as a regular file", t);
		m->type = '0';
		break;
	}
	if (m->type == '0' && r->local.sparse) {
		m->sparse = true;
		m->sparse_map_in_data = r->local.sparse_v1;
		m->map = &r->local.map;
		m->realsize = r->local.has_realsize ? r->local.realsize : m->size;
		if (r->local.map_pending)
			return tar_fail(r, SQ_ERR_CORRUPT, "GNU.sparse.offset without numbytes");
	}
	return 0;
}

/* GNU sparse 1.0: the map is at the start of the member's data, padded to a block. Reads it
 * into r->local.map and returns the bytes it took in *used. */
static int map_from_data(struct tar_reader *r, const struct tar_member *m, uint64_t *used)
{
	struct sparse_text t;
	sparse_text_init(&t);
	uint64_t taken = 0;
	for (;;) {
		if (taken >= m->size)
			return tar_fail(r, SQ_ERR_CORRUPT, "sparse map runs past the member's data");
		ssize_t got = tar_in_fill(&r->in, 1, r->err);
		if (got < 0)
			return -1;
		if (got == 0)
			return tar_fail(r, SQ_ERR_CORRUPT, "archive truncated inside a sparse map");
		size_t avail = r->in.have - r->in.pos, n = 0;
		if ((uint64_t)avail > m->size - taken)
			avail = (size_t)(m->size - taken);
		const char *why = NULL;
		int rc = sparse_text_feed(&t, m->map, r->in.buf + r->in.pos, avail, &n, &why);
		tar_in_consume(&r->in, n);
		taken += n;
		if (rc == -2)
			return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
		if (rc < 0)
			return tar_fail(r, SQ_ERR_CORRUPT, "%s", why);
		if (rc == 1)
			break;
	}
	uint64_t pad = (TAR_BLOCK - taken % TAR_BLOCK) % TAR_BLOCK;
	if (pad > m->size - taken)
		return tar_fail(r, SQ_ERR_CORRUPT, "sparse map runs past the member's data");
	*used = taken + pad;
	return tar_in_skip(r, pad);
}

/* A regular file's bytes into the spool; its inode points there. */
static int member_data(struct tar_reader *r, struct tar_member *m, struct tree_inode *n)
{
	uint64_t stored = m->size, at;
	if (m->sparse && m->sparse_map_in_data) {
		uint64_t used = 0;
		if (map_from_data(r, m, &used) != 0)
			return -1;
		stored -= used;
	}
	uint64_t size = m->sparse ? m->realsize : stored;
	if (m->sparse) {
		const char *why = sparse_map_check(m->map, m->realsize, stored);
		if (why != NULL)
			return tar_fail(r, SQ_ERR_CORRUPT, "%s", why);
	}
	/* In the arena (spillable) beside the inode, not 32 heap bytes a file. */
	n->span = tree_alloc(r->tree, sizeof(*n->span), r->err);
	if (n->span == NULL)
		return -1;
	n->flags |= TREE_SPAN_IN_ARENA;
	if (tar_spool_reserve(r, size, m->sparse, &at) != 0)
		return -1;
	n->span->fd = r->spool.fd;
	n->span->offset = at;
	n->file->size = size;
	if (!m->sparse)
		return tar_spool_copy(r, at, stored);
	for (size_t i = 0; i < m->map->count; i++)
		if (tar_spool_copy(r, at + m->map->e[i].offset, m->map->e[i].length) != 0)
			return -1;
	return 0;
}

/* A directory listed after members below it made it up: it takes the member's metadata. */
static int fill_made_up(struct tar_reader *r, const struct tar_member *m, struct tree_inode *d)
{
	struct tree_inode *n = tar_member_inode(r, m);
	if (n == NULL)
		return -1;
	d->mode = n->mode;
	d->uid = n->uid;
	d->gid = n->gid;
	d->mtime = n->mtime;
	struct xattr_set *x = d->xattrs;
	d->xattrs = n->xattrs;
	n->xattrs = x;
	d->flags &= ~(uint32_t)TREE_MADE_UP;
	tree_inode_free(n);
	return 0;
}

/* -no-hardlinks: a second inode with the first's metadata and bytes (the data stage finds the
 * duplicate and stores the data once). */
static struct tree_inode *copy_inode(struct tar_reader *r, const struct tree_inode *to)
{
	struct tree_inode *n = tree_inode_new_in(r->tree, to->mode, r->err);
	if (n == NULL)
		return NULL;
	n->uid = to->uid;
	n->gid = to->gid;
	n->mtime = to->mtime;
	n->rdev_major = to->rdev_major;
	n->rdev_minor = to->rdev_minor;
	bool nomem = false;
	if (to->symlink_target != NULL) {
		n->symlink_target = strdup(to->symlink_target);
		n->symlink_len = to->symlink_len;
		nomem |= n->symlink_target == NULL;
	}
	if (to->span != NULL) {
		struct sq_error ignored;
		n->span = tree_alloc(r->tree, sizeof(*n->span), &ignored);
		if (n->span != NULL) {
			*n->span = *to->span;
			n->flags |= TREE_SPAN_IN_ARENA;
		}
		n->file->size = to->file->size;
		nomem |= n->span == NULL;
	}
	if (to->xattrs != NULL && !nomem) {
		n->xattrs = calloc(1, sizeof(*n->xattrs));
		if (n->xattrs != NULL)
			n->xattrs->entries = sq_alloc_array(to->xattrs->count, sizeof(struct xattr_entry));
		nomem |= n->xattrs == NULL || n->xattrs->entries == NULL;
		for (uint32_t i = 0; !nomem && i < to->xattrs->count; i++) {
			const struct xattr_entry *x = &to->xattrs->entries[i];
			struct xattr_entry *y = &n->xattrs->entries[i];
			*y = *x;
			y->key = strdup(x->key);
			y->value = malloc(x->value_len ? x->value_len : 1);
			if (y->key == NULL || y->value == NULL) {
				free(y->key);
				free(y->value);
				nomem = true;
				break;
			}
			memcpy(y->value, x->value, x->value_len);
			n->xattrs->count++;
		}
	}
	if (nomem) {
		tree_inode_free(n);
		sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	return n;
}

static int hard_link(struct tar_reader *r, const struct tar_member *m, struct tree_inode *parent,
		     const char *name)
{
	char *target = strdup(m->link);
	const char *parts[TAR_MAX_DEPTH];
	if (target == NULL)
		return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	int depth = tar_path_split(r, target, parts, TAR_MAX_DEPTH);
	int rc = -1;
	if (depth < 0)
		goto out;
	struct tree_inode *to = depth > 0 ? tar_lookup(r, parts, (uint32_t)depth) : NULL;
	if (to == NULL) {
		/* A link to an excluded file goes with it. */
		if (depth > 0 && tar_excluded(r, parts, (uint32_t)depth))
			rc = 0;
		else
			tar_fail(r, SQ_ERR_CORRUPT, "hard link to \"%s\", which the archive has not given before it",
				 m->link);
		goto out;
	}
	if (to->dir != NULL) {
		tar_fail(r, SQ_ERR_CORRUPT, "hard link to the directory \"%s\"", m->link);
		goto out;
	}
	if (r->o->walk.no_hardlinks) {
		struct tree_inode *n = copy_inode(r, to);
		if (n == NULL)
			goto out;
		if (tree_dir_add(parent, name, strlen(name), n, r->err) != 0) {
			tree_inode_free(n);
			goto out;
		}
		rc = 0;
		goto out;
	}
	if (tree_dir_add(parent, name, strlen(name), to, r->err) != 0)
		goto out;
	to->nlink++;
	r->stats->hard_links++;
	rc = 0;
out:
	free(target);
	return rc;
}

/* The member at its place, if it gets one: 0 placed or deliberately left out, -1 error.
 * *consumed tells how much of its data was read. */
static int place_member(struct tar_reader *r, struct tar_member *m, const char *const *parts,
			uint32_t depth, uint64_t *consumed)
{
	struct tree_inode *parent = tar_parent(r, parts, depth);
	if (parent == NULL)
		return -1;
	const char *name = parts[depth - 1];
	struct tree_entry *old = tree_dir_find(parent, name, strlen(name));
	if (old != NULL) {
		bool made_up = (old->inode->flags & TREE_MADE_UP) != 0;
		if (made_up && m->type == '5')
			return fill_made_up(r, m, old->inode);
		if (made_up)
			return tar_fail(r, SQ_ERR_CORRUPT,
					"the archive has it both as a directory and as a non-directory");
		tar_warn(r, "already in the archive, this later copy is ignored");
		return 0;
	}
	if (m->type == '1')
		return hard_link(r, m, parent, name);
	struct tree_inode *n = tar_member_inode(r, m);
	if (n == NULL)
		return -1;
	if (m->type == '0') {
		*consumed = m->size;
		if (member_data(r, m, n) != 0) {
			tree_inode_free(n);
			return -1;
		}
	}
	if (tree_dir_add(parent, name, strlen(name), n, r->err) != 0) {
		tree_inode_free(n);
		return -1;
	}
	return 0;
}

int tar_process_member(struct tar_reader *r, const struct tar_header *h)
{
	struct tar_member m;
	memset(&m, 0, sizeof(m));
	apply_ext(r, h, &m);
	r->entry = m.path;
	char *path = NULL;
	const char *parts[TAR_MAX_DEPTH];
	uint64_t consumed = 0;
	int rc = -1;
	if (member_type(r, h, &m) != 0)
		goto out;
	path = strdup(m.path);
	if (path == NULL) {
		sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
		goto out;
	}
	int depth = tar_path_split(r, path, parts, TAR_MAX_DEPTH);
	if (depth < 0)
		goto out;
	if (depth == 0)
		tar_warn(r, "empty name after dropping leading /, ./ and ../: ignored");
	else if (!tar_excluded(r, parts, (uint32_t)depth) &&
		 place_member(r, &m, parts, (uint32_t)depth, &consumed) != 0)
		goto out;
	rc = tar_in_skip(r, m.size - consumed);
	if (rc == 0)
		rc = tar_skip_padding(r, m.size);
out:
	free(path);
	sparse_map_free(&m.own_map);
	return rc;
}
