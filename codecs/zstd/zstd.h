/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zstd.h — public entry points of our own zstd codec (RFC 8878): one-shot frame decode/encode.
 *
 * No squashfs knowledge here: codecs/zstd.c adapts this to codecs/codec.h. Every function is
 * safe on hostile input: it never reads past src+src_len nor writes past dst+dst_cap. */
#ifndef SQ_ZSTD_H
#define SQ_ZSTD_H

#include <stddef.h>
#include <stdint.h>

/* Status codes: 0 is success, each failure a distinct negative value with a message from
 * zs_error_string(). Decoder-specific codes are listed after the generic ones. */
enum zs_status {
	ZS_OK = 0,
	ZS_ERR_ALLOC = -1,        /* out of memory */
	ZS_ERR_PARAM = -2,        /* invalid argument (level out of range, NULL buffer) */
	ZS_ERR_DST_TOO_SMALL = -3,/* output does not fit in dst_cap */
	ZS_ERR_SRC_TRUNCATED = -4,/* input ends inside a frame */
	/* Decoder errors: -10 and below (messages in codecs/zstd/common/errors.c). */
	ZS_ERR_BAD_MAGIC = -10,       /* not a zstd or skippable frame */
	ZS_ERR_FRAME_HEADER = -11,    /* reserved frame header bit set */
	ZS_ERR_WINDOW_TOO_LARGE = -12,/* window (or single-segment content size) over max_window */
	ZS_ERR_DICTIONARY = -13,      /* frame needs a dictionary (unsupported) */
	ZS_ERR_BLOCK_TYPE = -14,      /* reserved block type */
	ZS_ERR_BLOCK_SIZE = -15,      /* block larger than min(window, 128 KiB) */
	ZS_ERR_LITERALS_HEADER = -16, /* literals section header or sizes inconsistent */
	ZS_ERR_HUFFMAN_TABLE = -17,   /* invalid Huffman tree description */
	ZS_ERR_HUFFMAN_STREAM = -18,  /* Huffman stream corrupt or not exactly consumed */
	ZS_ERR_NO_HUFFMAN_TABLE = -19,/* treeless literals without a previous table */
	ZS_ERR_FSE_TABLE = -20,       /* invalid FSE table description */
	ZS_ERR_SEQ_HEADER = -21,      /* sequences header: reserved bits, bad RLE symbol, trailing bytes */
	ZS_ERR_NO_SEQ_TABLE = -22,    /* repeat mode without a previous table */
	ZS_ERR_SEQ_STREAM = -23,      /* sequence bitstream corrupt or not exactly consumed */
	ZS_ERR_OFFSET = -24,          /* offset 0, or before the frame start, or beyond the window */
	ZS_ERR_LITERAL_LENGTH = -25,  /* sequences use more literals than decoded */
	ZS_ERR_CONTENT_SIZE = -26,    /* decoded size differs from Frame_Content_Size */
	ZS_ERR_CHECKSUM = -27,        /* content checksum mismatch */
	ZS_ERR_OFFSET_CODE = -28,     /* offset code above 31 */
};

const char *zs_error_string(int status);

/* ---- Decoding ---- */

typedef struct zs_dctx zs_dctx;

/* A reusable decoding context (tables, scratch). NULL on allocation failure. */
zs_dctx *zs_dctx_new(void);
void zs_dctx_free(zs_dctx *dctx);

/* Decode every frame in src[0..src_len) (zstd frames and skippable frames, concatenated) into
 * dst[0..dst_cap). A frame whose window (or, when single-segment, content size) exceeds
 * max_window is refused (pass 0 for no limit). Returns the number of bytes written (>= 0), or a
 * negative zs_status. On failure dst holds unspecified bytes; dctx stays reusable. */
ptrdiff_t zs_decompress(zs_dctx *dctx, const void *src, size_t src_len, void *dst, size_t dst_cap,
			size_t max_window);

/* ---- Encoding ---- */

#define ZS_MIN_LEVEL 1
#define ZS_MAX_LEVEL 22

typedef struct zs_cctx zs_cctx;

/* A reusable compression context for one level and inputs of at most max_input bytes.
 * All memory is allocated here; zs_compress allocates nothing. NULL on failure. */
zs_cctx *zs_cctx_new(int level, size_t max_input);
void zs_cctx_free(zs_cctx *cctx);

/* The most zs_compress can write for len input bytes (raw blocks plus headers). */
size_t zs_compress_bound(size_t len);

/* Compress src[0..src_len) (src_len <= max_input) into one single-segment frame with the
 * content size and no dictionary; a content checksum only if checksum != 0. Deterministic: the
 * same input, level and flag give the same bytes. Returns the frame size or a negative
 * zs_status (ZS_ERR_DST_TOO_SMALL when dst_cap is too small). */
ptrdiff_t zs_compress(zs_cctx *cctx, const void *src, size_t src_len, void *dst, size_t dst_cap,
		      int checksum);

#endif
