/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/member.c — a member's inode: owner (its user and group names when this system knows them,
 * else its numbers, as squashfs-tools does), time, mode, device numbers, symlink target and
 * xattrs; and the directories made up for paths the archive does not list. */
#include "config.h"
#include "mksquashfs/tar/reader.h"

#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/format.h"
#include "common/util/sizes.h"
#include "mksquashfs/scan_xattr.h"

/* squashfs keeps a 12-bit major and a 20-bit minor (common/format.h sqfs_encode_dev). */
#define TAR_MAJOR_MAX 0xfffu
#define TAR_MINOR_MAX 0xfffffu

void tar_owner_cache_free(struct owner_cache *c)
{
	for (size_t i = 0; i < c->count; i++)
		free(c->names[i].name);
	free(c->names);
	c->names = NULL;
	c->count = 0;
}

/* The id this system gives the name, looked up once per distinct name. -1 when memory is
 * short; 0 with *found false when the system does not know the name. */
static int owner_lookup(struct owner_cache *c, const char *name, bool group, bool *found,
			uint32_t *id)
{
	for (size_t i = 0; i < c->count; i++) {
		if (strcmp(c->names[i].name, name) == 0) {
			*found = c->names[i].found;
			*id = c->names[i].id;
			return 0;
		}
	}
	struct owner_name *grown = sq_realloc_array(c->names, c->count + 1, sizeof(*grown));
	if (grown == NULL)
		return -1;
	c->names = grown;
	struct owner_name *n = &c->names[c->count];
	n->name = strdup(name);
	if (n->name == NULL)
		return -1;
	n->found = false;
	n->id = 0;
	if (group) {
		struct group *g = getgrnam(name);
		if (g != NULL) {
			n->found = true;
			n->id = (uint32_t)g->gr_gid;
		}
	} else {
		struct passwd *p = getpwnam(name);
		if (p != NULL) {
			n->found = true;
			n->id = (uint32_t)p->pw_uid;
		}
	}
	c->count++;
	*found = n->found;
	*id = n->id;
	return 0;
}

static int member_owner(struct tar_reader *r, const char *name, uint64_t number, bool group,
			uint32_t *out)
{
	if (!r->o->tar.numeric_owner && name != NULL && name[0] != '\0') {
		bool found;
		if (owner_lookup(group ? &r->groups : &r->users, name, group, &found, out) != 0)
			return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
		if (found)
			return 0;
	}
	if (number > UINT32_MAX)
		return tar_fail(r, SQ_ERR_UNSUPPORTED, "%s %llu does not fit in 32 bits",
				group ? "gid" : "uid", (unsigned long long)number);
	*out = (uint32_t)number;
	return 0;
}

/* One pax xattr into the set; names outside squashfs's namespaces are skipped with a warning,
 * as for directory sources, and -xattrs-exclude / -xattrs-include filter them as they do. */
static int add_xattr(struct tar_reader *r, struct xattr_set *set, const struct tar_xattr *x)
{
	if (!xattr_name_wanted(&r->o->xattr, x->name))
		return 0;
	const char *key = NULL;
	int type = tree_xattr_type(x->name, &key);
	if (type < 0 || x->len > UINT32_MAX) {
		r->stats->xattrs_skipped++;
		tar_warn(r, "xattr %s not in a namespace squashfs stores, skipped", x->name);
		return 0;
	}
	for (uint32_t i = 0; i < set->count; i++)
		if (set->entries[i].type == type && strcmp(set->entries[i].key, key) == 0)
			return 0; /* the member's own value came first and wins over a global one */
	struct xattr_entry *e = &set->entries[set->count];
	e->type = (uint16_t)type;
	e->key_len = (uint16_t)strlen(key);
	e->key = strdup(key);
	e->value = malloc(x->len ? x->len : 1);
	if (e->key == NULL || e->value == NULL) {
		free(e->key);
		free(e->value);
		return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	}
	memcpy(e->value, x->value, x->len);
	e->value_len = (uint32_t)x->len;
	set->count++;
	return 0;
}

static int member_xattrs(struct tar_reader *r, struct tree_inode *n)
{
	size_t total = r->local.xattr_count + r->global.xattr_count;
	if (total == 0 || r->o->image.no_xattrs)
		return 0;
	struct xattr_set *set = calloc(1, sizeof(*set));
	if (set == NULL || (set->entries = sq_alloc_array(total, sizeof(*set->entries))) == NULL) {
		free(set);
		return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	}
	int rc = 0;
	for (size_t i = 0; i < r->local.xattr_count && rc == 0; i++)
		rc = add_xattr(r, set, &r->local.xattrs[i]);
	for (size_t i = 0; i < r->global.xattr_count && rc == 0; i++)
		rc = add_xattr(r, set, &r->global.xattrs[i]);
	if (rc != 0 || set->count == 0) {
		tree_xattrs_free(set);
		return rc;
	}
	tree_xattrs_sort(set);
	n->xattrs = set;
	return 0;
}

static uint32_t type_bits(char type)
{
	switch (type) {
	case '2': return S_IFLNK;
	case '3': return S_IFCHR;
	case '4': return S_IFBLK;
	case '5': return S_IFDIR;
	case '6': return S_IFIFO;
	default: return S_IFREG;
	}
}

static int member_details(struct tar_reader *r, const struct tar_member *m, struct tree_inode *n)
{
	if (m->type == '3' || m->type == '4') {
		if (m->devmajor > TAR_MAJOR_MAX || m->devminor > TAR_MINOR_MAX)
			return tar_fail(r, SQ_ERR_UNSUPPORTED,
					"device %llu:%llu does not fit squashfs (major at most %u, minor at most %u)",
					(unsigned long long)m->devmajor,
					(unsigned long long)m->devminor, TAR_MAJOR_MAX, TAR_MINOR_MAX);
		n->rdev_major = (uint32_t)m->devmajor;
		n->rdev_minor = (uint32_t)m->devminor;
	} else if (m->type == '2') {
		size_t len = strlen(m->link);
		if (len == 0)
			return tar_fail(r, SQ_ERR_CORRUPT, "symbolic link with an empty target");
		n->symlink_target = strdup(m->link);
		if (n->symlink_target == NULL)
			return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
		n->symlink_len = (uint32_t)len;
	}
	if (member_owner(r, m->uname, m->uid, false, &n->uid) != 0 ||
	    member_owner(r, m->gname, m->gid, true, &n->gid) != 0)
		return -1;
	n->mtime = m->mtime < 0 ? 0 : m->mtime > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)m->mtime;
	return member_xattrs(r, n);
}

struct tree_inode *tar_member_inode(struct tar_reader *r, const struct tar_member *m)
{
	struct tree_inode *n =
		tree_inode_new_in(r->tree, type_bits(m->type) | (m->mode & 07777), r->err);
	if (n == NULL)
		return NULL;
	if (member_details(r, m, n) != 0) {
		tree_inode_free(n);
		return NULL;
	}
	return n;
}

struct tree_inode *tar_made_up_dir(struct tar_reader *r, bool root)
{
	const struct tar_settings *t = &r->o->tar;
	/* squashfs-tools: the root is 0777, other made-up directories 0755, unless
	 * -default-mode gives both. */
	uint32_t mode = t->default_mode_set ? t->default_mode : root ? 0777 : 0755;
	struct tree_inode *d = tree_inode_new_in(r->tree, S_IFDIR | mode, r->err);
	if (d == NULL)
		return NULL;
	d->uid = r->dir_uid;
	d->gid = r->dir_gid;
	d->mtime = r->o->now;
	d->flags |= TREE_MADE_UP;
	return d;
}
