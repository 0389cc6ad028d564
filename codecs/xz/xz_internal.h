/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_internal.h — what the xz container, the LZMA2 chunk layer and the LZMA decoder share. */
#ifndef CODECS_XZ_XZ_INTERNAL_H
#define CODECS_XZ_XZ_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* Tables built once per context (no global state): slice-by-8 CRC32, byte-wise CRC64. */
struct xz_crc {
	uint32_t t32[8][256];
	uint64_t t64[256];
};

void xz_crc_init(struct xz_crc *c);
uint32_t xz_crc32(const struct xz_crc *c, const uint8_t *p, size_t n);
uint64_t xz_crc64(const struct xz_crc *c, const uint8_t *p, size_t n);

/* LZMA's adaptive probabilities, 11-bit, all uint16_t so a reset can treat them as one array. */
struct lzma_len_probs {
	uint16_t choice, choice2;
	uint16_t low[16][8], mid[16][8], high[256];
};

struct lzma_probs {
	uint16_t is_match[12][16];
	uint16_t is_rep[12], is_rep0[12], is_rep1[12], is_rep2[12];
	uint16_t is_rep0_long[12][16];
	uint16_t dist_slot[4][64];
	uint16_t dist_special[115];  /* slots 4-13: reverse bit trees, based at dist - slot */
	uint16_t dist_align[16];
	struct lzma_len_probs match_len, rep_len;
	uint16_t literal[16][0x300]; /* lc + lp <= 4 in LZMA2 */
};

struct lzma_dec {
	struct lzma_probs probs;
	uint32_t state;
	uint32_t rep[4];
	unsigned lc, lp, pb;
};

/* Everything a decode needs that is worth keeping between blocks. */
struct xzd_ctx {
	struct xz_crc crc;
	struct lzma_dec lzma;
};

enum { XZ_ERR_CORRUPT = -1, XZ_ERR_TRUNCATED = -2, XZ_ERR_OVERFLOW = -3, XZ_ERR_TRAILING = -4 };

/* Sets lc/lp/pb from an LZMA2 properties byte and resets the state; -1 if invalid. */
int lzma_dec_props(struct lzma_dec *d, unsigned byte);
void lzma_dec_reset(struct lzma_dec *d);

/* One LZMA chunk: in[0..in_len) decodes to out[pos..end); matches may reach back to base (the
 * last dictionary reset). out[end..cap) may be scribbled on. 0 or XZ_ERR_CORRUPT. */
int lzma_dec_chunk(struct lzma_dec *d, const uint8_t *in, size_t in_len, uint8_t *out,
		   size_t base, size_t pos, size_t end, size_t cap);

/* A whole LZMA2 stream from in[0..in_len): *in_used and *out_len on 0, else an XZ_ERR_*. */
int lzma2_decode(struct lzma_dec *d, const uint8_t *in, size_t in_len, size_t *in_used,
		 uint8_t *out, size_t cap, size_t *out_len);

#endif
