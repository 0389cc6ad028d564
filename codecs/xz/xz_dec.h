/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_dec.h — our own decoder of the .xz streams squashfs blocks are: one stream, one block, LZMA2
 * alone, whole input and output in memory. Needs no library. */
#ifndef CODECS_XZ_XZ_DEC_H
#define CODECS_XZ_XZ_DEC_H

#include <stddef.h>
#include <stdint.h>

/* NOT_MINE: a valid-looking stream using what this decoder leaves to liblzma (SHA-256 or an
 * unknown check, several blocks, other filters, reserved option bits); the caller may retry. */
enum xzd_result { XZD_OK = 0, XZD_NOT_MINE = 1, XZD_ERROR = -1 };

struct xzd_ctx;

struct xzd_ctx *xzd_new(void);
void xzd_free(struct xzd_ctx *ctx);

/* Decodes src[0..len) into dst[0..cap): XZD_OK with *out_len, XZD_ERROR with *why (a
 * one-line reason), or XZD_NOT_MINE. dst beyond *out_len may be overwritten. */
int xzd_decode(struct xzd_ctx *ctx, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
	       size_t *out_len, const char **why);

#endif
