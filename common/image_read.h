/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* image_read.h — an opened squashfs image: bounds-checked raw reads and block decompression. */
#ifndef SQ_COMMON_IMAGE_READ_H
#define SQ_COMMON_IMAGE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/util/error.h"
#include "common/super.h"

/* The image bytes come from a file descriptor (pread, so several threads may share it) or
 * from a caller-owned memory buffer (fuzzing, tests). Positions are relative to the
 * superblock, i.e. after -offset. */
struct sqfs_image {
	int fd;               /* -1 when reading from mem */
	const uint8_t *mem;   /* non-NULL when reading from memory */
	uint64_t base;        /* -offset: where the superblock sits in the file */
	uint64_t avail;       /* bytes present after base (file size - base) */
	struct sqfs_super sb;
	const struct codec *codec;
	struct codec_opts opts;
	int has_options_block;
};

/* Per-thread decompression state: the codec state and a buffer for one compressed block. */
struct sqfs_decoder {
	const struct sqfs_image *img;
	void *state;
	uint8_t *cbuf;   /* compressed bytes of the block being decoded */
	size_t cbuf_cap; /* >= block size */
};

/* Open the image in fd at base offset: read and check the superblock (a short file is reported
 * as truncated), find the codec (unknown or built-out compressors are refused by name) and read
 * its options block. fd stays owned by the caller. 0 or -1 with err set. */
int sqfs_image_open_fd(struct sqfs_image *img, int fd, uint64_t base, struct sq_error *err);

/* The same over len bytes at mem (kept by the caller while img is used). */
int sqfs_image_open_mem(struct sqfs_image *img, const uint8_t *mem, size_t len, struct sq_error *err);

/* Read len bytes at image position pos into buf. Positions past bytes_used or past the end of
 * the file fail ("truncated"). what names the structure in the message. */
int sqfs_image_read(const struct sqfs_image *img, uint64_t pos, void *buf, size_t len,
		    const char *what, struct sq_error *err);

/* Decoder lifetime; one per thread. 0 or -1 (SQ_ERR_NOMEM). */
int sqfs_decoder_init(struct sqfs_decoder *dec, const struct sqfs_image *img, struct sq_error *err);
void sqfs_decoder_free(struct sqfs_decoder *dec);

/* Read a stored block of disk_size bytes at pos and decode it into out (cap bytes). When
 * compressed is 0 the block is copied. Returns the decoded length via *out_len; a block larger
 * than cap, or that does not decompress, fails naming what. */
int sqfs_decoder_read_block(struct sqfs_decoder *dec, uint64_t pos, uint32_t disk_size, int compressed,
			    uint8_t *out, size_t cap, size_t *out_len, const char *what,
			    struct sq_error *err);

/* Decode a data or fragment block whose size word (format.h SQFS_DATA_*) is word into out,
 * which must hold block_size bytes, and check it decodes to exactly expect bytes. */
int sqfs_decoder_read_data(struct sqfs_decoder *dec, uint64_t pos, uint32_t word, uint8_t *out,
			   size_t expect, const char *what, struct sq_error *err);

#endif
