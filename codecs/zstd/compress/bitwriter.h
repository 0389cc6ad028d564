/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* bitwriter.h — the little-endian forward bit writer behind zstd's backward-read FSE/Huffman streams. */
#ifndef SQ_ZSTD_COMPRESS_BITWRITER_H
#define SQ_ZSTD_COMPRESS_BITWRITER_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/common/mem.h"

/* Bits accumulate low-first in acc; full bytes go out on flush. A write past end sets
 * overflow instead of touching memory, so callers check once at the end. */
struct zs_bitw {
	uint8_t *start, *ptr, *end;
	uint64_t acc;
	unsigned nbits;
	int overflow;
};

static inline void zs_bitw_init(struct zs_bitw *w, uint8_t *dst, size_t cap)
{
	w->start = w->ptr = dst;
	w->end = dst + cap;
	w->acc = 0;
	w->nbits = 0;
	w->overflow = 0;
}

/* value must fit in nbits; at most 56 bits may be pending between flushes. */
static inline void zs_bitw_put(struct zs_bitw *w, uint64_t value, unsigned nbits)
{
	w->acc |= value << w->nbits;
	w->nbits += nbits;
}

static inline void zs_bitw_flush(struct zs_bitw *w)
{
	unsigned bytes = w->nbits >> 3;

	if ((size_t)(w->end - w->ptr) >= 8) {
		zs_write64(w->ptr, w->acc);
	} else {
		if ((size_t)(w->end - w->ptr) < bytes) {
			w->overflow = 1;
			w->ptr = w->end;
			w->acc = 0;
			w->nbits = 0;
			return;
		}
		for (unsigned i = 0; i < bytes; i++)
			w->ptr[i] = (uint8_t)(w->acc >> (8 * i));
	}
	w->ptr += bytes;
	w->acc = bytes == 8 ? 0 : w->acc >> (8 * bytes);
	w->nbits &= 7;
}

/* A flush for callers that checked the room beforehand (8 bytes past ptr are writable) and
 * keep at most 63 bits pending. */
static inline void zs_bitw_flush_unchecked(struct zs_bitw *w)
{
	unsigned bytes = w->nbits >> 3;

	zs_write64(w->ptr, w->acc);
	w->ptr += bytes;
	w->acc >>= 8 * bytes;
	w->nbits &= 7;
}

/* Appends the end marker (a 1 bit, which the reader uses to find the last bit) and pads to a
 * byte. Returns the stream size, or 0 when it did not fit. */
static inline size_t zs_bitw_close(struct zs_bitw *w)
{
	zs_bitw_put(w, 1, 1);
	zs_bitw_flush(w);
	if (w->nbits > 0) {
		if (w->ptr >= w->end) {
			w->overflow = 1;
		} else {
			*w->ptr++ = (uint8_t)w->acc;
		}
		w->nbits = 0;
		w->acc = 0;
	}
	return w->overflow ? 0 : (size_t)(w->ptr - w->start);
}

#endif
