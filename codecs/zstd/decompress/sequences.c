/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sequences.c — decoding the sequence bitstream and executing sequences (literal copy, repeat offsets, match copy). */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/bitstream.h"
#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/decompress/dctx.h"
#include "codecs/zstd/zstd.h"

/* Room beyond a sequence's end that the fast path may scribble on (later output overwrites it). */
#define WILD_SLACK 32u

/* Copies len bytes in 16-byte steps; may write up to 15 bytes beyond dst + len and read as far
 * beyond src + len. The first step is unconditional: most literal runs are short. */
static inline __attribute__((always_inline)) void wild_copy16(uint8_t *dst, const uint8_t *src, size_t len)
{
	zs_copy16(dst, src);
	if (len > 16) {
		uint8_t *end = dst + len;

		dst += 16;
		src += 16;
		do {
			zs_copy16(dst, src);
			dst += 16;
			src += 16;
		} while (dst < end);
	}
}

/* Match copy from op - offset (offset >= 1, all source bytes already written); may write up to
 * 15 bytes beyond op + len. Short offsets repeat a pattern, so once 8 bytes exist any multiple
 * of the offset that is >= 8 is an equivalent, non-overlapping distance for 8-byte copies. */
static inline __attribute__((always_inline)) void wild_match(uint8_t *op, size_t offset, size_t len)
{
	const uint8_t *m = op - offset;

	if (offset >= 16) {
		wild_copy16(op, m, len);
		return;
	}
	uint8_t *end = op + len;

	if (offset < 8) {
		static const uint8_t period8[8] = { 0, 8, 8, 9, 8, 10, 12, 14 };

		for (int k = 0; k < 8; k++)
			op[k] = m[k];
		op += 8;
		m = op - period8[offset];
	}
	while (op < end) {
		zs_copy8(op, m);
		op += 8;
		m += 8;
	}
}

/* The sequence loop's view of the bit reader: `left` counts the container's unread bits
 * (64 - consumed), so a read is a subtract, a shift and a mask (three instructions with BMI2)
 * instead of the general reader's five. Past the stream start `left` goes negative and reads
 * return unspecified bits, as zs_bitin_read's do; the end check catches it. */
struct seq_bits {
	uint64_t bits;
	int left;
	const uint8_t *ptr, *start;
};

/* n in 0..31; at most 57 bits between reloads. `bmi2`, a constant, says the caller is the
 * BMI2 clone, where the mask is one BZHI: compilers do not find it themselves, and the
 * intrinsic cannot be inlined into the shared body, hence the one line of assembly. */
static inline __attribute__((always_inline)) uint32_t seq_read(struct seq_bits *b, unsigned n,
								int bmi2)
{
	b->left -= (int)n;
	uint64_t v = b->bits >> ((unsigned)b->left & 63);

#if ZS_HAVE_BMI2_PATH
	if (bmi2) {
		uint64_t r;

		__asm__("bzhi %2, %1, %0" : "=r"(r) : "r"(v), "r"((uint64_t)n));
		return (uint32_t)r;
	}
#endif
	(void)bmi2;
	return (uint32_t)(v & ((UINT64_C(1) << n) - 1));
}

/* zs_bitin_reload in this representation: at least 57 bits unread afterwards (fewer near the
 * stream start). */
static inline __attribute__((always_inline)) void seq_reload(struct seq_bits *b)
{
	size_t back = (size_t)(unsigned)(64 - b->left) >> 3;
	size_t avail = (size_t)(b->ptr - b->start);

	if (back > avail)
		back = avail;
	b->ptr -= back;
	b->left += (int)back * 8;
	b->bits = zs_read64(b->ptr);
}

/* Everything one sequence needs, kept in locals of zs_execute_sequences so it lives in registers. */
struct seq_state {
	struct seq_bits in;
	const struct zs_seq_cell *cells; /* the context's seq_cells: states index it */
	uint32_t lls, ofs, mls;
	uint32_t rep0, rep1, rep2;
	const uint8_t *lit, *lit_end;
	uint8_t *op, *block_end, *dst_end, *frame_start;
	uint8_t *fast_end;   /* below this, a sequence fits the block and leaves WILD_SLACK of room */
	size_t window_limit; /* offsets above this are out of the window */
};

/* Decode and execute one sequence; `last` skips the state update (RFC 8878 3.1.1.3.2.1.4);
 * `check_window` is 0 when the window cannot be smaller than the frame's history. Both are
 * constants at each call so the compiler drops what is not needed. */
static inline __attribute__((always_inline)) int one_sequence(struct seq_state *st, int last,
							     int check_window, int bmi2)
{
	const struct zs_seq_cell lc = st->cells[st->lls], oc = st->cells[st->ofs], mc = st->cells[st->mls];
	/* Field order in the stream: offset, match length, literal length. After the reload at the
	 * end of the previous sequence at least 57 bits are there: enough for everything unless the
	 * extra bits total 31 or more (26 go to the state updates). */
	uint32_t ofv = oc.base + (uint32_t)seq_read(&st->in, oc.extra, bmi2);
	uint32_t ml = mc.base + (uint32_t)seq_read(&st->in, mc.extra, bmi2);

	if (__builtin_expect((unsigned)oc.extra + mc.extra + lc.extra >= 31, 0))
		seq_reload(&st->in);
	uint32_t ll = lc.base + (uint32_t)seq_read(&st->in, lc.extra, bmi2);

	if (!last) {
		/* State updates go LL, ML, OF. */
		st->lls = lc.next_base + (uint32_t)seq_read(&st->in, lc.nbits, bmi2);
		st->mls = mc.next_base + (uint32_t)seq_read(&st->in, mc.nbits, bmi2);
		st->ofs = oc.next_base + (uint32_t)seq_read(&st->in, oc.nbits, bmi2);
		seq_reload(&st->in);
	}

	uint32_t offset;

	if (ofv > 3) {
		offset = ofv - 3;
		st->rep2 = st->rep1;
		st->rep1 = st->rep0;
		st->rep0 = offset;
	} else {
		/* With no literals, repeat codes shift by one: 3 then means rep0 - 1. */
		unsigned idx = ofv - 1 + (ll == 0);

		if (idx == 0) {
			offset = st->rep0;
		} else {
			offset = idx == 1 ? st->rep1 : idx == 2 ? st->rep2 : st->rep0 - 1;
			if (idx != 1)
				st->rep2 = st->rep1;
			st->rep1 = st->rep0;
			st->rep0 = offset;
			if (offset == 0)
				return ZS_ERR_OFFSET;
		}
	}

	uint8_t *op = st->op;

	if (ll > (size_t)(st->lit_end - st->lit))
		return ZS_ERR_LITERAL_LENGTH;
	size_t total = (size_t)ll + ml;
	uint8_t *mstart = op + ll;

	if (offset > (size_t)(mstart - st->frame_start) || (check_window && offset > st->window_limit))
		return ZS_ERR_OFFSET;
	if (__builtin_expect(st->fast_end > op && total <= (size_t)(st->fast_end - op), 1)) {
		wild_copy16(op, st->lit, ll);
		wild_match(mstart, offset, ml);
	} else {
		if (total > (size_t)(st->block_end - op))
			return st->block_end < st->dst_end ? ZS_ERR_BLOCK_SIZE : ZS_ERR_DST_TOO_SMALL;
		const uint8_t *match = mstart - offset;

		memcpy(op, st->lit, ll);
		for (size_t k = 0; k < ml; k++)
			mstart[k] = match[k];
	}
	st->op = op + total;
	st->lit += ll;
	return ZS_OK;
}

static inline __attribute__((always_inline)) int execute_body(struct zs_dctx *d, const uint8_t *src,
								size_t len, uint32_t nseq,
								struct zs_out *out, int bmi2)
{
	struct seq_state st;
	struct zs_bitin in;
	uint8_t pad[8];
	int rc = ZS_OK;

	if (zs_bitin_init(&in, src, len, pad) != 0)
		return ZS_ERR_SEQ_STREAM;
	st.cells = d->seq_cells;
	st.lls = (uint32_t)(d->ll.cells - d->seq_cells) + (uint32_t)zs_bitin_read(&in, d->ll.log);
	st.ofs = (uint32_t)(d->of.cells - d->seq_cells) + (uint32_t)zs_bitin_read(&in, d->of.log);
	st.mls = (uint32_t)(d->ml.cells - d->seq_cells) + (uint32_t)zs_bitin_read(&in, d->ml.log);
	zs_bitin_reload(&in);
	st.in.bits = in.bits;
	st.in.left = 64 - (int)in.consumed;
	st.in.ptr = in.ptr;
	st.in.start = in.start;
	st.rep0 = d->rep[0];
	st.rep1 = d->rep[1];
	st.rep2 = d->rep[2];
	st.lit = d->lit;
	st.lit_end = d->lit + d->lit_len;
	st.op = out->op;
	st.block_end = out->block_end;
	st.dst_end = out->dst_end;
	st.frame_start = out->frame_start;
	st.fast_end = (size_t)(out->dst_end - out->block_end) >= WILD_SLACK ? out->block_end
		      : (size_t)(out->dst_end - out->op) >= WILD_SLACK ? out->dst_end - WILD_SLACK
								      : out->op;
	/* The frame-start check already bounds offsets by the room, so a window at least that
	 * large needs no second compare. */
	int check_window = out->window < (uint64_t)(out->dst_end - out->frame_start);

	st.window_limit = check_window ? (size_t)out->window : SIZE_MAX;
	if (check_window) {
		for (uint32_t i = 1; i < nseq; i++)
			if ((rc = one_sequence(&st, 0, 1, bmi2)) != ZS_OK)
				return rc;
	} else {
		for (uint32_t i = 1; i < nseq; i++)
			if ((rc = one_sequence(&st, 0, 0, bmi2)) != ZS_OK)
				return rc;
	}
	if ((rc = one_sequence(&st, 1, 1, bmi2)) != ZS_OK)
		return rc;
	seq_reload(&st.in);
	if (st.in.ptr != st.in.start || st.in.left != 0)
		return ZS_ERR_SEQ_STREAM;

	size_t rest = (size_t)(st.lit_end - st.lit);

	if (rest > (size_t)(st.block_end - st.op))
		return st.block_end < st.dst_end ? ZS_ERR_BLOCK_SIZE : ZS_ERR_DST_TOO_SMALL;
	memcpy(st.op, st.lit, rest);
	out->op = st.op + rest;
	d->rep[0] = st.rep0;
	d->rep[1] = st.rep1;
	d->rep[2] = st.rep2;
	return ZS_OK;
}

static int execute_generic(struct zs_dctx *d, const uint8_t *src, size_t len, uint32_t nseq,
			   struct zs_out *out)
{
	return execute_body(d, src, len, nseq, out, 0);
}

#if ZS_HAVE_BMI2_PATH
ZS_TARGET_BMI2 static int execute_bmi2(struct zs_dctx *d, const uint8_t *src, size_t len,
				       uint32_t nseq, struct zs_out *out)
{
	return execute_body(d, src, len, nseq, out, 1);
}
#endif

int zs_execute_sequences(struct zs_dctx *d, const uint8_t *src, size_t len, uint32_t nseq,
			 struct zs_out *out)
{
#if ZS_HAVE_BMI2_PATH
	if (d->bmi2)
		return execute_bmi2(d, src, len, nseq, out);
#endif
	return execute_generic(d, src, len, nseq, out);
}
