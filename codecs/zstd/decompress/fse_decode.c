/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* fse_decode.c — FSE table descriptions (variable-width counts, zero-run flags) and the cell spread. */
#include "config.h"

#include <string.h>

#include "codecs/zstd/decompress/fse_decode.h"
#include "codecs/zstd/common/mem.h"

/* A description is read through a window of this many bytes: 8-byte loads anywhere below
 * DESC_WINDOW - 8 need no bound check. No description comes near it, valid or not: the symbol
 * bound stops the reader after at most 53 counts of at most 10 bits and 70 zero-run flags
 * (under 700 bits); the check against `limit` after each count keeps it so regardless. */
#define DESC_WINDOW 128u

/* Up to 32 bits at bit position pos (below (DESC_WINDOW - 8) * 8) of the window. */
static inline uint32_t peek_forward(const uint8_t *in, size_t pos)
{
	return (uint32_t)(zs_read64(in + (pos >> 3)) >> (pos & 7));
}

ptrdiff_t zs_fse_read_counts(const uint8_t *src, size_t len, int16_t *norm, unsigned max_symbol,
			     unsigned max_log, unsigned *log, unsigned *nsymbols)
{
	uint8_t padded[DESC_WINDOW];
	const uint8_t *in = src;
	unsigned symbol = 0;

	if (len == 0)
		return -1;
	/* A short input is copied with zeros after it; a long one is read in place. */
	if (len < DESC_WINDOW) {
		memset(padded, 0, sizeof(padded));
		memcpy(padded, src, len);
		in = padded;
	}
	/* Past this the description is truncated, or too long to be valid: a failure either way,
	 * and every load stays inside the window. */
	size_t limit = len < DESC_WINDOW - 16 ? len * 8 : (DESC_WINDOW - 16) * 8;
	unsigned acc_log = (in[0] & 15u) + 5u;

	if (acc_log > max_log)
		return -1;
	size_t pos = 4;
	int32_t remaining = (1 << acc_log) + 1;
	int32_t threshold = 1 << acc_log;
	unsigned width = acc_log + 1;

	uint32_t bits = peek_forward(in, pos);

	while (remaining > 1) {
		if (symbol > max_symbol)
			return -1;
		/* The next count's bits come from a load at this count's position, shifted by this
		 * count's width once known: the load is off the chain from one count to the next (a
		 * load at the next position waited for this count's width, then took L1's latency). */
		uint64_t window = zs_read64(in + (pos >> 3));
		/* Values below `small_max` fit in width-1 bits; the rest need width bits and fold
		 * back. Selected by conditional moves: which one it is follows the data. */
		int32_t small_max = 2 * threshold - 1 - remaining;
		int32_t low = (int32_t)(bits & (uint32_t)(threshold - 1));
		int32_t full = (int32_t)(bits & (uint32_t)(2 * threshold - 1));
		int is_small = low < small_max;
		int32_t big = full >= threshold ? full - small_max : full;
		int32_t count = (is_small ? low : big) - 1;

		unsigned step = width - (unsigned)is_small;

		bits = (uint32_t)(window >> ((pos & 7) + step));
		pos += step;
		norm[symbol++] = (int16_t)count;
		remaining -= count < 0 ? 1 : count;
		if (count == 0) {
			/* Zero counts are followed by 2-bit repeat flags; 3 means "three more, continue". */
			for (;;) {
				unsigned flag = peek_forward(in, pos) & 3u;

				pos += 2;
				if (symbol + flag > max_symbol + 1)
					return -1;
				for (unsigned i = 0; i < flag; i++)
					norm[symbol++] = 0;
				if (flag != 3)
					break;
				if (pos > limit)
					return -1;
			}
			bits = peek_forward(in, pos);
		}
		if (pos > limit)
			return -1;
		/* The next value's range shrinks to the largest power of two not above what
		 * remains. A branch, not a minimum: it is taken a few times a table and predicts
		 * well, and keeps the bit scan off the chain from one count to the next. */
		if (__builtin_expect(remaining < threshold, 0)) {
			if (remaining < 2)
				break; /* the end, or corrupt: checked below */
			width = zs_highbit32((uint32_t)remaining) + 1;
			threshold = 1 << (width - 1);
		}
	}
	if (remaining != 1 || pos > limit)
		return -1;
	/* The loop ends on a present symbol: `symbol` is one past the last one. */
	*nsymbols = symbol;
	*log = acc_log;
	return (ptrdiff_t)((pos + 7) >> 3);
}

int zs_fse_spread(uint8_t *symbols, uint16_t *next_state, const int16_t *norm, unsigned nsymbols,
		  unsigned log)
{
	uint32_t size = 1u << log;
	uint32_t mask = size - 1;
	uint32_t high = size - 1;
	uint32_t total = 0;
	/* Symbols in order, each repeated by its count, 16 bytes per store: the slack takes the
	 * last store's overrun. */
	uint8_t runs[(1u << ZS_FSE_MAX_LOG) + 16];
	uint32_t nruns = 0;

	if (log > ZS_FSE_MAX_LOG || nsymbols > ZS_FSE_MAX_SYMBOLS || nsymbols == 0)
		return -1;
	/* Trailing absent symbols (most of an alphabet, often) need no run and no counter. */
	unsigned used = nsymbols;

	while (used > 1 && norm[used - 1] == 0)
		used--;
	for (unsigned s = 0; s < used; s++) {
		int count = norm[s];

		if (count < -1)
			return -1;
		/* Without branches on the count, which follows the data: a "less than 1" symbol
		 * takes one state and no run; the first 16 bytes of a run are stored always (a
		 * run shorter than that, or none, is overwritten by the next one). */
		int lowprob = count == -1;
		uint32_t run = lowprob ? 0 : (uint32_t)count;

		high -= (uint32_t)lowprob;
		next_state[s] = (uint16_t)(run + (uint32_t)lowprob);
		total += run + (uint32_t)lowprob;
		if (total > size)
			return -1;
		uint64_t eight[2];

		eight[0] = (uint64_t)s * 0x0101010101010101ull;
		eight[1] = eight[0];
		memcpy(runs + nruns, eight, 16);
		for (uint32_t k = 16; k < run; k += 16)
			memcpy(runs + nruns + k, eight, 16);
		nruns += run;
	}
	if (total != size)
		return -1;
	memset(runs + nruns, 0, 8);

	/* The odd step visits every cell once; cells above `high` belong to the "less than 1"
	 * symbols, so the run index only advances on the others. Stores to those cells are
	 * overwritten below: no data-dependent branch in the loop. */
	uint32_t step = (size >> 1) + (size >> 3) + 3;
	uint32_t pos = 0, k = 0;

	if (high == size - 1 && size >= 4) {
		/* Without reserved cells, four independent stores per step. */
		uint32_t s1 = step & mask, s2 = (2 * step) & mask, s3 = (3 * step) & mask;

		for (uint32_t i = 0; i < size; i += 4) {
			symbols[pos] = runs[i];
			symbols[(pos + s1) & mask] = runs[i + 1];
			symbols[(pos + s2) & mask] = runs[i + 2];
			symbols[(pos + s3) & mask] = runs[i + 3];
			pos = (pos + 4 * step) & mask;
		}
		return 0;
	}
	/* With every cell reserved (nruns 0) `high` has wrapped: nothing to scatter. */
	for (uint32_t i = 0; i < size && nruns != 0; i++) {
		symbols[pos] = runs[k];
		k += pos <= high;
		pos = (pos + step) & mask;
	}
	/* "Less than 1" symbols take single cells from the top, in symbol order. */
	uint32_t low = size - nruns;

	for (unsigned s = 0, placed = 0; s < used && placed < low; s++)
		if (norm[s] == -1)
			symbols[size - 1 - placed++] = (uint8_t)s;
	return 0;
}

int zs_fse_build(struct zs_fse_cell *cells, const int16_t *norm, unsigned nsymbols, unsigned log)
{
	uint8_t symbols[1u << ZS_FSE_MAX_LOG];
	uint16_t next_state[ZS_FSE_MAX_SYMBOLS];
	uint32_t size = 1u << log;

	if (zs_fse_spread(symbols, next_state, norm, nsymbols, log) != 0)
		return -1;
	/* Occurrences in state order: the lowest states of a symbol take one more bit. */
	for (uint32_t u = 0; u < size; u++) {
		unsigned s = symbols[u];
		uint32_t n = next_state[s]++;
		unsigned nbits = log - zs_highbit32(n);

		cells[u].symbol = (uint8_t)s;
		cells[u].nbits = (uint8_t)nbits;
		cells[u].next_base = (uint16_t)((n << nbits) - size);
	}
	return 0;
}
