/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* apply.c — the definition tree merged into the scanned tree, directory by directory, as
 * squashfs-tools does it: a name the source has wins over a definition (with a warning), m/M
 * change the source's entry, directories on the way must exist (or -pd makes them), and xattr
 * definitions are added last to whatever the name ended up being. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/util/sizes.h"
#include "mksquashfs/pseudo/internal.h"
#include "mksquashfs/scan_xattr.h"

struct apply {
	struct pseudo_set *set;
	const struct pseudo_apply_opts *o;
	struct inode_map *links;
	struct tree *tree; /* its arena holds the inodes made here (spillable, as the scan's) */
	FILE *warn;
	struct sq_error *err;
};

/* Pseudo-made inodes start with no entry; attach counts each name. */
static struct tree_inode *new_inode(struct apply *a, uint32_t mode, const struct pseudo_def *d)
{
	struct tree_inode *n = tree_inode_new_in(a->tree, mode, a->err);
	if (n == NULL)
		return NULL;
	n->nlink = 0;
	n->uid = d->uid;
	n->gid = d->gid;
	n->mtime = d->timed ? d->mtime : a->o->now;
	n->flags |= TREE_PSEUDO;
	/* A time made up here (the build time) is no source time for -mkfs-time inode (times.c). */
	if (!d->timed)
		n->flags |= TREE_MADE_UP;
	return n;
}

static int attach(struct apply *a, struct tree_inode *dir, const char *name, size_t len,
		  struct tree_inode *n)
{
	if (tree_dir_add(dir, name, len, n, a->err) != 0)
		return -1;
	n->nlink++;
	return 0;
}

static char *label(const struct pseudo_node *node, const char *what)
{
	size_t len = strlen(node->path) + strlen(what) + 8;
	char *s = malloc(len);
	if (s != NULL)
		snprintf(s, len, "/%s (%s)", node->path, what);
	return s;
}

static int set_span(struct apply *a, struct tree_inode *n, int fd, uint64_t offset,
		    uint64_t size, char *name)
{
	n->span = malloc(sizeof(*n->span));
	n->source_path = name;
	if (n->span == NULL || name == NULL)
		return sq_fail(a->err, SQ_ERR_NOMEM, "out of memory");
	n->span->fd = fd;
	n->span->offset = offset;
	n->file->size = size;
	return 0;
}

/* A regular file whose bytes are a command's output. */
static int fill_command(struct apply *a, const struct pseudo_node *node,
			const struct pseudo_def *d, struct tree_inode *n)
{
	uint64_t off, len;
	char why[300] = "";
	if (pseudo_spool_command(&a->set->spool, d->arg, &off, &len, why, sizeof(why)) != 0)
		return pseudo_fail(a->err, &d->where, "/%s: %s", node->path, why);
	return set_span(a, n, a->set->spool.fd, off, len, label(node, "command output"));
}

static int read_host_symlink(struct apply *a, const char *path, struct tree_inode *n)
{
	char *buf = malloc(65537);
	if (buf == NULL)
		return sq_fail(a->err, SQ_ERR_NOMEM, "out of memory");
	ssize_t len = readlink(path, buf, 65537);
	if (len < 0 || len > 65535) {
		free(buf);
		return len < 0 ? sq_fail_errno(a->err, "cannot read symlink %s", path)
			       : sq_fail(a->err, SQ_ERR_USAGE, "symlink %s is over 65535 bytes", path);
	}
	buf[len] = '\0';
	n->symlink_target = buf;
	n->symlink_len = (uint32_t)len;
	return 0;
}

/* l/h: the host file at d->arg, the scan's inode when it holds the same one. */
static struct tree_inode *host_inode(struct apply *a, const struct pseudo_def *d)
{
	struct stat st;
	if (lstat(d->arg, &st) != 0) {
		pseudo_fail(a->err, &d->where, "cannot stat link target %s: %s", d->arg,
			    strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		pseudo_fail(a->err, &d->where, "link target %s is a directory, which cannot be "
			    "hard-linked", d->arg);
		return NULL;
	}
	struct tree_inode *n = NULL;
	if (!a->o->no_hardlinks && a->links != NULL &&
	    (n = inode_map_get(a->links, st.st_dev, st.st_ino)) != NULL)
		return n;
	n = tree_inode_new_in(a->tree, (uint32_t)st.st_mode, a->err);
	if (n == NULL)
		return NULL;
	n->nlink = 0;
	n->uid = (uint32_t)st.st_uid;
	n->gid = (uint32_t)st.st_gid;
	n->mtime = st.st_mtime < 0 ? 0 : st.st_mtime > UINT32_MAX ? UINT32_MAX : (uint32_t)st.st_mtime;
	n->flags |= TREE_PSEUDO;
	int rc = 0;
	if (S_ISREG(st.st_mode)) {
		n->file->size = (uint64_t)st.st_size;
		if ((n->source_path = strdup(d->arg)) == NULL)
			rc = sq_fail(a->err, SQ_ERR_NOMEM, "out of memory");
	} else if (S_ISLNK(st.st_mode)) {
		rc = read_host_symlink(a, d->arg, n);
	} else if (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) {
		n->rdev_major = major(st.st_rdev);
		n->rdev_minor = minor(st.st_rdev);
	}
	uint32_t skipped = 0;
	if (rc == 0 && !a->o->no_xattrs)
		rc = scan_read_xattrs(d->arg, n, NULL, &skipped, a->warn, a->err);
	if (rc == 0 && !a->o->no_hardlinks && a->links != NULL)
		rc = inode_map_put(a->links, st.st_dev, st.st_ino, n, a->err);
	if (rc != 0) {
		tree_inode_free(n);
		return NULL;
	}
	return n;
}

static uint32_t type_bits(const struct pseudo_def *d)
{
	switch (d->type) {
	case 'd': return S_IFDIR;
	case 'b': return S_IFBLK;
	case 'c': return S_IFCHR;
	case 's': return S_IFLNK;
	case 'i': return d->ipc == 's' ? S_IFSOCK : S_IFIFO;
	}
	return S_IFREG;
}

/* A new inode for definition d (not m, x or L). */
static struct tree_inode *make_inode(struct apply *a, const struct pseudo_node *node,
				     const struct pseudo_def *d)
{
	if (d->type == 'l' || d->type == 'h')
		return host_inode(a, d);
	/* squashfs-tools gives every symlink rwxrwxrwx, whatever the definition says. */
	uint32_t perm = d->type == 's' ? 0777 : d->mode;
	struct tree_inode *n = new_inode(a, type_bits(d) | perm, d);
	if (n == NULL)
		return NULL;
	int rc = 0;
	if (d->type == 'b' || d->type == 'c') {
		n->rdev_major = d->major;
		n->rdev_minor = d->minor;
	} else if (d->type == 's') {
		n->symlink_target = strdup(d->arg);
		n->symlink_len = (uint32_t)strlen(d->arg);
		if (n->symlink_target == NULL)
			rc = sq_fail(a->err, SQ_ERR_NOMEM, "out of memory");
	} else if (d->type == 'f') {
		rc = fill_command(a, node, d, n);
	} else if (d->type == 'R') {
		rc = set_span(a, n, d->data->fd, d->data->base + d->offset, d->length,
			      label(node, "pseudo file data"));
	}
	if (rc != 0) {
		tree_inode_free(n);
		return NULL;
	}
	return n;
}

/* The inode a definition names, made once and shared by the L definitions naming it (hard
 * links). */
static struct tree_inode *inode_for(struct apply *a, const struct pseudo_node *node,
				    struct pseudo_def *d)
{
	struct pseudo_def *src = d->type == 'L' ? d->target : d;
	if (src->made == NULL)
		src->made = make_inode(a, node, src);
	return src->made;
}

static int apply_dir(struct apply *a, struct tree_inode *dir, struct pseudo_node *pdir);

static struct tree_inode *default_dir(struct apply *a, const struct pseudo_node *node)
{
	const struct pseudo_def *d = a->set->default_dir;
	if (d == NULL) {
		pseudo_fail(a->err, &node->first->where, "/%s does not exist in the source and has "
			    "no pseudo definition (define it with d, or give -pd)", node->path);
		return NULL;
	}
	return new_inode(a, S_IFDIR | d->mode, d);
}

/* A name with no definition of its own: a directory on the way to others. */
static int apply_way(struct apply *a, struct tree_inode *dir, struct pseudo_node *c,
		     struct tree_entry *e)
{
	if (c->count == 0)
		return 0;
	if (e != NULL) {
		if (e->inode->dir == NULL)
			return pseudo_fail(a->err, &c->first->where, "/%s is not a directory in the "
					   "source, so nothing can be defined below it", c->path);
		return apply_dir(a, e->inode, c);
	}
	struct tree_inode *n = default_dir(a, c);
	if (n == NULL)
		return -1;
	if (attach(a, dir, c->name, c->name_len, n) != 0) {
		tree_inode_free(n);
		return -1;
	}
	return apply_dir(a, n, c);
}

static int apply_modify(struct apply *a, struct pseudo_node *c, struct tree_entry *e)
{
	const struct pseudo_def *d = c->def;
	if (e == NULL) {
		if (c->count > 0)
			return pseudo_fail(a->err, &d->where, "/%s does not exist in the source, so "
					   "it cannot be modified or hold definitions", c->path);
		if (a->warn != NULL)
			fprintf(a->warn, "Pseudo modify file \"/%s\" does not exist in the source: "
				"ignored\n", c->path);
		return 0;
	}
	struct tree_inode *n = e->inode;
	n->mode = (n->mode & S_IFMT) | d->mode;
	n->uid = d->uid;
	n->gid = d->gid;
	if (d->timed)
		n->mtime = d->mtime;
	n->flags |= TREE_PSEUDO;
	if (c->count == 0)
		return 0;
	if (n->dir == NULL)
		return pseudo_fail(a->err, &d->where, "/%s is not a directory in the source, so "
				   "nothing can be defined below it", c->path);
	return apply_dir(a, n, c);
}

static int apply_one(struct apply *a, struct tree_inode *dir, struct pseudo_node *c)
{
	struct tree_entry *e = tree_dir_find(dir, c->name, c->name_len);
	if (e != NULL && (e->inode->flags & TREE_EXISTING)) {
		/* The image being appended to stays as it was, as squashfs-tools keeps it. */
		if (a->warn != NULL)
			fprintf(a->warn, "Pseudo file \"/%s\" is in the image appended to: ignored\n",
				c->path);
		return 0;
	}
	if (c->def == NULL)
		return apply_way(a, dir, c, e);
	if (c->def->type == 'm')
		return apply_modify(a, c, e);
	if (e != NULL) {
		char where[200];
		if (a->warn != NULL)
			fprintf(a->warn, "Pseudo file \"/%s\" (%s) exists in the source: ignored, "
				"exclude it (-e/-ef) to replace it\n", c->path,
				pseudo_where_text(&c->def->where, where, sizeof(where)));
		/* What is defined below it still goes into the source's directory, as squashfs-tools
		 * merges it. */
		return c->count == 0 ? 0 : apply_way(a, dir, c, e);
	}
	/* -no-hardlinks: every L is a copy of its target, as squashfs-tools stores it. */
	bool copy = c->def->type == 'L' && a->o->no_hardlinks;
	struct tree_inode *n = copy ? make_inode(a, c, c->def->target) : inode_for(a, c, c->def);
	if (n == NULL)
		return -1;
	if (attach(a, dir, c->name, c->name_len, n) != 0) {
		if (copy)
			tree_inode_free(n);
		return -1;
	}
	return c->def->type == 'd' ? apply_dir(a, n, c) : 0;
}

/* Add one xattr to an inode's set, replacing one of the same name. */
static int add_xattr(struct apply *a, struct tree_inode *n, const struct xattr_entry *x)
{
	if (n->xattrs == NULL && (n->xattrs = calloc(1, sizeof(*n->xattrs))) == NULL)
		return sq_fail(a->err, SQ_ERR_NOMEM, "out of memory");
	struct xattr_set *s = n->xattrs;
	uint32_t i = 0;
	while (i < s->count && (s->entries[i].type < x->type ||
				(s->entries[i].type == x->type && strcmp(s->entries[i].key, x->key) < 0)))
		i++;
	bool replace = i < s->count && s->entries[i].type == x->type &&
		       strcmp(s->entries[i].key, x->key) == 0;
	uint8_t *value = malloc(x->value_len ? x->value_len : 1);
	char *key = strdup(x->key);
	struct xattr_entry *grown = replace ? s->entries
					    : sq_realloc_array(s->entries, s->count + 1, sizeof(*grown));
	if (value == NULL || key == NULL || grown == NULL) {
		free(value);
		free(key);
		return sq_fail(a->err, SQ_ERR_NOMEM, "out of memory");
	}
	s->entries = grown;
	if (replace) {
		free(s->entries[i].key);
		free(s->entries[i].value);
	} else {
		memmove(&s->entries[i + 1], &s->entries[i], (s->count - i) * sizeof(*grown));
		s->count++;
	}
	memcpy(value, x->value, x->value_len);
	s->entries[i] = (struct xattr_entry){ .type = x->type, .key_len = x->key_len, .key = key,
					      .value_len = x->value_len, .value = value };
	return 0;
}

static int apply_xattrs(struct apply *a, struct tree_inode *n, const struct pseudo_node *c)
{
	for (const struct pseudo_def *x = c->xattrs; x != NULL && !a->o->no_xattrs;
	     x = x->next_xattr) {
		if (n == NULL)
			return pseudo_fail(a->err, &x->where, "/%s does not exist, so no xattr can be "
					   "added to it", c->path);
		if (add_xattr(a, n, &x->xattr) != 0)
			return -1;
	}
	return 0;
}

static int apply_dir(struct apply *a, struct tree_inode *dir, struct pseudo_node *pdir)
{
	for (uint32_t i = 0; i < pdir->count; i++)
		if (apply_one(a, dir, pdir->children[i]) != 0)
			return -1;
	for (uint32_t i = 0; i < pdir->count; i++) {
		struct pseudo_node *c = pdir->children[i];
		if (c->xattrs == NULL)
			continue;
		struct tree_entry *e = tree_dir_find(dir, c->name, c->name_len);
		if (e != NULL && (e->inode->flags & TREE_EXISTING))
			continue;
		if (apply_xattrs(a, e ? e->inode : NULL, c) != 0)
			return -1;
	}
	return 0;
}

/* Source "-": the root is the "/" definition, or the -pd directory. */
static int make_root(struct apply *a, struct tree *tree)
{
	const struct pseudo_def *d = a->set->root.def ? a->set->root.def : a->set->default_dir;
	if (d == NULL)
		return sq_fail(a->err, SQ_ERR_USAGE, "source is \"-\" but there is no pseudo "
			       "definition of \"/\" (such as -p \"/ d 755 0 0\") and no -pd");
	tree->root = new_inode(a, S_IFDIR | d->mode, d);
	if (tree->root == NULL)
		return -1;
	tree->root->nlink = 1;
	return 0;
}

/* Inodes made for definitions whose names were all ignored belong to no tree. */
static void release_made(struct pseudo_set *set)
{
	for (size_t i = 0; i < set->def_count; i++) {
		struct pseudo_def *d = set->defs[i];
		if (d->made != NULL && d->made->nlink == 0)
			tree_inode_free(d->made);
		d->made = NULL;
	}
}

int pseudo_apply(struct pseudo_set *set, const struct pseudo_apply_opts *opts, struct tree *tree,
		 struct inode_map *links, FILE *warn, struct sq_error *err)
{
	struct apply a = { .set = set, .o = opts, .links = links, .tree = tree, .warn = warn,
			   .err = err };
	int rc = -1;
	if (!opts->have_sources) {
		if (make_root(&a, tree) != 0)
			goto out;
	} else if (set->root.def != NULL && warn != NULL) {
		char where[200];
		fprintf(warn, "Pseudo definition of / (%s) ignored: the root comes from the "
			"sources\n", pseudo_where_text(&set->root.def->where, where, sizeof(where)));
	}
	if (apply_dir(&a, tree->root, &set->root) != 0 || apply_xattrs(&a, tree->root, &set->root) != 0)
		goto out;
	rc = 0;
out:
	release_made(set);
	return rc;
}
