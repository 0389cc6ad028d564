/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* output_stream.c — -stream: the image written in order to standard output, as squashfs-tools
 * 4.7.3 streams it. The first 96 bytes are a placeholder superblock whose magic is "HSQS"
 * (0x53515348, the rest zero); the real superblock, which the table writer rewrites at offset 0
 * once it knows the tables, is held back and written after the padding. */
#include "config.h"
#include "mksquashfs/output_stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/endian.h"

#define SQFS_MAGIC_STREAMED 0x53515348u

static int write_all(struct image_out *out, const uint8_t *p, size_t len, struct sq_error *err)
{
	while (len > 0) {
		ssize_t n = write(out->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return sq_fail_errno(err, "cannot write the streamed image to %s", out->path);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int stream_write_at(struct image_out *out, const void *buf, size_t len, uint64_t offset,
		    struct sq_error *err)
{
	if (offset == 0 && len == SQFS_SUPER_SIZE && out->pos >= SQFS_SUPER_SIZE) {
		memcpy(out->stream_super, buf, SQFS_SUPER_SIZE);
		out->stream_super_set = true;
		return 0;
	}
	if (offset != out->pos)
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "internal error: a streamed image is written in order (offset %llu, at %llu)",
			       (unsigned long long)offset, (unsigned long long)out->pos);
	if (offset == 0 && len >= 4) {
		/* The zeroed superblock image_begin writes becomes the placeholder. */
		uint8_t magic[4];
		put_le32(magic, SQFS_MAGIC_STREAMED);
		return write_all(out, magic, 4, err) != 0 ? -1
							  : write_all(out, (const uint8_t *)buf + 4,
								      len - 4, err);
	}
	return write_all(out, buf, len, err);
}

int stream_close(struct image_out *out, bool success, struct sq_error *err)
{
	int rc = 0;
	if (success && !out->stream_super_set)
		rc = sq_fail(err, SQ_ERR_IO, "internal error: the streamed image has no superblock");
	else if (success)
		rc = write_all(out, out->stream_super, SQFS_SUPER_SIZE, err);
	out->fd = -1;
	free(out->path);
	out->path = NULL;
	return rc;
}

int image_out_open_stream(struct image_out *out, struct sq_error *err)
{
	memset(out, 0, sizeof(*out));
	out->fd = STDOUT_FILENO;
	out->stream = true;
	out->path = strdup("standard output");
	if (out->path == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	/* Writes take the lock as a file's do (output.c), so the signal guard sees them whole. */
	if (pthread_mutex_init(&out->lock, NULL) != 0)
		return sq_fail(err, SQ_ERR_NOMEM, "cannot set up the image lock");
	out->lock_ready = true;
	return 0;
}
