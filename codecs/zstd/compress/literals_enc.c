/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* literals_enc.c — the literals section of a compressed block (RFC 8878 "Literals Section"): raw, RLE,
 * Huffman-coded with a new tree, or treeless with the previous block's. */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/block_enc.h"

static size_t raw_literals_header(uint8_t *dst, unsigned type, size_t n)
{
	if (n < 32) {
		dst[0] = (uint8_t)(type | (n << 3));
		return 1;
	}
	if (n < 4096) {
		zs_write16(dst, (uint16_t)(type | (1u << 2) | (n << 4)));
		return 2;
	}
	zs_write24(dst, (uint32_t)(type | (3u << 2) | (n << 4)));
	return 3;
}

static size_t write_raw_literals(const uint8_t *lits, size_t n, uint8_t *dst, size_t cap)
{
	if (cap < n + 3)
		return 0;
	size_t h = raw_literals_header(dst, ZS_LIT_RAW, n);

	memcpy(dst + h, lits, n);
	return h + n;
}

/* Huffman-coded literals with table ct; tree_size bytes of description are already at
 * dst + header (0 for treeless). Returns the section size or 0 when it does not pay. */
static size_t write_huf_literals(const struct zs_huf_ctable *ct, const uint8_t *tree,
				 size_t tree_size, const uint8_t *lits, size_t n, uint8_t *dst,
				 size_t cap)
{
	size_t h = n <= 1023 ? 3 : n <= 16383 ? 4 : 5;
	int four = n >= 256;
	size_t limit = n + 3 < cap ? n + 3 : cap; /* no better than raw: give up */

	if (limit < h + tree_size + 1)
		return 0;
	memcpy(dst + h, tree, tree_size);
	size_t s = four ? zs_huf_encode_4(ct, lits, n, dst + h + tree_size, limit - h - tree_size)
			: zs_huf_encode_1(ct, lits, n, dst + h + tree_size, limit - h - tree_size);

	if (s == 0)
		return 0;
	size_t comp = tree_size + s;

	if (comp >= n || h + comp >= limit)
		return 0;
	uint32_t type = tree_size ? ZS_LIT_COMPRESSED : ZS_LIT_TREELESS;

	if (h == 3) {
		uint32_t v = type | ((four ? 1u : 0u) << 2) | ((uint32_t)n << 4) | ((uint32_t)comp << 14);

		zs_write24(dst, v);
	} else if (h == 4) {
		zs_write32(dst, type | (2u << 2) | ((uint32_t)n << 4) | ((uint32_t)comp << 18));
	} else {
		uint64_t v = type | (3u << 2) | ((uint64_t)n << 4) | ((uint64_t)comp << 22);

		zs_write32(dst, (uint32_t)v);
		dst[4] = (uint8_t)(v >> 32);
	}
	return h + comp;
}

/* counts[b]: how often byte b occurs in lits[0..n). Four tables, a byte of each 32-bit word
 * into each: runs of one byte (zeros in binaries) would otherwise chain every increment
 * through a store and its reload, several cycles a byte. */
static void histogram(const uint8_t *lits, size_t n, uint32_t *counts)
{
	uint32_t part[4][256];
	size_t i = 0;

	memset(part, 0, sizeof(part));
	for (; i + 4 <= n; i += 4) {
		uint32_t w = zs_read32(lits + i);

		part[0][w & 0xFF]++;
		part[1][(w >> 8) & 0xFF]++;
		part[2][(w >> 16) & 0xFF]++;
		part[3][w >> 24]++;
	}
	for (; i < n; i++)
		part[0][lits[i]]++;
	for (unsigned b = 0; b < 256; b++)
		counts[b] = part[0][b] + part[1][b] + part[2][b] + part[3][b];
}

/* Code length limits below this cost more payload than any description saves. */
#define MIN_CODE_LIMIT 5u

/* What the section will be: the choice zs_encode_literals makes and zs_literals_cost prices. */
struct lit_plan {
	unsigned type;      /* ZS_LIT_RAW, _RLE, _COMPRESSED (sc->tmp_huf), _TREELESS (prev's) */
	uint8_t tree[130];  /* the new table's description */
	size_t tree_size;
	uint64_t bits;      /* Huffman payload bits */
};

/* A fresh table for the histogram into sc->tmp_huf and pl->tree: its bits with the description,
 * or UINT64_MAX. With search, code length limits under the optimal lengths' longest are tried
 * while the total falls: they cost payload bits but give smaller weights, which describe in
 * fewer bytes, and on a 4 KiB frame the description is a tenth of the literals section. */
static uint64_t fresh_table(struct zs_block_scratch *sc, const uint32_t *counts,
			    unsigned max_symbol, int search, struct lit_plan *pl)
{
	struct zs_huf_lengths hl;
	struct zs_huf_ctable cand;
	uint8_t tree[sizeof(pl->tree)];

	if (!zs_huf_lengths(&hl, counts, max_symbol))
		return UINT64_MAX;
	unsigned limit = hl.max_len < ZS_HUF_ENC_MAX_BITS ? hl.max_len : ZS_HUF_ENC_MAX_BITS;

	if (!zs_huf_limit(&sc->tmp_huf, &hl, max_symbol, limit))
		return UINT64_MAX;
	pl->tree_size = zs_huf_write_tree(&sc->tmp_huf, pl->tree, sizeof(pl->tree));
	if (pl->tree_size == 0)
		return UINT64_MAX;
	uint64_t best = zs_huf_cost(&sc->tmp_huf, counts, max_symbol) + 8 * pl->tree_size;

	while (search && --limit >= MIN_CODE_LIMIT && zs_huf_limit(&cand, &hl, max_symbol, limit)) {
		size_t size = zs_huf_write_tree(&cand, tree, sizeof(tree));
		uint64_t bits = size ? zs_huf_cost(&cand, counts, max_symbol) + 8 * size : UINT64_MAX;

		if (bits >= best)
			break;
		best = bits;
		sc->tmp_huf = cand;
		memcpy(pl->tree, tree, size);
		pl->tree_size = size;
	}
	return best;
}

/* The choice for n literals of histogram counts. */
static void plan_literals(const struct zs_entropy *prev, struct zs_block_scratch *sc,
			  const uint32_t *counts, size_t n, int search, struct lit_plan *pl)
{
	unsigned max_symbol = 0, distinct = 0;

	pl->type = ZS_LIT_RAW;
	pl->tree_size = 0;
	for (unsigned s = 0; s < 256; s++) {
		if (counts[s]) {
			distinct++;
			max_symbol = s;
		}
	}
	if (n > 0 && distinct == 1 && n >= 2) {
		pl->type = ZS_LIT_RLE;
		return;
	}
	if (n < 32)
		return;
	/* Price the fresh table against reusing the previous one. */
	uint64_t new_bits = fresh_table(sc, counts, max_symbol, search, pl), old_bits = UINT64_MAX;

	if (prev->huf_valid)
		old_bits = zs_huf_cost(&prev->huf, counts, max_symbol);
	if (old_bits != UINT64_MAX && old_bits <= new_bits) {
		pl->type = ZS_LIT_TREELESS;
		pl->bits = old_bits;
	} else if (new_bits != UINT64_MAX) {
		pl->type = ZS_LIT_COMPRESSED;
		pl->bits = new_bits - 8 * pl->tree_size;
	}
}

size_t zs_encode_literals(const struct zs_entropy *prev, struct zs_entropy *next,
			  struct zs_block_scratch *sc, const uint8_t *lits, size_t n, uint8_t *dst,
			  size_t cap)
{
	struct lit_plan pl;
	uint32_t counts[256];

	histogram(lits, n, counts);
	next->huf_valid = prev->huf_valid;
	if (prev->huf_valid)
		next->huf = prev->huf;
	plan_literals(prev, sc, counts, n, sc->huf_search, &pl);
	if (pl.type == ZS_LIT_RLE) {
		if (cap < 4)
			return 0;
		size_t h = raw_literals_header(dst, ZS_LIT_RLE, n);

		dst[h] = lits[0];
		return h + 1;
	}
	size_t best = 0;

	if (pl.type == ZS_LIT_TREELESS) {
		best = write_huf_literals(&prev->huf, pl.tree, 0, lits, n, dst, cap);
	} else if (pl.type == ZS_LIT_COMPRESSED) {
		best = write_huf_literals(&sc->tmp_huf, pl.tree, pl.tree_size, lits, n, dst, cap);
		if (best) {
			next->huf_valid = 1;
			next->huf = sc->tmp_huf;
		}
	}
	if (best)
		return best;
	return write_raw_literals(lits, n, dst, cap);
}

size_t zs_literals_cost(const struct zs_entropy *prev, struct zs_entropy *next,
			struct zs_block_scratch *sc, const uint32_t *counts, size_t n)
{
	struct lit_plan pl;
	size_t raw = (n < 32 ? 1 : n < 4096 ? 2 : 3) + n;

	next->huf_valid = prev->huf_valid;
	if (prev->huf_valid)
		next->huf = prev->huf;
	plan_literals(prev, sc, counts, n, 0, &pl);
	if (pl.type == ZS_LIT_RLE)
		return raw - n + 1;
	if (pl.type == ZS_LIT_RAW)
		return raw;
	/* Header, table, streams (each ends on a padded byte), the jump table of four. */
	size_t huf = (n <= 1023 ? 3 : n <= 16383 ? 4 : 5) + pl.tree_size + (size_t)(pl.bits / 8) +
		     (n >= 256 ? 6 + 4 : 1);

	if (huf >= raw)
		return raw;
	if (pl.type == ZS_LIT_COMPRESSED) {
		next->huf_valid = 1;
		next->huf = sc->tmp_huf;
	}
	return huf;
}
