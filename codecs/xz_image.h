/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_image.h — internal to codecs/: what the xz codec keeps in an image (the options block and
 * its listing), shared by the liblzma codec (xz.c) and the decode-only one a build without
 * liblzma reads xz images with (xz_image.c, our own decoder). */
#ifndef SQ_CODECS_XZ_IMAGE_H
#define SQ_CODECS_XZ_IMAGE_H

#include "codecs/codec_impl.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define XZ_OPTIONS_LEN 8u
#define XZ_MIN_DICT 8192u
/* Bit order of the on-disk filter mask (squashfs-tools prints them in this order). */
#define XZ_FILTER_COUNT 6u
#define XZ_FILTER_ALL ((UINT32_C(1) << XZ_FILTER_COUNT) - 1)
extern const char *const xz_filter_names[XZ_FILTER_COUNT];

struct xz_opts {
	uint32_t block_size;
	uint32_t dict_size;    /* bytes; 0 = not given (block size, or dict_percent) */
	double dict_percent;   /* 0 = not given */
	uint32_t filters;
	uint8_t from_image;
};
_Static_assert(sizeof(struct xz_opts) <= CODEC_OPTS_STORAGE, "xz options fit");

/* The kernel and liblzma can only describe dictionaries of 2^n or 2^n + 2^(n-1) bytes. */
int xz_dict_storable(uint32_t size);
uint32_t xz_effective_dict(const struct xz_opts *o);

void xz_init_options(struct codec_opts *opts, uint32_t block_size);
size_t xz_write_options(const struct codec_opts *opts, uint8_t *buf);
int xz_read_options(struct codec_opts *opts, const uint8_t *buf, size_t len, uint32_t block_size,
		    char *err, size_t errlen);
void xz_print_options(const struct codec_opts *opts, FILE *out);

struct xzd_ctx;
/* Our decoder on one block, made in *own on first use: XZD_OK with *out_len, XZD_ERROR with
 * *why, or XZD_NOT_MINE for what it leaves to liblzma (codecs/xz/xz_dec.h). */
int xz_own_decode(struct xzd_ctx **own, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
		  size_t *out_len, const char **why);

/* Reads xz images, writes none (supported == 0): registry.c's xz entry when built without
 * liblzma. Decodes what our decoder implements (one block, LZMA2 alone: every image
 * squashfs-tools writes without -Xbcj). */
extern const struct codec codec_xz_decode_only;

#endif
