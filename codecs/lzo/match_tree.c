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

void mt_reset(struct match_tree *mt)
{
	memset(mt->head, 0xff, sizeof mt->head);
	memset(mt->pair, 0xff, sizeof mt->pair);
	memset(mt->head3, 0xff, sizeof mt->head3);
}

static uint32_t hash3(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
	return (v * 2654435761u) >> (32 - MT_HASH_BITS);
}

static uint32_t hash4(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		     (uint32_t)p[3] << 24;
	return (v * 2654435761u) >> (32 - MT_HASH_BITS);
}

uint32_t mt_triple(struct match_tree *mt, const uint8_t *buf, uint32_t pos)
{
	uint32_t h = hash3(buf + pos);
	uint32_t prev = mt->head3[h];
	mt->head3[h] = pos;
	if (prev == MT_NONE || pos - prev > MT_MAX_DIST || buf[prev] != buf[pos] ||
	    buf[prev + 1] != buf[pos + 1] || buf[prev + 2] != buf[pos + 2])
		return 0;
	return pos - prev;
}

uint32_t mt_pair(struct match_tree *mt, const uint8_t *buf, uint32_t pos)
{
	uint32_t key = (uint32_t)buf[pos] | (uint32_t)buf[pos + 1] << 8;
	uint32_t prev = mt->pair[key];
	mt->pair[key] = pos;
	return prev == MT_NONE ? 0 : pos - prev;
}

/* Common prefix of a and b from known (both agree on their first known bytes), up to limit. */
static uint32_t common_len(const uint8_t *a, const uint8_t *b, uint32_t known, uint32_t limit)
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

unsigned mt_insert(struct match_tree *mt, const uint8_t *buf, uint32_t pos, uint32_t end,
		   struct mt_match *out)
{
	uint32_t h = hash4(buf + pos);
	uint32_t cur = mt->head[h];
	mt->head[h] = pos;
	/* Where the next candidate smaller (larger) than the new suffix hangs, and how many bytes
	 * the new suffix shares with the last one hung there. */
	uint32_t *smaller = &mt->child[2 * (pos & RING_MASK)];
	uint32_t *larger = smaller + 1;
	uint32_t len_smaller = 0, len_larger = 0;
	uint32_t limit = end - pos < mt->nice ? end - pos : mt->nice;
	uint32_t best = 3;
	unsigned count = 0, steps = mt->depth;
	const uint8_t *p = buf + pos;

	while (cur != MT_NONE && pos - cur <= MT_MAX_DIST && steps-- > 0) {
		uint32_t *node = &mt->child[2 * (cur & RING_MASK)];
		uint32_t known = len_smaller < len_larger ? len_smaller : len_larger;
		uint32_t len = common_len(buf + cur, p, known, limit);
		if (len > best) {
			best = len;
			if (out != NULL) {
				out[count].len = len;
				out[count].dist = pos - cur;
				count++;
			}
		}
		if (len == limit) {
			/* Equal as far as we look: cur's subtrees become the new node's, cur leaves. */
			*smaller = node[0];
			*larger = node[1];
			if (out != NULL && len == mt->nice && count > 0)
				out[count - 1].len = common_len(buf + cur, p, len, end - pos);
			return count;
		}
		if (buf[cur + len] < p[len]) {
			*smaller = cur;
			smaller = &node[1];
			len_smaller = len;
			cur = node[1];
		} else {
			*larger = cur;
			larger = &node[0];
			len_larger = len;
			cur = node[0];
		}
	}
	*smaller = MT_NONE;
	*larger = MT_NONE;
	return count;
}
