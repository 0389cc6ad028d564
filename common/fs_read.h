/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* fs_read.h — a whole image opened for reading: tables, metadata readers and file contents. */
#ifndef SQ_COMMON_FS_READ_H
#define SQ_COMMON_FS_READ_H

#include <stdint.h>

#include "common/dir_read.h"
#include "common/image_read.h"
#include "common/inode_read.h"
#include "common/meta_read.h"
#include "common/table_read.h"
#include "common/xattr_read.h"

struct sqfs_fs {
	struct sqfs_image img;
	struct sqfs_decoder dec;
	struct sqfs_tables tables;
	struct sqfs_meta_reader *inodes;
	struct sqfs_meta_reader *dirs;
	struct sqfs_meta_reader *xattrs; /* NULL when the image has no xattr table */
};

/* Open an image from fd at base (or from memory), with every table loaded or located.
 * On failure nothing needs closing. */
int sqfs_fs_open_fd(struct sqfs_fs *fs, int fd, uint64_t base, struct sq_error *err);
int sqfs_fs_open_mem(struct sqfs_fs *fs, const uint8_t *mem, size_t len, struct sq_error *err);
void sqfs_fs_close(struct sqfs_fs *fs);

int sqfs_fs_inode(struct sqfs_fs *fs, uint64_t ref, struct sqfs_inode *ino, struct sq_error *err);
int sqfs_fs_root(struct sqfs_fs *fs, struct sqfs_inode *ino, struct sq_error *err);

/* Resolve the uid/gid indexes of an inode. */
int sqfs_fs_owner(const struct sqfs_fs *fs, const struct sqfs_inode *ino, uint32_t *uid, uint32_t *gid,
		  struct sq_error *err);

/* Xattrs of an inode (an empty list when it has none or the image has no xattr table). */
int sqfs_fs_xattrs(struct sqfs_fs *fs, const struct sqfs_inode *ino, struct sqfs_xattr_list *out,
		   struct sq_error *err);

/* Look up a '/'-separated path below the root (empty components ignored, no "." or ".."
 * handling: those names cannot exist). 1 found with *ino filled, 0 not found, -1 error. */
int sqfs_fs_lookup(struct sqfs_fs *fs, const char *path, struct sqfs_inode *ino, struct sq_error *err);

/* Reading a regular file's contents: one per thread, with its own decoder and fragment cache. */
struct sqfs_file_reader {
	struct sqfs_fs *fs;
	struct sqfs_decoder *dec; /* &fs->dec or a thread's own */
	uint8_t *block;           /* block_size bytes */
	uint8_t *frag;            /* block_size bytes: the decoded fragment block frag_start */
	uint64_t frag_start;
	uint32_t frag_word;
	size_t frag_len;
	int frag_valid;
};

int sqfs_file_reader_init(struct sqfs_file_reader *fr, struct sqfs_fs *fs, struct sqfs_decoder *dec,
			  struct sq_error *err);
void sqfs_file_reader_free(struct sqfs_file_reader *fr);

/* Receives file contents in order: data == NULL means len zero bytes of a sparse block. */
typedef int (*sqfs_data_sink)(void *arg, uint64_t offset, const uint8_t *data, size_t len,
			      struct sq_error *err);

/* Where a file's fragment is (looked up through fs's fragment table; not thread-safe). */
int sqfs_fs_fragment(struct sqfs_fs *fs, const struct sqfs_inode *ino, uint64_t *start, uint32_t *word,
		     struct sq_error *err);

/* Make the fragment block (frag_start, frag_word) current in fr->frag and check that len bytes
 * at frag_offset lie inside it. */
int sqfs_file_reader_tail(struct sqfs_file_reader *fr, uint64_t frag_start, uint32_t frag_word,
			  uint32_t frag_offset, uint64_t len, struct sq_error *err);

/* Stream every byte of file inode ino to sink (reads its block list through fs->inodes, so
 * only on the thread that owns fs; sqfs_file_reader_tail and the decoder are per-thread); frag_start/frag_word from sqfs_fs_fragment
 * (ignored when the file has no fragment). Every block is checked to decode to its exact size. */
int sqfs_file_read(struct sqfs_file_reader *fr, const struct sqfs_inode *ino, uint64_t frag_start,
		   uint32_t frag_word, sqfs_data_sink sink, void *arg, struct sq_error *err);

#endif
