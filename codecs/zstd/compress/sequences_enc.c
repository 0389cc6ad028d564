/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sequences_enc.c — the sequences section of a compressed block (RFC 8878 "Sequences Section"): the
 * count, a compression mode and table per code stream, and the interleaved FSE bitstream. */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/common/tables.h"
#include "codecs/zstd/compress/bitwriter.h"
#include "codecs/zstd/compress/block_enc.h"

enum { LL = 0, OF = 1, ML = 2 };

/* Predefined distributions as norm tables for the cost and table builders. */
static const int16_t *default_norm(int k, unsigned *max_symbol, unsigned *log)
{
	if (k == LL) {
		*max_symbol = ZS_LL_MAX_CODE;
		*log = ZS_LL_DEFAULT_LOG;
		return zs_ll_default_norm;
	}
	if (k == OF) {
		*max_symbol = ZS_OF_DEFAULT_MAX_CODE;
		*log = ZS_OF_DEFAULT_LOG;
		return zs_of_default_norm;
	}
	*max_symbol = ZS_ML_MAX_CODE;
	*log = ZS_ML_DEFAULT_LOG;
	return zs_ml_default_norm;
}

/* The table next codes with: the whole encoding table, or for an estimate only what later
 * estimates price with (the distribution). */
static void set_table(struct zs_fse_ctable *t, const int16_t *norm, unsigned max_symbol,
		      unsigned log, int estimate)
{
	if (!estimate) {
		zs_fse_build_ctable(t, norm, max_symbol, log);
		return;
	}
	t->log = log;
	t->max_symbol = max_symbol;
	memcpy(t->norm, norm, (max_symbol + 1) * sizeof(*norm));
}

/* Chooses a mode for one code stream and writes its table description. *ct is the table to
 * code with (NULL for RLE), *bits what the codes will cost with it (1/256 bit). Returns bytes
 * written or (size_t)-1 when cap is short. */
static size_t choose_table(int k, const uint32_t *counts, unsigned max_symbol, uint32_t nseq,
			   const struct zs_entropy *prev, struct zs_entropy *next, int estimate,
			   unsigned *mode, const struct zs_fse_ctable **ct, uint64_t *bits,
			   uint8_t *dst, size_t cap)
{
	static const unsigned max_logs[3] = {ZS_LL_MAX_LOG, ZS_OF_MAX_LOG, ZS_ML_MAX_LOG};
	unsigned distinct = 0;

	for (unsigned s = 0; s <= max_symbol; s++)
		distinct += counts[s] != 0;
	if (distinct == 1) {
		if (cap < 1)
			return (size_t)-1;
		dst[0] = (uint8_t)max_symbol;
		*mode = ZS_MODE_RLE;
		*ct = NULL;
		*bits = 0;
		next->fse_valid[k] = 0;
		return 1;
	}
	unsigned dmax, dlog;
	const int16_t *dnorm = default_norm(k, &dmax, &dlog);
	uint64_t cost_default = zs_fse_cost(counts, max_symbol, dnorm, dmax, dlog);
	uint64_t cost_repeat = prev->fse_valid[k]
				       ? zs_fse_cost(counts, max_symbol, prev->fse[k].norm,
						     prev->fse[k].max_symbol, prev->fse[k].log)
				       : UINT64_MAX;
	/* A new table: the suggested accuracy and one step either side, whichever codes the
	 * histogram plus its description in the fewest bits. */
	unsigned pick = zs_fse_pick_log(nseq, max_symbol, max_logs[k]), log = pick;
	int16_t norm[ZS_FSE_ENC_MAX_SYMBOLS], try_norm[ZS_FSE_ENC_MAX_SYMBOLS];
	uint8_t hdr[128], try_hdr[128];
	size_t hsize = 0;
	uint64_t cost_new = UINT64_MAX;
	unsigned min_log = zs_highbit32(distinct) + 1;

	for (unsigned l = pick > 5 ? pick - 1 : 5; l <= pick + 1 && l <= max_logs[k]; l++) {
		if (l < min_log || l < 5)
			continue;
		zs_fse_normalize(counts, max_symbol, nseq, l, try_norm);
		size_t h = zs_fse_write_header(try_norm, max_symbol, l, try_hdr, sizeof(try_hdr));

		if (h == 0)
			continue;
		uint64_t cost = zs_fse_cost(counts, max_symbol, try_norm, max_symbol, l) +
				(uint64_t)h * 8 * 256;

		if (cost < cost_new) {
			cost_new = cost;
			log = l;
			hsize = h;
			memcpy(norm, try_norm, sizeof(norm));
			memcpy(hdr, try_hdr, h);
		}
	}

	if (cost_repeat != UINT64_MAX && cost_repeat <= cost_default && cost_repeat <= cost_new) {
		*mode = ZS_MODE_REPEAT;
		*bits = cost_repeat;
		next->fse_valid[k] = 1;
		next->fse[k] = prev->fse[k];
		*ct = &next->fse[k];
		return 0;
	}
	if (cost_default != UINT64_MAX && cost_default <= cost_new) {
		*mode = ZS_MODE_PREDEFINED;
		*bits = cost_default;
		set_table(&next->fse[k], dnorm, dmax, dlog, estimate);
		next->fse_valid[k] = 1;
		*ct = &next->fse[k];
		return 0;
	}
	if (hsize == 0 || hsize > cap)
		return (size_t)-1;
	memcpy(dst, hdr, hsize);
	*mode = ZS_MODE_FSE;
	*bits = cost_new - (uint64_t)hsize * 8 * 256;
	set_table(&next->fse[k], norm, max_symbol, log, estimate);
	next->fse_valid[k] = 1;
	*ct = &next->fse[k];
	return hsize;
}

/* Number_of_Sequences: 1, 2 or 3 bytes. */
static uint8_t *write_seq_count(uint8_t *op, size_t nseq)
{
	if (nseq < 128) {
		*op++ = (uint8_t)nseq;
	} else if (nseq < 0x7F00) {
		*op++ = (uint8_t)((nseq >> 8) + 128);
		*op++ = (uint8_t)nseq;
	} else {
		*op++ = 255;
		zs_write16(op, (uint16_t)(nseq - 0x7F00));
		op += 2;
	}
	return op;
}

/* Most bytes one step of the bitstream writer adds (LL 16, ML 16, OF 31 extra bits, states
 * 9 + 9 + 8, 7 pending), and the room the last flush of a run of unchecked steps needs. */
#define STEP_MAX 12u
#define STEP_SLACK 16u

/* Base and extra-bit count of each LL code (entries 0..35) and ML code (XT_ML + 0..52) as
 * base | bits << 24: one table, one register in the hot loop (four tables left the loop
 * short of registers, spilling the states' tables to the stack). */
#define XT_ML (ZS_LL_MAX_CODE + 1u)
#define XT_SIZE (XT_ML + ZS_ML_MAX_CODE + 1u)

static void extra_table(uint32_t *xt)
{
	for (unsigned c = 0; c <= ZS_LL_MAX_CODE; c++)
		xt[c] = zs_ll_base[c] | (uint32_t)zs_ll_bits[c] << 24;
	for (unsigned c = 0; c <= ZS_ML_MAX_CODE; c++)
		xt[XT_ML + c] = zs_ml_base[c] | (uint32_t)zs_ml_bits[c] << 24;
}

/* One step: the extra bits of sequence i, then (i > 0) the states of sequence i - 1, as the
 * reader takes them backwards (OF, ML, LL extras, then LL, ML, OF updates). checked: flushes
 * test the room; else the caller ensured STEP_MAX bytes per step plus STEP_SLACK. */
static inline __attribute__((always_inline)) void
step(struct zs_bitw *bw, const uint32_t *xt, const uint8_t (*codes)[ZS_BLOCK_MAX_SEQS],
     const struct zs_fse_ctable *fse, uint32_t *st, const struct zs_seq *q, size_t i, int checked)
{
	uint32_t lx = xt[codes[LL][i]], mx = xt[XT_ML + codes[ML][i]];
	unsigned llb = lx >> 24, mlb = mx >> 24, ofb = codes[OF][i];
	uint64_t v = (uint64_t)(q->lit - (lx & 0xFFFFFFu)) | (uint64_t)(q->ml - (mx & 0xFFFFFFu)) << llb;
	uint32_t ov = q->offval - (1u << ofb);

	/* Mostly all three fit at once (at most 7 + 26 bits are pending). */
	if (bw->nbits + llb + mlb + ofb <= 63) {
		zs_bitw_put(bw, v | (uint64_t)ov << (llb + mlb), llb + mlb + ofb);
	} else {
		if (bw->nbits + llb + mlb > 63)
			checked ? zs_bitw_flush(bw) : zs_bitw_flush_unchecked(bw);
		zs_bitw_put(bw, v, llb + mlb);
		if (bw->nbits + ofb > 63)
			checked ? zs_bitw_flush(bw) : zs_bitw_flush_unchecked(bw);
		zs_bitw_put(bw, ov, ofb);
	}
	checked ? zs_bitw_flush(bw) : zs_bitw_flush_unchecked(bw);
	if (i == 0)
		return;
	zs_fse_encode(bw, &fse[OF], &st[OF], codes[OF][i - 1]);
	zs_fse_encode(bw, &fse[ML], &st[ML], codes[ML][i - 1]);
	zs_fse_encode(bw, &fse[LL], &st[LL], codes[LL][i - 1]);
}

/* The common case of write_bitstream: three FSE tables (fse[LL], fse[OF], fse[ML]), no test
 * for a missing state, and runs of steps whose flushes need not test the room. */
static inline __attribute__((always_inline)) size_t
bitstream_fse(const struct zs_block_scratch *sc, const struct zs_fse_ctable *fse,
	      const struct zs_seq *seqs, size_t nseq, uint8_t *dst, size_t cap)
{
	const uint8_t (*codes)[ZS_BLOCK_MAX_SEQS] = sc->codes;
	uint32_t xt[XT_SIZE];
	struct zs_bitw bw;
	size_t i = nseq - 1;
	uint32_t st[3];

	extra_table(xt);
	for (int k = 0; k < 3; k++)
		st[k] = zs_fse_init_state(&fse[k], codes[k][i]);
	zs_bitw_init(&bw, dst, cap);
	while (i > 0) {
		size_t room = (size_t)(bw.end - bw.ptr);
		size_t n = room > STEP_SLACK ? (room - STEP_SLACK) / STEP_MAX : 0;

		if (n == 0) {
			step(&bw, xt, codes, fse, st, &seqs[i], i, 1);
			i--;
			continue;
		}
		for (size_t stop = n < i ? i - n : 0; i > stop; i--)
			step(&bw, xt, codes, fse, st, &seqs[i], i, 0);
	}
	step(&bw, xt, codes, fse, st, &seqs[0], 0, 1);
	zs_fse_flush_state(&bw, &fse[ML], st[ML]);
	zs_fse_flush_state(&bw, &fse[OF], st[OF]);
	zs_fse_flush_state(&bw, &fse[LL], st[LL]);
	return zs_bitw_close(&bw);
}

static size_t bitstream_fse_generic(const struct zs_block_scratch *sc, const struct zs_fse_ctable *fse,
				    const struct zs_seq *seqs, size_t nseq, uint8_t *dst, size_t cap)
{
	return bitstream_fse(sc, fse, seqs, nseq, dst, cap);
}

#if ZS_HAVE_BMI2_PATH
/* Variable shifts without the CL register: the loop's shifts by bit counts are most of it. */
ZS_TARGET_BMI2 static size_t bitstream_fse_bmi2(const struct zs_block_scratch *sc,
						const struct zs_fse_ctable *fse,
						const struct zs_seq *seqs, size_t nseq,
						uint8_t *dst, size_t cap)
{
	return bitstream_fse(sc, fse, seqs, nseq, dst, cap);
}
#endif

/* The interleaved bitstream of seqs[0..nseq) with the codes in sc->codes and the tables ct
 * (NULL: RLE, no state). Returns its size, or 0 when it does not fit in cap. */
static size_t write_bitstream(const struct zs_block_scratch *sc, const struct zs_fse_ctable *const *ct,
			      const struct zs_seq *seqs, size_t nseq, uint8_t *dst, size_t cap)
{
	const uint8_t *llc = sc->codes[LL], *ofc = sc->codes[OF], *mlc = sc->codes[ML];
	struct zs_bitw bw;
	uint32_t st[3] = {0, 0, 0};
	size_t i = nseq - 1;

	/* Every table in ct[] is next->fse[k] (choose_table), so ct[LL] is the array's start. */
	if (ct[LL] && ct[OF] == ct[LL] + OF && ct[ML] == ct[LL] + ML) {
#if ZS_HAVE_BMI2_PATH
		if (zs_cpu_has_bmi2())
			return bitstream_fse_bmi2(sc, ct[LL], seqs, nseq, dst, cap);
#endif
		return bitstream_fse_generic(sc, ct[LL], seqs, nseq, dst, cap);
	}
	zs_bitw_init(&bw, dst, cap);
	/* Written last sequence first; per sequence the reader takes OF, ML, LL extra bits and then
	 * updates LL, ML, OF, so the writer mirrors that order. The accumulator takes 63 bits:
	 * flushes happen when the next fields could overflow it (mostly once per sequence). */
	for (int k = 0; k < 3; k++)
		if (ct[k])
			st[k] = zs_fse_init_state(ct[k], sc->codes[k][i]);
	for (;;) {
		const struct zs_seq *q = &seqs[i];
		unsigned llb = zs_ll_bits[llc[i]], mlb = zs_ml_bits[mlc[i]];

		if (bw.nbits + llb + mlb > 63)
			zs_bitw_flush(&bw);
		zs_bitw_put(&bw, q->lit - zs_ll_base[llc[i]], llb);
		zs_bitw_put(&bw, q->ml - zs_ml_base[mlc[i]], mlb);
		if (bw.nbits + ofc[i] > 63)
			zs_bitw_flush(&bw);
		zs_bitw_put(&bw, q->offval - (1u << ofc[i]), ofc[i]);
		zs_bitw_flush(&bw);
		if (i == 0)
			break;
		i--;
		/* At most 9 + 9 + 8 bits of states after a flush (7 pending at most). */
		if (ct[OF])
			zs_fse_encode(&bw, ct[OF], &st[OF], ofc[i]);
		if (ct[ML])
			zs_fse_encode(&bw, ct[ML], &st[ML], mlc[i]);
		if (ct[LL])
			zs_fse_encode(&bw, ct[LL], &st[LL], llc[i]);
	}
	if (ct[ML])
		zs_fse_flush_state(&bw, ct[ML], st[ML]);
	if (ct[OF])
		zs_fse_flush_state(&bw, ct[OF], st[OF]);
	if (ct[LL])
		zs_fse_flush_state(&bw, ct[LL], st[LL]);
	return zs_bitw_close(&bw);
}

/* next starts as the tables the decoder holds before the section. */
static void inherit_tables(const struct zs_entropy *prev, struct zs_entropy *next)
{
	for (int k = 0; k < 3; k++) {
		next->fse_valid[k] = prev->fse_valid[k];
		if (prev->fse_valid[k])
			next->fse[k] = prev->fse[k];
	}
}

void zs_seq_codes(struct zs_block_scratch *sc, const struct zs_seq *seqs, size_t nseq)
{
	uint8_t *llc = sc->codes[LL], *ofc = sc->codes[OF], *mlc = sc->codes[ML];

	for (size_t i = 0; i < nseq; i++) {
		llc[i] = (uint8_t)zs_ll_code(seqs[i].lit);
		ofc[i] = (uint8_t)zs_of_code(seqs[i].offval);
		mlc[i] = (uint8_t)zs_ml_code(seqs[i].ml);
	}
}

/* The codes of seqs[i] into sc->codes, counted in hist. */
static inline __attribute__((always_inline)) void
code_seq(struct zs_block_scratch *sc, const struct zs_seq *seqs, size_t i, uint32_t (*hist)[64])
{
	unsigned l = zs_ll_code(seqs[i].lit), o = zs_of_code(seqs[i].offval);
	unsigned m = zs_ml_code(seqs[i].ml);

	sc->codes[LL][i] = (uint8_t)l;
	sc->codes[OF][i] = (uint8_t)o;
	sc->codes[ML][i] = (uint8_t)m;
	hist[LL][l]++;
	hist[OF][o]++;
	hist[ML][m]++;
}

/* The modes byte and the three tables for the histograms cn (nseq > 0) into dst; the tables in
 * ct[], the bits of codes and extra bits in *bits (1/256 bit). Returns the bytes written, or
 * (size_t)-1 when they do not fit in cap. */
static size_t write_tables(const struct zs_entropy *prev, struct zs_entropy *next,
			   const struct zs_seq_counts *cn, int estimate,
			   const struct zs_fse_ctable **ct, uint64_t *bits, uint8_t *dst, size_t cap)
{
	uint8_t *op = dst + 1, *end = dst + cap;
	unsigned max_symbol[3] = {0, 0, 0}, mode[3];
	uint64_t extra = 0;

	if (cap < 1)
		return (size_t)-1;
	for (int k = 0; k < 3; k++)
		for (unsigned s = 0; s < 64; s++)
			if (cn->c[k][s])
				max_symbol[k] = s;
	/* Extra bits per code: the tables' for LL and ML, the code itself for OF. */
	for (unsigned s = 0; s <= max_symbol[LL]; s++)
		extra += (uint64_t)cn->c[LL][s] * zs_ll_bits[s];
	for (unsigned s = 0; s <= max_symbol[ML]; s++)
		extra += (uint64_t)cn->c[ML][s] * zs_ml_bits[s];
	for (unsigned s = 0; s <= max_symbol[OF]; s++)
		extra += (uint64_t)cn->c[OF][s] * s;
	*bits = extra * 256;
	for (int k = 0; k < 3; k++) {
		uint64_t b;
		size_t t = choose_table(k, cn->c[k], max_symbol[k], (uint32_t)cn->nseq, prev, next,
					estimate, &mode[k], &ct[k], &b, op, (size_t)(end - op));

		if (t == (size_t)-1)
			return (size_t)-1;
		op += t;
		*bits += b + (ct[k] ? ct[k]->log * 256u : 0);
	}
	dst[0] = (uint8_t)((mode[LL] << 6) | (mode[OF] << 4) | (mode[ML] << 2));
	return (size_t)(op - dst);
}

/* The section up to its bitstream: count, modes, tables (into dst), codes into sc->codes; the
 * tables in ct[]. Returns the bytes written, or 0 when they do not fit in cap. */
static size_t write_section_head(const struct zs_entropy *prev, struct zs_entropy *next,
				 struct zs_block_scratch *sc, const struct zs_seq *seqs, size_t nseq,
				 const struct zs_fse_ctable **ct, uint8_t *dst, size_t cap)
{
	inherit_tables(prev, next);
	if (cap < 4)
		return 0;
	uint8_t *op = write_seq_count(dst, nseq);

	if (nseq == 0)
		return (size_t)(op - dst);

	struct zs_seq_counts cn;
	uint64_t bits;

	/* Codes and their histograms in one pass; odd sequences count into a second set, as
	 * neighbours often share a code and one set would chain their increments through
	 * memory. */
	uint32_t odd[3][64];
	size_t i = 0;

	memset(cn.c, 0, sizeof(cn.c));
	memset(odd, 0, sizeof(odd));
	cn.nseq = nseq;
	for (; i + 2 <= nseq; i += 2) {
		code_seq(sc, seqs, i, cn.c);
		code_seq(sc, seqs, i + 1, odd);
	}
	if (i < nseq)
		code_seq(sc, seqs, i, cn.c);
	for (int k = 0; k < 3; k++)
		for (unsigned s = 0; s < 64; s++)
			cn.c[k][s] += odd[k][s];
	size_t t = write_tables(prev, next, &cn, 0, ct, &bits, op, cap - (size_t)(op - dst));

	return t == (size_t)-1 ? 0 : (size_t)(op - dst) + t;
}

size_t zs_encode_sequences(const struct zs_entropy *prev, struct zs_entropy *next,
			   struct zs_block_scratch *sc, const struct zs_seq *seqs, size_t nseq,
			   uint8_t *dst, size_t cap)
{
	const struct zs_fse_ctable *ct[3];
	size_t h = write_section_head(prev, next, sc, seqs, nseq, ct, dst, cap);

	if (h == 0 || nseq == 0)
		return h;
	size_t s = write_bitstream(sc, ct, seqs, nseq, dst + h, cap - h);

	if (s == 0)
		return 0;
	return h + s;
}

size_t zs_sequences_cost(const struct zs_entropy *prev, struct zs_entropy *next,
			 const struct zs_seq_counts *cn)
{
	const struct zs_fse_ctable *ct[3];
	uint64_t bits;
	uint8_t head[512];
	size_t count = cn->nseq < 128 ? 1 : cn->nseq < 0x7F00 ? 2 : 3;

	inherit_tables(prev, next);
	if (cn->nseq == 0)
		return count;
	size_t t = write_tables(prev, next, cn, 1, ct, &bits, head, sizeof(head));

	return count + t + (size_t)(bits / (8 * 256)) + 1;
}
