/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* read_tree.c — an existing image's directory tree into tree.h inodes: names, owners, modes,
 * times, xattrs, hard links (one inode reached under several names), and for regular files the
 * block list and fragment that stay in place. Directories are walked breadth first from a queue,
 * so a deep or hostile tree costs heap, not stack. */
#include "config.h"
#include "mksquashfs/append/read_tree.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/format.h"
#include "common/util/sizes.h"

/* Inode number -> tree inode, open addressing (numbers are 1..inode_count, never 0). */
struct inode_map {
	uint32_t *keys;
	struct tree_inode **vals;
	size_t cap, count;
};

struct dir_job {
	struct tree_inode *node;
	struct sqfs_inode ino;
	char *path;   /* in the image, for messages */
};

struct walk {
	struct sqfs_fs *fs;
	const struct read_limits *lim;
	struct tree *tree;
	struct inode_map map;
	struct dir_job *jobs;
	size_t head, count, cap;
	uint32_t inodes;
	uint64_t file_bytes;
	struct sq_error *err;
};

static size_t map_slot(const struct inode_map *m, uint32_t key)
{
	return (size_t)((key * 0x9E3779B1u) & (uint32_t)(m->cap - 1));
}

static struct tree_inode *map_get(const struct inode_map *m, uint32_t key)
{
	if (m->cap == 0)
		return NULL;
	for (size_t i = map_slot(m, key); m->keys[i] != 0; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

static int map_put(struct inode_map *m, uint32_t key, struct tree_inode *val)
{
	if ((m->count + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 1024;
		struct inode_map grown = { .cap = cap, .count = m->count };
		grown.keys = calloc(cap, sizeof(*grown.keys));
		grown.vals = sq_alloc_array(cap, sizeof(*grown.vals));
		if (grown.keys == NULL || grown.vals == NULL) {
			free(grown.keys);
			free(grown.vals);
			return -1;
		}
		for (size_t i = 0; i < m->cap; i++) {
			if (m->keys[i] == 0)
				continue;
			size_t j = map_slot(&grown, m->keys[i]);
			while (grown.keys[j] != 0)
				j = (j + 1) & (cap - 1);
			grown.keys[j] = m->keys[i];
			grown.vals[j] = m->vals[i];
		}
		free(m->keys);
		free(m->vals);
		*m = grown;
	}
	size_t i = map_slot(m, key);
	while (m->keys[i] != 0)
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = key;
	m->vals[i] = val;
	m->count++;
	return 0;
}

static char *join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p = malloc(dl + nl + 2);
	if (p == NULL)
		return NULL;
	memcpy(p, dir, dl);
	p[dl] = '/';
	memcpy(p + dl + (dl == 1 && dir[0] == '/' ? 0 : 1), name, nl + 1);
	return p;
}

static int xattr_cmp(const void *a, const void *b)
{
	const struct xattr_entry *x = a, *y = b;
	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	uint32_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int r = memcmp(x->key, y->key, n);
	return r != 0 ? r : x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

/* Indexed by namespace type (SQFS_XATTR_USER 0, _TRUSTED 1, _SECURITY 2), as on disk. */
static const char *const namespaces[] = { "user.", "trusted.", "security." };

/* One decoded xattr ("user.key") as a tree entry (type, key without its prefix). */
static int convert_xattr(struct sqfs_xattr *x, struct xattr_entry *e, struct sq_error *err)
{
	for (uint16_t k = 0; k < sizeof(namespaces) / sizeof(namespaces[0]); k++) {
		size_t plen = strlen(namespaces[k]);
		if (strncmp(x->name, namespaces[k], plen) != 0)
			continue;
		size_t klen = strlen(x->name + plen);
		if (klen > UINT16_MAX)
			break;
		e->type = k;
		e->key_len = (uint16_t)klen;
		e->key = strdup(x->name + plen);
		e->value_len = x->value_len;
		e->value = x->value;
		x->value = NULL;
		if (e->key == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return 0;
	}
	return sq_fail(err, SQ_ERR_CORRUPT, "xattr \"%s\" has no known namespace", x->name);
}

static int read_xattrs(struct walk *w, const struct sqfs_inode *ino, struct tree_inode *n)
{
	struct sqfs_xattr_list list;
	if (sqfs_fs_xattrs(w->fs, ino, &list, w->err) != 0)
		return -1;
	int rc = 0;
	if (list.count > 0) {
		n->xattrs = calloc(1, sizeof(*n->xattrs));
		if (n->xattrs != NULL)
			n->xattrs->entries = calloc(list.count, sizeof(*n->xattrs->entries));
		if (n->xattrs == NULL || n->xattrs->entries == NULL) {
			rc = sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
			goto out;
		}
		for (uint32_t i = 0; i < list.count && rc == 0; i++) {
			rc = convert_xattr(&list.items[i], &n->xattrs->entries[i], w->err);
			if (rc == 0)
				n->xattrs->count++;
		}
		if (rc == 0)
			qsort(n->xattrs->entries, n->xattrs->count, sizeof(*n->xattrs->entries),
			      xattr_cmp);
	}
out:
	sqfs_xattr_list_free(&list);
	return rc;
}

/* A file's block list, checked to lie inside the old data area: new data overwrites whatever
 * follows it, so a block past it would be lost. */
static int read_blocks(struct walk *w, const struct sqfs_inode *ino, struct file_data *f,
		       const char *path)
{
	const struct read_limits *lim = w->lim;
	struct sqfs_blocklist bl;
	sqfs_blocklist_start(&bl, w->fs->inodes, ino);
	uint32_t cap = 0;
	uint64_t stored = 0;
	for (uint32_t i = 0; i < ino->u.file.nblocks; i++) {
		uint32_t word;
		if (sqfs_blocklist_next(&bl, &word, w->err) != 0)
			return -1;
		/* Grown as words arrive: a hostile count fails when the table runs out, before any
		 * large allocation. */
		if (i == cap) {
			cap = cap ? cap * 2 : 16;
			if (cap > ino->u.file.nblocks)
				cap = ino->u.file.nblocks;
			uint32_t *grown = sq_realloc_array(f->block_sizes, cap, sizeof(uint32_t));
			if (grown == NULL)
				return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory for %s", path);
			f->block_sizes = grown;
		}
		f->block_sizes[i] = word;
		f->block_count = i + 1;
		stored += word & SQFS_DATA_SIZE_MASK;
	}
	if (stored > 0 && (f->blocks_start < lim->data_start || f->blocks_start > lim->data_end ||
			   stored > lim->data_end - f->blocks_start))
		return sq_fail(w->err, SQ_ERR_CORRUPT,
			       "the data of %s lies outside the image's data area", path);
	return 0;
}

static int fill_file(struct walk *w, const struct sqfs_inode *ino, struct tree_inode *n,
		     const char *path)
{
	struct file_data *f = n->file;
	f->size = ino->u.file.size;
	f->blocks_start = ino->u.file.blocks_start;
	f->sparse_bytes = ino->u.file.sparse;
	f->fragment_index = ino->u.file.frag;
	f->fragment_offset = ino->u.file.frag_offset;
	if (f->fragment_index != SQFS_NO_FRAGMENT && f->fragment_index >= w->lim->frag_count)
		return sq_fail(w->err, SQ_ERR_CORRUPT, "%s: fragment %u of %u", path,
			       (unsigned)f->fragment_index, (unsigned)w->lim->frag_count);
	n->flags |= TREE_STORED;
	w->file_bytes += f->size;
	return read_blocks(w, ino, f, path);
}

/* A tree inode for ino (found as path), with what every inode kind carries. */
static struct tree_inode *make_inode(struct walk *w, struct sqfs_inode *ino, const char *path)
{
	struct tree_inode *n = tree_inode_new_in(
		w->tree, sqfs_inode_type_bits(ino->type) | (ino->mode & 07777), w->err);
	if (n == NULL)
		return NULL;
	n->flags |= TREE_EXISTING;
	n->mtime = ino->mtime;
	int rc = sqfs_fs_owner(w->fs, ino, &n->uid, &n->gid, w->err);
	if (rc == 0)
		rc = read_xattrs(w, ino, n);
	if (rc == 0) {
		switch (ino->type) {
		case SQFS_INODE_FILE:
			rc = fill_file(w, ino, n, path);
			break;
		case SQFS_INODE_SYMLINK:
			n->symlink_target = ino->u.symlink.target;
			n->symlink_len = ino->u.symlink.size;
			ino->u.symlink.target = NULL;
			break;
		case SQFS_INODE_BLKDEV:
		case SQFS_INODE_CHRDEV:
			n->rdev_major = sqfs_dev_major(ino->u.dev.rdev);
			n->rdev_minor = sqfs_dev_minor(ino->u.dev.rdev);
			break;
		default:
			break;
		}
	}
	if (rc != 0) {
		tree_inode_free(n);
		return NULL;
	}
	w->inodes++;
	return n;
}

static int queue_dir(struct walk *w, struct tree_inode *node, const struct sqfs_inode *ino,
		     char *path)
{
	struct dir_job *grown = sq_grow(w->jobs, &w->cap, w->count + 1, sizeof(*grown), 64);
	if (grown == NULL) {
		free(path);
		return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
	}
	w->jobs = grown;
	w->jobs[w->count++] = (struct dir_job){ .node = node, .ino = *ino, .path = path };
	return 0;
}

/* One directory entry: a hard link to an inode already made, or a new inode. */
static int add_entry(struct walk *w, struct dir_job *job, const struct sqfs_dirent *ent)
{
	char *path = join(job->path, ent->name);
	if (path == NULL)
		return sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
	struct tree_inode *seen = map_get(&w->map, ent->inode_number);
	if (seen != NULL) {
		int rc = 0;
		if (seen->dir != NULL)
			rc = sq_fail(w->err, SQ_ERR_CORRUPT, "directory %s is reached twice", path);
		else if (tree_dir_add(job->node, ent->name, ent->name_len, seen, w->err) == 0)
			seen->nlink++;
		else
			rc = -1;
		free(path);
		return rc;
	}
	struct sqfs_inode ino;
	if (sqfs_fs_inode(w->fs, ent->inode_ref, &ino, w->err) != 0) {
		free(path);
		return -1;
	}
	int rc = -1;
	struct tree_inode *n = NULL;
	if (ino.type != ent->type || ino.number != ent->inode_number) {
		sq_fail(w->err, SQ_ERR_CORRUPT, "%s: the entry and its inode disagree", path);
	} else if ((n = make_inode(w, &ino, path)) != NULL) {
		if (tree_dir_add(job->node, ent->name, ent->name_len, n, w->err) != 0) {
			tree_inode_free(n);
		} else if (map_put(&w->map, ent->inode_number, n) != 0) {
			sq_fail(w->err, SQ_ERR_NOMEM, "out of memory");
		} else if (ino.type == SQFS_INODE_DIR) {
			rc = queue_dir(w, n, &ino, path);
			path = NULL;
		} else {
			rc = 0;
		}
	}
	sqfs_inode_free(&ino);
	free(path);
	return rc;
}

/* The listing of queued directory i; a copy of its job, as queueing subdirectories may move
 * the queue. */
static int read_dir(struct walk *w, size_t i)
{
	struct dir_job job = w->jobs[i];
	struct sqfs_dir_iter it;
	struct sqfs_dirent ent;
	if (sqfs_dir_open(&it, w->fs->dirs, &job.ino, w->fs->img.sb.inode_count, w->err) != 0)
		return -1;
	int rc;
	while ((rc = sqfs_dir_next(&it, &ent, w->err)) == 1)
		if (add_entry(w, &job, &ent) != 0)
			return -1;
	return rc;
}

int append_read_tree(struct sqfs_fs *fs, const struct read_limits *lim, struct tree *tree,
		     struct tree_inode **root, uint32_t *inodes, uint64_t *file_bytes,
		     struct sq_error *err)
{
	struct walk w = { .fs = fs, .lim = lim, .tree = tree, .err = err };
	struct sqfs_inode ino;
	*root = NULL;
	if (sqfs_fs_root(fs, &ino, err) != 0)
		return -1;
	int rc = -1;
	char *path = strdup("/");
	struct tree_inode *top = path != NULL ? make_inode(&w, &ino, "/") : NULL;
	if (top == NULL) {
		if (path == NULL)
			sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		free(path);
		goto out;
	}
	*root = top;
	if (map_put(&w.map, ino.number, top) != 0) {
		free(path);
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (queue_dir(&w, top, &ino, path) != 0)
		goto out;
	for (; w.head < w.count; w.head++) {
		if (read_dir(&w, w.head) != 0)
			goto out;
		free(w.jobs[w.head].path);
		w.jobs[w.head].path = NULL;
	}
	rc = 0;
out:
	for (size_t i = w.head; i < w.count; i++)
		free(w.jobs[i].path);
	free(w.jobs);
	free(w.map.keys);
	free(w.map.vals);
	sqfs_inode_free(&ino);
	*inodes = w.inodes;
	*file_bytes = w.file_bytes;
	return rc;
}
