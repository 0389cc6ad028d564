/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sqpatch.c — test helper: edits fields of an uncompressed (-noI -noD) squashfs image in place,
 * found through the common/ reader, so tests can build hostile images from reference ones.
 *
 *   sqpatch IMG super OFF SIZE VALUE          superblock field
 *   sqpatch IMG inode PATH OFF SIZE VALUE     field at byte OFF of PATH's inode
 *   sqpatch IMG rename DIR OLD NEW            entry OLD of directory DIR renamed (same length)
 *   sqpatch IMG copydir SRC DST               DST's directory inode lists SRC's entries
 *   sqpatch IMG datapos PATH                  print the image offset of PATH's first data block */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util/endian.h"
#include "common/fs_read.h"

static int die(const char *msg)
{
	fprintf(stderr, "sqpatch: %s\n", msg);
	return 2;
}

/* Absolute position of a metadata table location, when its block is stored uncompressed. */
static int meta_abs(struct sqfs_fs *fs, uint64_t table, uint64_t rel_block, uint32_t off, uint64_t *abs)
{
	uint8_t h[2];
	if (pread(fs->img.fd, h, 2, (off_t)(table + rel_block)) != 2)
		return -1;
	if (!(get_le16(h) & SQFS_META_UNCOMPRESSED))
		return -1;
	*abs = table + rel_block + 2 + off;
	return 0;
}

/* Walk PATH, keeping the last entry's inode reference and the raw position of its name. */
static int find(struct sqfs_fs *fs, const char *path, uint64_t *ref, struct sqfs_inode *ino, struct sq_error *err)
{
	*ref = fs->img.sb.root_inode;
	if (sqfs_fs_inode(fs, *ref, ino, err))
		return -1;
	char *copy = strdup(path);
	for (char *c = strtok(copy, "/"); c != NULL; c = strtok(NULL, "/")) {
		struct sqfs_dir_iter it;
		struct sqfs_dirent ent;
		int rc, found = 0;
		if (ino->type != SQFS_INODE_DIR || sqfs_dir_open(&it, fs->dirs, ino, fs->img.sb.inode_count, err))
			break;
		while ((rc = sqfs_dir_next(&it, &ent, err)) == 1)
			if (strcmp(ent.name, c) == 0) {
				found = 1;
				break;
			}
		if (!found) {
			free(copy);
			return -1;
		}
		sqfs_inode_free(ino);
		*ref = ent.inode_ref;
		if (sqfs_fs_inode(fs, *ref, ino, err))
			break;
	}
	free(copy);
	return 0;
}

static void put(int fd, uint64_t pos, unsigned size, uint64_t v)
{
	uint8_t b[8];
	put_le64(b, v);
	if (pwrite(fd, b, size, (off_t)pos) != (ssize_t)size)
		perror("sqpatch: pwrite");
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return die("usage: see the comment at the top of sqpatch.c");
	int fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return die("cannot open the image");
	struct sqfs_fs fs;
	struct sq_error err;
	sq_error_clear(&err);
	if (sqfs_fs_open_fd(&fs, fd, 0, &err))
		return die(err.msg);
	const char *cmd = argv[2];
	struct sqfs_inode ino = {0}, src = {0};
	uint64_t ref, abs;
	const uint64_t itab = fs.img.sb.inode_table;
	if (strcmp(cmd, "super") == 0 && argc == 6) {
		put(fd, strtoull(argv[3], NULL, 0), (unsigned)atoi(argv[4]), strtoull(argv[5], NULL, 0));
	} else if (strcmp(cmd, "inode") == 0 && argc == 7) {
		if (find(&fs, argv[3], &ref, &ino, &err) ||
		    meta_abs(&fs, itab, sqfs_meta_ref_block(ref), sqfs_meta_ref_offset(ref), &abs))
			return die("inode not found or compressed");
		put(fd, abs + strtoull(argv[4], NULL, 0), (unsigned)atoi(argv[5]), strtoull(argv[6], NULL, 0));
	} else if (strcmp(cmd, "copydir") == 0 && argc == 5) {
		uint64_t sref;
		if (find(&fs, argv[3], &sref, &src, &err) || find(&fs, argv[4], &ref, &ino, &err) ||
		    src.type != SQFS_INODE_DIR || ino.type != SQFS_INODE_DIR || src.extended || ino.extended ||
		    meta_abs(&fs, itab, sqfs_meta_ref_block(ref), sqfs_meta_ref_offset(ref), &abs))
			return die("copydir needs two basic directory inodes");
		put(fd, abs + 16, 4, src.u.dir.block_start);
		put(fd, abs + 24, 2, src.u.dir.size);
		put(fd, abs + 26, 2, src.u.dir.offset);
	} else if (strcmp(cmd, "datapos") == 0 && argc == 4) {
		if (find(&fs, argv[3], &ref, &ino, &err) || ino.type != SQFS_INODE_FILE)
			return die("not a file");
		printf("%" PRIu64 "\n", ino.u.file.blocks_start);
	} else if (strcmp(cmd, "rename") == 0 && argc == 6) {
		if (strlen(argv[4]) != strlen(argv[5]))
			return die("rename keeps the length");
		if (find(&fs, argv[3], &ref, &ino, &err) || ino.type != SQFS_INODE_DIR)
			return die("no such directory");
		struct sqfs_dir_iter it;
		struct sqfs_dirent ent;
		if (sqfs_dir_open(&it, fs.dirs, &ino, fs.img.sb.inode_count, &err))
			return die(err.msg);
		int done = 0;
		while (!done && sqfs_dir_next(&it, &ent, &err) == 1) {
			if (strcmp(ent.name, argv[4]) != 0)
				continue;
			/* it.pos is just past the name; the name must not straddle two blocks. */
			if (it.pos.offset < ent.name_len)
				return die("name straddles a block");
			uint8_t h[2];
			if (pread(fd, h, 2, (off_t)it.pos.block) != 2 || !(get_le16(h) & SQFS_META_UNCOMPRESSED))
				return die("directory table is compressed");
			if (pwrite(fd, argv[5], ent.name_len, (off_t)(it.pos.block + 2 + it.pos.offset - ent.name_len)) < 0)
				return die("write failed");
			done = 1;
		}
		if (!done)
			return die("entry not found");
	} else {
		return die("bad command");
	}
	sqfs_inode_free(&ino);
	sqfs_inode_free(&src);
	sqfs_fs_close(&fs);
	close(fd);
	return 0;
}
