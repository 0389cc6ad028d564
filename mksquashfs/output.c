/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* output.c — the image file: appends, positioned rewrites, read-back, and removal on failure.
 * With -offset the image starts `base` bytes into the file: every position here is relative to
 * the image, and the bytes before it are left as they were (an AppImage runtime). */
#include "config.h"
#include "mksquashfs/image.h"
#include "mksquashfs/output_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int image_out_open(struct image_out *out, const char *path, struct sq_error *err)
{
	return image_out_open_at(out, path, 0, err);
}

int image_out_open_at(struct image_out *out, const char *path, uint64_t base,
		      struct sq_error *err)
{
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	out->base = base;
	out->path = strdup(path);
	if (out->path == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	struct stat st;
	bool existed = stat(path, &st) == 0;
	/* Only what follows the offset is replaced: the prefix stays. */
	out->fd = open(path, O_RDWR | O_CREAT | (base == 0 ? O_TRUNC : 0) | O_CLOEXEC, 0644);
	if (out->fd < 0) {
		free(out->path);
		out->path = NULL;
		return sq_fail_errno(err, "cannot create image %s", path);
	}
	/* Only a regular file is ours to remove on failure: the image may go straight to a block
	 * device (or /dev/full in a test), whose node must survive a failed run. */
	out->created = fstat(out->fd, &st) == 0 && S_ISREG(st.st_mode);
	/* A file that held bytes before the offset is cut back to them on failure, not removed. */
	out->keep_prefix = base > 0 && existed && out->created;
	if (base > 0 && out->created && ftruncate(out->fd, (off_t)base) != 0) {
		int e = errno;
		close(out->fd);
		out->fd = -1;
		errno = e;
		sq_fail_errno(err, "cannot size image %s to its offset %llu", path,
			      (unsigned long long)base);
		free(out->path);
		out->path = NULL;
		return -1;
	}
	return 0;
}

static int write_all_at(struct image_out *out, const void *buf, size_t len, uint64_t offset,
			struct sq_error *err)
{
	if (out->stream)
		return stream_write_at(out, buf, len, offset, err);
	const uint8_t *p = buf;
	while (len > 0) {
		ssize_t n = pwrite(out->fd, p, len, (off_t)(out->base + offset));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return sq_fail_errno(err, "cannot write image %s at offset %llu", out->path,
					     (unsigned long long)offset);
		}
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return 0;
}

int image_out_write(struct image_out *out, const void *buf, size_t len, struct sq_error *err)
{
	if (write_all_at(out, buf, len, out->pos, err) != 0)
		return -1;
	out->pos += len;
	return 0;
}

int image_out_pwrite(struct image_out *out, const void *buf, size_t len, uint64_t offset,
		     struct sq_error *err)
{
	return write_all_at(out, buf, len, offset, err);
}

int image_out_pread(struct image_out *out, void *buf, size_t len, uint64_t offset,
		    struct sq_error *err)
{
	if (out->stream)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "a streamed image cannot be read back");
	uint8_t *p = buf;
	while (len > 0) {
		ssize_t n = pread(out->fd, p, len, (off_t)(out->base + offset));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return sq_fail_errno(err, "cannot read back image %s at offset %llu",
					     out->path, (unsigned long long)offset);
		}
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return 0;
}

int image_out_truncate(struct image_out *out, uint64_t len, struct sq_error *err)
{
	if (out->stream)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "a streamed image cannot be cut back");
	if (ftruncate(out->fd, (off_t)(out->base + len)) != 0)
		return sq_fail_errno(err, "cannot truncate image %s", out->path);
	out->pos = len;
	return 0;
}

int image_out_close(struct image_out *out, bool success, struct sq_error *err)
{
	if (out->stream)
		return stream_close(out, success, err);
	int rc = 0;
	if (out->fd >= 0) {
		/* fsync is what surfaces a delayed ENOSPC/EIO on some filesystems; a close that
		 * succeeds without it could still leave a short image behind. */
		if (success && fsync(out->fd) != 0 && errno != EINVAL && errno != EROFS) {
			rc = sq_fail_errno(err, "cannot flush image %s", out->path);
			success = false;
		}
		if (close(out->fd) != 0 && success) {
			rc = sq_fail_errno(err, "cannot close image %s", out->path);
			success = false;
		}
		out->fd = -1;
	}
	if (!success && out->keep_prefix && out->path != NULL) {
		if (truncate(out->path, (off_t)out->base) != 0)
			unlink(out->path);
	} else if (!success && out->created && out->path != NULL) {
		unlink(out->path);
	}
	free(out->path);
	out->path = NULL;
	return rc;
}
