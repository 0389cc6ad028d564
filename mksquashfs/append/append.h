/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* append.h — appending to an existing image (squashfs-tools' default when the image exists):
 * reading it into the same tree as the sources, the settings it imposes, the recovery file, and
 * `-recover`.
 *
 * Layout (as squashfs-tools): the old data blocks and fragment blocks stay where they are; new
 * data is written from where the old inode table started (so the old metadata tables are
 * overwritten), then every table is written afresh from the merged tree. Before the first byte
 * of the image changes, the bytes that will be overwritten are saved in memory and in the
 * recovery file, and the superblock's magic is cleared so a half-written image never mounts. */
#ifndef SQ_MKSQUASHFS_APPEND_H
#define SQ_MKSQUASHFS_APPEND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/super.h"
#include "common/util/error.h"
#include "mksquashfs/image.h"
#include "mksquashfs/options.h"
#include "mksquashfs/tree.h"

struct append_image {
	const char *path;            /* the image, for messages */
	int fd;                      /* the image file, read-write (owned by the image_out) */
	uint64_t base;               /* file offset of the superblock (-offset) */
	uint64_t file_len;           /* the file's length as found (a device: its size) */
	bool regular;                /* a regular file (may be truncated) */
	struct sqfs_super sb;        /* the superblock as found */
	uint8_t sb_raw[SQFS_SUPER_SIZE];
	const struct codec *codec;
	struct codec_opts codec_opts;
	uint64_t data_start;         /* image position of the first data block */
	uint64_t data_end;           /* where the old data ends (the old inode table): new data and
	                                tables go from here */
	uint8_t *saved;              /* the file's bytes from base + data_end as found, up to the old
	                                end of the image and its padding: what appending overwrites */
	size_t saved_len;
	uint64_t fingerprint;        /* xxh64 of the last fingerprint_len data bytes before data_end:
	                                tells -recover an append to this image from another image */
	uint32_t fingerprint_len;
	struct fragment_entry *frags;  /* the image's fragment table */
	uint32_t frag_count;
	struct tree_inode *root;     /* its tree (TREE_EXISTING; regular files TREE_STORED with their
	                                block lists), until append_base hands it over */
	uint32_t inodes_read;
	uint64_t file_bytes;         /* the sizes of its files (for the summary) */
	struct image_restore restore;  /* what a failure puts back (image.h) */
	char *recovery_file;         /* the recovery file written, removed after success */
};

/* Read the image in fd (superblock at base) into a: superblock, fragment table, the whole tree
 * (every name, owner, mode, time, xattr, hard link and block list), and the bytes appending will
 * overwrite. Nothing is written. A file that is not a squashfs 4.0 image, or a corrupt one, is
 * refused with a one-line message (no superblock: "use -noappend to overwrite it").
 * On failure append_free still frees what was read. The inodes go in tree's arena (spillable):
 * append_free must run before tree_free(tree). */
int append_read(struct append_image *a, const char *path, int fd, uint64_t base,
		struct tree *tree, struct sq_error *err);

/* The settings the existing image imposes on the run: its compressor and compressor options,
 * block size and format flags (compression of each part, fragments, duplicates, exports,
 * xattrs or not). A -comp or -b that differs from the image's is an error; the other layout
 * options are ignored (as squashfs-tools does). s starts as o->image. */
int append_settings(const struct append_image *a, const struct mksq_options *o,
		    struct image_settings *s, struct sq_error *err);

/* What the new root starts with, as a directory inode whose entries the source scan moves into
 * the new root: the old root's entries, or with root_becomes the old root itself under that
 * name. The tree moves out of a (a->root becomes NULL); the caller owns the result. */
struct tree_inode *append_base(struct append_image *a, const char *root_becomes,
			       struct sq_error *err);

/* Just before the data stage: write the recovery file (unless -no-recovery), arm out->restore,
 * clear the superblock magic and point out->pos at the old data end. Messages go to msg unless
 * NULL. */
int append_protect(struct append_image *a, const struct mksq_options *o, struct image_out *out,
		   FILE *msg, struct sq_error *err);

/* After the new superblock is written: cut what the old image left beyond the new end. */
int append_finish(struct append_image *a, struct image_out *out, struct sq_error *err);

/* After the image is closed successfully (which removed the recovery file, image.h). */
void append_forget_recovery(struct append_image *a);

void append_free(struct append_image *a);

/* `mksquashfs dummy IMAGE -recover FILE`: put IMAGE back as the recovery file describes (its
 * bytes up to its old length), when IMAGE is that image or an append to it. */
int append_recover(const struct mksq_options *o, FILE *msg, struct sq_error *err);

#endif
