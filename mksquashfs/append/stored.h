/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stored.h — the files already in an image being appended to, as the data stage sees them: its
 * fragment table continued, new files deduplicated against the stored ones (their content read
 * back by decoding the old blocks through the codec), and their bytes readable like a source's.
 *
 * Threads: stored_begin runs before the data stage's threads start; stored_pread (through
 * content.h) only on its reader thread; stored_same_blocks only on its writer thread. Each of
 * the two threads has its own codec state and buffers. */
#ifndef SQ_MKSQUASHFS_APPEND_STORED_H
#define SQ_MKSQUASHFS_APPEND_STORED_H

#include <stdint.h>
#include <sys/types.h>

#include "common/util/error.h"
#include "mksquashfs/image.h"
#include "mksquashfs/tree.h"

struct stored_data;
struct content;
struct data_reader;
struct dedup_table;
struct file_list;

/* Reading back the stored files of tree (TREE_STORED inodes) from the image in fd, whose
 * superblock is at file offset base, written with img's codec, options and block size; frags
 * (frag_count entries, copied) is its fragment table. NULL with err set when memory is short. */
struct stored_data *stored_new(int fd, uint64_t base, const struct image_settings *img,
			       const struct fragment_entry *frags, uint32_t frag_count,
			       struct tree *tree, struct sq_error *err);
void stored_free(struct stored_data *s);

/* The data stage's start (data.c): the writer's fragment list starts as the old table (malloc'd
 * into *frags; new fragments are numbered after it), and the dedup tables are seeded with the
 * stored files that may equal a file of files (same size, or same block run or tail length):
 * blocks (the writer's table, keyed as data.c keys runs of blocks), whole fragmented files and
 * tails (the reader's). */
int stored_begin(struct stored_data *s, const struct file_list *files, struct dedup_table *blocks,
		 struct data_reader *r, struct fragment_entry **frags, uint32_t *count,
		 uint32_t *cap, struct sq_error *err);

/* content.h for a stored file: its bytes decoded from the image (reader thread). */
int stored_open(struct stored_data *s, const struct tree_inode *n, struct content *c,
		struct sq_error *err);
/* Like pread on the file's bytes: the bytes read (fewer at its end), or -1 with errno set. */
ssize_t stored_pread(struct stored_data *s, const struct tree_inode *n, void *buf, size_t len,
		     uint64_t offset);

/* Writer thread: do the blocks of a (just written) and of the stored file b decode to the same
 * bytes? squashfs-tools' compressor may have stored the same data differently. 1 yes, 0 no,
 * -1 error. */
int stored_same_blocks(struct stored_data *s, const struct file_data *a,
		       const struct file_data *b, struct sq_error *err);

#endif
