/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* image.h — the image being written: the output file, the settings that shape the image, and the
 * two calls that bracket the data stage (image_begin before data, image_finish after).
 *
 * Layout written (as squashfs-tools): superblock, compressor options block, data and fragment
 * blocks (the data stage appends these through image_out_write), inode table, directory table,
 * fragment table, export table, id table, xattr tables; then the superblock is rewritten with the
 * final offsets and the image padded to 4 KiB. */
#ifndef SQ_MKSQUASHFS_IMAGE_H
#define SQ_MKSQUASHFS_IMAGE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/util/error.h"
#include "mksquashfs/tree.h"

/* ---- Output file (output.c) ---- */

/* What a failed or interrupted run puts back once it has started changing an existing image
 * (append): the bytes found where it writes, then the file cut to its old length. */
struct image_restore {
	uint64_t super_pos;         /* file offset of the superblock */
	const uint8_t *super;       /* its SQFS_SUPER_SIZE bytes as found */
	uint64_t saved_pos;         /* file offset of the first byte the append overwrites */
	const uint8_t *saved;       /* the bytes found from there */
	size_t saved_len;
	uint64_t file_len;          /* the file's length as found */
	bool truncate;              /* a regular file (a device keeps its size) */
	const char *recovery_file;  /* removed once the image is restored; NULL: none */
};

struct image_out {
	int fd;
	char *path;
	uint64_t pos;      /* current image length: where the next append goes */
	bool created;      /* a regular file we created or truncated: removed on failure (never a
	                      device node) */
	const struct image_restore *restore; /* set while an existing image is being changed: put
	                                        back on failure instead of removing the file */
	pthread_mutex_t lock;  /* writes, closing and an interruption exclude one another (set up
	                          by the open calls, kept after closing for the signal guard) */
	bool lock_ready;
	bool finished;     /* closed after a successful run: an interruption leaves it alone */
	uint64_t base;     /* -offset: where the image starts in the file; positions are relative */
	bool keep_prefix;  /* the file had bytes before base: on failure cut back to them */
	/* -stream (output_stream.c): written in order to standard output; the final superblock
	 * is held back and written last. */
	bool stream;
	bool stream_super_set;
	uint8_t stream_super[96];
};

/* Create (truncate) the image file. */
int image_out_open(struct image_out *out, const char *path, struct sq_error *err);
/* The same with the image starting base bytes into the file: the first base bytes of an
 * existing file are kept, the rest is cut off (the file is extended with a hole if shorter). */
int image_out_open_at(struct image_out *out, const char *path, uint64_t base,
		      struct sq_error *err);
/* -stream: the image goes to standard output, in order, as squashfs-tools 4.7.3 streams it (a
 * placeholder superblock with the magic "HSQS" first, the real one after the padding). Nothing
 * can be read back or taken back: duplicate detection must be off. */
int image_out_open_stream(struct image_out *out, struct sq_error *err);
/* Open an existing image (its superblock base bytes into the file) for appending: nothing is
 * truncated, and the file is never removed. */
int image_out_open_existing(struct image_out *out, const char *path, uint64_t base,
			    struct sq_error *err);
/* Append len bytes at out->pos. A short write (full disk) is an error naming the image. */
int image_out_write(struct image_out *out, const void *buf, size_t len, struct sq_error *err);
/* Write at an absolute offset without moving pos (superblock rewrite). */
int image_out_pwrite(struct image_out *out, const void *buf, size_t len, uint64_t offset,
		     struct sq_error *err);
/* Read back bytes already written (duplicate detection compares stored blocks). */
int image_out_pread(struct image_out *out, void *buf, size_t len, uint64_t offset,
		    struct sq_error *err);
/* Drop everything after len (a duplicate's blocks, once found identical, are taken back). */
int image_out_truncate(struct image_out *out, uint64_t len, struct sq_error *err);
/* Close. With success == false the file is removed (or, with out->restore set, the existing
 * image is put back as it was found), so no half-written image is left that could pass for a
 * valid one. Returns -1 if flushing/closing fails (then the same happens). On success the
 * recovery file of out->restore, no longer needed, is removed. */
int image_out_close(struct image_out *out, bool success, struct sq_error *err);
/* Put an existing image back as r describes (the saved bytes, then the superblock, then the old
 * length), synced; then remove r->recovery_file. 0, or -1 with errno set. */
int image_restore_apply(int fd, const struct image_restore *r);

/* Write all of buf at offset (pwrite, retrying EINTR and short writes). 0, or -1 with errno set. */
int image_pwrite_full(int fd, const void *buf, size_t len, uint64_t offset);
/* For the thread that handles SIGINT/SIGTERM/SIGHUP: unless the image is finished, do what a
 * failed close does and keep every other writer out for good, and return true (the process is
 * to end). False: the image was finished (and any recovery file removed) before the signal;
 * nothing was touched and the run may complete. */
bool image_out_interrupt(struct image_out *out);

/* ---- What shapes the image (filled by option parsing) ---- */

struct image_settings {
	const struct codec *codec;
	struct codec_opts codec_opts;
	uint32_t block_size;          /* power of two, 4 KiB .. 1 MiB */
	uint32_t mkfs_time;           /* superblock modification time */
	bool uncompressed_inodes;     /* -noI: inode table (and directory table, as squashfs-tools) */
	bool uncompressed_data;       /* -noD */
	bool uncompressed_fragments;  /* -noF */
	bool uncompressed_xattrs;     /* -noX */
	bool uncompressed_ids;        /* -noId (squashfs-tools 4.6 option): ids stored raw; the
	                                 superblock flag is set only without -noI, as 4.5.1 sets
	                                 none under -noI */
	bool no_fragments;            /* -no-fragments */
	bool always_fragments;        /* -always-use-fragments */
	bool duplicates;              /* duplicate detection on (the default; flag DUPLICATES) */
	bool exportable;              /* export table (the default; -no-exports clears) */
	bool no_xattrs;               /* -no-xattrs: no xattr table, flag NO_XATTRS */
	bool pad;                     /* pad to 4 KiB (default; -nopad clears) */
};

/* A fragment block already written by the data stage. */
struct fragment_entry {
	uint64_t start;     /* image offset */
	uint32_t size_word; /* SQFS_DATA_UNCOMPRESSED | stored size */
};

/* Figures for the end-of-run summary (like squashfs-tools'). */
struct image_stats {
	uint64_t bytes_used;          /* image size before padding */
	uint64_t inode_table_bytes;   /* stored */
	uint64_t inode_table_raw;     /* uncompressed */
	uint64_t dir_table_bytes;
	uint64_t dir_table_raw;
	uint64_t fragment_table_bytes;
	uint64_t export_table_bytes;
	uint64_t id_table_bytes;
	uint64_t xattr_table_bytes;
	uint64_t xattr_table_raw;
	uint32_t inode_count;
	uint32_t file_count, dir_count, symlink_count, blkdev_count, chrdev_count, fifo_count,
		socket_count;
	uint32_t id_count;
	uint32_t xattr_id_count;
	uint32_t fragment_count;
};

/* Write a zeroed superblock and the compressor options block (when the codec writes one); on
 * return out->pos is where data starts. */
int image_begin(struct image_out *out, const struct image_settings *settings,
		struct sq_error *err);

/* After every data and fragment block is written: assign inode numbers, write the metadata tables
 * and the final superblock, pad. codec_state is a state of settings->codec for metadata blocks
 * (from codec->state_new with max_block 8192 or more). Fills *stats. */
int image_finish(struct image_out *out, const struct image_settings *settings, struct tree *tree,
		 const struct fragment_entry *fragments, uint32_t fragment_count, void *codec_state,
		 struct image_stats *stats, struct sq_error *err);

#endif
