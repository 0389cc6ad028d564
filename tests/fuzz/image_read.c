/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* image_read.c — libFuzzer target: open an image from memory, walk the whole tree, list every
 * entry in long form, read every file's contents and every inode's xattrs. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/fs_read.h"
#include "unsquashfs/list.h"
#include "unsquashfs/pseudo.h"
#include "unsquashfs/resolve.h"
#include "unsquashfs/walk.h"

struct fuzz_ctx {
	struct sqfs_fs *fs;
	struct sqfs_file_reader fr;
	struct unsq_names users, groups;
	struct unsq_options opts; /* -UTC for the listing lines */
	FILE *sink;
};

static int discard(void *arg, uint64_t offset, const uint8_t *data, size_t len, struct sq_error *err)
{
	(void)offset;
	(void)err;
	volatile uint8_t *acc = arg;
	if (data != NULL && len > 0)
		*acc ^= data[len - 1]; /* touch the bytes so a bad length is caught by ASan */
	return 0;
}

static int visit(struct fuzz_ctx *c, const char *path, const struct sqfs_inode *ino, struct sq_error *err)
{
	if (unsq_print_long(c->sink, c->fs, &c->users, &c->groups, &c->opts, "root", path, ino, err))
		return -1;
	struct sqfs_xattr_list xl;
	if (sqfs_fs_xattrs(c->fs, ino, &xl, err))
		return -1;
	sqfs_xattr_list_free(&xl);
	if (ino->type != SQFS_INODE_FILE)
		return 0;
	uint64_t fstart;
	uint32_t fword;
	uint8_t acc = 0;
	if (sqfs_fs_fragment(c->fs, ino, &fstart, &fword, err))
		return -1;
	return sqfs_file_read(&c->fr, ino, fstart, fword, discard, &acc, err);
}

static int f_enter(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		   void **child, struct sq_error *err)
{
	(void)name;
	(void)parent;
	*child = NULL;
	return visit(ctx, path, ino, err);
}

static int f_leave(void *ctx, const char *path, const struct sqfs_inode *ino, void *self, size_t children,
		   struct sq_error *err)
{
	(void)ctx, (void)path, (void)ino, (void)self, (void)children, (void)err;
	return 0;
}

static int f_leaf(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		  struct sq_error *err)
{
	(void)name;
	(void)parent;
	return visit(ctx, path, ino, err);
}

/* The other readers of a whole image: pseudo-file output (every definition, xattr and file
 * byte, to /dev/null) with an exclude, and link resolution as -follow-symlinks does it. */
static void other_readers(struct sqfs_fs *fs)
{
	struct sq_error err;
	sq_error_clear(&err);
	char *ex[] = {"... b"};
	struct unsq_select sel;
	struct unsq_options o = {.xattrs = 1, .max_depth = -1, .pseudo_file = "/dev/null"};
	if (unsq_select_init(&sel, UNSQ_MATCH_GLOB, NULL, 0, ex, 1, &err) == 0) {
		unsq_pseudo(fs, &o, &sel, &err);
		unsq_select_free(&sel);
	}
	if (err.code != SQ_OK && err.msg[0] == '\0')
		__builtin_trap();
	char *paths[] = {"a", "a/b/../c", "/x/./y/z", "..", "l"};
	char **out = NULL;
	size_t nout = 0, unresolved = 0;
	sq_error_clear(&err);
	if (unsq_follow_extracts(fs, paths, 5, 0, NULL, &out, &nout, &unresolved, &err) == 0)
		unsq_free_strings(out, nout);
	if (err.code != SQ_OK && err.msg[0] == '\0')
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	if (devnull == NULL)
		devnull = fopen("/dev/null", "w");
	struct fuzz_ctx c = {.sink = devnull, .opts = {.utc = 1}};
	struct sqfs_fs fs;
	struct sq_error err;
	sq_error_clear(&err);
	if (sqfs_fs_open_mem(&fs, data, size, &err))
		return 0;
	c.fs = &fs;
	if (sqfs_file_reader_init(&c.fr, &fs, &fs.dec, &err) == 0) {
		if (unsq_names_init(&c.users, fs.tables.id_count, 1, &err) == 0 &&
		    unsq_names_init(&c.groups, fs.tables.id_count, 1, &err) == 0) {
			struct unsq_visitor v = {.ctx = &c, .enter_dir = f_enter, .leave_dir = f_leave, .leaf = f_leaf};
			struct unsq_walk_opts wo = {.max_depth = -1};
			unsq_walk(&fs, &wo, &v, &err);
		}
		unsq_names_free(&c.users);
		unsq_names_free(&c.groups);
		sqfs_file_reader_free(&c.fr);
	}
	/* A failure must come with a message: an empty one means a path forgot sq_fail. */
	if (err.code != SQ_OK && err.msg[0] == '\0')
		__builtin_trap();
	other_readers(&fs);
	sqfs_fs_close(&fs);
	return 0;
}
