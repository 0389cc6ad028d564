/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/stream.c — the archive read once from a descriptor (a pipe as often as a file), and the
 * spool file that regular members' bytes are copied into for the data stage. */
#include "config.h"
#include "mksquashfs/tar/reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util/sizes.h"

int tar_in_init(struct tar_in *in, int fd, struct sq_error *err)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->buf = malloc(TAR_IN_BUF);
	if (in->buf == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
#ifdef F_SETPIPE_SZ
	/* A larger pipe lets the writer run ahead: a 64 KiB pipe wakes both sides every 64 KiB,
	 * which on a loaded machine costs more than the copying. Best effort. */
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		(void)fcntl(fd, F_SETPIPE_SZ, (int)TAR_IN_BUF);
#endif
	return 0;
}

void tar_in_free(struct tar_in *in)
{
	free(in->buf);
	in->buf = NULL;
}

ssize_t tar_in_fill(struct tar_in *in, size_t n, struct sq_error *err)
{
	if (in->have - in->pos >= n || in->eof)
		return (ssize_t)(in->have - in->pos < n ? in->have - in->pos : n);
	if (in->pos > 0) {
		memmove(in->buf, in->buf + in->pos, in->have - in->pos);
		in->have -= in->pos;
		in->pos = 0;
	}
	while (in->have < n && !in->eof) {
		ssize_t got = read(in->fd, in->buf + in->have, TAR_IN_BUF - in->have);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return sq_fail_errno(err, "cannot read the archive at offset %llu",
					     (unsigned long long)(in->offset + in->have));
		}
		if (got == 0)
			in->eof = true;
		in->have += (size_t)got;
	}
	return (ssize_t)(in->have < n ? in->have : n);
}

void tar_in_consume(struct tar_in *in, size_t n)
{
	in->pos += n;
	in->offset += n;
}

static int truncated(struct tar_reader *r)
{
	return tar_fail(r, SQ_ERR_CORRUPT, "archive truncated (input ends at offset %llu)",
			(unsigned long long)(r->in.offset + (r->in.have - r->in.pos)));
}

int tar_in_read(struct tar_reader *r, void *buf, size_t n)
{
	uint8_t *out = buf;
	while (n > 0) {
		size_t want = n < TAR_IN_BUF ? n : TAR_IN_BUF;
		ssize_t got = tar_in_fill(&r->in, want, r->err);
		if (got < 0)
			return -1;
		if ((size_t)got < want)
			return truncated(r);
		memcpy(out, r->in.buf + r->in.pos, want);
		tar_in_consume(&r->in, want);
		out += want;
		n -= want;
	}
	return 0;
}

int tar_in_skip(struct tar_reader *r, uint64_t n)
{
	while (n > 0) {
		size_t want = n < TAR_IN_BUF ? (size_t)n : TAR_IN_BUF;
		ssize_t got = tar_in_fill(&r->in, 1, r->err);
		if (got < 0)
			return -1;
		if (got == 0)
			return truncated(r);
		size_t avail = r->in.have - r->in.pos;
		size_t take = avail < want ? avail : want;
		tar_in_consume(&r->in, take);
		n -= take;
	}
	return 0;
}

void tar_in_drain(struct tar_reader *r)
{
	/* Zero padding only, and not without end: `sqfstar img < /dev/zero` must finish. */
	uint64_t budget = 64u << 20;
	while (budget > 0) {
		struct sq_error ignored;
		ssize_t got = tar_in_fill(&r->in, 1, &ignored);
		if (got <= 0)
			return;
		size_t avail = r->in.have - r->in.pos;
		for (size_t i = 0; i < avail; i++)
			if (r->in.buf[r->in.pos + i] != 0)
				return;
		tar_in_consume(&r->in, avail);
		budget = budget > avail ? budget - avail : 0;
	}
}

/* The spool goes where the image goes unless TMPDIR says otherwise: /tmp is often a tmpfs,
 * and a spool there would hold the archive in memory. */
static char *spool_dir(const char *image_path)
{
	const char *tmp = getenv("TMPDIR");
	if (tmp != NULL && tmp[0] != '\0')
		return strdup(tmp);
	const char *slash = strrchr(image_path, '/');
	if (slash == NULL)
		return strdup(".");
	if (slash == image_path)
		return strdup("/");
	return strndup(image_path, (size_t)(slash - image_path));
}

int tar_spool_open(struct tar_spool *s, const char *image_path, struct sq_error *err)
{
	s->fd = -1;
	s->end = 0;
	char *dir = spool_dir(image_path);
	if (dir == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
#ifdef O_TMPFILE
	s->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (s->fd < 0) {
		/* No O_TMPFILE here (or on that file system): a named file, unlinked at once. */
		size_t len = strlen(dir) + 32;
		char *name = malloc(len);
		if (name == NULL) {
			free(dir);
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		}
		snprintf(name, len, "%s/.sqfstar-spool-XXXXXX", dir);
		s->fd = mkostemp(name, O_CLOEXEC);
		if (s->fd >= 0)
			unlink(name);
		free(name);
	}
	if (s->fd < 0) {
		sq_fail_errno(err, "cannot create a spool file for the archive's data in %s (set TMPDIR)",
			      dir);
		free(dir);
		return -1;
	}
	free(dir);
	return 0;
}

/* Zero runs are left as holes in aligned units this large: a hole lets the data stage skip a
 * zero block without reading it, and a unit larger than a page keeps a file of scattered zero
 * pages from becoming hundreds of thousands of extents (slow to free where the file system is
 * mounted with discard). */
#define SPOOL_PAGE 4096u
#define SPOOL_HOLE (64u << 10)
#define SPOOL_CHUNK (4u * SPOOL_HOLE)

int tar_spool_reserve(struct tar_reader *r, uint64_t size, bool sparse, uint64_t *at)
{
	/* Large and sparse members start on a hole unit, so their zero blocks line up with
	 * the spool's holes; small ones are packed (apparent gaps would cost nothing, but
	 * the pages they leave half used would). */
	uint64_t start = r->spool.end, end;
	uint64_t align = 1;
	if (sparse || size >= SPOOL_CHUNK)
		align = SPOOL_HOLE;
	else if (size >= 4 * SPOOL_PAGE)
		align = SPOOL_PAGE;
	start = (start + align - 1) & ~(align - 1);
	if (start < r->spool.end || !sq_add_u64(start, size, &end) || end > (uint64_t)INT64_MAX)
		return tar_fail(r, SQ_ERR_CORRUPT, "size %llu overflows the spool",
				(unsigned long long)size);
	*at = start;
	r->spool.end = end;
	return 0;
}

static bool unit_is_zero(const uint8_t *p)
{
	static const uint8_t zeros[SPOOL_PAGE];
	for (size_t i = 0; i < SPOOL_HOLE; i += SPOOL_PAGE)
		if (p[i] != 0 || memcmp(p + i, zeros, SPOOL_PAGE) != 0)
			return false;
	return true;
}

static int spool_write(struct tar_reader *r, const uint8_t *p, size_t len, uint64_t at)
{
	for (size_t done = 0; done < len;) {
		ssize_t w = pwrite(r->spool.fd, p + done, len - done, (off_t)(at + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return sq_fail_errno(r->err, "cannot write the spool file");
		done += (size_t)w;
	}
	return 0;
}

/* Write len bytes at at, leaving whole zero units unwritten: the spool is new, so they read
 * back as zeros, cost no disk, and the data stage skips them with SEEK_DATA (an archive of a
 * mostly empty disk image streams through without filling the disk). */
static int spool_write_sparse(struct tar_reader *r, const uint8_t *p, size_t len, uint64_t at)
{
	size_t run = 0, i = 0; /* p[run..i) waits to be written */
	while (i < len) {
		uint64_t unit_off = (at + i) % SPOOL_HOLE;
		size_t step = unit_off ? SPOOL_HOLE - (size_t)unit_off : SPOOL_HOLE;
		if (step > len - i)
			step = len - i;
		if (step == SPOOL_HOLE && unit_is_zero(p + i)) {
			if (i > run && spool_write(r, p + run, i - run, at + run) != 0)
				return -1;
			run = i + step;
		}
		i += step;
	}
	return i > run ? spool_write(r, p + run, i - run, at + run) : 0;
}

int tar_spool_copy(struct tar_reader *r, uint64_t at, uint64_t len)
{
	while (len > 0) {
		/* Whole chunks ending on a hole unit, so zero units are seen whole whatever
		 * sizes the pipe delivers. */
		size_t want = len < SPOOL_CHUNK ? (size_t)len : SPOOL_CHUNK;
		ssize_t got = tar_in_fill(&r->in, want, r->err);
		if (got < 0)
			return -1;
		if ((size_t)got < want)
			return truncated(r);
		size_t take = want;
		if (take < len && (at + take) % SPOOL_HOLE > 0 && take > SPOOL_HOLE)
			take -= (size_t)((at + take) % SPOOL_HOLE);
		if (spool_write_sparse(r, r->in.buf + r->in.pos, take, at) != 0)
			return -1;
		tar_in_consume(&r->in, take);
		at += take;
		len -= take;
	}
	return 0;
}

int tar_spool_finish(struct tar_reader *r)
{
	if (ftruncate(r->spool.fd, (off_t)r->spool.end) != 0)
		return sq_fail_errno(r->err, "cannot size the spool file");
	return 0;
}
