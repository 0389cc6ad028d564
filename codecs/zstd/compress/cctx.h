/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* cctx.h — the encoder context shared by the frame writer and the match finders / parsers. */
#ifndef SQ_ZSTD_COMPRESS_CCTX_H
#define SQ_ZSTD_COMPRESS_CCTX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/compress/block_enc.h"

enum zs_strategy { ZS_DFAST, ZS_GREEDY, ZS_LAZY, ZS_LAZY2, ZS_BTLAZY2, ZS_BTOPT, ZS_BTULTRA,
		   ZS_BTULTRA2 };

/* Per-level search parameters (the shape of the reference's table for inputs up to 128 KiB). */
struct zs_params {
	enum zs_strategy strategy;
	unsigned hash_log;
	unsigned chain_log;
	unsigned search_log; /* 2^search_log candidates per position; levels 1-4 (one probe):
			      * without a match the step grows by one every 2^search_log bytes */
	unsigned min_match;
	unsigned target_len; /* a match this long is taken without looking further */
	unsigned passes;     /* optimal parses of each block, each priced by the one before */
};

/* The parameters of a level for an input of that many bytes (NULL for a level out of range);
 * input 0 asks for levels.c's row of inputs up to 256 KiB. */
const struct zs_params *zs_level_params(int level, size_t input);

/* Inputs this small take levels_small.c's rows. */
#define ZS_SMALL_INPUT (16u * 1024u)
const struct zs_params *zs_small_params(int level);

/* levels.c's first row serves inputs up to ZS_LARGE_INPUT, its second larger ones; inputs over
 * ZS_MID_INPUT, up to twice ZS_LARGE_INPUT, take levels_mid.c's row for their size where the
 * level has one (NULL: none, or another size). */
#define ZS_MID_INPUT (128u * 1024u)
#define ZS_LARGE_INPUT (256u * 1024u)
const struct zs_params *zs_mid_params(int level, size_t input);

/* Sequences and literals of the block being parsed. */
struct zs_seq_store {
	struct zs_seq *seqs;
	size_t nseq;
	uint8_t *lits;
	size_t nlits;
	uint32_t rep[3]; /* repeat offsets after the stored sequences */
};

struct zs_opt_state; /* optimal parser scratch (match_opt.c) */

struct zs_cctx {
	int level;
	size_t max_input;
	size_t src_len;     /* the frame being compressed (hash reads stay below it) */
	struct zs_params p; /* the level's row for the frame being compressed */
	unsigned hash_alloc_log; /* the tables' sizes: the largest any input up to max_input needs */
	unsigned hash2_alloc_log; /* hash2's (0: none) */
	unsigned hash3_alloc_log;
	unsigned chain_alloc_log;
	unsigned hash_log;  /* effective for the current input (smaller for small inputs) */
	unsigned chain_log;
	uint32_t *hash;     /* 1 << p.hash_log heads */
	uint32_t *hash2;    /* double-fast: long-match table */
	/* Every table stores position + idx_base, so a new frame needs no clearing: entries of
	 * earlier frames lie below the new base and read as out of range. */
	uint32_t idx_base;
	/* hash holds match_fast.c's tagged entries (a position and hash bits, no idx_base):
	 * frame.c clears it before the next frame, whose parser may read positions + idx_base. */
	int hash_tagged;
	uint32_t *chain;    /* 1 << p.chain_log links (lazy levels: the rows of match_row.h) */
	uint32_t bt_mask;   /* optimal parser: the positions the trees hold (two links each), - 1 */
	uint32_t *hash3;    /* optimal parser with 3-byte matches: the last position per 3-byte hash */
	unsigned hash3_log;
	int use_hash3;      /* this frame's row takes 3-byte matches from hash3 */
	struct zs_seq_store store;
	struct zs_entropy entropy, next_entropy, saved_entropy;
	struct zs_block_scratch scratch;
	struct zs_opt_state *opt;
	/* Block splitting (levels 13+): per-sequence literal and content offsets, cut points,
	 * and the output of the pieces. */
	uint32_t *split_lit, *split_pos, *split_cut;
	uint8_t *split_out;
	uint8_t *frame_buf; /* the frame when the caller's dst is tighter than the bound */
};

/* The Offset_Value of a match at distance offset (actual bytes back) after lit literals,
 * updating the repeat offsets rep[0..2]: the repeat code when the offset is one of them. */
static inline uint32_t zs_offval(uint32_t *rep, uint32_t lit, uint32_t offset)
{
	uint32_t code;

	/* Repeat codes (RFC 8878 3.1.1.5): with literals, codes 1..3 name rep[0..2]; with none they
	 * shift by one: 1 names rep[1], 2 rep[2], 3 rep[0] - 1. The used offset moves to the
	 * front and the ones before it shift down. */
	if (lit > 0) {
		if (offset == rep[0]) {
			code = 1;
		} else if (offset == rep[1]) {
			code = 2;
			rep[1] = rep[0];
			rep[0] = offset;
		} else {
			code = offset == rep[2] ? 3 : 0;
			rep[2] = rep[1];
			rep[1] = rep[0];
			rep[0] = offset;
		}
	} else if (offset == rep[1]) {
		code = 1;
		rep[1] = rep[0];
		rep[0] = offset;
	} else {
		code = offset == rep[2] ? 2 : offset == rep[0] - 1 ? 3 : 0;
		rep[2] = rep[1];
		rep[1] = rep[0];
		rep[0] = offset;
	}
	return code != 0 ? code : offset + 3;
}

/* Appends a sequence whose lit literals are already in st->lits, then a match at distance
 * offset of length ml. */
static inline void zs_store_seq_only(struct zs_seq_store *st, uint32_t lit, uint32_t offset,
				     uint32_t ml)
{
	struct zs_seq *q = &st->seqs[st->nseq++];

	q->lit = lit;
	q->ml = ml;
	q->offval = zs_offval(st->rep, lit, offset);
}

/* Appends a sequence: lit literals from lit_src then a match at distance offset of length ml. */
static inline void zs_store_seq(struct zs_seq_store *st, const uint8_t *lit_src, uint32_t lit,
				uint32_t offset, uint32_t ml)
{
	memcpy(st->lits + st->nlits, lit_src, lit);
	st->nlits += lit;
	zs_store_seq_only(st, lit, offset, ml);
}

/* Copies lit bytes 16 at a time, for parsers whose matches start at least 16 bytes before
 * the block's end: with the literals of the block before them, no read or write passes the
 * block's end. The first 16 go unconditionally (most runs are shorter), so only longer runs
 * take a loop whose exit the branch predictor has to guess. A libc memcpy call per sequence
 * cost the fast levels about 13 instructions and a mispredicted branch in four. */
static inline void zs_copy_wild(uint8_t *dst, const uint8_t *src, uint32_t lit)
{
	zs_copy16(dst, src);
	if (lit > 16) {
		const uint8_t *e = src + lit;

		do {
			dst += 16;
			src += 16;
			zs_copy16(dst, src);
		} while (src + 16 < e);
	}
}

/* Length of the common prefix of a and b, comparing no further than limit. */
static inline size_t zs_match_len(const uint8_t *a, const uint8_t *b, const uint8_t *limit)
{
	const uint8_t *start = a;

	/* The first word apart: most matches end in it, and a branch of its own predicts that
	 * better than the loop's exit test, which sees every length. */
	if (a + 8 <= limit) {
		uint64_t x = zs_read64(a) ^ zs_read64(b);

		if (x)
			return (unsigned)__builtin_ctzll(x) >> 3;
		a += 8;
		b += 8;
	}
	while (a + 8 <= limit) {
		uint64_t x = zs_read64(a) ^ zs_read64(b);

		if (x)
			return (size_t)(a - start) + ((unsigned)__builtin_ctzll(x) >> 3);
		a += 8;
		b += 8;
	}
	while (a < limit && *a == *b) {
		a++;
		b++;
	}
	return (size_t)(a - start);
}

/* Parsers: fill cctx->store for src[start..end) (src[0..start) is history). They insert the
 * positions they pass into the match tables. */
void zs_parse_dfast(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end);
void zs_parse_lazy(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end);
void zs_parse_opt(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end);
/* The optimal parser's state for blocks of up to block bytes. */
int zs_opt_alloc(struct zs_cctx *c, size_t block);
void zs_opt_free(struct zs_cctx *c);
/* Zeroed memory for a match table of bytes (free() releases it), on huge pages where the
 * system has them and the table is large; 64 bytes more where it may not start a cache line
 * (match_row.h's rows). frame.c allocates every strategy's chain or tree table this way. */
void *zs_table_alloc(size_t bytes);
/* Zeroes all of a table from zs_table_alloc(bytes). */
void zs_table_clear(void *table, size_t bytes);

#endif
