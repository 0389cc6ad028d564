/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* spill.c — chunks for the tree's arena: anonymous up to a limit, then mapped from an unlinked
 * temporary file whose blocks are reserved before use. */
#include "config.h"
#include "mksquashfs/spill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

bool spill_init(struct spill *s, uint64_t anon_limit, const char *dir)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->anon_limit = anon_limit;
	s->dir = strdup(dir != NULL && dir[0] != '\0' ? dir : ".");
	return s->dir != NULL;
}

/* A temporary file in dir, unlinked at once so that nothing is left behind however the run
 * ends. */
static int open_temp(const char *dir, int *fd, struct sq_error *err)
{
#ifdef O_TMPFILE
	*fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (*fd >= 0)
		return 0;
#endif
	size_t len = strlen(dir) + sizeof("/.mksquashfs-spill.XXXXXX");
	char *name = malloc(len);
	if (name == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	snprintf(name, len, "%s/.mksquashfs-spill.XXXXXX", dir);
	*fd = mkostemp(name, O_CLOEXEC);
	int rc = 0;
	if (*fd < 0)
		rc = sq_fail_errno(err, "cannot create a temporary file in %s (-mem)", dir);
	else
		unlink(name);
	free(name);
	return rc;
}

/* len more bytes of the file, mapped. The blocks are allocated now: a page of a sparse file that
 * cannot be written back when the disk is full would kill the process with SIGBUS later. */
static void *map_more(struct spill *s, size_t len, struct sq_error *err)
{
	if (s->fd < 0 && open_temp(s->dir, &s->fd, err) != 0)
		return NULL;
	/* Every mapping starts at a page boundary of the file. */
	long page = sysconf(_SC_PAGESIZE);
	size_t step = page > 0 ? (size_t)page : 4096;
	len = (len + step - 1) / step * step;
	int e = posix_fallocate(s->fd, (off_t)s->file_bytes, (off_t)len);
	if (e != 0) {
		errno = e;
		sq_fail_errno(err, "cannot grow the temporary file in %s to %llu bytes (-mem)",
			      s->dir, (unsigned long long)(s->file_bytes + len));
		return NULL;
	}
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, (off_t)s->file_bytes);
	if (p == MAP_FAILED) {
		sq_fail_errno(err, "cannot map the temporary file in %s (-mem)", s->dir);
		return NULL;
	}
	s->file_bytes += len;
	return p;
}

void *spill_chunk(struct spill *s, size_t len, bool *mapped, struct sq_error *err)
{
	*mapped = s != NULL && (s->anon_bytes >= s->anon_limit || len > s->anon_limit - s->anon_bytes);
	if (*mapped)
		return map_more(s, len, err);
	void *p = calloc(1, len);
	if (p == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (s != NULL)
		s->anon_bytes += len;
	return p;
}

void spill_chunk_free(void *chunk, size_t len, bool mapped)
{
	if (mapped)
		munmap(chunk, len);
	else
		free(chunk);
}

void spill_close(struct spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->dir);
	s->dir = NULL;
}

void spool_init(struct spool *p, const char *dir)
{
	p->dir = dir != NULL && dir[0] != '\0' ? dir : ".";
	p->fd = -1;
	p->len = 0;
}

int spool_write(struct spool *p, const void *bytes, size_t len, struct sq_error *err)
{
	if (p->fd < 0 && open_temp(p->dir, &p->fd, err) != 0)
		return -1;
	const uint8_t *b = bytes;
	while (len > 0) {
		ssize_t n = pwrite(p->fd, b, len, (off_t)p->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = ENOSPC;
		if (n <= 0)
			return sq_fail_errno(err, "cannot write the temporary file in %s (-mem)",
					     p->dir);
		b += n;
		len -= (size_t)n;
		p->len += (uint64_t)n;
	}
	return 0;
}

int spool_read(struct spool *p, void *buf, size_t len, uint64_t off, struct sq_error *err)
{
	uint8_t *b = buf;
	while (len > 0) {
		ssize_t n = pread(p->fd, b, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EIO; /* shorter than written: someone cut it */
		if (n <= 0)
			return sq_fail_errno(err, "cannot read back the temporary file in %s (-mem)",
					     p->dir);
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

void spool_close(struct spool *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	p->len = 0;
}
