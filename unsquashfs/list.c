/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* list.c — listings: names only, ls -l style lines, concise (files and empty directories). */
#include "config.h"
#include "unsquashfs/list.h"

#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The reference pads "user/group size" to this many columns. */
#define OWNER_SIZE_COLUMNS 25

int unsq_names_init(struct unsq_names *n, uint32_t count, int numeric, struct sq_error *err)
{
	n->count = count;
	n->numeric = numeric;
	n->names = calloc(count ? count : 1, sizeof(char *));
	if (n->names == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	return 0;
}

void unsq_names_free(struct unsq_names *n)
{
	if (n->names != NULL)
		for (uint32_t i = 0; i < n->count; i++)
			free(n->names[i]);
	free(n->names);
	n->names = NULL;
}

static const char *lookup_name(struct unsq_names *n, uint16_t index, uint32_t id, int is_group)
{
	if (index >= n->count)
		return "?";
	if (n->names[index] != NULL)
		return n->names[index];
	const char *found = NULL;
	char num[16];
	if (!n->numeric) {
		if (is_group) {
			struct group *g = getgrgid((gid_t)id);
			found = g ? g->gr_name : NULL;
		} else {
			struct passwd *p = getpwuid((uid_t)id);
			found = p ? p->pw_name : NULL;
		}
	}
	if (found == NULL) {
		snprintf(num, sizeof(num), "%" PRIu32, id);
		found = num;
	}
	n->names[index] = strdup(found);
	return n->names[index] ? n->names[index] : "?";
}

static void mode_string(const struct sqfs_inode *ino, char s[11])
{
	static const char type_char[] = {'?', 'd', '-', 'l', 'b', 'c', 'p', 's'};
	unsigned m = ino->mode;
	s[0] = ino->type <= SQFS_INODE_SOCKET ? type_char[ino->type] : '?';
	for (int who = 0; who < 3; who++) {
		unsigned bits = (m >> (6 - 3 * who)) & 7;
		s[1 + 3 * who] = (bits & 4) ? 'r' : '-';
		s[2 + 3 * who] = (bits & 2) ? 'w' : '-';
		s[3 + 3 * who] = (bits & 1) ? 'x' : '-';
	}
	if (m & S_ISUID)
		s[3] = (m & S_IXUSR) ? 's' : 'S';
	if (m & S_ISGID)
		s[6] = (m & S_IXGRP) ? 's' : 'S';
	if (m & S_ISVTX)
		s[9] = (m & S_IXOTH) ? 't' : 'T';
	s[10] = '\0';
}

int unsq_print_long(FILE *out, struct sqfs_fs *fs, struct unsq_names *users, struct unsq_names *groups,
		    const struct unsq_options *o, const char *prefix, const char *path, const struct sqfs_inode *ino,
		    struct sq_error *err)
{
	uint32_t uid, gid;
	if (sqfs_fs_owner(fs, ino, &uid, &gid, err))
		return -1;
	const char *user = lookup_name(users, ino->uid_idx, uid, 0);
	const char *group = lookup_name(groups, ino->gid_idx, gid, 1);
	char mode[11];
	mode_string(ino, mode);
	fprintf(out, "%s %s/%s ", mode, user, group);
	int pad = OWNER_SIZE_COLUMNS - (int)strlen(user) - (int)strlen(group);
	if (ino->type == SQFS_INODE_BLKDEV || ino->type == SQFS_INODE_CHRDEV) {
		/* The reference shifts the raw device word as a signed int and prints the low byte as
		 * the minor; matched here so listings compare equal. */
		int spaces = 1;
		if (pad > 0)
			spaces = abs(pad - 7) > 1 ? abs(pad - 7) : 1;
		int32_t raw = (int32_t)ino->u.dev.rdev;
		int major = raw < 0 ? ~(~raw >> 8) : raw >> 8;
		fprintf(out, "%*s%3d,%3d ", spaces, "", major, (int)(ino->u.dev.rdev & 0xff));
	} else {
		uint64_t size = 0;
		if (ino->type == SQFS_INODE_FILE)
			size = ino->u.file.size;
		else if (ino->type == SQFS_INODE_DIR)
			size = ino->u.dir.size;
		else if (ino->type == SQFS_INODE_SYMLINK)
			size = ino->u.symlink.size;
		fprintf(out, "%*" PRIu64 " ", pad > 0 ? pad : 0, size);
	}
	time_t t = (time_t)ino->mtime;
	struct tm tm;
	if (o->utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	fprintf(out, "%d-%02d-%02d %02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min);
	if (o->full_precision)
		fprintf(out, ":%02d", tm.tm_sec);
	fprintf(out, " %s%s%s", prefix, *path ? "/" : "", path);
	if (ino->type == SQFS_INODE_SYMLINK)
		fprintf(out, " -> %s", ino->u.symlink.target);
	fputc('\n', out);
	return 0;
}

struct list_ctx {
	struct sqfs_fs *fs;
	const struct unsq_options *o;
	struct unsq_names users, groups;
};

static int print_entry(struct list_ctx *c, const char *path, const struct sqfs_inode *ino, struct sq_error *err)
{
	if (c->o->list_long)
		return unsq_print_long(stdout, c->fs, &c->users, &c->groups, c->o, c->o->dest, path, ino, err);
	printf("%s%s%s\n", c->o->dest, *path ? "/" : "", path);
	return 0;
}

static int list_enter(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		      void **child, struct sq_error *err)
{
	(void)name;
	(void)parent;
	struct list_ctx *c = ctx;
	*child = NULL;
	if (c->o->list_concise)
		return 0;
	return print_entry(c, path, ino, err);
}

/* -lc shows a directory only when it is empty in the image (a listing of 3 bytes), not when
 * the selection or -max-depth left nothing of it: as the reference. */
static int list_leave(void *ctx, const char *path, const struct sqfs_inode *ino, void *self, size_t children,
		      struct sq_error *err)
{
	(void)self;
	struct list_ctx *c = ctx;
	if (c->o->list_concise && children != (size_t)-1 && ino->u.dir.size <= 3)
		return print_entry(c, path, ino, err);
	return 0;
}

static int list_leaf(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		     struct sq_error *err)
{
	(void)name;
	(void)parent;
	return print_entry(ctx, path, ino, err);
}

int unsq_list(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, struct sq_error *err)
{
	struct list_ctx c = {.fs = fs, .o = o};
	int rc = -1;
	if (unsq_names_init(&c.users, fs->tables.id_count, o->list_numeric, err) ||
	    unsq_names_init(&c.groups, fs->tables.id_count, o->list_numeric, err))
		goto out;
	struct unsq_visitor v = {.ctx = &c, .enter_dir = list_enter, .leave_dir = list_leave, .leaf = list_leaf};
	struct unsq_walk_opts wo = {.sel = sel, .max_depth = o->max_depth};
	rc = unsq_walk(fs, &wo, &v, err);
out:
	unsq_names_free(&c.users);
	unsq_names_free(&c.groups);
	return rc;
}
