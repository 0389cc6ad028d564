/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_tree.h — internal to codecs/lzo/: the binary-tree match finder behind our LZO1X encoder;
 * for each position it lists the shortest distance at which each match length occurs. */
#ifndef SQ_CODECS_LZO_MATCH_TREE_H
#define SQ_CODECS_LZO_MATCH_TREE_H

#include <stddef.h>
#include <stdint.h>

/* LZO1X reaches back at most this far (an M4 match: 16384 + 2 * 16384 - 1). */
#define MT_MAX_DIST 49151u
/* The tree's nodes live in a ring at least as long as the window. */
#define MT_RING_BITS 16
#define MT_HASH_BITS 16

struct mt_match {
	uint32_t len;
	uint32_t dist;
};

/* Positions are stored plus base, which grows by more than the window with each block, so an
 * empty slot (0) and every earlier block's entries are out of reach without clearing the tables. */
struct match_tree {
	uint32_t base, last_len;
	uint32_t head[1u << MT_HASH_BITS]; /* newest position of each 4-byte hash */
	/* The short tables keep positions' low 16 bits only (half the cache footprint): a distance
	 * read from them is checked against the bytes before use. */
	uint16_t pair[1u << 16];           /* newest position of each 2-byte value */
	uint16_t head3[1u << MT_HASH_BITS]; /* newest position of each 3-byte hash */
	/* [2 * (pos & ring)]: the smaller, [+1] the larger suffixes' subtree, as its distance back
	 * from the node (0: none). A child is always older than its node, and one further back
	 * than the window is out of every later search's reach: 16 bits hold every useful link. */
	uint16_t child[2u << MT_RING_BITS];
	unsigned depth;                    /* tree nodes visited per position at most */
	unsigned nice;                     /* a match this long ends the search */
};


/* Forget every position (call before each block of len bytes). */
void mt_reset(struct match_tree *mt, uint32_t len);

/* Inserts position pos of buf[0, end) (pos + 4 <= end) and, when out is not NULL, writes the
 * matches found there to out: lengths strictly increasing (4 or more), each with the shortest
 * distance the search met for it; the last one is extended beyond nice up to end. Returns the
 * count (at most nice - 2). */
unsigned mt_insert(struct match_tree *mt, const uint8_t *buf, uint32_t pos, uint32_t end,
		   struct mt_match *out);

/* The distances to the nearest earlier occurrences of the 2 and 3 bytes at pos (pos + 2 <= end;
 * the 3 bytes only when pos + 4 <= end), 0 when there is none within MT_MAX_DIST; records pos as
 * theirs. */
void mt_short(struct match_tree *mt, const uint8_t *buf, uint32_t pos, uint32_t end,
	      uint32_t *d2, uint32_t *d3);

/* Asks the cache for the table slots position pos will read (pos + 4 <= end): they are random
 * accesses to tables larger than the first cache levels, and the parse's work for the positions
 * before it hides their latency. */
void mt_prefetch(const struct match_tree *mt, const uint8_t *buf, uint32_t pos);

#endif
