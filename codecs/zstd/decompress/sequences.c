/* sequences.c — decoding the sequence bitstream and executing sequences (literal copy, repeat offsets, match copy). */
#include "config.h"

#include <string.h>

#include "codecs/zstd/common/bitstream.h"
#include "codecs/zstd/common/mem.h"
#include "codecs/zstd/decompress/dctx.h"
#include "codecs/zstd/zstd.h"

/* Room beyond a sequence's end that the fast path may scribble on (later output overwrites it). */
#define WILD_SLACK 32u

/* Copies len bytes in 16-byte steps; may write up to 15 bytes beyond dst + len and read as far
 * beyond src + len. */
static inline void wild_copy16(uint8_t *dst, const uint8_t *src, size_t len)
{
	uint8_t *end = dst + len;

	do {
		zs_copy16(dst, src);
		dst += 16;
		src += 16;
	} while (dst < end);
}

/* Match copy from op - offset (offset >= 1, all source bytes already written); may write up to
 * 15 bytes beyond op + len. Short offsets repeat a pattern, so once 8 bytes exist any multiple
 * of the offset that is >= 8 is an equivalent, non-overlapping distance for 8-byte copies. */
static inline void wild_match(uint8_t *op, size_t offset, size_t len)
{
	uint8_t *end = op + len;
	const uint8_t *m = op - offset;

	if (offset >= 16) {
		do {
			zs_copy16(op, m);
			op += 16;
			m += 16;
		} while (op < end);
		return;
	}
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

int zs_execute_sequences(struct zs_dctx *d, const uint8_t *src, size_t len, uint32_t nseq,
			 struct zs_out *out)
{
	struct zs_bitin in;

	if (zs_bitin_init(&in, src, len) != 0)
		return ZS_ERR_SEQ_STREAM;

	const struct zs_seq_cell *llt = d->ll.cells, *oft = d->of.cells, *mlt = d->ml.cells;
	uint32_t lls = (uint32_t)zs_bitin_read(&in, d->ll.log);
	uint32_t ofs = (uint32_t)zs_bitin_read(&in, d->of.log);
	uint32_t mls = (uint32_t)zs_bitin_read(&in, d->ml.log);
	uint32_t rep0 = d->rep[0], rep1 = d->rep[1], rep2 = d->rep[2];
	const uint8_t *lit = d->lit;
	const uint8_t *const lit_end = lit + d->lit_len;
	uint8_t *op = out->op;
	uint8_t *const block_end = out->block_end;
	uint8_t *const dst_end = out->dst_end;
	uint8_t *const frame_start = out->frame_start;
	const uint64_t window = out->window;

	zs_bitin_reload(&in);
	for (uint32_t i = 0; i < nseq; i++) {
		const struct zs_seq_cell lc = llt[lls], oc = oft[ofs], mc = mlt[mls];
		/* Field order in the stream: offset, match length, literal length. */
		uint32_t ofv = oc.base + (uint32_t)zs_bitin_read(&in, oc.extra);
		uint32_t ml = mc.base + (uint32_t)zs_bitin_read(&in, mc.extra);

		zs_bitin_reload(&in);
		uint32_t ll = lc.base + (uint32_t)zs_bitin_read(&in, lc.extra);

		/* No state update after the last sequence; updates go LL, ML, OF. */
		if (i + 1 < nseq) {
			lls = lc.next_base + (uint32_t)zs_bitin_read(&in, lc.nbits);
			mls = mc.next_base + (uint32_t)zs_bitin_read(&in, mc.nbits);
			ofs = oc.next_base + (uint32_t)zs_bitin_read(&in, oc.nbits);
			zs_bitin_reload(&in);
		}

		uint32_t offset;

		if (ofv > 3) {
			offset = ofv - 3;
			rep2 = rep1;
			rep1 = rep0;
			rep0 = offset;
		} else {
			/* With no literals, repeat codes shift by one: 3 then means rep0 - 1. */
			unsigned idx = ofv - 1 + (ll == 0);

			if (idx == 0) {
				offset = rep0;
			} else {
				offset = idx == 1 ? rep1 : idx == 2 ? rep2 : rep0 - 1;
				if (idx != 1)
					rep2 = rep1;
				rep1 = rep0;
				rep0 = offset;
				if (offset == 0)
					return ZS_ERR_OFFSET;
			}
		}

		if (ll > (size_t)(lit_end - lit))
			return ZS_ERR_LITERAL_LENGTH;
		size_t total = (size_t)ll + ml;

		if (total > (size_t)(block_end - op))
			return block_end < dst_end ? ZS_ERR_BLOCK_SIZE : ZS_ERR_DST_TOO_SMALL;
		uint8_t *mstart = op + ll;

		if (offset > (size_t)(mstart - frame_start) || offset > window)
			return ZS_ERR_OFFSET;
		if ((size_t)(dst_end - op) >= total + WILD_SLACK) {
			wild_copy16(op, lit, ll);
			wild_match(mstart, offset, ml);
		} else {
			const uint8_t *match = mstart - offset;

			memcpy(op, lit, ll);
			for (size_t k = 0; k < ml; k++)
				mstart[k] = match[k];
		}
		op += total;
		lit += ll;
	}
	zs_bitin_reload(&in);
	if (!zs_bitin_finished(&in))
		return ZS_ERR_SEQ_STREAM;

	size_t rest = (size_t)(lit_end - lit);

	if (rest > (size_t)(block_end - op))
		return block_end < dst_end ? ZS_ERR_BLOCK_SIZE : ZS_ERR_DST_TOO_SMALL;
	memcpy(op, lit, rest);
	out->op = op + rest;
	d->rep[0] = rep0;
	d->rep[1] = rep1;
	d->rep[2] = rep2;
	return ZS_OK;
}
