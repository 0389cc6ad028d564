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
	c->fd = open(n->source_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (c->fd < 0)
		return sq_fail_errno(err, "cannot open %s", n->source_path);
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
	if (d->fd >= 0 && d->len == len && memcmp(d->path, path, len) == 0)
		return 0;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
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

int content_open_cached(const struct tree_inode *n, struct content *c, struct content_dir *d,
			struct sq_error *err)
{
	const char *slash = n->span == NULL ? strrchr(n->source_path, '/') : NULL;
	if (slash == NULL || slash[1] == '\0' ||
	    dir_switch(d, n->source_path, (size_t)(slash - n->source_path)) != 0)
		return content_open(n, c, err);
	c->fd = openat(d->fd, slash + 1, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (c->fd < 0)
		return sq_fail_errno(err, "cannot open %s", n->source_path);
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

const char *content_name(const struct tree_inode *n)
{
	return n->source_path != NULL ? n->source_path : "a file";
}
