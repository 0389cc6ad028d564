/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* content.h — a regular file's bytes for the data stage, wherever a reader found them: a source
 * path read from its start, or a span of a shared open file (tree.h struct content_span). */
#ifndef SQ_MKSQUASHFS_CONTENT_H
#define SQ_MKSQUASHFS_CONTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/util/error.h"
#include "mksquashfs/tree.h"

struct stored_data;

struct content {
	int fd;
	uint64_t base;   /* where the file's byte 0 is in fd */
	bool owned;      /* fd is closed by content_close (a path we opened) */
	struct stored_data *stored;    /* a file already in the image being appended to: its bytes
	                                  are decoded from there (mksquashfs/append/stored.h) */
	const struct tree_inode *node; /* that file */
};

/* Open n's bytes for reading. 0, or -1 with err naming the file. */
int content_open(const struct tree_inode *n, struct content *c, struct sq_error *err);
/* Read len bytes at offset of the file (pread: safe beside other readers of a shared fd).
 * Returns the bytes read (fewer at end of file) or -1 with errno set. */
ssize_t content_pread(const struct content *c, void *buf, size_t len, uint64_t offset);
/* The start of the next data at or after offset (SEEK_DATA): 0 with *data set, 1 when only a
 * hole follows up to the end, -1 when the file system cannot tell. */
int content_next_data(const struct content *c, uint64_t offset, uint64_t *data);
void content_close(struct content *c);

/* The directory of the last file opened through it: files listed in directory order are then
 * opened relative to it (openat) instead of walking their whole path each time. */
struct content_dir {
	int fd;          /* -1: none */
	const struct tree_source *rec; /* the directory's source record, when found by one */
	char *path;      /* its path, len bytes (not NUL-terminated) */
	size_t len, cap;
};
#define CONTENT_DIR_INIT { .fd = -1 }
/* content_open, through d when n's bytes are at a source path (same result and messages). */
int content_open_cached(const struct tree_inode *n, struct content *c, struct content_dir *d,
			struct sq_error *err);
/* Close d's directory and free it (d can be used again). */
void content_dir_close(struct content_dir *d);

/* Room for a file's name in messages (a longer path is cut short there). */
#define CONTENT_NAME_MAX 4096
/* How n is named in messages: its source path (written to buf, cap bytes), or "a file" when it
 * has none. */
const char *content_name(const struct tree_inode *n, char *buf, size_t cap);
/* content_name into a buffer that lives until the end of the enclosing block (for messages). */
#define CONTENT_NAME(n) content_name((n), (char[CONTENT_NAME_MAX]){ 0 }, CONTENT_NAME_MAX)

#endif
