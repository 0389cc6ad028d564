/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stream.c — -fix: squashfs-tools 4.7.3's fix-up of a streamed image (output_stream.c writes
 * them). A streamed image starts with a 96-byte placeholder whose magic is "HSQS" (0x53515348),
 * holds the filesystem from byte 96 on, padded to 4 KiB unless -nopad, and ends with the real
 * 96-byte superblock: -fix copies that superblock to the front and cuts it off the end. */
#include "config.h"
#include "mksquashfs/stream.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/endian.h"
#include "common/util/io.h"

#define SQFS_MAGIC_STREAMED 0x53515348u

int stream_fix(const char *path, struct sq_error *err)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return sq_fail_errno(err, "-fix: cannot open %s", path);
	uint8_t head[SQFS_SUPER_SIZE], tail[SQFS_SUPER_SIZE];
	int rc = -1;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		sq_fail_errno(err, "-fix: cannot stat %s", path);
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size < 2 * SQFS_SUPER_SIZE) {
		sq_fail(err, SQ_ERR_CORRUPT, "-fix: %s is too small to be a streamed Squashfs file", path);
		goto out;
	}
	uint64_t at = (uint64_t)st.st_size - SQFS_SUPER_SIZE;
	if (sq_pread_full(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    sq_pread_full(fd, tail, sizeof(tail), at) != (ssize_t)sizeof(tail)) {
		sq_fail_errno(err, "-fix: cannot read %s", path);
		goto out;
	}
	if (get_le32(head) != SQFS_MAGIC_STREAMED) {
		sq_fail(err, SQ_ERR_CORRUPT, "-fix: %s is not a streamed Squashfs file, incorrect magic found",
			path);
		goto out;
	}
	if (get_le32(tail) != SQFS_MAGIC || get_le64(tail + SQFS_SB_BYTES_USED) > at) {
		sq_fail(err, SQ_ERR_CORRUPT, "-fix: %s has no squashfs superblock at its end (truncated stream?)",
			path);
		goto out;
	}
	if (pwrite(fd, tail, sizeof(tail), 0) != (ssize_t)sizeof(tail) || ftruncate(fd, (off_t)at) != 0 ||
	    fsync(fd) != 0) {
		sq_fail_errno(err, "-fix: cannot write %s", path);
		goto out;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}
