/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* content.c — opening and reading a regular file's bytes for the data stage. */
#include "config.h"
#include "mksquashfs/content.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util/io.h"
#include "mksquashfs/append/stored.h"

/* n's whole source path, exactly (malloc'd), or NULL when memory is short. */
static char *source_path_dup(const struct tree_inode *n)
{
	size_t len = tree_source_path(n, NULL, 0);
	char *p = malloc(len + 1);
	if (p != NULL)
		tree_source_path(n, p, len + 1);
	return p;
}

/* The failure to open n, named by its whole path; errno is kept for the message. */
static int open_failed(const struct tree_inode *n, struct sq_error *err)
{
	int e = errno;
	char name[CONTENT_NAME_MAX];
	errno = e;
	return sq_fail_errno(err, "cannot open %s", content_name(n, name, sizeof(name)));
}

int content_open(const struct tree_inode *n, struct content *c, struct sq_error *err)
{
	c->stored = NULL;
	c->node = n;
	if (n->span != NULL) {
		c->fd = n->span->fd;
		c->base = n->span->offset;
		c->owned = false;
		return 0;
	}
	char *path = source_path_dup(n);
	if (path == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	c->fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	free(path);
	if (c->fd < 0)
		return open_failed(n, err);
	c->base = 0;
	c->owned = true;
	return 0;
}

ssize_t content_pread(const struct content *c, void *buf, size_t len, uint64_t offset)
{
	if (c->stored != NULL)
		return stored_pread(c->stored, c->node, buf, len, offset);
	return sq_pread_full(c->fd, buf, len, c->base + offset);
}

int content_next_data(const struct content *c, uint64_t offset, uint64_t *data)
{
	if (c->stored != NULL)
		return -1;
	off_t d = lseek(c->fd, (off_t)(c->base + offset), SEEK_DATA);
	if (d >= 0) {
		*data = (uint64_t)d < c->base ? 0 : (uint64_t)d - c->base;
		return 0;
	}
	return errno == ENXIO ? 1 : -1;
}

void content_close(struct content *c)
{
	c->stored = NULL;
	if (c->owned && c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Make d hold the directory path[0..len) ("/" when len is 0). 0, or -1 when it cannot be
 * opened (the caller then opens by the whole path, which names the failure properly). */
static int dir_switch(struct content_dir *d, const char *path, size_t len)
{
	if (d->fd >= 0 && d->rec == NULL && d->len == len && memcmp(d->path, path, len) == 0)
		return 0;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	d->rec = NULL;
	if (len + 2 > d->cap) {
		char *p = realloc(d->path, len + 2);
		if (p == NULL)
			return -1;
		d->path = p;
		d->cap = len + 2;
	}
	memcpy(d->path, len ? path : "/", len ? len : 1);
	d->path[len ? len : 1] = '\0';
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0)
		return -1;
	d->len = len;
	return 0;
}

/* Make d hold the directory of the source record rec: files of one directory share the record,
 * so a pointer comparison finds it open. 0, or -1 as dir_switch. */
static int dir_switch_rec(struct content_dir *d, const struct tree_source *rec)
{
	if (d->fd >= 0 && d->rec == rec)
		return 0;
	size_t len = tree_source_record_path(rec, NULL, 0);
	char *path = malloc(len + 1);
	if (path == NULL)
		return -1;
	tree_source_record_path(rec, path, len + 1);
	int rc = dir_switch(d, path, len);
	free(path);
	if (rc == 0)
		d->rec = rec;
	return rc;
}

int content_open_cached(const struct tree_inode *n, struct content *c, struct content_dir *d,
			struct sq_error *err)
{
	if (n->span != NULL || n->source_path == NULL)
		return content_open(n, c, err);
	const struct tree_source *rec = tree_source_dir(n);
	const char *leaf;
	if (rec != NULL) {
		if (dir_switch_rec(d, rec) != 0)
			return content_open(n, c, err);
		leaf = n->source_path;
	} else {
		const char *slash = strrchr(n->source_path, '/');
		if (slash == NULL || slash[1] == '\0' ||
		    dir_switch(d, n->source_path, (size_t)(slash - n->source_path)) != 0)
			return content_open(n, c, err);
		leaf = slash + 1;
	}
	c->stored = NULL;
	c->node = n;
	c->fd = openat(d->fd, leaf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (c->fd < 0)
		return open_failed(n, err);
	c->base = 0;
	c->owned = true;
	return 0;
}

void content_dir_close(struct content_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->path);
	*d = (struct content_dir)CONTENT_DIR_INIT;
}

const char *content_name(const struct tree_inode *n, char *buf, size_t cap)
{
	if (n->source_path == NULL)
		return "a file";
	tree_source_path(n, buf, cap);
	return buf;
}
