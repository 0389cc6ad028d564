/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_tree.c — binary-tree match finder: one tree of suffixes per 3-byte hash, newest at the
 * root, so a search meets candidates nearest first and finds every length at its shortest
 * distance; inserting the new position re-roots the tree at it on the way down. */
#include "config.h"
#include "codecs/lzo/match_tree.h"

#include <string.h>

#define RING_MASK ((1u << MT_RING_BITS) - 1)

_Static_assert((1u << MT_RING_BITS) > MT_MAX_DIST, "the ring holds the whole window");

void mt_reset(struct match_tree *mt, uint32_t len)
{
	/* Past the previous block and a window more: none of its entries is within reach. */
	uint64_t next = (uint64_t)mt->base + mt->last_len + MT_MAX_DIST + 1;
	if (mt->base == 0 || next + len >= UINT32_MAX) {
		memset(mt->head, 0, sizeof mt->head);
		next = MT_MAX_DIST + 1;
	}
	mt->base = (uint32_t)next;
	mt->last_len = len;
}

static uint32_t hash_bits(uint32_t v)
{
	return (v * 2654435761u) >> (32 - MT_HASH_BITS);
}

static uint32_t load32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* The first 3 bytes of a load32() value: its keys need not be in any particular byte order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define FIRST3 0xffffff00u
#else
#define FIRST3 0x00ffffffu
#endif

void mt_short(struct match_tree *mt, const uint8_t *buf, uint32_t pos, uint32_t end,
	      uint32_t *d2, uint32_t *d3)
{
	uint16_t two, at = (uint16_t)pos;
	memcpy(&two, buf + pos, 2);
	/* Low 16 bits: a stale slot may name any earlier position, so the distance is kept only
	 * when it lies in the block and the window and the bytes there agree. */
	uint32_t d = (uint16_t)(at - mt->pair[two]);
	mt->pair[two] = at;
	*d2 = d != 0 && d <= pos && d <= MT_MAX_DIST && memcmp(buf + pos - d, buf + pos, 2) == 0 ? d : 0;
	*d3 = 0;
	if (pos + 4 > end)
		return; /* the tree and its 3-byte table start 4 bytes before the end */
	uint32_t key = load32(buf + pos) & FIRST3;
	uint16_t *slot = &mt->head3[hash_bits(key)];
	d = (uint16_t)(at - *slot);
	*slot = at;
	if (d != 0 && d <= pos && d <= MT_MAX_DIST && (load32(buf + (pos - d)) & FIRST3) == key)
		*d3 = d;
}

void mt_prefetch(const struct match_tree *mt, const uint8_t *buf, uint32_t pos)
{
#if defined(__GNUC__) || defined(__clang__)
	uint32_t v = load32(buf + pos);
	uint16_t two;
	memcpy(&two, buf + pos, 2);
	__builtin_prefetch(&mt->head[hash_bits(v)], 1);
	__builtin_prefetch(&mt->head3[hash_bits(v & FIRST3)], 1);
	__builtin_prefetch(&mt->pair[two], 1);
#else
	(void)mt;
	(void)buf;
	(void)pos;
#endif
}

/* Common prefix of a and b from known (both agree on their first known bytes), up to limit. */
static inline uint32_t common_len(const uint8_t *a, const uint8_t *b, uint32_t known, uint32_t limit)
{
	uint32_t n = known;
	while (n + 8 <= limit) {
		uint64_t x, y;
		memcpy(&x, a + n, 8);
		memcpy(&y, b + n, 8);
		if (x != y)
			break;
		n += 8;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (n + 8 <= limit) {
		uint64_t x, y;
		memcpy(&x, a + n, 8);
		memcpy(&y, b + n, 8);
		return n + (uint32_t)(__builtin_ctzll(x ^ y) >> 3);
	}
#endif
	while (n < limit && a[n] == b[n])
		n++;
	return n;
}

/* The position a link from the node at owner leads to; 0 (no child) leads a full ring back,
 * beyond every window. */
static inline uint32_t follow(uint32_t owner, uint16_t link)
{
	return owner - ((uint32_t)(uint16_t)(link - 1) + 1);
}

unsigned mt_insert(struct match_tree *mt, const uint8_t *buf, uint32_t pos, uint32_t end,
		   struct mt_match *out)
{
	uint32_t *head = &mt->head[hash_bits(load32(buf + pos))];
	uint32_t at = pos + mt->base;
	uint32_t cur = *head;
	*head = at;
	/* Where the next candidate smaller (larger) than the new suffix hangs, the node that link
	 * belongs to, and how many bytes the new suffix shares with the last one hung there. */
	uint16_t *smaller = &mt->child[2 * (at & RING_MASK)];
	uint16_t *larger = smaller + 1;
	uint32_t own_smaller = at, own_larger = at;
	uint32_t len_smaller = 0, len_larger = 0;
	uint32_t limit = end - pos < mt->nice ? end - pos : mt->nice;
	uint32_t best = 3;
	unsigned count = 0, steps = mt->depth;
	const uint8_t *p = buf + pos;

	while (at - cur <= MT_MAX_DIST && steps-- > 0) {
		uint16_t *node = &mt->child[2 * (cur & RING_MASK)];
		const uint8_t *q = buf + (cur - mt->base);
		uint32_t known = len_smaller < len_larger ? len_smaller : len_larger;
		uint32_t len = common_len(q, p, known, limit);
		if (len > best) {
			best = len;
			if (out != NULL) {
				out[count].len = len;
				out[count].dist = at - cur;
				count++;
			}
		}
		if (len == limit) {
			/* Equal as far as we look: cur's subtrees become the new node's, cur leaves.
			 * A subtree further than the window from its new owner is out of every later
			 * search's reach, so it is dropped rather than linked. */
			uint32_t d0 = own_smaller - follow(cur, node[0]);
			uint32_t d1 = own_larger - follow(cur, node[1]);
			*smaller = (uint16_t)(d0 <= MT_MAX_DIST ? d0 : 0);
			*larger = (uint16_t)(d1 <= MT_MAX_DIST ? d1 : 0);
			if (out != NULL && len == mt->nice && count > 0)
				out[count - 1].len = common_len(q, p, len, end - pos);
			return count;
		}
		if (q[len] < p[len]) {
			*smaller = (uint16_t)(own_smaller - cur);
			smaller = &node[1];
			own_smaller = cur;
			len_smaller = len;
			cur = follow(cur, node[1]);
		} else {
			*larger = (uint16_t)(own_larger - cur);
			larger = &node[0];
			own_larger = cur;
			len_larger = len;
			cur = follow(cur, node[0]);
		}
	}
	*smaller = 0;
	*larger = 0;
	return count;
}
