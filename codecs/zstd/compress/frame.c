/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* frame.c — zstd frame assembly: context setup, frame header, block loop with raw/RLE fallbacks, checksum. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/common/tables.h"
#include "common/util/xxhash64.h"
#include "codecs/zstd/compress/block_split.h"
#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_bt.h"
#include "codecs/zstd/zstd.h"

/* Full blocks hold 128 KiB of content, as the reference writes them. (What libzstd up to 1.5.2
 * rejects is a compressed block whose Block_Size, its compressed size, is 128 KiB: ours is
 * always smaller than its content — see facebook/zstd doc/decompressor_errata.md.) */
#define BLOCK_CONTENT_MAX ZS_BLOCK_SIZE_MAX

/* The 3-byte match table of the optimal parser: no larger than the input (128 KiB frames fill it). */
#define HASH3_LOG 17u

static unsigned ceil_log2(size_t n)
{
	unsigned l = 0;

	while (((size_t)1 << l) < n)
		l++;
	return l;
}

/* The chain (or tree) size for an input of 2^in_log bytes: the level's for 128 KiB, one step
 * more per doubling (the window is the whole input), never more than the input needs. It
 * depends on the input alone, so a context's max_input never changes the output. */
static unsigned chain_log_for(const struct zs_params *p, unsigned in_log)
{
	unsigned l = p->chain_log + (in_log > 17 ? in_log - 17 : 0);
	/* Trees: 2 links each; lazy rows: 5 bytes a slot, 3/4 of a row slots. */
	unsigned cap = p->strategy > ZS_DFAST ? in_log + 1 : in_log;

	return l < cap ? l : cap;
}

static int split_alloc(zs_cctx *c, size_t block)
{
	size_t nseq = block / 3 + 3;

	c->split_lit = malloc(nseq * sizeof(uint32_t));
	c->split_pos = malloc(nseq * sizeof(uint32_t));
	c->split_cut = malloc(64 * sizeof(uint32_t));
	c->split_out = malloc(ZS_BLOCK_SIZE_MAX + 1024);
	return c->split_lit && c->split_pos && c->split_cut && c->split_out ? 0 : -1;
}

/* What the tables need for inputs up to max_input: the union of the level's rows. */
struct needs {
	unsigned hash_log, chain_log, hash3_log;
	unsigned hash2_log; /* double-fast rows' long table (0: none) */
	size_t opt_block; /* the largest block an optimal-parser row parses (0: none) */
};

/* Adds the needs of row p for inputs of up to max_in bytes (2^in_log or less). */
static void needs_of(const struct zs_params *p, unsigned in_log, size_t max_in, struct needs *n)
{
	unsigned h = p->hash_log < in_log + 1 ? p->hash_log : in_log + 1;
	size_t block = max_in < ZS_BLOCK_SIZE_MAX ? max_in : ZS_BLOCK_SIZE_MAX;

	/* A double-fast row's long hashes go to hash2, its short ones (chain_log, no larger) to
	 * hash; a single-table row (chain_log 0) has only hash. */
	if (p->strategy == ZS_DFAST && p->chain_log > 0) {
		if (h > n->hash2_log)
			n->hash2_log = h;
		h = p->chain_log < h ? p->chain_log : h;
	}
	if (h > n->hash_log)
		n->hash_log = h;
	/* The single-probe parsers use no chain. */
	if (p->strategy > ZS_DFAST && chain_log_for(p, in_log) > n->chain_log)
		n->chain_log = chain_log_for(p, in_log);
	if (p->strategy >= ZS_BTOPT && block > n->opt_block)
		n->opt_block = block;
	unsigned h3 = HASH3_LOG < in_log ? HASH3_LOG : in_log;

	if (p->strategy >= ZS_BTOPT && p->min_match == 3 && h3 > n->hash3_log)
		n->hash3_log = h3;
}

/* Huge pages for tables of 2 MiB and more: the rows of a 1 MiB frame span megabytes read at
 * random, and with 4 KiB pages nearly every row fetch also misses the TLB (a page walk, nested
 * under virtualisation, that stalls even a prefetch). */
#define HUGE_PAGE ((size_t)2 << 20)

void *zs_table_alloc(size_t bytes)
{
	if (bytes < HUGE_PAGE)
		return calloc(1, bytes + 64); /* rows start at the first cache line boundary */
	size_t rounded = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	void *p = aligned_alloc(HUGE_PAGE, rounded);

	if (p == NULL)
		return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	(void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
	memset(p, 0, rounded);
	return p;
}

void zs_table_clear(void *table, size_t bytes)
{
	memset(table, 0, bytes < HUGE_PAGE ? bytes + 64 : bytes);
}


zs_cctx *zs_cctx_new(int level, size_t max_input)
{
	const struct zs_params *p = zs_level_params(level, max_input);
	struct needs n = {0, 0, 0, 0, 0};
	const size_t large = ZS_LARGE_INPUT;
	zs_cctx *c;

	if (p == NULL)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->level = level;
	c->max_input = max_input;
	c->p = *p;
	/* Tables need not exceed the input: the window is the input. Any row of the level may
	 * serve this context (levels_small.c's, levels_mid.c's and both of levels.c's, by the
	 * size of each input). */
	unsigned in_log = ceil_log2(max_input < 64 ? 64 : max_input);

	needs_of(p, in_log, max_input, &n);
	needs_of(zs_level_params(level, 0), in_log < 18 ? in_log : 18,
		 max_input < large ? max_input : large, &n);
	needs_of(zs_small_params(level), in_log < 14 ? in_log : 14,
		 max_input < ZS_SMALL_INPUT ? max_input : ZS_SMALL_INPUT, &n);
	/* levels_mid.c's rows, each for inputs up to its size's largest. */
	for (size_t mid = ZS_MID_INPUT * 2; mid <= 2 * large && mid / 2 < max_input; mid *= 2) {
		const struct zs_params *row = zs_mid_params(level, mid);
		unsigned mid_log = ceil_log2(mid);

		if (row != NULL)
			needs_of(row, in_log < mid_log ? in_log : mid_log,
				 max_input < mid ? max_input : mid, &n);
	}
	c->hash_alloc_log = n.hash_log;
	c->hash2_alloc_log = n.hash2_log;
	c->chain_alloc_log = n.chain_log;
	c->hash = calloc((size_t)1 << n.hash_log, sizeof(uint32_t));
	c->chain = zs_table_alloc(((size_t)1 << n.chain_log) * sizeof(uint32_t));
	if (n.hash2_log != 0)
		c->hash2 = calloc((size_t)1 << n.hash2_log, sizeof(uint32_t));
	c->hash3_alloc_log = n.hash3_log;
	if (n.hash3_log != 0)
		c->hash3 = malloc(((size_t)1 << n.hash3_log) * sizeof(uint32_t));
	size_t block = max_input < ZS_BLOCK_SIZE_MAX ? max_input : ZS_BLOCK_SIZE_MAX;

	c->store.seqs = malloc((block / 3 + 2) * sizeof(struct zs_seq));
	c->store.lits = malloc(block + 8);
	c->frame_buf = malloc(zs_compress_bound(max_input));
	if (c->hash == NULL || c->chain == NULL || (n.hash2_log != 0 && c->hash2 == NULL) ||
	    (n.hash3_log != 0 && c->hash3 == NULL) ||
	    c->store.seqs == NULL || c->store.lits == NULL || c->frame_buf == NULL ||
	    (n.opt_block && (zs_opt_alloc(c, n.opt_block) != 0 ||
			     split_alloc(c, n.opt_block) != 0))) {
		zs_cctx_free(c);
		return NULL;
	}
	return c;
}

void zs_cctx_free(zs_cctx *c)
{
	if (c == NULL)
		return;
	zs_opt_free(c);
	free(c->hash);
	free(c->hash2);
	free(c->hash3);
	free(c->chain);
	free(c->store.seqs);
	free(c->store.lits);
	free(c->frame_buf);
	free(c->split_lit);
	free(c->split_pos);
	free(c->split_cut);
	free(c->split_out);
	free(c);
}

size_t zs_compress_bound(size_t len)
{
	/* Header 4 + 1 + 8, a 3-byte header per block (at least one), checksum 4. */
	return 13 + len + 3 * (len / BLOCK_CONTENT_MAX + 1) + 4;
}

static size_t write_frame_header(uint8_t *op, size_t len, int checksum)
{
	uint8_t flag = (uint8_t)(0x20 | (checksum ? 4 : 0));

	zs_write32(op, ZS_MAGIC);
	if (len < 256) {
		op[4] = flag;
		op[5] = (uint8_t)len;
		return 6;
	}
	if (len < 65536 + 256) {
		op[4] = (uint8_t)(flag | 0x40);
		zs_write16(op + 5, (uint16_t)(len - 256));
		return 7;
	}
	op[4] = (uint8_t)(flag | 0x80);
	zs_write32(op + 5, (uint32_t)len);
	return 9;
}

static void parse(zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	if (c->p.strategy >= ZS_BTOPT)
		zs_parse_opt(c, src, start, end);
	else if (c->p.strategy == ZS_DFAST)
		zs_parse_dfast(c, src, start, end);
	else
		zs_parse_lazy(c, src, start, end);
}

static int all_same(const uint8_t *p, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (p[i] != p[0])
			return 0;
	return 1;
}

/* One block of the frame at src[start..end): compressed when that saves enough, else RLE or
 * raw. Returns the bytes written. */
static size_t write_block(zs_cctx *c, const uint8_t *src, size_t start, size_t end, int last,
			  uint8_t *op, size_t cap)
{
	size_t n = end - start;

	uint32_t saved_rep[3];

	memcpy(saved_rep, c->store.rep, sizeof(saved_rep));
	/* No RLE first block before others: the zstd CLI up to 1.4.3 refuses that frame (errata);
	 * such a block compresses to a handful of bytes anyway. */
	if (n > 1 && (start > 0 || last) && all_same(src + start, n)) {
		/* Later blocks may match into it: parse anyway to feed the tables, then drop. */
		zs_write24(op, (uint32_t)(last | (ZS_BLOCK_RLE << 1) | (n << 3)));
		op[3] = src[start];
		c->store.nseq = 0;
		c->store.nlits = 0;
		if (!last) {
			parse(c, src, start, end);
		}
		memcpy(c->store.rep, saved_rep, sizeof(saved_rep));
		return 4;
	}
	c->store.nseq = 0;
	c->store.nlits = 0;
	if (n >= 8) {
		parse(c, src, start, end);
	}
	/* Worth it only when it saves (n >> shift) + 2 bytes, the shift growing with the level
	 * (as the reference decides: a slow level's small gain is still a gain). */
	unsigned shift = c->p.strategy == ZS_BTULTRA2 ? 8 : c->p.strategy == ZS_BTULTRA ? 7 : 6;
	size_t keep_below = n > (n >> shift) + 2 ? n - (n >> shift) - 2 : 0;
	size_t body = 0;

	if (n >= 8 && keep_below > 0) {
		size_t room = cap - 3 < keep_below ? cap - 3 : keep_below;

		if (c->p.strategy >= ZS_BTOPT)
			c->saved_entropy = c->entropy;
		body = zs_encode_block(&c->entropy, &c->next_entropy, &c->scratch, c->store.lits,
				       c->store.nlits, c->store.seqs, c->store.nseq, op + 3, room);
	}
	if (body > 0 && body <= keep_below) {
		zs_write24(op, (uint32_t)(last | (ZS_BLOCK_COMPRESSED << 1) | (body << 3)));
		c->entropy = c->next_entropy;
		if (c->p.strategy >= ZS_BTOPT) {
			/* Restart from the tables before this block for the pieces. */
			struct zs_entropy whole = c->entropy;

			c->entropy = c->saved_entropy;
			size_t split = zs_split_block(c, n, last, 3 + body);

			if (split > 0 && split <= cap) {
				memcpy(op, c->split_out, split);
				c->entropy = c->next_entropy;
				return split;
			}
			c->entropy = whole;
		}
		return 3 + body;
	}
	/* The decoder will not see these sequences: forget their repeat offsets. */
	memcpy(c->store.rep, saved_rep, sizeof(saved_rep));
	zs_write24(op, (uint32_t)(last | (ZS_BLOCK_RAW << 1) | (n << 3)));
	if (n)
		memcpy(op + 3, src + start, n);
	return 3 + n;
}

/* Writes the frame into out, which has room for zs_compress_bound(src_len). */
static size_t compress_frame(zs_cctx *c, const uint8_t *in, size_t src_len, uint8_t *out,
			     size_t dst_cap, int checksum)
{
	uint8_t *op = out;

	/* Fresh frame: no history, starting repeat offsets, no reusable tables. */
	unsigned in_log = ceil_log2(src_len < 64 ? 64 : src_len);

	c->src_len = src_len;
	c->p = *zs_level_params(c->level, src_len);
	c->hash_log = c->p.hash_log < in_log + 1 ? c->p.hash_log : in_log + 1;
	c->chain_log = chain_log_for(&c->p, in_log);
	c->bt_mask = c->chain_log > 0 ? (1u << (c->chain_log - 1)) - 1 : 0;
	c->hash3_log = c->hash3_alloc_log < in_log ? c->hash3_alloc_log : in_log;
	c->use_hash3 = c->hash3 != NULL && c->p.strategy >= ZS_BTOPT && c->p.min_match == 3;
	/* A few more table builds per block: 7-26 % more instructions at levels 1-4 on small
	 * frames, under 1 % for the parsers above them. */
	c->scratch.huf_search = c->p.strategy != ZS_DFAST;
	/* Entries are positions + idx_base: those of earlier frames lie below the new base and
	 * read as empty (heads, 3-byte heads, lazy rows; tree links are written before they are
	 * read). Clear only when the next base could overflow (or on the first frame): a 1 MiB
	 * memset per 128 KiB frame cost more than the frame's block splitting. */
	if (c->idx_base == 0 || c->idx_base > UINT32_MAX - 2 * (c->max_input + 1)) {
		memset(c->hash, 0, ((size_t)1 << c->hash_alloc_log) * sizeof(uint32_t));
		if (c->hash2 != NULL)
			memset(c->hash2, 0, ((size_t)1 << c->hash2_alloc_log) * sizeof(uint32_t));
		if (c->hash3 != NULL)
			memset(c->hash3, 0, ((size_t)1 << c->hash3_alloc_log) * sizeof(uint32_t));
		if (c->idx_base != 0) /* calloc zeroed it for the first frame */
			zs_table_clear(c->chain, ((size_t)1 << c->chain_alloc_log) * sizeof(uint32_t));
		c->idx_base = (uint32_t)c->max_input + 1;
	}
	/* Tagged entries (match_fast.c) carry no base: no frame's output may depend on them. */
	if (c->hash_tagged) {
		memset(c->hash, 0, ((size_t)1 << c->hash_alloc_log) * sizeof(uint32_t));
		c->hash_tagged = 0;
	}
	memset(&c->entropy, 0, sizeof(c->entropy));
	c->store.rep[0] = ZS_REP_START_1;
	c->store.rep[1] = ZS_REP_START_2;
	c->store.rep[2] = ZS_REP_START_3;

	op += write_frame_header(op, src_len, checksum);
	size_t pos = 0;

	do {
		size_t n = src_len - pos > BLOCK_CONTENT_MAX ? BLOCK_CONTENT_MAX : src_len - pos;
		int last = pos + n == src_len;

		op += write_block(c, in, pos, pos + n, last, op, dst_cap - (size_t)(op - out));
		pos += n;
	} while (pos < src_len);
	c->idx_base += (uint32_t)c->max_input + 1;
	if (checksum) {
		zs_write32(op, (uint32_t)sq_xxh64(in, src_len, 0));
		op += 4;
	}
	return (size_t)(op - out);
}

ptrdiff_t zs_compress(zs_cctx *c, const void *src, size_t src_len, void *dst, size_t dst_cap,
		      int checksum)
{
	if (c == NULL || (src == NULL && src_len) || dst == NULL || src_len > c->max_input ||
	    src_len > 0xFFFFFFFFu)
		return ZS_ERR_PARAM;
	if (dst_cap >= zs_compress_bound(src_len))
		return (ptrdiff_t)compress_frame(c, src, src_len, dst, dst_cap, checksum);
	/* A tight dst (callers asking "smaller than the input, or nothing") goes through the
	 * context's own buffer, so no write ever depends on guessing the size first. */
	size_t n = compress_frame(c, src, src_len, c->frame_buf, zs_compress_bound(src_len), checksum);

	if (n > dst_cap)
		return ZS_ERR_DST_TOO_SMALL;
	memcpy(dst, c->frame_buf, n);
	return (ptrdiff_t)n;
}
