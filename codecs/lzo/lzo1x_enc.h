/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzo1x_enc.h — our LZO1X encoder: an optimal parse of each block over the format's exact byte
 * costs, writing streams that liblzo2's and the kernel's lzo1x decoders read. */
#ifndef SQ_CODECS_LZO_LZO1X_ENC_H
#define SQ_CODECS_LZO_LZO1X_ENC_H

#include <stddef.h>
#include <stdint.h>

struct lzo1x_enc;

/* An encoder for blocks of up to max_block bytes (at most 2^26) at lzo1x_999's level 8 (and
 * below: the default) or 9 (9 and above: slower, smaller); NULL when out of memory. */
struct lzo1x_enc *lzo1x_enc_new(uint32_t max_block, int level);
void lzo1x_enc_free(struct lzo1x_enc *enc);

/* Compresses src[0, len) (1 <= len <= max_block) into dst: the stream's length, or 0 when it
 * would be longer than cap. */
size_t lzo1x_enc_compress(struct lzo1x_enc *enc, const uint8_t *src, uint32_t len, uint8_t *dst,
			  size_t cap);

#endif
