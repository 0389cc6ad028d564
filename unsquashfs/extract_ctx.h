/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* extract_ctx.h — the state one extraction shares between its files (tree, metadata, pool). */
#ifndef SQ_UNSQUASHFS_EXTRACT_CTX_H
#define SQ_UNSQUASHFS_EXTRACT_CTX_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "common/util/progress.h"
#include "unsquashfs/extract.h"
#include "unsquashfs/list.h"
#include "unsquashfs/meter.h"
#include "unsquashfs/numset.h"
#include "unsquashfs/pool.h"

/* A directory being extracted. Deep trees would need one descriptor per level, so only the
 * deepest DIR_FD_WINDOW levels keep theirs; a directory whose descriptor was closed is
 * reopened through its child's ".." and checked to be the same directory. */
struct dslot {
	int fd;          /* -1 while closed */
	dev_t dev;       /* identity, recorded when the descriptor is closed */
	ino_t ino;
	struct dslot *parent;
	size_t depth;
};

struct ex {
	struct sqfs_fs *fs;
	const struct unsq_options *o;
	struct unsq_counts *counts;
	struct numset links; /* inode number -> path (relative to dest) of its first extraction */
	struct unsq_names users, groups;
	struct unsq_meter meter;
	struct unsq_pool *pool; /* file data: the main thread only reads metadata and creates files */
	pthread_mutex_t lock;   /* status and stderr, shared with the pool's finishers */
	pthread_cond_t file_closed; /* with lock: waiting at the -max-files limit */
	atomic_long open_files;
	long max_files;
	struct dslot root;
	struct dslot **chain;   /* the slots of the directories on the current path, by depth */
	size_t chain_cap;
	int as_root;
	bool warned_xattr;      /* the non-superuser (or no xattr support) warning was given */
	uint32_t last_frag;     /* fragment index of the last tail queued (SQFS_NO_FRAGMENT: none yet) */
	int status;             /* 0, or 2 after a non-fatal problem */
};

/* "dest/path" for messages and -info (malloc'd; NULL when out of memory). */
char *ex_shown(const struct ex *x, const char *path);

/* A problem that lets extraction go on (owners, permissions, xattrs): fatal under -strict-errors. */
int ex_nonfatal(struct ex *x, struct sq_error *err, int e, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A failure to write the output: fatal unless -ignore-errors. */
int ex_write_error(struct ex *x, struct sq_error *err, int e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The mode bits a node gets: the image's, or -force-file-mode/-force-dir-mode's, less setuid
 * and setgid when not running as root. */
mode_t ex_final_mode(const struct ex *x, const struct sqfs_inode *ino);

/* Owner, mode, xattrs and times of a node just made (fd >= 0, else name in dirfd without
 * following symlinks). made_with: the mode it was created with (chmod only when different or
 * special bits must survive chown). pre: its xattrs read already (so that pool threads, which
 * may not use the image's xattr reader, can call this), or NULL. */
int ex_apply_meta(struct ex *x, int fd, int dirfd, const char *name, const char *shown,
		  const struct sqfs_inode *ino, mode_t made_with, const struct sqfs_xattr_list *pre,
		  struct sq_error *err);

/* The pool's finisher of regular files: size, metadata, close. */
int ex_finish_file(void *ctx, struct unsq_out_file *f, struct sq_error *err);

/* Regular files: create, queue the blocks in the pool; finished by the pool. */
int ex_write_file(struct ex *x, int dirfd, const char *name, const char *shown, const struct sqfs_inode *ino,
		  struct sq_error *err);

#endif
