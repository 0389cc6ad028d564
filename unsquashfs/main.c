/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* main.c — unsquashfs: parse the command line, open the image, run one mode, set the exit code. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fs_read.h"
#include "unsquashfs/extract.h"
#include "unsquashfs/list.h"
#include "unsquashfs/options.h"
#include "unsquashfs/stat.h"

static int stdout_sink(void *arg, uint64_t offset, const uint8_t *data, size_t len, struct sq_error *err)
{
	(void)arg;
	(void)offset;
	static const uint8_t zeros[4096];
	while (len > 0) {
		const uint8_t *p = data ? data : zeros;
		size_t n = data ? len : (len < sizeof(zeros) ? len : sizeof(zeros));
		if (fwrite(p, 1, n, stdout) != n)
			return sq_fail_errno(err, "cannot write to standard output");
		len -= n;
		if (data)
			data += n;
	}
	return 0;
}

/* -cat: like the reference, a missing name or a directory is reported and skipped (exit 2). */
static int cat_files(struct sqfs_fs *fs, const struct unsq_options *o, struct sq_error *err)
{
	struct sqfs_file_reader fr;
	int status = 0;
	if (sqfs_file_reader_init(&fr, fs, &fs->dec, err))
		return -1;
	for (size_t i = 0; i < o->npaths; i++) {
		struct sqfs_inode ino;
		int r = sqfs_fs_lookup(fs, o->paths[i], &ino, err);
		if (r < 0)
			goto fail;
		const char *p = o->paths[i];
		const char *slash = *p == '/' ? "" : "/";
		if (r == 0) {
			fprintf(stderr, "cat: no matches for %s%s\n", slash, p);
			status = 2;
			continue;
		}
		if (ino.type != SQFS_INODE_FILE) {
			fprintf(stderr, "cat: %s%s is %s\n", slash, p,
				ino.type == SQFS_INODE_DIR ? "a directory" : "not a regular file");
			sqfs_inode_free(&ino);
			status = 2;
			continue;
		}
		uint64_t fs_start;
		uint32_t fs_word;
		r = sqfs_fs_fragment(fs, &ino, &fs_start, &fs_word, err);
		if (r == 0)
			r = sqfs_file_read(&fr, &ino, fs_start, fs_word, stdout_sink, NULL, err);
		sqfs_inode_free(&ino);
		if (r)
			goto fail;
	}
	if (fflush(stdout) != 0) {
		sq_fail_errno(err, "cannot write to standard output");
		goto fail;
	}
	sqfs_file_reader_free(&fr);
	return status;
fail:
	sqfs_file_reader_free(&fr);
	return -1;
}

static void print_summary(const struct unsq_counts *c)
{
	printf("\n");
	printf("created %lu %s\n", c->files, c->files == 1 ? "file" : "files");
	printf("created %lu %s\n", c->dirs, c->dirs == 1 ? "directory" : "directories");
	printf("created %lu %s\n", c->symlinks, c->symlinks == 1 ? "symlink" : "symlinks");
	printf("created %lu %s\n", c->devices, c->devices == 1 ? "device" : "devices");
	printf("created %lu %s\n", c->fifos, c->fifos == 1 ? "fifo" : "fifos");
	printf("created %lu %s\n", c->sockets, c->sockets == 1 ? "socket" : "sockets");
	printf("created %lu %s\n", c->hardlinks, c->hardlinks == 1 ? "hardlink" : "hardlinks");
}

/* Deep trees hold one directory fd per level. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int run(const struct unsq_options *o, struct sq_error *err)
{
	int fd = open(o->image, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sq_fail_errno(err, "cannot open image %s", o->image);
	struct sqfs_fs fs;
	int rc;
	if (sqfs_fs_open_fd(&fs, fd, o->offset, err)) {
		close(fd);
		return -1;
	}
	switch (o->mode) {
	case UNSQ_MKFS_TIME:
		printf("%u\n", fs.img.sb.mod_time);
		rc = 0;
		break;
	case UNSQ_STAT:
		unsq_print_stat(&fs.img, o->image, o->utc, fs.tables.xattr.count);
		rc = 0;
		break;
	case UNSQ_LIST:
		rc = unsq_list(&fs, o, err);
		break;
	case UNSQ_CAT:
		rc = cat_files(&fs, o, err);
		break;
	default: {
		long procs = o->processors;
		if (procs <= 0) {
			procs = sysconf(_SC_NPROCESSORS_ONLN);
			if (procs <= 0)
				procs = 1;
		}
		struct unsq_counts counts;
		umask(0); /* modes are restored exactly, as stored in the image */
		raise_fd_limit();
		rc = unsq_extract(&fs, o, procs, &counts, err);
		if (rc >= 0 && !o->quiet)
			print_summary(&counts);
		break;
	}
	}
	sqfs_fs_close(&fs);
	close(fd);
	if (fflush(stdout) != 0 && rc >= 0)
		rc = sq_fail_errno(err, "cannot write to standard output");
	return rc;
}

int main(int argc, char **argv)
{
	struct unsq_options o;
	struct sq_error err;
	sq_error_clear(&err);
	if (unsq_options_parse(&o, argc, argv, &err)) {
		fprintf(stderr, "unsquashfs: %s\n", err.msg);
		unsq_options_free(&o);
		return 1;
	}
	int status;
	if (o.mode == UNSQ_HELP) {
		unsq_print_help();
		status = 0;
	} else if (o.mode == UNSQ_VERSION) {
		printf("unsquashfs (%s) %s, compatible with squashfs-tools 4.5.1\n", PACKAGE_NAME, PACKAGE_VERSION);
		status = 0;
	} else {
		int rc = run(&o, &err);
		if (rc < 0) {
			fflush(stdout);
			fprintf(stderr, "unsquashfs: %s\n", err.msg);
			status = 1;
		} else {
			status = (rc == 2 && !o.no_exit_code) ? 2 : 0;
		}
	}
	unsq_options_free(&o);
	return status;
}
