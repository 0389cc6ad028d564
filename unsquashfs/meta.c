/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* meta.c — restoring owners, modes, xattrs and times on extracted nodes, and the error rules
 * (-ignore-errors, -strict-errors) they are reported under. */
#include "config.h"
#include "unsquashfs/extract_ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_XATTR
#include <sys/xattr.h>
#endif

char *ex_shown(const struct ex *x, const char *path)
{
	size_t dl = strlen(x->o->dest), pl = strlen(path);
	char *s = malloc(dl + pl + 2);
	if (s != NULL)
		snprintf(s, dl + pl + 2, "%s%s%s", x->o->dest, pl ? "/" : "", path);
	return s;
}

static int report(struct ex *x, struct sq_error *err, int fatal, int e, const char *fmt, va_list ap)
{
	char msg[600];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (fatal)
		return sq_fail(err, SQ_ERR_IO, "%s: %s", msg, strerror(e));
	pthread_mutex_lock(&x->lock);
	fprintf(stderr, "unsquashfs: %s: %s\n", msg, strerror(e));
	x->status = 2;
	pthread_mutex_unlock(&x->lock);
	return 0;
}

int ex_nonfatal(struct ex *x, struct sq_error *err, int e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = report(x, err, x->o->strict_errors, e, fmt, ap);
	va_end(ap);
	return r;
}

int ex_write_error(struct ex *x, struct sq_error *err, int e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = report(x, err, !x->o->ignore_errors || x->o->strict_errors, e, fmt, ap);
	va_end(ap);
	return r;
}

mode_t ex_final_mode(const struct ex *x, const struct sqfs_inode *ino)
{
	unsigned mode = ino->mode & 07777;
	int is_dir = ino->type == SQFS_INODE_DIR;
	const struct unsq_mode_spec *force = is_dir ? x->o->force_dir_mode : x->o->force_file_mode;
	if (force != NULL && ino->type != SQFS_INODE_SYMLINK)
		mode = unsq_mode_apply(force, mode, is_dir);
	/* A user's own copy of a setuid file must not run as that user: squashfs-tools drops the
	 * bits too when not root. */
	if (!x->as_root)
		mode &= ~(unsigned)06000;
	return (mode_t)mode;
}

/* Whether this is the run's first xattr warning (warned_xattr: one warning a run, as an image
 * may hold thousands of inodes with xattrs). */
static int first_xattr_warning(struct ex *x)
{
	pthread_mutex_lock(&x->lock);
	int first = !x->warned_xattr;
	x->warned_xattr = true;
	pthread_mutex_unlock(&x->lock);
	return first;
}

#ifdef HAVE_XATTR
static int want_xattr(const struct ex *x, const char *name)
{
	if (x->o->user_xattrs && strncmp(name, "user.", 5) != 0)
		return 0;
	if (x->o->xattr_exclude != NULL && regexec(x->o->xattr_exclude, name, 0, NULL, 0) == 0)
		return 0;
	if (x->o->xattr_include != NULL && regexec(x->o->xattr_include, name, 0, NULL, 0) != 0)
		return 0;
	return 1;
}

/* Only the superuser may set other namespaces than user.*: said once, as the reference does,
 * and the exit status becomes 2. */
static int not_superuser(struct ex *x, const char *name, const char *shown, struct sq_error *err)
{
	if (!first_xattr_warning(x))
		return 0;
	if (x->o->strict_errors)
		return sq_fail(err, SQ_ERR_IO, "cannot write xattr %s on %s: not superuser", name, shown);
	pthread_mutex_lock(&x->lock);
	fprintf(stderr,
		"unsquashfs: cannot write xattr %s on %s: not superuser (further xattrs outside user.* are "
		"dropped silently; -user-xattrs, -xattrs-include '^user.' or -no-xattrs avoid this)\n",
		name, shown);
	x->status = 2;
	pthread_mutex_unlock(&x->lock);
	return 0;
}
#else
/* Built without xattr support: said once, as an image may hold thousands of inodes with xattrs;
 * the exit status becomes 2, as for any xattr that could not be written. */
static int no_xattr_support(struct ex *x, const char *shown, struct sq_error *err)
{
	if (!first_xattr_warning(x))
		return 0;
	return ex_nonfatal(x, err, ENOTSUP,
			   "%s has xattrs, not written: this unsquashfs was built without xattr "
			   "support (the image's other xattrs are dropped silently; -no-xattrs "
			   "avoids this)", shown);
}
#endif

/* Xattrs go through the fd when we have one, else through /proc/self/fd/DIR/NAME with the
 * l-variant, which does not follow a final symlink. */
static int apply_xattrs(struct ex *x, int fd, int dirfd, const char *name, const char *shown,
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
		if (!x->as_root && strncmp(a->name, "user.", 5) != 0) {
			rc = not_superuser(x, a->name, shown, err);
			continue;
		}
		int r = fd >= 0 ? fsetxattr(fd, a->name, a->value, a->value_len, 0)
				: lsetxattr(proc, a->name, a->value, a->value_len, 0);
		if (r != 0)
			rc = ex_nonfatal(x, err, errno, "cannot set xattr %s on %s", a->name, shown);
	}
#else
	(void)fd;
	(void)dirfd;
	(void)name;
	if (use->count > 0)
		rc = no_xattr_support(x, shown, err);
#endif
	sqfs_xattr_list_free(&list);
	return rc;
}

static int set_mode(struct ex *x, int fd, int dirfd, const char *name, const char *shown, mode_t mode,
		    struct sq_error *err)
{
	/* A node we just made: not a symlink, so fchmodat may follow. */
	int r = fd >= 0 ? fchmod(fd, mode) : fchmodat(dirfd, name, mode, 0);
	/* Some filesystems let only root set the sticky bit on files: keep the rest, as the
	 * reference does. */
	if (r != 0 && errno == EPERM && !x->as_root && (mode & S_ISVTX))
		r = fd >= 0 ? fchmod(fd, mode & ~S_ISVTX) : fchmodat(dirfd, name, mode & ~S_ISVTX, 0);
	if (r != 0)
		return ex_nonfatal(x, err, errno, "cannot set the permissions of %s", shown);
	return 0;
}

/* Owner, mode, xattrs and times, in that order: chown clears setuid bits, and writing xattrs
 * does not change mtime. */
int ex_apply_meta(struct ex *x, int fd, int dirfd, const char *name, const char *shown,
		  const struct sqfs_inode *ino, mode_t made_with, const struct sqfs_xattr_list *pre,
		  struct sq_error *err)
{
	uint32_t uid, gid;
	if (sqfs_fs_owner(x->fs, ino, &uid, &gid, err))
		return -1;
	if (x->o->force_uid_set)
		uid = x->o->force_uid;
	if (x->o->force_gid_set)
		gid = x->o->force_gid;
	if (x->as_root) {
		int r = fd >= 0 ? fchown(fd, uid, gid) : fchownat(dirfd, name, uid, gid, AT_SYMLINK_NOFOLLOW);
		if (r != 0 && ex_nonfatal(x, err, errno, "cannot set the owner of %s", shown))
			return -1;
	}
	mode_t mode = ex_final_mode(x, ino);
	if (!x->as_root && x->o->info && (ino->mode & 06000) && ino->type != SQFS_INODE_SYMLINK) {
		pthread_mutex_lock(&x->lock);
		fprintf(stderr, "unsquashfs: %s: setuid/setgid bits dropped (not running as root)\n", shown);
		pthread_mutex_unlock(&x->lock);
	}
	if (ino->type != SQFS_INODE_SYMLINK && (mode != made_with || (mode & 07000)) &&
	    set_mode(x, fd, dirfd, name, shown, mode, err))
		return -1;
	if (apply_xattrs(x, fd, dirfd, name, shown, ino, pre, err))
		return -1;
	time_t t = x->o->all_time_set ? (time_t)x->o->all_time : (time_t)ino->mtime;
	struct timespec ts[2] = {{.tv_sec = t}, {.tv_sec = t}};
	int r = fd >= 0 ? futimens(fd, ts) : utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
	if (r != 0 && ex_nonfatal(x, err, errno, "cannot set the times of %s", shown))
		return -1;
	return 0;
}
