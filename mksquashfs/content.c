/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* content.c — opening and reading a regular file's bytes for the data stage. */
#include "config.h"
#include "mksquashfs/content.h"

#include <errno.h>
#include <fcntl.h>
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

const char *content_name(const struct tree_inode *n)
{
	return n->source_path != NULL ? n->source_path : "a file";
}
