/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* blockmap.c — test helper: where each regular file's data sits in an image, so tests can check
 * the order files were written in (-sort) and that an image starts at an -offset.
 * Usage: blockmap IMAGE [OFFSET]. Prints "blocks_start size fragment path" per regular file
 * (blocks_start 0 when the file has no full block), in directory order. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fs_read.h"

static int walk(struct sqfs_fs *fs, struct sqfs_inode *dir, const char *prefix,
		struct sq_error *err)
{
	struct sqfs_dir_iter it;
	struct sqfs_dirent ent;
	if (sqfs_dir_open(&it, fs->dirs, dir, fs->img.sb.inode_count, err) != 0)
		return -1;
	int rc;
	while ((rc = sqfs_dir_next(&it, &ent, err)) == 1) {
		struct sqfs_inode ino;
		size_t len = strlen(prefix) + ent.name_len + 2;
		char *path = malloc(len);
		if (path == NULL)
			return -1;
		snprintf(path, len, "%s/%s", prefix, ent.name);
		/* The iterator keeps its own position; reading an inode does not disturb it. */
		if (sqfs_fs_inode(fs, ent.inode_ref, &ino, err) != 0) {
			free(path);
			return -1;
		}
		if (ino.type == SQFS_INODE_FILE) {
			printf("%llu %llu %s %s\n", (unsigned long long)ino.u.file.blocks_start,
			       (unsigned long long)ino.u.file.size,
			       ino.u.file.frag == SQFS_NO_FRAGMENT ? "-" : "frag", path);
		} else if (ino.type == SQFS_INODE_DIR && walk(fs, &ino, path, err) != 0) {
			sqfs_inode_free(&ino);
			free(path);
			return -1;
		}
		sqfs_inode_free(&ino);
		free(path);
	}
	return rc < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: blockmap IMAGE [OFFSET]\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	struct sqfs_fs fs;
	struct sqfs_inode root;
	struct sq_error err;
	sq_error_clear(&err);
	uint64_t base = argc == 3 ? strtoull(argv[2], NULL, 10) : 0;
	int rc = 1;
	if (sqfs_fs_open_fd(&fs, fd, base, &err) == 0) {
		if (sqfs_fs_root(&fs, &root, &err) == 0) {
			rc = walk(&fs, &root, "", &err) == 0 ? 0 : 1;
			sqfs_inode_free(&root);
		}
		sqfs_fs_close(&fs);
	}
	if (rc != 0)
		fprintf(stderr, "blockmap: %s\n", err.msg);
	close(fd);
	return rc;
}
