/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* output.c — the image file: appends, positioned rewrites, read-back, and what a failure leaves:
 * a new image removed, an existing one (append) put back as it was found.
 * With -offset the image starts `base` bytes into the file: every position here is relative to
 * the image, and the bytes before it are left as they were (an AppImage runtime). */
#include "config.h"
#include "mksquashfs/image.h"
#include "mksquashfs/output_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/format.h"

static int open_file(struct image_out *out, const char *path, int flags, struct sq_error *err)
{
	memset(out, 0, sizeof(*out));
	out->fd = -1;
	out->path = strdup(path);
	if (out->path == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	if (pthread_mutex_init(&out->lock, NULL) != 0) {
		free(out->path);
		out->path = NULL;
		return sq_fail(err, SQ_ERR_NOMEM, "cannot set up the image lock");
	}
	out->lock_ready = true;
	out->fd = open(path, flags | O_CLOEXEC, 0644);
	if (out->fd < 0) {
		sq_fail_errno(err, "cannot %s image %s", (flags & O_CREAT) ? "create" : "open", path);
		free(out->path);
		out->path = NULL;
		return -1;
	}
	return 0;
}

int image_out_open_at(struct image_out *out, const char *path, uint64_t base,
		      struct sq_error *err)
{
	struct stat st;
	bool existed = stat(path, &st) == 0;
	/* Only what follows the offset is replaced: the prefix stays. */
	if (open_file(out, path, O_RDWR | O_CREAT | (base == 0 ? O_TRUNC : 0), err) != 0)
		return -1;
	out->base = base;
	/* Only a regular file is ours to remove on failure: the image may go straight to a block
	 * device (or /dev/full in a test), whose node must survive a failed run. */
	out->created = fstat(out->fd, &st) == 0 && S_ISREG(st.st_mode);
	/* A file that held bytes before the offset is cut back to them on failure, not removed. */
	out->keep_prefix = base > 0 && existed && out->created;
	if (base > 0 && out->created && ftruncate(out->fd, (off_t)base) != 0) {
		sq_fail_errno(err, "cannot size image %s to its offset %llu", path,
			      (unsigned long long)base);
		close(out->fd);
		out->fd = -1;
		free(out->path);
		out->path = NULL;
		return -1;
	}
	return 0;
}

int image_out_open(struct image_out *out, const char *path, struct sq_error *err)
{
	return image_out_open_at(out, path, 0, err);
}

int image_out_open_existing(struct image_out *out, const char *path, uint64_t base,
			    struct sq_error *err)
{
	if (open_file(out, path, O_RDWR, err) != 0)
		return -1;
	out->base = base;
	return 0;
}

int image_pwrite_full(int fd, const void *buf, size_t len, uint64_t offset)
{
	const uint8_t *p = buf;
	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return 0;
}

static int write_all_at(struct image_out *out, const void *buf, size_t len, uint64_t offset,
			struct sq_error *err)
{
	if (out->stream)
		return stream_write_at(out, buf, len, offset, err);
	if (image_pwrite_full(out->fd, buf, len, out->base + offset) != 0)
		return sq_fail_errno(err, "cannot write image %s at offset %llu", out->path,
				     (unsigned long long)offset);
	return 0;
}

/* Every change to the file holds the lock, so an interruption (image_out_interrupt) never
 * races a write: once it has put the image back, nothing more reaches the file. */
static int locked_write(struct image_out *out, const void *buf, size_t len, uint64_t offset,
			struct sq_error *err)
{
	pthread_mutex_lock(&out->lock);
	int rc = out->fd < 0 ? sq_fail(err, SQ_ERR_IO, "image %s is closed", out->path)
			     : write_all_at(out, buf, len, offset, err);
	pthread_mutex_unlock(&out->lock);
	return rc;
}

int image_out_write(struct image_out *out, const void *buf, size_t len, struct sq_error *err)
{
	if (locked_write(out, buf, len, out->pos, err) != 0)
		return -1;
	out->pos += len;
	return 0;
}

int image_out_pwrite(struct image_out *out, const void *buf, size_t len, uint64_t offset,
		     struct sq_error *err)
{
	return locked_write(out, buf, len, offset, err);
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
	pthread_mutex_lock(&out->lock);
	int rc = 0;
	if (out->fd < 0 || ftruncate(out->fd, (off_t)(out->base + len)) != 0)
		rc = sq_fail_errno(err, "cannot truncate image %s", out->path);
	pthread_mutex_unlock(&out->lock);
	if (rc == 0)
		out->pos = len;
	return rc;
}

/* The superblock goes last, so the image never claims tables that are not back yet; the recovery
 * file goes only once all of it is on disk. */
int image_restore_apply(int fd, const struct image_restore *r)
{
	if (image_pwrite_full(fd, r->saved, r->saved_len, r->saved_pos) != 0 || fsync(fd) != 0 ||
	    image_pwrite_full(fd, r->super, SQFS_SUPER_SIZE, r->super_pos) != 0)
		return -1;
	if (r->truncate && ftruncate(fd, (off_t)r->file_len) != 0)
		return -1;
	if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
		return -1;
	if (r->recovery_file != NULL)
		unlink(r->recovery_file);
	return 0;
}

/* A new image goes: the file we made is removed, or cut back to the bytes it had before the
 * offset. */
static void remove_new(struct image_out *out)
{
	if (out->keep_prefix) {
		/* The bytes before the offset are the user's: a file that cannot be cut back is
		 * left as it is rather than removed with them. */
		if (truncate(out->path, (off_t)out->base) != 0)
			fprintf(stderr, "mksquashfs: cannot cut %s back to its first %llu bytes: %s\n",
				out->path, (unsigned long long)out->base, strerror(errno));
	} else if (out->created) {
		unlink(out->path);
	}
}

/* What a failure leaves: an existing image put back, or a file we made removed. */
static int undo(struct image_out *out)
{
	int rc = 0;
	if (out->restore != NULL)
		rc = image_restore_apply(out->fd, out->restore);
	if (close(out->fd) != 0)
		rc = -1;
	out->fd = -1;
	if (out->restore == NULL && out->path != NULL)
		remove_new(out);
	return rc;
}

int image_out_close(struct image_out *out, bool success, struct sq_error *err)
{
	if (out->stream)
		return stream_close(out, success, err);
	int rc = 0;
	if (out->lock_ready)
		pthread_mutex_lock(&out->lock);
	if (out->fd >= 0 && success) {
		/* fsync is what surfaces a delayed ENOSPC/EIO on some filesystems; a close that
		 * succeeds without it could still leave a short image behind. */
		if (fsync(out->fd) != 0 && errno != EINVAL && errno != EROFS) {
			rc = sq_fail_errno(err, "cannot flush image %s", out->path);
			success = false;
		} else if (close(out->fd) != 0) {
			out->fd = -1;
			rc = sq_fail_errno(err, "cannot close image %s", out->path);
			success = false;
		} else {
			out->fd = -1;
		}
	}
	if (!success && out->fd >= 0 && undo(out) != 0 && out->restore != NULL)
		rc = sq_fail_errno(err, "cannot put image %s back as it was", out->path);
	else if (!success && out->fd < 0 && out->restore == NULL && out->path != NULL)
		remove_new(out);
	/* Done while still holding the lock: an interruption sees either the image to put back
	 * with its recovery file, or the finished image without it. */
	if (success && out->restore != NULL && out->restore->recovery_file != NULL)
		unlink(out->restore->recovery_file);
	out->finished = success;
	free(out->path);
	out->path = NULL;
	/* The lock stays: the signal guard may still take it. */
	if (out->lock_ready)
		pthread_mutex_unlock(&out->lock);
	return rc;
}

bool image_out_interrupt(struct image_out *out)
{
	if (!out->lock_ready)
		return true;
	pthread_mutex_lock(&out->lock);
	if (out->finished) {
		pthread_mutex_unlock(&out->lock);
		return false;
	}
	if (out->fd >= 0)
		undo(out);
	/* Never unlocked: whoever writes next waits until the process ends. */
	return true;
}
