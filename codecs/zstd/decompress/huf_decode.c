/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* huf_decode.c — Huffman weights (direct or FSE-compressed), table construction, 1- and 4-stream decoding. */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/bitstream.h"
#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/decompress/fse_decode.h"
#include "codecs/zstd/decompress/huf_decode.h"

#define MAX_WEIGHT_SYMBOL 12u /* weights are 0..11 */

/* One state's turn at the weights: its symbol, then its update. 1 when the update needs more
 * bits than are left: the other state's symbol then ends the list. */
static inline __attribute__((always_inline)) int weight_turn(const struct zs_fse_cell *cells,
							    unsigned *state, unsigned other,
							    struct zs_bitin *in, int64_t *left,
							    uint8_t *weights, int *n)
{
	struct zs_fse_cell c = cells[*state];

	weights[(*n)++] = c.symbol;
	if (c.nbits > *left) {
		weights[(*n)++] = cells[other].symbol;
		return 1;
	}
	*left -= c.nbits;
	*state = c.next_base + (unsigned)zs_bitin_read(in, c.nbits);
	return 0;
}

/* FSE-compressed weights: two interleaved states over one backward stream, stopping when an
 * update needs more bits than the stream has left (RFC 8878 4.2.1.2). Counting the bits left
 * replaces the reader's overflow test after every symbol. Returns the weight count or -1. */
static int read_fse_weights(uint8_t *weights, const uint8_t *src, size_t len)
{
	int16_t norm[MAX_WEIGHT_SYMBOL + 1];
	struct zs_fse_cell cells[1u << ZS_HUF_WEIGHT_LOG_MAX];
	unsigned log, nsymbols;
	ptrdiff_t used = zs_fse_read_counts(src, len, norm, MAX_WEIGHT_SYMBOL, ZS_HUF_WEIGHT_LOG_MAX,
					    &log, &nsymbols);

	if (used < 0 || zs_fse_build(cells, norm, nsymbols, log) != 0)
		return -1;

	struct zs_bitin in;
	uint8_t pad[8];
	if (zs_bitin_init(&in, src + used, len - (size_t)used, pad) != 0)
		return -1;
	/* Bits of the stream below the end marker, less the two initial states. */
	int64_t left = (int64_t)(in.ptr - in.start) * 8 + 64 - (int64_t)in.consumed - 2 * (int64_t)log;

	if (left < 0)
		return -1; /* the initial states themselves are truncated */
	unsigned s0 = (unsigned)zs_bitin_read(&in, log);
	unsigned s1 = (unsigned)zs_bitin_read(&in, log);
	int n = 0;

	/* The states take turns; the one that runs out ends it, the other's symbol comes last.
	 * A pair of updates reads at most 12 bits: one reload per pair keeps 57 at hand. */
	for (;;) {
		if (n >= (int)ZS_HUF_MAX_SYMBOLS - 2)
			return -1;
		zs_bitin_reload(&in);
		if (weight_turn(cells, &s0, s1, &in, &left, weights, &n) ||
		    weight_turn(cells, &s1, s0, &in, &left, weights, &n))
			break;
	}
	return n;
}

/* The weights are counted and sorted in four quarters of the symbol list at once, each with
 * its own counters: one list's `counter[weight]++` waits on the previous store of the same
 * counter when neighbouring symbols share a weight (most do), and four independent chains
 * overlap those waits. */
#define QUARTERS 4u

/* Symbols in canonical order: by weight, lowest first, each weight in symbol order. Quarter j's
 * symbols of a weight follow those of the quarters before it, so the order is the same as one
 * pass would give. weights[0..QUARTERS * qlen) (padding included); sorted has that room. */
static void sort_symbols(uint8_t *sorted, const uint8_t *weights, unsigned qlen,
			 uint32_t qcount[QUARTERS][16], unsigned max_bits)
{
	uint32_t next[QUARTERS][16];
	uint32_t start = 0;

	for (unsigned w = 0; w <= max_bits; w++)
		for (unsigned j = 0; j < QUARTERS; j++) {
			next[j][w] = start;
			start += qcount[j][w];
		}
	const uint8_t *w0 = weights, *w1 = w0 + qlen, *w2 = w1 + qlen, *w3 = w2 + qlen;

	for (unsigned k = 0; k < qlen; k++) {
		sorted[next[0][w0[k]]++] = (uint8_t)k;
		sorted[next[1][w1[k]]++] = (uint8_t)(qlen + k);
		sorted[next[2][w2[k]]++] = (uint8_t)(2 * qlen + k);
		sorted[next[3][w3[k]]++] = (uint8_t)(3 * qlen + k);
	}
}

/* Fill the table weight by weight: symbols of one weight are adjacent in the table (lowest
 * weights first, each in symbol order) and share a span, so each weight's loop stores a fixed
 * width and its branches predict well. */
static void fill_entries(uint16_t *entries, const uint8_t *sorted, const uint32_t *count,
			 unsigned max_bits)
{
	const uint8_t *sym = sorted + count[0];
	uint16_t *e = entries;

	for (unsigned w = 1; w <= max_bits; w++) {
		uint32_t n = count[w];
		uint32_t span = 1u << (w - 1);
		uint16_t len = (uint16_t)(max_bits + 1 - w);

		switch (span) {
		case 1:
			for (uint32_t k = 0; k < n; k++)
				e[k] = (uint16_t)(sym[k] << 8 | len);
			break;
		case 2:
			for (uint32_t k = 0; k < n; k++)
				zs_write32(e + 2 * k, (uint32_t)(sym[k] << 8 | len) * 0x00010001u);
			break;
		case 4:
			for (uint32_t k = 0; k < n; k++)
				zs_write64(e + 4 * k, (uint64_t)(sym[k] << 8 | len) * 0x0001000100010001ull);
			break;
		default:
			for (uint32_t k = 0; k < n; k++) {
				uint64_t four = (uint64_t)(sym[k] << 8 | len) * 0x0001000100010001ull;
				uint64_t eight[2] = { four, four };
				uint16_t *d = e + (size_t)k * span;

				for (uint32_t j = 0; j < span; j += 8)
					memcpy(d + j, eight, 16);
			}
			break;
		}
		e += (size_t)n * span;
		sym += n;
	}
}

ptrdiff_t zs_huf_read_table(struct zs_huf_table *t, const uint8_t *src, size_t len)
{
	uint8_t weights[ZS_HUF_MAX_SYMBOLS + QUARTERS];
	unsigned nweights;
	size_t used;

	t->max_bits = 0;
	if (len == 0)
		return -1;
	unsigned header = src[0];

	if (header >= 128) {
		nweights = header - 127;
		used = 1 + (nweights + 1) / 2;
		if (used > len)
			return -1;
		for (unsigned i = 0; i < nweights; i++) {
			uint8_t b = src[1 + i / 2];

			weights[i] = (i & 1) ? (b & 15) : (b >> 4);
		}
	} else {
		used = 1 + header;
		if (used > len || header == 0)
			return -1;
		int n = read_fse_weights(weights, src + 1, header);

		if (n < 0)
			return -1;
		nweights = (unsigned)n;
	}
	if (nweights >= ZS_HUF_MAX_SYMBOLS)
		return -1;

	/* Quarters cover the implied last weight too; the padding after it is weight 0, which
	 * sorts ahead of every coded symbol and so takes no table entry. */
	unsigned qlen = (nweights + QUARTERS) / QUARTERS;

	memset(weights + nweights, 0, QUARTERS * qlen - nweights);
	/* Weights per value (0..15 fit the arrays; above 11 is corrupt), then the Kraft sum from
	 * them: one pass over the weights, no branch per weight. */
	uint32_t qcount[QUARTERS][16] = { { 0 } };
	uint32_t count[16];

	const uint8_t *w0 = weights, *w1 = w0 + qlen, *w2 = w1 + qlen, *w3 = w2 + qlen;

	/* Written out: GCC keeps the four quarters as an inner loop otherwise. */
	for (unsigned k = 0; k < qlen; k++) {
		qcount[0][w0[k] & 15u]++;
		qcount[1][w1[k] & 15u]++;
		qcount[2][w2[k] & 15u]++;
		qcount[3][w3[k] & 15u]++;
	}
	for (unsigned w = 0; w < 16; w++)
		count[w] = qcount[0][w] + qcount[1][w] + qcount[2][w] + qcount[3][w];
	if ((count[12] | count[13] | count[14] | count[15]) != 0)
		return -1;
	uint32_t sum = 0;

	for (unsigned w = 1; w <= ZS_HUF_MAX_BITS; w++)
		sum += count[w] << (w - 1);
	/* The implied last weight completes the Kraft sum to a power of two. */
	if (sum == 0)
		return -1;
	unsigned max_bits = zs_highbit32(sum) + 1;
	uint32_t rest = (1u << max_bits) - sum;

	if (max_bits > ZS_HUF_MAX_BITS || (rest & (rest - 1)) != 0)
		return -1;
	unsigned last = zs_highbit32(rest) + 1;

	/* It was counted as padding (weight 0) in its quarter. */
	weights[nweights] = (uint8_t)last;
	qcount[nweights / qlen][0]--;
	qcount[nweights / qlen][last]++;
	count[0]--;
	count[last]++;
	/* A complete prefix code has an even number of longest codes: at least two of weight 1. */
	if (count[1] == 0)
		return -1;
	uint8_t sorted[ZS_HUF_MAX_SYMBOLS + QUARTERS];

	sort_symbols(sorted, weights, qlen, qcount, max_bits);
	fill_entries(t->entries, sorted, count, max_bits);
	t->max_bits = max_bits;
	return (ptrdiff_t)used;
}

static inline __attribute__((always_inline)) uint8_t decode_symbol(const uint16_t *entries, unsigned max_bits, struct zs_bitin *in)
{
	uint16_t e = entries[zs_bitin_peek(in, max_bits)];

	zs_bitin_skip(in, e & 0xffu);
	return (uint8_t)(e >> 8);
}

/* The rest of a stream: four symbols a reload while four remain (after a reload at least 57
 * bits are there, 4 codes of at most 11 bits each; near the stream start the clamped reload
 * holds every bit left, so a valid stream's codes are all there), then one at a time. A
 * corrupt stream reads past its start and fails the final check. */
static inline __attribute__((always_inline)) int decode_tail(const struct zs_huf_table *t, struct zs_bitin *in, uint8_t *dst, uint8_t *end)
{
	const uint16_t *entries = t->entries;
	unsigned mb = t->max_bits;

	while (end - dst >= 4) {
		zs_bitin_reload(in);
		dst[0] = decode_symbol(entries, mb, in);
		dst[1] = decode_symbol(entries, mb, in);
		dst[2] = decode_symbol(entries, mb, in);
		dst[3] = decode_symbol(entries, mb, in);
		dst += 4;
	}
	while (dst < end) {
		zs_bitin_reload(in);
		*dst++ = decode_symbol(entries, mb, in);
	}
	zs_bitin_reload(in);
	return zs_bitin_finished(in) ? 0 : -1;
}

static inline __attribute__((always_inline)) int decode_1_body(const struct zs_huf_table *t,
								uint8_t *dst, size_t dst_len,
								const uint8_t *src, size_t len)
{
	struct zs_bitin in;
	uint8_t pad[8];

	if (t->max_bits == 0 || zs_bitin_init(&in, src, len, pad) != 0)
		return -1;
	return decode_tail(t, &in, dst, dst + dst_len);
}

/* The 4-stream fast loop's reader: `b` holds a stream's unread bits left-aligned with a marker
 * 1 right below them, so its trailing zeros count the bits used since `p` was loaded and a
 * symbol costs no counter update (a shift of b does both). Bit 0 of each load gives way to the
 * marker: 56 or more bits are there after a reload. */
static inline __attribute__((always_inline)) uint64_t marker_reload(const uint8_t **p, uint64_t b)
{
	unsigned used = (unsigned)__builtin_ctzll(b);

	*p -= used >> 3;
	return (zs_read64(*p) | 1) << (used & 7);
}

static inline __attribute__((always_inline)) uint8_t marker_symbol(const uint16_t *entries,
								   unsigned shift, uint64_t *b)
{
	uint16_t e = entries[*b >> shift];

	/* Code lengths are below 64: the shift count is the entry itself (BMI2 SHLX and x86
	 * shifts use its low 6 bits). */
	*b <<= e & 63u;
	return (uint8_t)(e >> 8);
}

/* One stream's state in the fast loop: its own variables (not arrays indexed in the loop,
 * which GCC keeps on the stack: a store and a load per symbol). */
struct marker_stream {
	const uint8_t *p;
	uint64_t b;
	uint8_t *o;
};

/* A round of one stream: reload, then 5 symbols (at most 55 bits, so at most 7 bytes back). */
static inline __attribute__((always_inline)) void marker_round(const uint16_t *entries,
							       unsigned shift,
							       struct marker_stream *s)
{
	uint64_t b = marker_reload(&s->p, s->b);
	uint8_t *o = s->o;

	/* Written out: compilers keep a 5-step loop as a loop. */
	o[0] = marker_symbol(entries, shift, &b);
	o[1] = marker_symbol(entries, shift, &b);
	o[2] = marker_symbol(entries, shift, &b);
	o[3] = marker_symbol(entries, shift, &b);
	o[4] = marker_symbol(entries, shift, &b);
	s->b = b;
	s->o = o + 5;
}

/* How many rounds every stream has the bytes behind it for (7 per round). */
static inline __attribute__((always_inline)) size_t rounds_behind(const struct marker_stream *s,
								  const struct zs_bitin *in, size_t n)
{
	size_t behind = (size_t)(s->p - in->start) / 7;

	return behind < n ? behind : n;
}

/* Rounds of 5 symbols per stream in batches during which every stream has the bytes behind
 * it and the last, shortest segment the room: no bound check inside a batch. The four
 * streams' rounds interleave, so their table loads overlap. The streams go back to the
 * general reader after. */
static inline __attribute__((always_inline)) void decode_4_fast(const uint16_t *entries, unsigned mb,
								struct zs_bitin in[4], uint8_t *op[4],
								const uint8_t *end3)
{
	unsigned shift = 64 - mb;

	for (int i = 0; i < 4; i++)
		if (in[i].consumed >= 64)
			return; /* a short stream in its pad: the general reader does it all */
	struct marker_stream s0 = { in[0].ptr, UINT64_C(1) << in[0].consumed, op[0] };
	struct marker_stream s1 = { in[1].ptr, UINT64_C(1) << in[1].consumed, op[1] };
	struct marker_stream s2 = { in[2].ptr, UINT64_C(1) << in[2].consumed, op[2] };
	struct marker_stream s3 = { in[3].ptr, UINT64_C(1) << in[3].consumed, op[3] };

	for (;;) {
		size_t n = (size_t)(end3 - s3.o) / 5;

		n = rounds_behind(&s0, &in[0], n);
		n = rounds_behind(&s1, &in[1], n);
		n = rounds_behind(&s2, &in[2], n);
		n = rounds_behind(&s3, &in[3], n);
		if (n == 0)
			break;
		for (uint8_t *stop = s3.o + 5 * n; s3.o != stop;) {
			marker_round(entries, shift, &s0);
			marker_round(entries, shift, &s1);
			marker_round(entries, shift, &s2);
			marker_round(entries, shift, &s3);
		}
	}
	const struct marker_stream *all[4] = { &s0, &s1, &s2, &s3 };

	for (int i = 0; i < 4; i++) {
		in[i].ptr = all[i]->p;
		in[i].consumed = (unsigned)__builtin_ctzll(all[i]->b);
		in[i].bits = zs_read64(all[i]->p);
		op[i] = all[i]->o;
	}
}

/* After the fast loop each stream is within a round of its start, a dozen symbols or so: a
 * share that counts in a small literals section. Four symbols a stream per turn with the
 * general reader's clamped reload, the streams interleaved so that their chains of table
 * loads overlap (one stream at a time, each waited on its own), while every segment has four
 * left. Each stream's last few go one stream at a time (decode_tail). */
static inline __attribute__((always_inline)) void decode_4_near_start(const struct zs_huf_table *t,
								      struct zs_bitin in[4],
								      uint8_t *op[4],
								      uint8_t *const oend[4])
{
	const uint16_t *entries = t->entries;
	unsigned mb = t->max_bits;
	size_t n = (size_t)(oend[3] - op[3]);

	for (int i = 0; i < 3; i++)
		if ((size_t)(oend[i] - op[i]) < n)
			n = (size_t)(oend[i] - op[i]);
	for (n /= 4; n != 0; n--) {
		for (int i = 0; i < 4; i++) {
			uint8_t *o = op[i];

			zs_bitin_reload(&in[i]);
			o[0] = decode_symbol(entries, mb, &in[i]);
			o[1] = decode_symbol(entries, mb, &in[i]);
			o[2] = decode_symbol(entries, mb, &in[i]);
			o[3] = decode_symbol(entries, mb, &in[i]);
			op[i] = o + 4;
		}
	}
}

static inline __attribute__((always_inline)) int decode_4_body(const struct zs_huf_table *t,
								uint8_t *dst, size_t dst_len,
								const uint8_t *src, size_t len)
{
	struct zs_bitin in[4];
	uint8_t pad[4][8];

	if (t->max_bits == 0 || len < 6 + 4)
		return -1;
	size_t sz[4];

	sz[0] = zs_read16(src);
	sz[1] = zs_read16(src + 2);
	sz[2] = zs_read16(src + 4);
	if (sz[0] + sz[1] + sz[2] + 6 > len)
		return -1;
	sz[3] = len - 6 - sz[0] - sz[1] - sz[2];

	size_t seg = (dst_len + 3) / 4;

	if (seg * 3 > dst_len)
		return -1;
	const uint8_t *p = src + 6;
	uint8_t *op[4], *oend[4];

	for (int i = 0; i < 4; i++) {
		if (zs_bitin_init(&in[i], p, sz[i], pad[i]) != 0)
			return -1;
		p += sz[i];
		op[i] = dst + seg * (size_t)i;
		oend[i] = i < 3 ? op[i] + seg : dst + dst_len;
	}
	/* The last segment is the shortest: while it has room, so do the others. */
	decode_4_fast(t->entries, t->max_bits, in, op, oend[3]);
	decode_4_near_start(t, in, op, oend);
	for (int i = 0; i < 4; i++) {
		if (decode_tail(t, &in[i], op[i], oend[i]) != 0)
			return -1;
	}
	return 0;
}

static int decode_1_generic(const struct zs_huf_table *t, uint8_t *dst, size_t dst_len,
			    const uint8_t *src, size_t len)
{
	return decode_1_body(t, dst, dst_len, src, len);
}

static int decode_4_generic(const struct zs_huf_table *t, uint8_t *dst, size_t dst_len,
			    const uint8_t *src, size_t len)
{
	return decode_4_body(t, dst, dst_len, src, len);
}

#if ZS_HAVE_BMI2_PATH
ZS_TARGET_BMI2 static int decode_1_bmi2(const struct zs_huf_table *t, uint8_t *dst, size_t dst_len,
					const uint8_t *src, size_t len)
{
	return decode_1_body(t, dst, dst_len, src, len);
}

ZS_TARGET_BMI2 static int decode_4_bmi2(const struct zs_huf_table *t, uint8_t *dst, size_t dst_len,
					const uint8_t *src, size_t len)
{
	return decode_4_body(t, dst, dst_len, src, len);
}
#endif

int zs_huf_decode(const struct zs_huf_table *t, uint8_t *dst, size_t dst_len, const uint8_t *src,
		  size_t len, int four_streams, int bmi2)
{
#if ZS_HAVE_BMI2_PATH
	if (bmi2)
		return four_streams ? decode_4_bmi2(t, dst, dst_len, src, len)
				    : decode_1_bmi2(t, dst, dst_len, src, len);
#endif
	(void)bmi2;
	return four_streams ? decode_4_generic(t, dst, dst_len, src, len)
			    : decode_1_generic(t, dst, dst_len, src, len);
}
