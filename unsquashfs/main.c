/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* main.c — unsquashfs and sqfscat (the same program by another name): parse the command line,
 * open the image, run one mode, set the exit code. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fs_read.h"
#include "common/util/endian.h"
#include "common/util/io.h"
#include "unsquashfs/cat.h"
#include "unsquashfs/extract.h"
#include "unsquashfs/help.h"
#include "unsquashfs/list.h"
#include "unsquashfs/options.h"
#include "unsquashfs/pseudo.h"
#include "unsquashfs/resolve.h"
#include "unsquashfs/select.h"
#include "unsquashfs/stat.h"

/* What the caches of this unsquashfs amount to, for -mem-default: the pool's fragment slots
 * and per-worker buffers at the default block size, rounded up. */
#define MEM_DEFAULT_MBYTES 16

static void print_summary(const struct unsq_counts *c)
{
	printf("\n");
	printf("created %lu %s\n", c->files, c->files == 1 ? "file" : "files");
	printf("created %lu %s\n", c->dirs, c->dirs == 1 ? "directory" : "directories");
	printf("created %lu %s\n", c->symlinks, c->symlinks == 1 ? "symlink" : "symlinks");
	printf("created %lu %s\n", c->devices, c->devices == 1 ? "device" : "devices");
	printf("created %lu %s\n", c->fifos, c->fifos == 1 ? "fifo" : "fifos");
	printf("created %lu %s\n", c->sockets, c->sockets == 1 ? "socket" : "sockets");
	printf("created %lu %s\n", c->hardlinks, c->hardlinks == 1 ? "hardlink" : "hardlinks");
}

/* Deep trees and many files in flight want descriptors. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* "IMG: not a squashfs image" rather than a message about its superblock fields. */
static int check_magic(int fd, const struct unsq_options *o, struct sq_error *err)
{
	uint8_t magic[4];
	ssize_t n = sq_pread_full(fd, magic, sizeof(magic), o->offset);
	if (n < 0)
		return sq_fail_errno(err, "cannot read %s", o->image);
	if (n < (ssize_t)sizeof(magic) || get_le32(magic) != SQFS_MAGIC)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: not a squashfs image", o->image);
	return 0;
}

struct selection {
	struct unsq_select sel;
	char **followed; /* -follow-symlinks: the resolved pathnames (owned) */
	size_t nfollowed;
};

static int make_selection(struct sqfs_fs *fs, const struct unsq_options *o, struct selection *s,
			  struct sq_error *err)
{
	enum unsq_match how = o->regex ? UNSQ_MATCH_REGEX : o->no_wildcards ? UNSQ_MATCH_LITERAL : UNSQ_MATCH_GLOB;
	char *const *paths = o->paths.items;
	size_t npaths = o->paths.count;
	int nothing = 0;
	if (o->follow && npaths > 0) {
		size_t unresolved;
		if (unsq_follow_extracts(fs, paths, npaths, o->follow == 2, stderr, &s->followed, &s->nfollowed,
					 &unresolved, err))
			return -1;
		paths = s->followed;
		nothing = s->nfollowed == 0;
		npaths = s->nfollowed;
		how = UNSQ_MATCH_LITERAL; /* the resolved names are names, not patterns */
	}
	if (unsq_select_init(&s->sel, how, paths, npaths, o->exclude.items, o->exclude.count, err))
		return -1;
	if (nothing)
		s->sel.all = 0;
	return 0;
}

/* -match: a walk that only marks which pathnames matched, before anything is written. */
static int check_match(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel,
		       struct sq_error *err)
{
	struct unsq_visitor v = {.ctx = NULL}; /* no callbacks: the walk only marks the patterns */
	struct unsq_walk_opts wo = {.sel = sel, .max_depth = o->max_depth};
	unsq_select_reset(sel);
	if (unsq_walk(fs, &wo, &v, err))
		return -1;
	return unsq_select_check(sel, err);
}

static int extract(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, struct sq_error *err)
{
	long procs = o->processors;
	if (procs <= 0) {
		procs = sysconf(_SC_NPROCESSORS_ONLN);
		if (procs <= 0)
			procs = 1;
	}
	struct unsq_counts counts;
	umask(0); /* modes are restored exactly, as stored in the image */
	raise_fd_limit();
	int rc = unsq_extract(fs, o, sel, procs, &counts, err);
	if (rc >= 0 && !o->quiet)
		print_summary(&counts);
	return rc;
}

static int run_mode(struct sqfs_fs *fs, const struct unsq_options *o, struct sq_error *err)
{
	if (o->mode == UNSQ_MKFS_TIME) {
		printf("%u\n", fs->img.sb.mod_time);
		return 0;
	}
	if (o->mode == UNSQ_STAT) {
		unsq_print_stat(&fs->img, o->image, o->utc, fs->tables.xattr.count);
		return 0;
	}
	if (o->mode == UNSQ_CAT)
		return unsq_cat(fs, o, err);
	struct selection s = {0};
	int rc = make_selection(fs, o, &s, err);
	if (rc == 0 && o->match)
		rc = check_match(fs, o, &s.sel, err);
	if (rc == 0) {
		if (o->mode == UNSQ_LIST)
			rc = unsq_list(fs, o, &s.sel, err);
		else if (o->mode == UNSQ_PSEUDO)
			rc = unsq_pseudo(fs, o, &s.sel, err);
		else
			rc = extract(fs, o, &s.sel, err);
	}
	unsq_select_free(&s.sel);
	unsq_free_strings(s.followed, s.nfollowed);
	return rc;
}

static int run(const struct unsq_options *o, struct sq_error *err)
{
	int fd = open(o->image, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sq_fail_errno(err, "cannot open image %s", o->image);
	int rc = check_magic(fd, o, err);
	/* -s and -mkfs-time need no decompression: a compressor built out does not stop them. */
	if (rc == 0 && (o->mode == UNSQ_STAT || o->mode == UNSQ_MKFS_TIME))
		rc = unsq_stat_built_out(fd, o, err);
	struct sqfs_fs fs;
	if (rc == 1) {
		rc = 0;
	} else if (rc == 0 && sqfs_fs_open_fd(&fs, fd, o->offset, err) == 0) {
		rc = run_mode(&fs, o, err);
		sqfs_fs_close(&fs);
	} else {
		rc = -1;
	}
	close(fd);
	if (fflush(stdout) != 0 && rc >= 0)
		rc = sq_fail_errno(err, "cannot write to standard output");
	return rc;
}

/* The modes that print and exit before any image is opened. -1: not one of them. */
static int info_mode(const struct unsq_options *o)
{
	switch (o->mode) {
	case UNSQ_HELP:
		unsq_help_all(o);
		return 0;
	case UNSQ_HELP_OPTION:
		return unsq_help_option(o, o->help_arg);
	case UNSQ_HELP_SECTION:
		return unsq_help_section(o, o->help_arg);
	case UNSQ_VERSION:
		unsq_print_version(o);
		return 0;
	case UNSQ_MEM_DEFAULT:
		printf("%d\n", MEM_DEFAULT_MBYTES);
		return 0;
	default:
		return -1;
	}
}

int main(int argc, char **argv)
{
	struct unsq_options o;
	struct sq_error err;
	sq_error_clear(&err);
	if (unsq_options_parse(&o, argc, argv, &err)) {
		fprintf(stderr, "%s: %s\n", unsq_prog(&o), err.msg);
		unsq_options_free(&o);
		return 1;
	}
	int status = info_mode(&o);
	if (status < 0) {
		int rc = run(&o, &err);
		if (rc < 0) {
			fflush(stdout);
			fprintf(stderr, "%s: %s\n", unsq_prog(&o), err.msg);
			status = 1;
		} else {
			status = (rc == 2 && !o.no_exit_code) ? 2 : 0;
		}
	} else if (fflush(stdout) != 0) {
		status = 1;
	}
	unsq_options_free(&o);
	return status;
}
