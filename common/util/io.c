/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* io.c — full reads that retry short reads and EINTR, and a line reader for list files. */
#include "config.h"
#include "common/util/io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/util/error.h"

/* Both full readers share one loop: at_offset says whether to pread at offset + done or to
 * read from the descriptor's own position. */
static ssize_t read_all(int fd, void *buf, size_t len, int at_offset, uint64_t offset)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = at_offset ? pread(fd, (char *)buf + done, len - done, (off_t)(offset + done))
				      : read(fd, (char *)buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t sq_pread_full(int fd, void *buf, size_t len, uint64_t offset)
{
	return read_all(fd, buf, len, 1, offset);
}

ssize_t sq_read_full(int fd, void *buf, size_t len)
{
	return read_all(fd, buf, len, 0, 0);
}

int sq_for_each_line(const char *path, const char *what,
		     int (*fn)(void *ctx, const char *line, size_t len, struct sq_error *err),
		     void *ctx, struct sq_error *err)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return sq_fail_errno(err, "cannot open %s %s", what, path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		if (fn(ctx, line, (size_t)n, err) != 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(f))
		rc = sq_fail_errno(err, "cannot read %s %s", what, path);
	free(line);
	fclose(f);
	return rc;
}
