/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* extract.c — creating directories, files, links and special files from the image, fd-relative. */
#include "config.h"
#include "unsquashfs/extract.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef HAVE_XATTR
#include <sys/xattr.h>
#endif

#include "common/util/progress.h"
#include "unsquashfs/list.h"
#include "unsquashfs/numset.h"
#include "unsquashfs/pool.h"
#include "unsquashfs/walk.h"

struct ex {
	struct sqfs_fs *fs;
	const struct unsq_options *o;
	struct unsq_counts *counts;
	struct numset links; /* inode number -> path (relative to dest) of its first extraction */
	struct unsq_names users, groups;
	struct progress progress;
	bool progress_ready; /* progress is initialised (set once the totals are known) */
	struct unsq_pool *pool; /* file data: the main thread only reads metadata and creates files */
	pthread_mutex_t lock;   /* status and stderr, shared with the pool's finishers */
	int root_fd;
	int as_root;
	uint32_t last_frag; /* fragment index of the last tail queued (SQFS_NO_FRAGMENT: none yet) */
	int status; /* 0, or 2 after a non-fatal problem */
};

/* What a pool finisher needs to close a file: its inode (block list dropped) and xattrs. */
struct pending {
	struct ex *x;
	struct sqfs_inode ino;
	uint64_t data_end; /* end of the last stored block: below the size, ftruncate makes the hole */
	struct sqfs_xattr_list xattrs;
	char shown[];
};

/* Directory handles travel through the walker as fd + 1 so that NULL never means fd 0. */
static void *fd_handle(int fd)
{
	return (void *)(intptr_t)(fd + 1);
}

static int handle_fd(void *h)
{
	return (int)(intptr_t)h - 1;
}

/* A problem that lets extraction go on (owners, permissions, xattrs): fatal under -strict-errors. */
static int nonfatal(struct ex *x, struct sq_error *err, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int nonfatal(struct ex *x, struct sq_error *err, int e, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (x->o->strict_errors)
		return sq_fail(err, SQ_ERR_IO, "%s: %s", msg, strerror(e));
	pthread_mutex_lock(&x->lock);
	fprintf(stderr, "unsquashfs: %s: %s\n", msg, strerror(e));
	x->status = 2;
	pthread_mutex_unlock(&x->lock);
	return 0;
}

/* A failure to write the output: fatal unless -ignore-errors. */
static int write_error(struct ex *x, struct sq_error *err, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int write_error(struct ex *x, struct sq_error *err, int e, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!x->o->ignore_errors || x->o->strict_errors)
		return sq_fail(err, SQ_ERR_IO, "%s: %s", msg, strerror(e));
	pthread_mutex_lock(&x->lock);
	fprintf(stderr, "unsquashfs: %s: %s\n", msg, strerror(e));
	x->status = 2;
	pthread_mutex_unlock(&x->lock);
	return 0;
}

static void print_info(struct ex *x, const char *path, const struct sqfs_inode *ino, struct sq_error *err)
{
	if (!x->o->info)
		return;
	if (x->o->info == 2) {
		unsq_print_long(stdout, x->fs, &x->users, &x->groups, x->o->utc, x->o->dest, path, ino, err);
		return;
	}
	printf("%s%s%s\n", x->o->dest, *path ? "/" : "", path);
}

#ifdef HAVE_XATTR
static int want_xattr(const struct ex *x, const char *name)
{
	if (x->o->user_xattrs || !x->as_root)
		return strncmp(name, "user.", 5) == 0;
	return 1;
}
#endif

/* Xattrs go through the fd when we have one, else through /proc/self/fd/DIR/NAME with the
 * l-variant, which does not follow a final symlink. */
static int apply_xattrs(struct ex *x, int fd, int dirfd, const char *name, const char *path,
			const struct sqfs_inode *ino, const struct sqfs_xattr_list *pre, struct sq_error *err)
{
	if (!x->o->xattrs || ino->xattr == SQFS_NO_XATTR)
		return 0;
	struct sqfs_xattr_list list = {0};
	const struct sqfs_xattr_list *use = pre;
	if (use == NULL) {
		if (sqfs_fs_xattrs(x->fs, ino, &list, err))
			return -1;
		use = &list;
	}
	int rc = 0;
#ifdef HAVE_XATTR
	char proc[64 + SQFS_NAME_MAX];
	if (fd < 0)
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d/%s", dirfd, name);
	for (uint32_t i = 0; i < use->count && rc == 0; i++) {
		const struct sqfs_xattr *a = &use->items[i];
		if (!want_xattr(x, a->name))
			continue;
		int r = fd >= 0 ? fsetxattr(fd, a->name, a->value, a->value_len, 0)
				: lsetxattr(proc, a->name, a->value, a->value_len, 0);
		if (r != 0)
			rc = nonfatal(x, err, errno, "cannot set an xattr on %s", path);
	}
#else
	(void)fd;
	(void)dirfd;
	(void)name;
	if (use->count > 0)
		rc = nonfatal(x, err, ENOTSUP, "%s has xattrs; this unsquashfs was built without xattr support", path);
#endif
	sqfs_xattr_list_free(&list);
	return rc;
}

/* Owner, mode, xattrs and times, in that order: chown clears setuid bits, and writing xattrs
 * would not change mtime but chmod after utimens is harmless either way. fd < 0 means work by
 * name in dirfd without following symlinks. made_with is the mode the node was created with
 * (main sets umask 0): chmod is only needed when it differs or special bits must survive the
 * chown. Thread-safe when pre holds the xattrs already read (the image's xattr reader is the
 * main thread's). */
static int apply_meta_pre(struct ex *x, int fd, int dirfd, const char *name, const char *path,
			  const struct sqfs_inode *ino, mode_t made_with, const struct sqfs_xattr_list *pre,
			  struct sq_error *err)
{
	uint32_t uid, gid;
	if (sqfs_fs_owner(x->fs, ino, &uid, &gid, err))
		return -1;
	if (x->as_root) {
		int r = fd >= 0 ? fchown(fd, uid, gid) : fchownat(dirfd, name, uid, gid, AT_SYMLINK_NOFOLLOW);
		if (r != 0 && nonfatal(x, err, errno, "cannot set the owner of %s", path))
			return -1;
	}
	mode_t mode = ino->mode & 07777;
	if (ino->type != SQFS_INODE_SYMLINK && (mode != made_with || (mode & 07000))) {
		int r;
		if (fd >= 0)
			r = fchmod(fd, mode);
		else
			r = fchmodat(dirfd, name, mode, 0); /* a node we just made: not a symlink */
		if (r != 0 && nonfatal(x, err, errno, "cannot set the permissions of %s", path))
			return -1;
	}
	if (apply_xattrs(x, fd, dirfd, name, path, ino, pre, err))
		return -1;
	struct timespec ts[2] = {{.tv_sec = (time_t)ino->mtime}, {.tv_sec = (time_t)ino->mtime}};
	int r = fd >= 0 ? futimens(fd, ts) : utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
	if (r != 0 && nonfatal(x, err, errno, "cannot set the times of %s", path))
		return -1;
	return 0;
}

static int apply_meta(struct ex *x, int fd, int dirfd, const char *name, const char *path,
		      const struct sqfs_inode *ino, mode_t made_with, struct sq_error *err)
{
	return apply_meta_pre(x, fd, dirfd, name, path, ino, made_with, NULL, err);
}

/* Files are created with their permission bits, less group/other write and the special
 * bits: while it is written the file is still root's and incomplete, and must not be opened
 * for writing by anyone else. Most modes need no chmod afterwards. */
static mode_t file_create_mode(const struct sqfs_inode *ino)
{
	return ino->mode & 0755;
}

/* Make room for name under -f: remove a non-directory in the way (unlinkat removes a symlink
 * itself, never its target). */
static int clear_way(struct ex *x, int dirfd, const char *name, const char *path, struct sq_error *err)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : write_error(x, err, errno, "cannot stat %s", path);
	if (!x->o->force)
		return sq_fail(err, SQ_ERR_UNSAFE, "%s already exists (use -f to overwrite)", path);
	if (S_ISDIR(st.st_mode))
		return sq_fail(err, SQ_ERR_UNSAFE, "%s exists as a directory", path);
	if (unlinkat(dirfd, name, 0) != 0)
		return write_error(x, err, errno, "cannot remove %s", path);
	return 0;
}

static int ex_enter(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		    void **child, struct sq_error *err)
{
	struct ex *x = ctx;
	int fd;
	if (name == NULL) {
		fd = x->root_fd;
	} else {
		int pfd = handle_fd(parent);
		if (mkdirat(pfd, name, 0700) != 0) {
			if (errno != EEXIST || !x->o->force)
				return sq_fail_errno(err, "cannot create directory %s/%s", x->o->dest, path);
			/* Under -f an existing directory is reused, but only a real one: never a symlink. */
			fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
				if (unlinkat(pfd, name, 0) != 0 || mkdirat(pfd, name, 0700) != 0)
					return sq_fail_errno(err, "cannot replace %s/%s with a directory", x->o->dest, path);
				fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			}
		} else {
			fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (fd < 0)
			return sq_fail_errno(err, "cannot open directory %s/%s", x->o->dest, path);
	}
	x->counts->dirs++;
	print_info(x, path, ino, err);
	*child = fd_handle(fd);
	return 0;
}

static int ex_leave(void *ctx, const char *path, const struct sqfs_inode *ino, void *self, size_t children,
		    struct sq_error *err)
{
	struct ex *x = ctx;
	int fd = handle_fd(self);
	int rc = 0;
	if (children != (size_t)-1) {
		char shown[4200];
		snprintf(shown, sizeof(shown), "%s%s%s", x->o->dest, *path ? "/" : "", path);
		rc = apply_meta(x, fd, -1, NULL, shown, ino, 0700, err);
	}
	if (fd != x->root_fd)
		close(fd);
	return rc;
}

static int write_file_pooled(struct ex *x, int fd, const char *shown, const struct sqfs_inode *ino,
			     uint64_t fstart, uint32_t fword, struct sq_error *err);

static int write_file(struct ex *x, int dirfd, const char *name, const char *shown, const struct sqfs_inode *ino,
		      struct sq_error *err)
{
	uint64_t fstart;
	uint32_t fword;
	if (sqfs_fs_fragment(x->fs, ino, &fstart, &fword, err))
		return -1;
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, file_create_mode(ino));
	if (fd < 0)
		return write_error(x, err, errno, "cannot create file %s", shown);
	return write_file_pooled(x, fd, shown, ino, fstart, fword, err);
}

/* Pool finisher: size, then metadata, then close; runs on whichever thread wrote last. */
static int finish_file(void *ctx, struct unsq_out_file *f, struct sq_error *err)
{
	(void)ctx;
	struct pending *pd = f->user;
	struct ex *x = pd->x;
	int rc = 0;
	if (!f->failed) {
		if (pd->data_end < pd->ino.u.file.size && ftruncate(f->fd, (off_t)pd->ino.u.file.size) != 0)
			rc = write_error(x, err, errno, "cannot set the size of %s", pd->shown);
		if (rc == 0)
			rc = apply_meta_pre(x, f->fd, -1, NULL, pd->shown, &pd->ino, file_create_mode(&pd->ino),
					    &pd->xattrs, err);
	}
	if (close(f->fd) != 0 && rc == 0 && !f->failed)
		rc = write_error(x, err, errno, "cannot close %s", pd->shown);
	sqfs_xattr_list_free(&pd->xattrs);
	free(pd);
	free(f);
	return rc;
}

/* Images list their files' tails in fragment order, so the walk meets fragment blocks one
 * after the other. Decoding a block takes about as long as writing the few dozen tails in it,
 * so blocks are decoded FRAG_AHEAD ahead of the walk: enough that no worker waits, few enough
 * to stay in the pool's fragment cache. Any other order gets no guesses. */
#define FRAG_AHEAD 3u

static void prefetch_fragment(struct ex *x, uint32_t frag)
{
	uint64_t start;
	uint32_t word;
	struct sq_error e;
	sq_error_clear(&e);
	if (frag < x->fs->tables.frag.count && sqfs_tables_fragment(&x->fs->tables, frag, &start, &word, &e) == 0)
		unsq_pool_prefetch(x->pool, start, word, &e);
	sq_error_clear(&e); /* a guess: the tail that needs the block reports its problems */
}

static void prefetch_next_fragment(struct ex *x, uint32_t frag)
{
	if (frag == x->last_frag)
		return;
	uint32_t last = x->last_frag;
	x->last_frag = frag;
	if (last == SQFS_NO_FRAGMENT) {
		for (uint32_t k = 1; k <= FRAG_AHEAD; k++)
			prefetch_fragment(x, frag + k);
	} else if (frag == last + 1) {
		prefetch_fragment(x, frag + FRAG_AHEAD);
	}
}

/* Hand a created file's blocks to the pool: the main thread only reads metadata. */
static int write_file_pooled(struct ex *x, int fd, const char *shown, const struct sqfs_inode *ino,
			     uint64_t fstart, uint32_t fword, struct sq_error *err)
{
	size_t slen = strlen(shown) + 1;
	struct pending *pd = calloc(1, sizeof(*pd) + slen);
	struct unsq_out_file *f = calloc(1, sizeof(*f));
	if (pd == NULL || f == NULL) {
		free(pd);
		free(f);
		close(fd);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	pd->x = x;
	pd->ino = *ino;
	memcpy(pd->shown, shown, slen);
	f->fd = fd;
	f->name = pd->shown;
	f->refs = 1;
	f->user = pd;
	if (x->o->xattrs && ino->xattr != SQFS_NO_XATTR && sqfs_fs_xattrs(x->fs, ino, &pd->xattrs, err)) {
		f->failed = 1;
		unsq_pool_release(x->pool, f, err);
		return -1;
	}
	const uint32_t bs = x->fs->img.sb.block_size;
	const uint64_t size = ino->u.file.size;
	uint64_t pos = ino->u.file.blocks_start, off = 0;
	int rc = 0;
	struct sqfs_blocklist bl;
	sqfs_blocklist_start(&bl, x->fs->inodes, ino);
	for (uint32_t i = 0; i < ino->u.file.nblocks && rc == 0; i++) {
		uint32_t word;
		if (sqfs_blocklist_next(&bl, &word, err)) {
			rc = -1;
			break;
		}
		uint32_t want = size - off < bs ? (uint32_t)(size - off) : bs;
		rc = unsq_pool_block(x->pool, f, pos, word, off, want, err);
		if (word != 0)
			pd->data_end = off + want;
		pos += word & SQFS_DATA_SIZE_MASK;
		off += want;
		progress_advance(&x->progress, 1);
	}
	if (rc == 0 && off < size) {
		if (ino->u.file.frag == SQFS_NO_FRAGMENT)
			rc = sq_fail(err, SQ_ERR_CORRUPT, "inode %u: file data ends early", ino->number);
		else
			rc = unsq_pool_tail(x->pool, f, fstart, fword, ino->u.file.frag_offset, off,
					    (uint32_t)(size - off), err);
		pd->data_end = size;
		if (rc == 0)
			prefetch_next_fragment(x, ino->u.file.frag);
		progress_advance(&x->progress, 1);
	}
	if (rc != 0)
		f->failed = 1;
	if (unsq_pool_release(x->pool, f, err))
		rc = -1;
	if (rc == 0)
		x->counts->files++;
	return rc;
}

static int make_special(struct ex *x, int dirfd, const char *name, const char *shown, const struct sqfs_inode *ino,
			struct sq_error *err)
{
	mode_t perm = ino->mode & 0777;
	int r;
	unsigned long *count;
	switch (ino->type) {
	case SQFS_INODE_BLKDEV:
	case SQFS_INODE_CHRDEV:
		count = &x->counts->devices;
		if (!x->as_root)
			return nonfatal(x, err, EPERM, "cannot create device %s as a non-root user", shown);
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
		return write_error(x, err, errno, "cannot create %s", shown);
	if (apply_meta(x, -1, dirfd, name, shown, ino, perm, err))
		return -1;
	(*count)++;
	return 0;
}

/* Open the directory holding rel (a path below dest made by us) one component at a time with
 * O_NOFOLLOW, so a symlink swapped in under -f is never followed. *base gets the last name. */
static int open_parent(struct ex *x, const char *rel, const char **base, struct sq_error *err)
{
	int fd = dup(x->root_fd);
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

static int ex_leaf(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		   struct sq_error *err)
{
	struct ex *x = ctx;
	int dirfd = handle_fd(parent);
	char shown[4200];
	snprintf(shown, sizeof(shown), "%s/%s", x->o->dest, path);
	/* Without -f the destination is new and only we write in it: a clash shows up as EEXIST
	 * from the exclusive create below, so the extra stat per entry is spared. */
	if (x->o->force && clear_way(x, dirfd, name, shown, err))
		return -1;
	print_info(x, path, ino, err);
	progress_advance(&x->progress, 1);
	if (ino->nlink > 1) {
		int found;
		const char *first = numset_get(&x->links, ino->number, &found);
		if (found) {
			const char *base = NULL;
			int pfd = open_parent(x, first, &base, err);
			if (pfd < 0)
				return -1;
			int r = linkat(pfd, base, dirfd, name, 0);
			int e = errno;
			close(pfd);
			if (r != 0)
				return write_error(x, err, e, "cannot create hard link %s", shown);
			x->counts->hardlinks++;
			return 0;
		}
	}
	int rc;
	switch (ino->type) {
	case SQFS_INODE_FILE:
		rc = write_file(x, dirfd, name, shown, ino, err);
		break;
	case SQFS_INODE_SYMLINK:
		if (symlinkat(ino->u.symlink.target, dirfd, name) != 0)
			return write_error(x, err, errno, "cannot create symlink %s", shown);
		rc = apply_meta(x, -1, dirfd, name, shown, ino, 0777, err);
		if (rc == 0)
			x->counts->symlinks++;
		break;
	default:
		rc = make_special(x, dirfd, name, shown, ino, err);
		break;
	}
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

int unsq_extract(struct sqfs_fs *fs, const struct unsq_options *o, long processors, struct unsq_counts *counts,
		 struct sq_error *err)
{
	struct ex x = {.fs = fs, .o = o, .counts = counts, .root_fd = -1, .as_root = geteuid() == 0,
		       .last_frag = SQFS_NO_FRAGMENT};
	int rc = -1;
	pthread_mutex_init(&x.lock, NULL);
	memset(counts, 0, sizeof(*counts));
	if (unsq_names_init(&x.users, fs->tables.id_count, 0, err) ||
	    unsq_names_init(&x.groups, fs->tables.id_count, 0, err))
		goto out;
	if (mkdir(o->dest, 0700) != 0) {
		if (errno != EEXIST) {
			sq_fail_errno(err, "cannot create destination %s", o->dest);
			goto out;
		}
		if (!o->force) {
			sq_fail(err, SQ_ERR_UNSAFE, "destination %s already exists (use -f to extract into it)", o->dest);
			goto out;
		}
	}
	x.root_fd = open(o->dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (x.root_fd < 0) {
		sq_fail_errno(err, "cannot open destination %s", o->dest);
		goto out;
	}
	unsigned long inodes = 0, blocks = 0;
	if (unsq_count(fs, o, &inodes, &blocks, err))
		goto out;
	if (!o->quiet) {
		printf("Parallel unsquashfs: Using %ld processor%s\n", processors, processors == 1 ? "" : "s");
		printf("%lu inodes (%lu blocks) to write\n\n", inodes, blocks);
		fflush(stdout);
	}
	progress_init(&x.progress, stdout, !o->no_progress);
	progress_add_total(&x.progress, inodes + blocks);
	x.progress_ready = true;
	/* Even one processor gets a worker: decoding and writing then overlap the walk, as the
	 * reference's reader, inflator and writer threads do. */
	x.pool = unsq_pool_new(fs, (unsigned)(processors > 64 ? 64 : processors), o->ignore_errors && !o->strict_errors,
			       finish_file, &x, err);
	if (x.pool == NULL)
		goto out;
	struct unsq_visitor v = {.ctx = &x, .enter_dir = ex_enter, .leave_dir = ex_leave, .leaf = ex_leaf};
	struct unsq_walk_opts wo = {.paths = o->paths, .npaths = o->npaths, .no_wildcards = o->no_wildcards,
				    .max_depth = o->max_depth};
	rc = unsq_walk(fs, &wo, &v, err);
	/* Every block must be written before the summary; directory times do not change when file
	 * contents are written, so they may already be set. */
	int pool_rc = unsq_pool_free(x.pool, err);
	x.pool = NULL;
	if (pool_rc < 0)
		rc = -1;
	else if (pool_rc == 2)
		x.status = 2;
	if (rc == 0)
		rc = x.status;
out:
	unsq_pool_free(x.pool, NULL);
	if (x.progress_ready) {
		progress_finish(&x.progress);
		progress_destroy(&x.progress);
	}
	if (x.root_fd >= 0)
		close(x.root_fd);
	numset_free(&x.links);
	unsq_names_free(&x.users);
	unsq_names_free(&x.groups);
	pthread_mutex_destroy(&x.lock);
	return rc;
}
