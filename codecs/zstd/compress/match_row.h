/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_row.h — the lazy parsers' match table: hash buckets as rows of tagged recent positions. */
#ifndef SQ_ZSTD_COMPRESS_MATCH_ROW_H
#define SQ_ZSTD_COMPRESS_MATCH_ROW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codecs/zstd/common/mem.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__GNUC__)
#define ZS_ROW_INLINE static inline __attribute__((always_inline))
#else
#define ZS_ROW_INLINE static inline
#endif

/* Why rows and not hash chains: a chain walk loads one chain link and one stretch of the input
 * per candidate, each a cache miss once the tables outgrow the L2 cache (1 MiB frames). A row
 * keeps a bucket's last positions together in 64-256 bytes with one tag byte each (8 more
 * bits of the hash), so one or two cache lines give every candidate, the tags rule out nearly
 * all wrong ones without touching the input, and the line can be fetched ahead of use.
 *
 * A row of RB bytes (64, 128, 192 or 256; a constant where the functions are inlined): RB / 4 tag
 * bytes (one per slot, then the index of the slot written last), then 3 * RB / 16 slots of
 * 4-byte positions. Slots are written going down, so reading from the last-written slot
 * upwards visits positions newest first. Positions are stored + base (the context's
 * idx_base): those of earlier frames fall outside [0, pos) and end a search.
 *
 * Nothing is cleared between frames: each frame salts the hash differently, so the strings of
 * the frame before land in other rows under other tags, and an old slot's tag equals a new
 * one's by chance only (1 in 256), where it ends the search as any older slot does. Without
 * the salt, frames of similar content (a tar of sources) found old tags of their common
 * strings in every row; a frame mark checked at each insert and lookup instead cost 6
 * instructions a position and a mispredicted branch at each row's first use in a frame. */

#define ZS_ROW_SLOTS(rb) (3 * (rb) / 16)
#define ZS_ROW_TAGS(rb) ((rb) / 4)

struct zs_rows {
	uint8_t *first;       /* row 0, 64-byte aligned */
	unsigned shift;       /* 64 - log2(rows): the row is hash >> shift (tables hold 2 rows or more) */
	uint32_t base;
	uint64_t salt;        /* xored into the hashes: the frame's own rows and tags */
};

/* Row bytes for a search of 2^search_log candidates: enough slots for them, at most 48. 32
 * candidates take 36 slots in 3 lines: 4 (48 slots) cost level 9 at 128 KiB 5-10 % of its
 * speed for 0.03-0.05 % in size. */
static inline unsigned zs_row_bytes(unsigned search_log)
{
	return search_log <= 3 ? 64 : search_log == 4 ? 128 : search_log == 5 ? 192 : 256;
}

/* Rows of rb bytes in the table at mem (from zs_table_alloc): 2^table_log bytes from the first
 * 64-byte boundary, for the frame whose positions are stored + base. */
static inline void zs_rows_init(struct zs_rows *r, void *mem, unsigned table_log, unsigned rb,
				uint32_t base)
{
	uintptr_t a = (uintptr_t)mem;
	unsigned rb_log = rb == 64 ? 6 : rb == 128 ? 7 : 8; /* 192-byte rows: as many as of 256 */
	/* At least 2 rows: frame.c sizes tables of 512 bytes and more (a shift of 64 is undefined). */
	unsigned row_log = table_log > rb_log ? table_log - rb_log : 1;

	r->first = (uint8_t *)mem + (((a + 63) & ~(uintptr_t)63) - a);
	r->shift = 64 - row_log;
	r->base = base;
	/* Every frame has its own base: mixed, it gives every bit of the hash a new flip. */
	uint64_t x = (uint64_t)base * 0xD6E8FEB86659FD93ull;

	r->salt = (x ^ (x >> 32)) * 0x9E3779B97F4A7C15ull;
}

/* 64-bit hash of the first min_match bytes at p (8 readable), salted for the frame: the top
 * bits choose the row, bits 8 * min_match - 8 and the 7 above them the tag. A bit of a product
 * depends only on the bits of v at and below it, so the bytes sit at the bottom of v and the
 * tag just above the last of them: with the 5 bytes at the top of v (as before), bits 24-31
 * saw the first byte only, and on text and misc most of a row's slots passed the tag to fail
 * on the candidate's bytes, a cache miss each. */
ZS_ROW_INLINE uint64_t zs_row_hash(const struct zs_rows *r, const uint8_t *p, unsigned min_match)
{
	uint64_t v = min_match >= 5 ? zs_read64(p) & (~0ull >> (64 - 8 * min_match)) : zs_read32(p);

	return (v * 0x9E3779B97F4A7C15ull) ^ r->salt;
}

ZS_ROW_INLINE uint8_t *zs_row_of(const struct zs_rows *r, uint64_t h, unsigned rb)
{
	return r->first + (size_t)(h >> r->shift) * rb;
}

ZS_ROW_INLINE uint8_t zs_row_tag(uint64_t h, unsigned min_match)
{
	return (uint8_t)(h >> (min_match >= 5 ? 8 * min_match - 8 : 24));
}

ZS_ROW_INLINE void zs_row_prefetch(const uint8_t *row, unsigned rb)
{
#if defined(__GNUC__)
	for (unsigned i = 0; i < rb; i += 64)
		__builtin_prefetch(row + i);
#else
	(void)row;
	(void)rb;
#endif
}

/* The slot written last (a table left by another layout may hold anything there). */
ZS_ROW_INLINE unsigned zs_row_head(const uint8_t *row, unsigned rb)
{
	unsigned head = row[ZS_ROW_SLOTS(rb)];

	return head < ZS_ROW_SLOTS(rb) ? head : 0;
}

/* Adds position pos (of the current frame) to the row, under tag. */
ZS_ROW_INLINE void zs_row_insert(const struct zs_rows *r, uint8_t *row, uint8_t tag, size_t pos,
				 unsigned rb)
{
	unsigned head = row[ZS_ROW_SLOTS(rb)] - 1u; /* 0 (or no slot) wraps to the last slot */
	uint32_t v = (uint32_t)pos + r->base;

	head = head < ZS_ROW_SLOTS(rb) ? head : ZS_ROW_SLOTS(rb) - 1;
	row[ZS_ROW_SLOTS(rb)] = (uint8_t)head;
	row[head] = tag;
	memcpy(row + ZS_ROW_TAGS(rb) + 4 * head, &v, 4);
}

/* Bit i set when slot head + i (modulo the slots) has the tag: bit order is newest first. */
ZS_ROW_INLINE uint64_t zs_row_matches(const uint8_t *row, uint8_t tag, unsigned head,
				      unsigned rb)
{
	const unsigned slots = ZS_ROW_SLOTS(rb);
	uint64_t m = 0;

#if defined(__SSE2__)
	__m128i t = _mm_set1_epi8((char)tag);

	for (unsigned i = 0; i < slots; i += 16) {
		__m128i x = _mm_load_si128((const __m128i *)(const void *)(row + i));

		m |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, t)) << i;
	}
#else
	for (unsigned i = 0; i < slots; i++)
		m |= (uint64_t)(row[i] == tag) << i;
#endif
	uint64_t all = ((uint64_t)1 << slots) - 1;

	m &= all;
	return ((m >> head) | (m << (slots - head))) & all;
}

/* The position in slot: one of the current frame, or >= pos when the slot is older. */
ZS_ROW_INLINE uint32_t zs_row_pos(const struct zs_rows *r, const uint8_t *row, unsigned slot,
				  unsigned rb)
{
	uint32_t v;

	memcpy(&v, row + ZS_ROW_TAGS(rb) + 4 * slot, 4);
	return v - r->base;
}

#endif
