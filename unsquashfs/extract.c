/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* extract.c — creating the tree below the destination, fd-relative: directories (a window of
 * open descriptors, however deep), links and special files; regular files go to files.c. */
#include "config.h"
#include "unsquashfs/extract.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "unsquashfs/extract_ctx.h"
#include "unsquashfs/walk.h"

/* Directory descriptors kept open along the current path (beyond: closed and reopened). */
#define DIR_FD_WINDOW 128

static void print_info(struct ex *x, const char *path, const struct sqfs_inode *ino, struct sq_error *err)
{
	if (!x->o->info)
		return;
	if (x->o->info == 2) {
		unsq_print_long(stdout, x->fs, &x->users, &x->groups, x->o, x->o->dest, path, ino, err);
		return;
	}
	printf("%s%s%s\n", x->o->dest, *path ? "/" : "", path);
}

/* Make room for name under -f: remove a non-directory in the way (unlinkat removes a symlink
 * itself, never its target). */
static int clear_way(struct ex *x, int dirfd, const char *name, const char *shown, struct sq_error *err)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : ex_write_error(x, err, errno, "cannot stat %s", shown);
	if (S_ISDIR(st.st_mode))
		return sq_fail(err, SQ_ERR_UNSAFE, "%s exists as a directory", shown);
	if (unlinkat(dirfd, name, 0) != 0)
		return ex_write_error(x, err, errno, "cannot remove %s", shown);
	return 0;
}

/* The descriptor of a directory on the current path, reopened through its child's ".." when
 * the window closed it (and checked to be the same directory: nothing was swapped in). */
static int slot_fd(struct dslot *s, int child_fd, const char *shown, struct sq_error *err)
{
	if (s->fd >= 0)
		return s->fd;
	int fd = openat(child_fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return sq_fail_errno(err, "cannot reopen the directory of %s", shown);
	}
	if (st.st_dev != s->dev || st.st_ino != s->ino) {
		close(fd);
		return sq_fail(err, SQ_ERR_UNSAFE, "the directory of %s was moved during extraction", shown);
	}
	s->fd = fd;
	return fd;
}

/* Record s as the directory at its depth; close the descriptor DIR_FD_WINDOW levels up. */
static int chain_push(struct ex *x, struct dslot *s, struct sq_error *err)
{
	if (s->depth >= x->chain_cap) {
		size_t cap = x->chain_cap ? x->chain_cap * 2 : 256;
		struct dslot **n = realloc(x->chain, cap * sizeof(*n));
		if (n == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory at depth %zu", s->depth);
		x->chain = n;
		x->chain_cap = cap;
	}
	x->chain[s->depth] = s;
	if (s->depth > DIR_FD_WINDOW) {
		struct dslot *old = x->chain[s->depth - DIR_FD_WINDOW];
		struct stat st;
		if (old->fd >= 0 && fstat(old->fd, &st) == 0) {
			old->dev = st.st_dev;
			old->ino = st.st_ino;
			close(old->fd);
			old->fd = -1;
		}
	}
	return 0;
}

/* mkdir name in pfd; an existing directory is used only under -f and never through a symlink. */
static int make_dir(struct ex *x, int pfd, const char *name, const char *shown, struct sq_error *err)
{
	int fd;
	if (mkdirat(pfd, name, 0700) == 0)
		return openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (errno != EEXIST)
		return sq_fail_errno(err, "cannot create directory %s", shown);
	if (!x->o->force)
		return sq_fail(err, SQ_ERR_UNSAFE, "%s already exists (use -f to extract into it)", shown);
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
		if (unlinkat(pfd, name, 0) != 0 || mkdirat(pfd, name, 0700) != 0)
			return sq_fail_errno(err, "cannot replace %s with a directory", shown);
		fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd;
}

static int ex_enter(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		    void **child, struct sq_error *err)
{
	struct ex *x = ctx;
	if (name == NULL) {
		x->counts->dirs++;
		print_info(x, path, ino, err);
		*child = &x->root;
		return chain_push(x, &x->root, err);
	}
	struct dslot *p = parent;
	struct dslot *s = calloc(1, sizeof(*s));
	char *shown = ex_shown(x, path);
	if (s == NULL || shown == NULL) {
		free(s);
		free(shown);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	s->fd = make_dir(x, p->fd, name, shown, err);
	if (s->fd < 0) {
		if (err->code == SQ_OK)
			sq_fail_errno(err, "cannot open directory %s", shown);
		free(s);
		free(shown);
		return -1;
	}
	free(shown);
	s->parent = p;
	s->depth = p->depth + 1;
	x->counts->dirs++;
	print_info(x, path, ino, err);
	*child = s;
	return chain_push(x, s, err);
}

static int ex_leave(void *ctx, const char *path, const struct sqfs_inode *ino, void *self, size_t children,
		    struct sq_error *err)
{
	struct ex *x = ctx;
	struct dslot *s = self;
	int rc = 0;
	if (children != (size_t)-1) {
		char *shown = ex_shown(x, path);
		if (shown == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		rc = ex_apply_meta(x, s->fd, -1, NULL, shown, ino, 0700, NULL, err);
		/* The parent goes on creating entries: make sure it has its descriptor. */
		if (rc == 0 && s->parent != NULL && slot_fd(s->parent, s->fd, shown, err) < 0)
			rc = -1;
		free(shown);
	}
	if (s != &x->root) {
		if (s->fd >= 0)
			close(s->fd);
		free(s);
	}
	return rc;
}

static int make_special(struct ex *x, int dirfd, const char *name, const char *shown, const struct sqfs_inode *ino,
			struct sq_error *err)
{
	mode_t perm = ex_final_mode(x, ino) & 0777;
	int r;
	unsigned long *count;
	switch (ino->type) {
	case SQFS_INODE_BLKDEV:
	case SQFS_INODE_CHRDEV:
		count = &x->counts->devices;
		if (!x->as_root)
			return ex_nonfatal(x, err, EPERM, "cannot create device %s as a non-root user", shown);
		r = mknodat(dirfd, name, perm | (ino->type == SQFS_INODE_BLKDEV ? S_IFBLK : S_IFCHR),
			    makedev(sqfs_dev_major(ino->u.dev.rdev), sqfs_dev_minor(ino->u.dev.rdev)));
		break;
	case SQFS_INODE_FIFO:
		count = &x->counts->fifos;
		r = mkfifoat(dirfd, name, perm);
		break;
	default:
		count = &x->counts->sockets;
		r = mknodat(dirfd, name, perm | S_IFSOCK, 0);
		break;
	}
	if (r != 0)
		return ex_write_error(x, err, errno, errno == EEXIST ? "cannot create %s (use -f to overwrite)"
								      : "cannot create %s", shown);
	if (ex_apply_meta(x, -1, dirfd, name, shown, ino, perm, NULL, err))
		return -1;
	(*count)++;
	return 0;
}

/* Open the directory holding rel (a path below dest made by us) one component at a time with
 * O_NOFOLLOW, so a symlink swapped in under -f is never followed. *base gets the last name. */
static int open_parent(struct ex *x, const char *rel, const char **base, struct sq_error *err)
{
	int fd = dup(x->root.fd);
	if (fd < 0)
		return sq_fail_errno(err, "cannot duplicate a directory descriptor");
	const char *p = rel;
	for (;;) {
		const char *slash = strchr(p, '/');
		if (slash == NULL) {
			*base = p;
			return fd;
		}
		char comp[SQFS_NAME_MAX + 1];
		size_t len = (size_t)(slash - p);
		if (len > SQFS_NAME_MAX) {
			close(fd);
			return sq_fail(err, SQ_ERR_CORRUPT, "path component too long in %s", rel);
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		int n = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (n < 0)
			return sq_fail_errno(err, "cannot open the directory of %s", rel);
		fd = n;
		p = slash + 1;
	}
}

/* A second name of an inode already extracted: a hard link to the first. 1 when made. */
static int make_hardlink(struct ex *x, int dirfd, const char *name, const char *shown, const struct sqfs_inode *ino,
			 struct sq_error *err)
{
	int found;
	const char *first = numset_get(&x->links, ino->number, &found);
	if (!found)
		return 0;
	const char *base = NULL;
	int pfd = open_parent(x, first, &base, err);
	if (pfd < 0)
		return -1;
	int r = linkat(pfd, base, dirfd, name, 0);
	int e = errno;
	close(pfd);
	if (r != 0)
		return ex_write_error(x, err, e, e == EEXIST ? "cannot create hard link %s (use -f to overwrite)"
							     : "cannot create hard link %s", shown);
	x->counts->hardlinks++;
	return 1;
}

static int make_leaf(struct ex *x, int dirfd, const char *name, const char *shown, const struct sqfs_inode *ino,
		     struct sq_error *err)
{
	switch (ino->type) {
	case SQFS_INODE_FILE:
		return ex_write_file(x, dirfd, name, shown, ino, err);
	case SQFS_INODE_SYMLINK:
		if (symlinkat(ino->u.symlink.target, dirfd, name) != 0)
			return ex_write_error(x, err, errno, errno == EEXIST ? "cannot create symlink %s (use -f to overwrite)"
									      : "cannot create symlink %s", shown);
		if (ex_apply_meta(x, -1, dirfd, name, shown, ino, 0777, NULL, err))
			return -1;
		x->counts->symlinks++;
		return 0;
	default:
		return make_special(x, dirfd, name, shown, ino, err);
	}
}

static int leaf_in(struct ex *x, int dirfd, const char *path, const char *name, const char *shown,
		   const struct sqfs_inode *ino, struct sq_error *err)
{
	/* Without -f nothing is removed: an existing name shows up as EEXIST from the exclusive
	 * create, which never follows a symlink already there. */
	if (x->o->force && clear_way(x, dirfd, name, shown, err))
		return -1;
	print_info(x, path, ino, err);
	unsq_meter_advance(&x->meter, 1);
	if (ino->nlink > 1) {
		int r = make_hardlink(x, dirfd, name, shown, ino, err);
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	int rc = make_leaf(x, dirfd, name, shown, ino, err);
	struct stat st;
	if (rc == 0 && ino->nlink > 1 && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		char *copy = strdup(path);
		if (copy == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		if (numset_add(&x->links, ino->number, copy, err) < 0)
			return -1;
	}
	return rc;
}

static int ex_leaf(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		   struct sq_error *err)
{
	struct ex *x = ctx;
	struct dslot *p = parent;
	char *shown = ex_shown(x, path);
	if (shown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	int rc = leaf_in(x, p->fd, path, name, shown, ino, err);
	free(shown);
	return rc;
}

/* The destination: made, or an existing directory extracted into (as squashfs-tools 4.5+). */
static int open_dest(struct ex *x, struct sq_error *err)
{
	const char *d = x->o->dest[0] ? x->o->dest : ".";
	if (mkdir(d, 0700) != 0 && errno != EEXIST)
		return sq_fail_errno(err, "cannot create destination %s", d);
	x->root.fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x->root.fd < 0)
		return sq_fail_errno(err, "cannot open destination %s", d);
	return 0;
}

static long default_max_files(void)
{
	struct rlimit rl;
	long limit = 1024;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		limit = rl.rlim_cur > 1L << 20 ? 1L << 20 : (long)rl.rlim_cur;
	limit -= 10 + DIR_FD_WINDOW + 64; /* stdio, the image, workers, the directory window */
	return limit < 1 ? 1 : limit;
}

static int run(struct ex *x, struct unsq_select *sel, long processors, struct sq_error *err)
{
	const struct unsq_options *o = x->o;
	if (open_dest(x, err))
		return -1;
	unsigned long inodes = 0, blocks = 0;
	if (unsq_count(x->fs, o, sel, &inodes, &blocks, err))
		return -1;
	if (!o->quiet) {
		printf("Parallel unsquashfs: Using %ld processor%s\n", processors, processors == 1 ? "" : "s");
		printf("%lu inodes (%lu blocks) to write\n\n", inodes, blocks);
		fflush(stdout);
	}
	unsq_meter_start(&x->meter, !o->no_progress && !o->quiet, o->percentage, inodes + blocks);
	/* Even one processor gets a worker and the writer: walking, decoding and writing then
	 * overlap, as the reference's reader, inflator and writer threads do. */
	x->pool = unsq_pool_new(x->fs, (unsigned)(processors > 64 ? 64 : processors),
				o->ignore_errors && !o->strict_errors, ex_finish_file, x, err);
	if (x->pool == NULL)
		return -1;
	struct unsq_visitor v = {.ctx = x, .enter_dir = ex_enter, .leave_dir = ex_leave, .leaf = ex_leaf};
	struct unsq_walk_opts wo = {.sel = sel, .max_depth = o->max_depth};
	int rc = unsq_walk(x->fs, &wo, &v, err);
	/* Every block must be written before the summary; directory times do not change when file
	 * contents are written, so they may already be set. */
	int pool_rc = unsq_pool_free(x->pool, rc ? NULL : err);
	x->pool = NULL;
	if (pool_rc < 0)
		rc = -1;
	else if (pool_rc == 2)
		x->status = 2;
	return rc ? rc : x->status;
}

int unsq_extract(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, long processors,
		 struct unsq_counts *counts, struct sq_error *err)
{
	struct ex x = {.fs = fs, .o = o, .counts = counts, .root = {.fd = -1}, .as_root = geteuid() == 0,
		       .last_frag = SQFS_NO_FRAGMENT};
	x.max_files = o->max_files > 0 ? o->max_files : default_max_files();
	int rc = -1;
	pthread_mutex_init(&x.lock, NULL);
	pthread_cond_init(&x.file_closed, NULL);
	memset(counts, 0, sizeof(*counts));
	if (unsq_names_init(&x.users, fs->tables.id_count, 0, err) == 0 &&
	    unsq_names_init(&x.groups, fs->tables.id_count, 0, err) == 0)
		rc = run(&x, sel, processors, err);
	unsq_pool_free(x.pool, NULL);
	unsq_meter_finish(&x.meter);
	if (x.root.fd >= 0)
		close(x.root.fd);
	free(x.chain);
	numset_free(&x.links);
	unsq_names_free(&x.users);
	unsq_names_free(&x.groups);
	pthread_cond_destroy(&x.file_closed);
	pthread_mutex_destroy(&x.lock);
	return rc;
}
