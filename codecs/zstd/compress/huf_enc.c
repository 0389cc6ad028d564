/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* huf_enc.c — Huffman code construction, length limiting and literal stream coding (RFC 8878 section 4.2). */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/compress/bitwriter.h"
#include "codecs/zstd/compress/fse_enc.h"
#include "codecs/zstd/compress/huf_enc.h"

/* Symbols ordered by count, ties by symbol value, so the result is deterministic: sym[] comes
 * in ascending symbol order and a stable radix sort on the counts, a byte per pass, keeps it
 * (an insertion sort of 256 symbols cost more than the rest of the block's entropy coding). */
static void sort_by_count(uint16_t *sym, unsigned n, const uint32_t *counts)
{
	uint16_t tmp[256], *from = sym, *to = tmp;
	uint32_t max = 0;

	for (unsigned i = 0; i < n; i++)
		if (counts[sym[i]] > max)
			max = counts[sym[i]];
	for (unsigned shift = 0; shift < 32 && (max >> shift) != 0; shift += 8) {
		unsigned start[257] = {0};

		for (unsigned i = 0; i < n; i++)
			start[((counts[from[i]] >> shift) & 255u) + 1]++;
		for (unsigned b = 1; b < 257; b++)
			start[b] += start[b - 1];
		for (unsigned i = 0; i < n; i++)
			to[start[(counts[from[i]] >> shift) & 255u]++] = from[i];
		uint16_t *t = from;

		from = to;
		to = t;
	}
	if (from != sym)
		memcpy(sym, from, n * sizeof(*sym));
}

/* Optimal lengths by the two-queue method: leaves sorted ascending, merged nodes come out in
 * non-decreasing weight, so the two lightest are always at one of the queue heads. */
static void optimal_lengths(const uint16_t *sym, unsigned n, const uint32_t *counts, uint8_t *depth_out)
{
	uint64_t weight[512];
	uint16_t parent[512];
	uint8_t depth[512];
	unsigned leaf = 0, node = n, next = n;

	for (unsigned i = 0; i < n; i++)
		weight[i] = counts[sym[i]];
	while (next < 2 * n - 1) {
		unsigned pick[2];

		for (int k = 0; k < 2; k++) {
			if (leaf < n && (node >= next || weight[leaf] <= weight[node]))
				pick[k] = leaf++;
			else
				pick[k] = node++;
		}
		weight[next] = weight[pick[0]] + weight[pick[1]];
		parent[pick[0]] = parent[pick[1]] = (uint16_t)next;
		next++;
	}
	depth[2 * n - 2] = 0;
	for (int i = (int)(2 * n) - 3; i >= 0; i--)
		depth[i] = (uint8_t)(depth[parent[i]] + 1);
	for (unsigned i = 0; i < n; i++)
		depth_out[i] = depth[i];
}

int zs_huf_lengths(struct zs_huf_lengths *hl, const uint32_t *counts, unsigned max_symbol)
{
	hl->n = 0;
	for (unsigned s = 0; s <= max_symbol; s++)
		if (counts[s])
			hl->sym[hl->n++] = (uint16_t)s;
	if (hl->n < 2)
		return 0;
	sort_by_count(hl->sym, hl->n, counts);
	optimal_lengths(hl->sym, hl->n, counts, hl->len);
	hl->max_len = 0;
	for (unsigned i = 0; i < hl->n; i++)
		if (hl->len[i] > hl->max_len)
			hl->max_len = hl->len[i];
	return 1;
}

int zs_huf_limit(struct zs_huf_ctable *ct, const struct zs_huf_lengths *hl, unsigned max_symbol,
		 unsigned limit)
{
	const uint16_t *sym = hl->sym;
	uint8_t len[256];
	unsigned n = hl->n;

	if (n < 2 || limit > ZS_HUF_ENC_MAX_BITS || ((size_t)1 << limit) < n)
		return 0;
	memset(ct->len, 0, sizeof(ct->len));
	/* Clamp to the limit, then repay the Kraft overdraft by lengthening a code of the longest
	 * length under the limit (its rarest symbol), which costs the fewest bits. Only the number
	 * of codes per length matters: the lengths go back to sym[] (ascending by count) longest
	 * first, so the rarest symbols always hold the longest codes. */
	unsigned count_of[ZS_HUF_ENC_MAX_BITS + 2] = {0};
	int64_t kraft = 0, full = (int64_t)1 << limit;

	for (unsigned i = 0; i < n; i++) {
		unsigned l = hl->len[i] < limit ? hl->len[i] : limit;

		count_of[l]++;
		kraft += (int64_t)1 << (limit - l);
	}
	while (kraft > full) {
		unsigned m = limit - 1;

		while (m > 0 && count_of[m] == 0)
			m--;
		if (m == 0)
			return 0;
		count_of[m]--;
		count_of[m + 1]++;
		kraft -= (int64_t)1 << (limit - m - 1);
	}
	for (unsigned l = limit, i = 0; l > 0; l--)
		for (unsigned k = 0; k < count_of[l]; k++)
			len[i++] = (uint8_t)l;
	/* Spend any slack on the most frequent symbols: the weights must describe a full tree. */
	for (int pass = 0; kraft < full && pass < 64; pass++) {
		for (int i = (int)n - 1; i >= 0 && kraft < full; i--) {
			if (len[i] > 1 && ((int64_t)1 << (limit - len[i])) <= full - kraft) {
				kraft += (int64_t)1 << (limit - len[i]);
				len[i]--;
			}
		}
	}
	if (kraft != full)
		return 0;

	unsigned max_len = 0, per_len[ZS_HUF_ENC_MAX_BITS + 2] = {0};

	for (unsigned i = 0; i < n; i++) {
		ct->len[sym[i]] = len[i];
		per_len[len[i]]++;
		if (len[i] > max_len)
			max_len = len[i];
	}
	/* Canonical codes: longest first from 0, ascending symbol order within a length. */
	uint32_t start[ZS_HUF_ENC_MAX_BITS + 2];

	start[max_len] = 0;
	for (unsigned l = max_len; l > 1; l--)
		start[l - 1] = (start[l] + per_len[l]) >> 1;
	ct->max_symbol = 0;
	for (unsigned s = 0; s <= max_symbol; s++) {
		if (ct->len[s]) {
			ct->code[s] = (uint16_t)start[ct->len[s]]++;
			ct->max_symbol = s;
		} else {
			ct->code[s] = 0;
		}
	}
	for (unsigned s = max_symbol + 1; s < 256; s++)
		ct->code[s] = 0;
	ct->max_len = max_len;
	return 1;
}

/* Weights through FSE with two interleaved states (at most accuracy 6). */
static size_t write_fse_weights(const uint8_t *w, unsigned nw, uint8_t *dst, size_t cap)
{
	uint32_t counts[16] = {0};
	unsigned max_w = 0, distinct = 0;
	int16_t norm[16];
	struct zs_fse_ctable ct;

	for (unsigned i = 0; i < nw; i++) {
		if (counts[w[i]]++ == 0)
			distinct++;
		if (w[i] > max_w)
			max_w = w[i];
	}
	/* One distinct value leaves the second state without bits to end on. */
	if (distinct < 2 || nw < 2 || cap < 2)
		return 0;
	unsigned log = zs_fse_pick_log(nw, max_w, 6);

	zs_fse_normalize(counts, max_w, nw, log, norm);
	size_t h = zs_fse_write_header(norm, max_w, log, dst, cap);

	if (h == 0)
		return 0;
	zs_fse_build_ctable(&ct, norm, max_w, log);

	struct zs_bitw bw;
	uint32_t state[2];

	zs_bitw_init(&bw, dst + h, cap - h);
	/* The reader takes even positions from its first state, odd from its second, and ends
	 * when a state update runs out of bits: the last two weights start the states. */
	state[(nw - 1) & 1] = zs_fse_init_state(&ct, w[nw - 1]);
	state[(nw - 2) & 1] = zs_fse_init_state(&ct, w[nw - 2]);
	for (int i = (int)nw - 3; i >= 0; i--) {
		zs_fse_encode(&bw, &ct, &state[i & 1], w[i]);
		zs_bitw_flush(&bw);
	}
	zs_fse_flush_state(&bw, &ct, state[1]);
	zs_fse_flush_state(&bw, &ct, state[0]);
	size_t s = zs_bitw_close(&bw);

	return s == 0 ? 0 : h + s;
}

size_t zs_huf_write_tree(const struct zs_huf_ctable *ct, uint8_t *dst, size_t cap)
{
	uint8_t w[256], tmp[128];
	unsigned nw = ct->max_symbol; /* the last symbol's weight is implied */
	size_t fse_size = 0, direct_size = nw <= 128 ? 1 + (nw + 1) / 2 : 0;

	for (unsigned s = 0; s < nw; s++)
		w[s] = ct->len[s] ? (uint8_t)(ct->max_len + 1 - ct->len[s]) : 0;
	fse_size = write_fse_weights(w, nw, tmp, sizeof(tmp) - 1);
	if (fse_size > 0 && (direct_size == 0 || fse_size + 1 < direct_size)) {
		if (cap < fse_size + 1)
			return 0;
		dst[0] = (uint8_t)fse_size;
		memcpy(dst + 1, tmp, fse_size);
		return fse_size + 1;
	}
	if (direct_size == 0 || cap < direct_size)
		return 0;
	dst[0] = (uint8_t)(127 + nw);
	for (unsigned i = 0; i < nw; i += 2)
		dst[1 + i / 2] = (uint8_t)((w[i] << 4) | (i + 1 < nw ? w[i + 1] : 0));
	return direct_size;
}

uint64_t zs_huf_cost(const struct zs_huf_ctable *ct, const uint32_t *counts, unsigned max_symbol)
{
	uint64_t bits = 0;

	for (unsigned s = 0; s <= max_symbol; s++) {
		if (counts[s] == 0)
			continue;
		if (ct->len[s] == 0)
			return UINT64_MAX;
		bits += (uint64_t)counts[s] * ct->len[s];
	}
	return bits;
}

static inline __attribute__((always_inline)) size_t
encode_1(const struct zs_huf_ctable *ct, const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
	struct zs_bitw bw;
	size_t i = n;

	zs_bitw_init(&bw, dst, cap);
	/* Written last to first: the reader walks the stream backwards. */
	while (i >= 4) {
		zs_bitw_put(&bw, ct->code[src[i - 1]], ct->len[src[i - 1]]);
		zs_bitw_put(&bw, ct->code[src[i - 2]], ct->len[src[i - 2]]);
		zs_bitw_put(&bw, ct->code[src[i - 3]], ct->len[src[i - 3]]);
		zs_bitw_put(&bw, ct->code[src[i - 4]], ct->len[src[i - 4]]);
		zs_bitw_flush(&bw);
		i -= 4;
	}
	while (i > 0) {
		i--;
		zs_bitw_put(&bw, ct->code[src[i]], ct->len[src[i]]);
	}
	return zs_bitw_close(&bw);
}

static size_t encode_1_generic(const struct zs_huf_ctable *ct, const uint8_t *src, size_t n,
			       uint8_t *dst, size_t cap)
{
	return encode_1(ct, src, n, dst, cap);
}

#if ZS_HAVE_BMI2_PATH
/* A variable shift a symbol: without the CL register it is one instruction, not three. */
ZS_TARGET_BMI2 static size_t encode_1_bmi2(const struct zs_huf_ctable *ct, const uint8_t *src,
					   size_t n, uint8_t *dst, size_t cap)
{
	return encode_1(ct, src, n, dst, cap);
}
#endif

size_t zs_huf_encode_1(const struct zs_huf_ctable *ct, const uint8_t *src, size_t n, uint8_t *dst,
		       size_t cap)
{
#if ZS_HAVE_BMI2_PATH
	if (zs_cpu_has_bmi2())
		return encode_1_bmi2(ct, src, n, dst, cap);
#endif
	return encode_1_generic(ct, src, n, dst, cap);
}

size_t zs_huf_encode_4(const struct zs_huf_ctable *ct, const uint8_t *src, size_t n, uint8_t *dst,
		       size_t cap)
{
	size_t seg = (n + 3) / 4, pos = 6;

	if (n < 16 || cap < 6)
		return 0;
	for (int k = 0; k < 4; k++) {
		size_t from = seg * (size_t)k, len = k < 3 ? seg : n - 3 * seg;
		size_t s = zs_huf_encode_1(ct, src + from, len, dst + pos, cap - pos);

		if (s == 0 || (k < 3 && s > 65535))
			return 0;
		if (k < 3)
			zs_write16(dst + 2 * k, (uint16_t)s);
		pos += s;
	}
	return pos;
}
