/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_btlazy.h — the binary trees of the lazy parse (ZS_BTLAZY2): positions the parse only passes join
 * their hash's chain unsorted, and are sorted into the tree when a search next comes that way. */
#ifndef SQ_ZSTD_COMPRESS_MATCH_BTLAZY_H
#define SQ_ZSTD_COMPRESS_MATCH_BTLAZY_H

#include <stddef.h>
#include <stdint.h>

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_bt.h"
#include "codecs/zstd/compress/match_hc.h"

/* Why defer: a lazy parse searches a few positions per match and passes the others. Sorting
 * every passed position into its tree (a descent each) cost 1.2-1.7x libzstd's instructions at
 * levels 11-12; a passed position now costs a hash and two stores. A search first sorts the
 * unsorted positions at the head of its hash's chain (oldest first, each a descent from the
 * tree the one before it left), then descends the tree it has made. Positions whose hash no
 * later search shares are never sorted at all.
 *
 * Layout: the hash heads hold positions + idx_base, as every head table (frame.c: no clearing
 * between frames), but the nodes are the frame's own, written before they are read: position
 * p's two links are chain[2p], chain[2p + 1] and hold positions of this frame. So the chain
 * must hold two links per position of the frame (zs_btl_fits), and a link is valid when below
 * the position searched: an old frame's head, made relative, wraps far above.
 * A node is unsorted when its second link holds this mark (no position: frames are shorter);
 * its first link is then the chain, the head its hash had before. Tree links only ever name
 * sorted nodes, so a descent never meets an unsorted one. */
#define ZS_BTL_UNSORTED (UINT32_MAX - 1u)
/* The most unsorted positions one search sorts (the parse's own limit is lower). */
#define ZS_BTL_STACK 256u

/* Whether the chain table holds the nodes of every position of this frame. */
static inline int zs_btl_fits(const struct zs_cctx *c)
{
	return ((size_t)1 << c->chain_log) >= 2 * c->src_len;
}

/* Puts pos at the head of its hash's chain, unsorted. pos + 8 must be readable. */
static inline void zs_btl_defer(struct zs_cctx *c, const uint8_t *src, size_t pos)
{
	uint32_t *head = &c->hash[zs_hash(src + pos, 4, c->hash_log)];
	uint32_t *node = &c->chain[2 * pos];

	node[0] = *head - c->idx_base;
	node[1] = ZS_BTL_UNSORTED;
	*head = (uint32_t)(pos + c->idx_base);
}

/* The length of the prefix ip and m share (known equal for skip bytes), up to stop, and in
 * *smaller whether m sorts below ip. Most nodes differ from ip within the word after the known
 * prefix: the side then comes from that word's bytes in memory order (byte-swapped into a
 * number), beside the length instead of after it and a load of the bytes it names. Later words
 * are compared the same way: on text at level 12 (128 KiB) 3 steps in 10 found the first word
 * equal, and counting on with zs_match_len, then loading the bytes it named, cost each of them
 * a second pass over that word and a load after the length. */
static inline __attribute__((always_inline)) size_t
zs_btl_compare(const uint8_t *ip, const uint8_t *m, size_t skip, const uint8_t *stop,
	       unsigned *smaller)
{
	size_t len = skip;

	while ((size_t)(stop - (ip + len)) >= 8) {
		uint64_t a = zs_read64(ip + len), b = zs_read64(m + len);

		if (a != b) {
			len += (unsigned)__builtin_ctzll(a ^ b) >> 3;
			*smaller = __builtin_bswap64(b) < __builtin_bswap64(a);
			return len;
		}
		len += 8;
	}
	len += zs_match_len(ip + len, m + len, stop);
	*smaller = ip + len < stop && m[len] < ip[len];
	return len;
}

/* yes when cond, else no, by a conditional move: the side a node falls on is a coin toss, and
 * GCC 12 turned plain selects on it into a branch (level 12 at 128 KiB: text 3 % faster, the
 * other samples 3-4 % slower); selects by masks took 25 instructions a step where the moves
 * take 9 (level 12 at 128 KiB: the moves 1-5 % faster in a locked A/B). */
static inline __attribute__((always_inline)) size_t zs_btl_pickn(unsigned cond, size_t yes,
								  size_t no)
{
#if defined(__GNUC__) && defined(__x86_64__)
	__asm__("test %1, %1\n\tcmovne %2, %0" : "+r"(no) : "r"(cond), "r"(yes) : "cc");
	return no;
#else
	size_t mask = (size_t)0 - (cond != 0);

	return (yes & mask) | (no & ~mask);
#endif
}

static inline __attribute__((always_inline)) uint32_t *zs_btl_pick(unsigned cond, uint32_t *yes,
								    uint32_t *no)
{
	return (uint32_t *)zs_btl_pickn(cond, (uintptr_t)yes, (uintptr_t)no);
}

/* Inserts the string at ip = src + self into the tree whose root is cur: self's two links get
 * the nodes smaller and larger than it, as far as budget nodes go. Compares stop at stop; the
 * prefixes the two bounds share with ip are trusted only up to trust (INSERT_CAP, or a
 * level's shorter sorting stop: match_bt.h says why), and a node equal to ip as far as stop
 * looks is replaced by self. With out, the
 * matches longer than *best, capped at room, go there as zs_bt_descend reports them.
 * The side a node falls on is a coin toss, so it picks by selects, not a branch; and the two
 * hang points and known prefixes are separate locals, not arrays indexed by the side: indexed,
 * they lived on the stack and every step waited on a store being forwarded to its load (level
 * 12 at 128 KiB: the sorting descents took 88 % of the time). */
static inline __attribute__((always_inline)) unsigned
zs_btl_descend(uint32_t *bt, const uint8_t *src, uint32_t self, uint32_t cur,
	       const uint8_t *stop, unsigned budget, size_t room, size_t *best,
	       struct zs_match *out, unsigned max_out, size_t trust)
{
	const uint8_t *ip = src + self;
	uint32_t *hang_small = &bt[2 * (size_t)self], *hang_large = &bt[2 * (size_t)self + 1];
	size_t known_small = 0, known_large = 0;
	unsigned n = 0;

	for (; cur < self && budget > 0; budget--) {
		const uint8_t *m = src + cur;
		uint32_t *kids = &bt[2 * (size_t)cur];
		size_t skip = known_small < known_large ? known_small : known_large;
		unsigned smaller;
		size_t len = zs_btl_compare(ip, m, skip, stop, &smaller);
		/* Both children's bytes and nodes are asked for while this node's compare decides
		 * which comes next: the selects below leave the core nothing to speculate on, and
		 * each step would otherwise wait on two misses after the compare (two alternating
		 * runs: 1 MiB frames, levels 13-14, 1.03-1.3x faster; 128 KiB, 1.0-1.05x). A link
		 * that names no node (not below self) fetches self's; and src + k + skip stays
		 * below stop, as ip + skip does. */
		uint32_t k0 = kids[0] < self ? kids[0] : self, k1 = kids[1] < self ? kids[1] : self;

		__builtin_prefetch(src + k0 + skip);
		__builtin_prefetch(src + k1 + skip);
		__builtin_prefetch(&bt[2 * (size_t)k0]);
		__builtin_prefetch(&bt[2 * (size_t)k1]);

		if (out != NULL && len > *best && *best < room) {
			*best = len < room ? len : room;
			n += n < max_out;
			out[n - 1] = (struct zs_match){(uint32_t)*best, self - cur};
		}
		if (ip + len >= stop) {
			/* cur equals ip as far as stop looks: self takes its place. */
			*hang_small = kids[0];
			*hang_large = kids[1];
			return n;
		}
		/* smaller: cur sorts below ip, hangs on the small side, and what is larger
		 * than it hangs under its larger link next. */
		size_t k = len < trust ? len : trust;
		uint32_t *next = kids + smaller;

		*zs_btl_pick(smaller, hang_small, hang_large) = cur;
		hang_small = zs_btl_pick(smaller, next, hang_small);
		hang_large = zs_btl_pick(smaller, hang_large, next);
		known_small = zs_btl_pickn(smaller, k, known_small);
		known_large = zs_btl_pickn(smaller, known_large, k);
		cur = *next;
	}
	*hang_small = ZS_BT_NULL;
	*hang_large = ZS_BT_NULL;
	return n;
}

/* The end of the compares that start at ip, at most cap bytes on. */
static inline const uint8_t *zs_btl_stop(const uint8_t *ip, const uint8_t *input_end, size_t cap)
{
	return (size_t)(input_end - ip) > cap ? ip + cap : input_end;
}

/* Sorts the unsorted positions at the head of pos's chain into its tree (at most max_unsorted,
 * each with a descent of sort_attempts nodes whose compares stop trust bytes on: the trees are
 * in order that far, and every descent trusts known prefixes no further), then inserts pos
 * with a search of attempts nodes: the matches longer than *best go to out[] as
 * zs_bt_descend reports them. Positions
 * beyond max_unsorted are cut off: their node becomes a leaf and what is older than it is
 * lost to later searches (walking on would cost a cache miss each, and long runs of one hash
 * are runs of a repeated string, where the newest positions are the best candidates anyway). */
static inline unsigned zs_btl_search(struct zs_cctx *c, const uint8_t *src, size_t pos,
				     size_t end, unsigned attempts, unsigned sort_attempts,
				     unsigned max_unsorted, size_t trust, size_t *best,
				     struct zs_match *out, unsigned max_out)
{
	uint32_t *bt = c->chain;
	const uint8_t *input_end = src + c->src_len;
	uint32_t *head = &c->hash[zs_hash(src + pos, 4, c->hash_log)];
	uint32_t root = *head - c->idx_base, stack[ZS_BTL_STACK];
	unsigned n = 0;
	/* The next search is most often at pos + 1 (a lazy step, or a literal): its head is
	 * fetched now, and its root node once this search is done. */
	uint32_t *next_head = head;

	if (pos + 9 <= c->src_len)
		next_head = &c->hash[zs_hash(src + pos + 1, 4, c->hash_log)];
	__builtin_prefetch(next_head);
	if (max_unsorted > ZS_BTL_STACK)
		max_unsorted = ZS_BTL_STACK;
	for (uint32_t cur = root; cur < pos;) {
		uint32_t *node = &bt[2 * (size_t)cur];

		if (node[1] != ZS_BTL_UNSORTED)
			break;
		if (n == max_unsorted) {
			node[0] = ZS_BT_NULL;
			node[1] = ZS_BT_NULL;
			break;
		}
		stack[n++] = cur;
		cur = node[0];
	}
	/* Oldest first: each descends the tree the one before it left, whose root is its chain
	 * link, and is the root of the next. */
	while (n-- > 0) {
		uint32_t u = stack[n];

		/* Its compares stop trust bytes on, so no prefix it learns is longer: no cap,
		 * and one register more for the descent (the same trees). */
		zs_btl_descend(bt, src, u, bt[2 * (size_t)u], zs_btl_stop(src + u, input_end, trust),
			       sort_attempts, 0, NULL, NULL, 0, SIZE_MAX);
	}
	*head = (uint32_t)(pos + c->idx_base);
	n = zs_btl_descend(bt, src, (uint32_t)pos, root,
			   zs_btl_stop(src + pos, input_end, COMPARE_CAP), attempts, end - pos,
			   best, out, max_out, trust);
	uint32_t next_root = *next_head - c->idx_base;

	/* No branch on whether that head is this frame's (an old frame's wraps above pos): pos's
	 * own node, fetched instead, does no harm. */
	__builtin_prefetch(&bt[2 * (size_t)(next_root <= pos ? next_root : (uint32_t)pos)]);
	return n;
}

#endif
