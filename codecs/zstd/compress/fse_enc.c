/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* fse_enc.c — FSE normalization, table descriptions and encoding tables (RFC 8878 section 4.1). */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/compress/fse_enc.h"
#include "codecs/zstd/compress/price.h"

unsigned zs_fse_pick_log(uint32_t total, unsigned max_symbol, unsigned max_log)
{
	/* About four samples per cell at most (more cells only cost header bits), but enough
	 * cells to hold every symbol. */
	unsigned log = max_log;
	unsigned from_total = total > 8 ? zs_highbit32(total - 1) - 2 : 1;
	unsigned need = zs_highbit32(max_symbol + 1) + 2;
	unsigned need_total = total > 0 ? zs_highbit32(total) + 1 : 1;

	if (need_total < need)
		need = need_total;
	if (from_total < log)
		log = from_total;
	if (need > log)
		log = need;
	if (log < 5)
		log = 5;
	if (log > max_log)
		log = max_log;
	return log;
}

void zs_fse_normalize(const uint32_t *counts, unsigned max_symbol, uint32_t total, unsigned log,
		      int16_t *norm)
{
	uint32_t size = 1u << log;
	int32_t sum = 0;

	for (unsigned s = 0; s <= max_symbol; s++) {
		if (counts[s] == 0) {
			norm[s] = 0;
			continue;
		}
		uint64_t scaled = ((uint64_t)counts[s] * size * 2 + total) / (2 * (uint64_t)total);

		norm[s] = (int16_t)(scaled < 1 ? 1 : scaled);
		sum += norm[s];
	}
	/* Fix the rounding drift one cell at a time where it costs least: a cell moved to or from
	 * symbol s changes the total cost by about counts[s] / norm[s]. */
	while (sum != (int32_t)size) {
		int best = -1;

		for (unsigned s = 0; s <= max_symbol; s++) {
			if (norm[s] <= 0 || (sum > (int32_t)size && norm[s] == 1))
				continue;
			if (best < 0) {
				best = (int)s;
				continue;
			}
			uint64_t a = (uint64_t)counts[s] * (uint64_t)(sum > (int32_t)size ? norm[best] - 1 : norm[best]);
			uint64_t b = (uint64_t)counts[best] * (uint64_t)(sum > (int32_t)size ? norm[s] - 1 : norm[s]);

			/* Growing: the largest counts/norm gains most. Shrinking: the smallest
			 * counts/(norm-1) loses least. */
			if (sum < (int32_t)size ? a > b : a < b)
				best = (int)s;
		}
		if (sum < (int32_t)size) {
			norm[best]++;
			sum++;
		} else {
			norm[best]--;
			sum--;
		}
	}
}

/* Moves 32 finished bits of the header from acc to *op once there are that many; 0 when the
 * destination is full. */
static int flush32(uint64_t *acc, unsigned *nbits, uint8_t **op, const uint8_t *end)
{
	if (*nbits < 32)
		return 1;
	if (end - *op < 4)
		return 0;
	zs_write32(*op, (uint32_t)*acc);
	*op += 4;
	*acc >>= 32;
	*nbits -= 32;
	return 1;
}

size_t zs_fse_write_header(const int16_t *norm, unsigned max_symbol, unsigned log, uint8_t *dst,
			   size_t cap)
{
	uint8_t *op = dst, *end = dst + cap;
	uint64_t acc = log - 5;
	unsigned nbits = 4;
	int32_t remaining = (1 << log) + 1;
	int32_t threshold = 1 << log;
	unsigned width = log + 1;
	unsigned s = 0;

	while (remaining > 1 && s <= max_symbol) {
		int32_t value = norm[s] + 1;
		int32_t small_max = 2 * threshold - 1 - remaining;

		if (value < small_max) {
			acc |= (uint64_t)value << nbits;
			nbits += width - 1;
		} else if (value < threshold) {
			acc |= (uint64_t)value << nbits;
			nbits += width;
		} else {
			acc |= (uint64_t)(value + small_max) << nbits;
			nbits += width;
		}
		remaining -= norm[s] < 0 ? -norm[s] : norm[s];
		s++;
		if (value == 1) {
			unsigned run = 0;

			while (s + run <= max_symbol && norm[s + run] == 0)
				run++;
			s += run;
			while (run >= 3) {
				acc |= (uint64_t)3 << nbits;
				nbits += 2;
				run -= 3;
				if (!flush32(&acc, &nbits, &op, end))
					return 0;
			}
			acc |= (uint64_t)run << nbits;
			nbits += 2;
		}
		while (remaining < threshold && threshold > 1) {
			threshold >>= 1;
			width--;
		}
		if (!flush32(&acc, &nbits, &op, end))
			return 0;
	}
	while (nbits > 0) {
		if (op >= end)
			return 0;
		*op++ = (uint8_t)acc;
		acc >>= 8;
		nbits = nbits > 8 ? nbits - 8 : 0;
	}
	return (size_t)(op - dst);
}

void zs_fse_build_ctable(struct zs_fse_ctable *ct, const int16_t *norm, unsigned max_symbol,
			 unsigned log)
{
	uint32_t size = 1u << log, mask = size - 1, high = size - 1;
	uint8_t spread[1u << ZS_FSE_ENC_MAX_LOG];
	uint32_t cumul[ZS_FSE_ENC_MAX_SYMBOLS + 1];

	ct->log = log;
	ct->max_symbol = max_symbol;
	memset(ct->norm, 0, sizeof(ct->norm));
	memcpy(ct->norm, norm, (max_symbol + 1) * sizeof(*norm));
	/* The same cell layout the decoder builds: "less than one" symbols at the top, the others
	 * scattered with the fixed step. */
	cumul[0] = 0;
	for (unsigned s = 0; s <= max_symbol; s++) {
		uint32_t n = norm[s] == -1 ? 1u : (uint32_t)norm[s];

		if (norm[s] == -1)
			spread[high--] = (uint8_t)s;
		cumul[s + 1] = cumul[s] + n;
	}
	uint32_t step = (size >> 1) + (size >> 3) + 3, pos = 0;

	for (unsigned s = 0; s <= max_symbol; s++) {
		for (int i = 0; i < norm[s]; i++) {
			spread[pos] = (uint8_t)s;
			do {
				pos = (pos + step) & mask;
			} while (pos > high);
		}
	}
	uint32_t next[ZS_FSE_ENC_MAX_SYMBOLS + 1];

	memcpy(next, cumul, sizeof(next));
	for (uint32_t u = 0; u < size; u++)
		ct->states[next[spread[u]]++] = (uint16_t)(size + u);
	for (unsigned s = 0; s <= max_symbol; s++) {
		int32_t n = norm[s];

		if (n == 0) {
			/* Never coded; a harmless entry keeps stray use in bounds. */
			ct->sym[s].delta_nbits = ((log + 1) << 16) - size;
			ct->sym[s].delta_find = 0;
		} else if (n == -1 || n == 1) {
			ct->sym[s].delta_nbits = (log << 16) - size;
			ct->sym[s].delta_find = (int32_t)cumul[s] - 1;
		} else {
			unsigned max_bits = log - zs_highbit32((uint32_t)n - 1);
			uint32_t min_state_plus = (uint32_t)n << max_bits;

			ct->sym[s].delta_nbits = (max_bits << 16) - min_state_plus;
			ct->sym[s].delta_find = (int32_t)cumul[s] - n;
		}
	}
}

uint64_t zs_fse_cost(const uint32_t *counts, unsigned max_symbol, const int16_t *norm,
		     unsigned norm_max_symbol, unsigned log)
{
	uint64_t bits = 0;

	for (unsigned s = 0; s <= max_symbol; s++) {
		if (counts[s] == 0)
			continue;
		if (s > norm_max_symbol || norm[s] == 0)
			return UINT64_MAX;
		uint32_t n = norm[s] == -1 ? 1u : (uint32_t)norm[s];

		bits += (uint64_t)counts[s] * ((log << 8) - zs_log2_fixed(n));
	}
	return bits;
}
