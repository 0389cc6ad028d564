/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* fse_decode.c — FSE table descriptions (variable-width counts, zero-run flags) and the cell spread. */
#include "config.h"

#include <string.h>

#include "codecs/zstd/decompress/fse_decode.h"
#include "codecs/zstd/common/mem.h"

/* Up to 32 bits at bit position pos of a forward little-endian stream; bytes past the end read
 * as zero (the caller rejects a description that ends past len). */
static uint32_t peek_forward(const uint8_t *src, size_t len, size_t pos)
{
	size_t byte = pos >> 3;
	uint64_t v = 0;

	if (byte + 8 <= len) {
		v = zs_read64(src + byte);
	} else {
		for (size_t i = 0; i < 8 && byte + i < len; i++)
			v |= (uint64_t)src[byte + i] << (8 * i);
	}
	return (uint32_t)(v >> (pos & 7));
}

ptrdiff_t zs_fse_read_counts(const uint8_t *src, size_t len, int16_t *norm, unsigned max_symbol,
			     unsigned max_log, unsigned *log)
{
	size_t pos = 0;
	unsigned symbol = 0;

	if (len == 0)
		return -1;
	unsigned acc_log = (src[0] & 15u) + 5u;

	if (acc_log > max_log)
		return -1;
	pos = 4;

	int32_t remaining = (1 << acc_log) + 1;
	int32_t threshold = 1 << acc_log;
	unsigned width = acc_log + 1;

	while (remaining > 1) {
		if (symbol > max_symbol)
			return -1;
		uint32_t bits = peek_forward(src, len, pos);
		/* Values below `small_max` fit in width-1 bits; the rest need width bits and fold back. */
		int32_t small_max = 2 * threshold - 1 - remaining;
		int32_t value;

		if ((int32_t)(bits & (uint32_t)(threshold - 1)) < small_max) {
			value = (int32_t)(bits & (uint32_t)(threshold - 1));
			pos += width - 1;
		} else {
			value = (int32_t)(bits & (uint32_t)(2 * threshold - 1));
			if (value >= threshold)
				value -= small_max;
			pos += width;
		}
		int32_t count = value - 1;

		norm[symbol++] = (int16_t)count;
		remaining -= count < 0 ? -count : count;
		if (count == 0) {
			/* Zero counts are followed by 2-bit repeat flags; 3 means "three more, continue". */
			for (;;) {
				unsigned flag = peek_forward(src, len, pos) & 3u;

				pos += 2;
				if (symbol + flag > max_symbol + 1)
					return -1;
				for (unsigned i = 0; i < flag; i++)
					norm[symbol++] = 0;
				if (flag != 3)
					break;
				if (pos > len * 8)
					return -1;
			}
		}
		if (pos > len * 8)
			return -1;
		while (remaining < threshold && threshold > 1) {
			threshold >>= 1;
			width--;
		}
	}
	if (remaining != 1 || pos > len * 8)
		return -1;
	for (unsigned s = symbol; s <= max_symbol; s++)
		norm[s] = 0;
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
	/* Symbols in order, each repeated by its count, 8 bytes per store: the slack takes the
	 * last store's overrun. */
	uint8_t runs[(1u << ZS_FSE_MAX_LOG) + 8];
	uint32_t nruns = 0;

	if (log > ZS_FSE_MAX_LOG || nsymbols > ZS_FSE_MAX_SYMBOLS || nsymbols == 0)
		return -1;
	/* "Less than 1" symbols take single cells from the top, in symbol order. */
	for (unsigned s = 0; s < nsymbols; s++) {
		int count = norm[s];

		if (count == -1) {
			symbols[high--] = (uint8_t)s;
			next_state[s] = 1;
			total += 1;
			continue;
		}
		if (count < 0 || total + (uint32_t)count > size)
			return -1;
		next_state[s] = (uint16_t)count;
		total += (uint32_t)count;
		uint64_t eight = (uint64_t)s * 0x0101010101010101ull;

		for (int k = 0; k < count; k += 8)
			memcpy(runs + nruns + (uint32_t)k, &eight, 8);
		nruns += (uint32_t)count;
	}
	if (total != size)
		return -1;

	uint32_t step = (size >> 1) + (size >> 3) + 3;
	uint32_t pos = 0;

	if (high == size - 1 && size >= 2) {
		/* No cell is reserved: the odd step visits every cell once, no skipping. */
		for (uint32_t i = 0; i < size; i += 2) {
			symbols[pos] = runs[i];
			symbols[(pos + step) & mask] = runs[i + 1];
			pos = (pos + 2 * step) & mask;
		}
		return 0;
	}
	for (uint32_t i = 0; i < nruns; i++) {
		symbols[pos] = runs[i];
		do {
			pos = (pos + step) & mask;
		} while (pos > high);
	}
	return pos == 0 ? 0 : -1;
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
