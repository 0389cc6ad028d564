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

/* Copies len bytes: 32 unconditionally (most literal runs and matches are shorter, so the
 * length rarely costs a branch miss), then 32-byte steps (two copies a turn: long runs, such
 * as a tar stream's, take half the loop overhead). May write up to 31 bytes beyond dst + len
 * and read as far beyond src + len; src must be at least 16 bytes behind dst when they
 * overlap (each copy then reads only bytes written before it). */
static inline __attribute__((always_inline)) void wild_copy32(uint8_t *dst, const uint8_t *src, size_t len)
{
	zs_copy16(dst, src);
	zs_copy16(dst + 16, src + 16);
	if (__builtin_expect(len > 32, 0)) {
		uint8_t *end = dst + len;

		dst += 32;
		src += 32;
		do {
			zs_copy16(dst, src);
			zs_copy16(dst + 16, src + 16);
			dst += 32;
			src += 32;
		} while (dst < end);
	}
}

/* Match copy from op - offset (offset >= 1, all source bytes already written); may write up to
 * 31 bytes beyond op + len. Short offsets repeat a pattern: the first 8 bytes come from one
 * multiplication, then copies from a multiple of the offset at least as far back as the copy
 * is wide (8, then 16, then 32 bytes), which never overlap what they write. Long runs of one
 * byte (zero padding in tar streams) are a memset. */
static inline __attribute__((always_inline)) void wild_match(uint8_t *op, size_t offset, size_t len)
{
	const uint8_t *m = op - offset;

	if (__builtin_expect(offset >= 16, 1)) {
		wild_copy32(op, m, len);
		return;
	}
	static const uint8_t period8[8] = { 0, 8, 8, 9, 8, 10, 12, 14 };
	static const uint8_t period16[16] = { 0, 16, 16, 18, 16, 20, 18, 21, 16, 18, 20, 22, 24, 26, 28, 30 };
	static const uint8_t period32[16] = { 0, 32, 32, 33, 32, 35, 36, 35, 32, 36, 40, 33, 36, 39, 42, 45 };

	if (offset < 8) {
		if (offset == 1 && len > 64) {
			memset(op, m[0], len);
			return;
		}
		/* The pattern's bytes, kept by the mask, repeated by a multiplication (the copies
		 * do not overlap: no carries). The load may take bytes at op and beyond: masked
		 * away. No byte-by-byte chain through the store buffer. */
		static const uint64_t keep[8] = {
			0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffffull, 0xffffffffffffull,
			0xffffffffffffffull,
		};
		static const uint64_t repeat[8] = {
			0, 0x0101010101010101ull, 0x0001000100010001ull, 0x0001000001000001ull,
			0x0000000100000001ull, 0x0000010000000001ull, 0x0001000000000001ull,
			0x0100000000000001ull,
		};

		zs_write64(op, (zs_read64(m) & keep[offset]) * repeat[offset]);
		zs_copy8(op + 8, op + 8 - period8[offset]);
	} else {
		zs_copy8(op, m);
		zs_copy8(op + 8, m + 8);
	}
	if (len > 16) {
		zs_copy16(op + 16, op + 16 - period16[offset]);
		if (len > 32) {
			uint8_t *end = op + len;
			size_t period = period32[offset];

			for (uint8_t *p = op + 32; p < end; p += 32) {
				zs_copy16(p, p - period);
				zs_copy16(p + 16, p + 16 - period);
			}
		}
	}
}

/* The sequence loop's view of the bit reader: `left` is the container's unread bits less 64
 * (minus the bits consumed), so a read is a subtract, a shift and a mask (three instructions
 * with BMI2) instead of the general reader's five, and a reload's step back is -left / 8 (no
 * constant 64 to hold in a register). Past the stream start `left` drops below -64 and reads
 * return unspecified bits, as zs_bitin_read's do; the end check catches it. */
struct seq_bits {
	uint64_t bits;
	int left;
	const uint8_t *ptr, *start;
};

/* n in 0..31; at most 57 bits between reloads. `bmi2`, a constant, says the caller is the
 * BMI2 clone, where the mask is one BZHI: compilers do not find it themselves, and the
 * intrinsic cannot be inlined into the shared body, hence the one line of assembly. */
static inline __attribute__((always_inline)) size_t seq_read(struct seq_bits *b, unsigned n, int bmi2)
{
	b->left -= (int)n;
	/* left - 64 and left agree modulo 64, which is all the shift looks at. */
	uint64_t v = b->bits >> ((unsigned)b->left & 63);

#if ZS_HAVE_BMI2_PATH
	if (bmi2) {
		uint64_t r;

		__asm__("bzhi %2, %1, %0" : "=r"(r) : "r"(v), "r"((uint64_t)n));
		return (size_t)r;
	}
#endif
	(void)bmi2;
	return (size_t)(v & ((UINT64_C(1) << n) - 1));
}

/* zs_bitin_reload in this representation: at least 57 bits unread afterwards (fewer near the
 * stream start). `safe` (a constant) says the caller knows the step back stays inside the
 * stream, which drops the clamp from the chain that every next read waits for. */
static inline __attribute__((always_inline)) void seq_reload(struct seq_bits *b, int safe)
{
	size_t back = (size_t)(unsigned)(-b->left) >> 3;

	if (!safe) {
		size_t avail = (size_t)(b->ptr - b->start);

		back = back > avail ? avail : back;
	}
	b->ptr -= back;
	b->left += (int)back * 8;
	b->bits = zs_read64(b->ptr);
}

/* How many sequences can decode without the reload clamp: each reads at most `per` bits (the
 * three tables' extra and state bits), and after a reload at most 7 bits of the container are
 * used, so k sequences move the reader back at most (7 + per * k) / 8 bytes. */
static inline __attribute__((always_inline)) size_t unclamped_sequences(const struct seq_bits *b,
									 unsigned per)
{
	size_t bits = (size_t)(b->ptr - b->start) * 8;

	return bits > 7 ? (bits - 7) / per : 0;
}

/* One decoded sequence. */
struct seq_val {
	uint32_t ll, ml, offset;
};

/* x >= y ? a : b and x == y ? a : b as conditional moves: the repeat-offset choices follow the
 * data, so branches there mispredict often, and compilers turn plain conditionals back into
 * branches. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ZS_PICK(name, cc, expr)                                                                 \
	static inline __attribute__((always_inline)) uint32_t name(uint32_t x, uint32_t y,        \
								   uint32_t a, uint32_t b)        \
	{                                                                                         \
		__asm__("cmp %2, %1\n\tcmov" cc " %3, %0" : "+r"(b) : "r"(x), "ri"(y), "r"(a) : "cc"); \
		return b;                                                                         \
	}
#else
#define ZS_PICK(name, cc, expr)                                                                 \
	static inline __attribute__((always_inline)) uint32_t name(uint32_t x, uint32_t y,        \
								   uint32_t a, uint32_t b)        \
	{                                                                                         \
		uint32_t m = 0u - (uint32_t)(expr);                                               \
		return (a & m) | (b & ~m);                                                        \
	}
#endif
ZS_PICK(pick_ge, "ae", x >= y)
ZS_PICK(pick_eq, "e", x == y)
#undef ZS_PICK

/* The decoding side: bit reader, the three states, repeat offsets. */
struct seq_dec {
	struct seq_bits in;
	unsigned per_seq; /* the most bits a sequence reads (>= 1) */
	const char *lls, *ofs, *mls; /* cells (bytes, for the relative steps) */
	uint32_t rep0, rep1, rep2;
};

/* States step by whole cells: 8 * read(nbits) in the updates. */
_Static_assert(sizeof(struct zs_seq_cell) == 8, "a sequence cell is 8 bytes");

static inline __attribute__((always_inline)) const struct zs_seq_cell *seq_cell(const char *state)
{
	return (const struct zs_seq_cell *)(const void *)state;
}

/* The state after cell c given its nbits read (a cell of the same table, by construction). */
static inline __attribute__((always_inline)) const char *next_state(const struct zs_seq_cell *c, size_t read)
{
	return (const char *)c + c->next_delta + 8 * read;
}

/* The offset of a sequence from its Offset_Value and literal length, and the repeat offsets
 * after it, without branches (which way a sequence goes follows the data, so a branch here
 * mispredicts often). k = Offset_Value - 1, plus one with no literals: 0 keeps rep0; 1 swaps
 * rep0 and rep1; 2 and above push a new offset (rep2, rep0 - 1 or Offset_Value - 3). */
static inline __attribute__((always_inline)) uint32_t repeat_offsets(struct seq_dec *sd, uint32_t ofv,
								     uint32_t ll)
{
	uint32_t k = ofv - 1 + (ll == 0);
	uint32_t fourth = pick_ge(ofv, 4, ofv - 3, sd->rep0 - 1);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	/* The same choices as below with each comparison's flags shared by its moves: ten
	 * instructions instead of sixteen. */
	uint32_t offset = sd->rep0;

	__asm__("cmp $1, %[k]\n\t"
		"cmove %[r1], %[off]\n\t"
		"cmp $2, %[k]\n\t"
		"cmove %[r2], %[four]\n\t"
		"cmovae %[four], %[off]\n\t"
		"cmovae %[r1], %[r2]\n\t"
		"cmp $1, %[k]\n\t"
		"cmovae %[r0], %[r1]"
		: [off] "+&r"(offset), [four] "+&r"(fourth), [r1] "+&r"(sd->rep1), [r2] "+&r"(sd->rep2)
		: [k] "r"(k), [r0] "r"(sd->rep0)
		: "cc");
#else
	uint32_t offset = pick_ge(k, 2, pick_eq(k, 2, sd->rep2, fourth), pick_eq(k, 1, sd->rep1, sd->rep0));

	sd->rep2 = pick_ge(k, 2, sd->rep1, sd->rep2);
	sd->rep1 = pick_ge(k, 1, sd->rep0, sd->rep1);
#endif
	sd->rep0 = offset;
	return offset;
}

/* Decode the next sequence; `last` skips the state update (RFC 8878 3.1.1.3.2.1.4), `safe` the
 * reload's clamp (see unclamped_sequences). A zero offset (repeat code 3 with rep0 1) is refused
 * by the execution's offset check. */
static inline __attribute__((always_inline)) struct seq_val decode_seq(struct seq_dec *sd, int last,
								      int safe, int bmi2)
{
	/* Pointers, not copies: each field is loaded where it is used, so the three cells do not
	 * hold a dozen registers through the sequence. */
	const struct zs_seq_cell *lc = seq_cell(sd->lls), *oc = seq_cell(sd->ofs), *mc = seq_cell(sd->mls);
	/* Field order in the stream: offset, match length, literal length. After the reload at the
	 * end of the previous sequence at least 57 bits are there: enough for everything unless the
	 * extra bits total 31 or more (26 go to the state updates). */
	uint32_t ofv = oc->base + (uint32_t)seq_read(&sd->in, oc->extra, bmi2);
	uint32_t ml = mc->base + (uint32_t)seq_read(&sd->in, mc->extra, bmi2);

	if (__builtin_expect((unsigned)oc->extra + mc->extra + lc->extra >= 31, 0))
		seq_reload(&sd->in, safe);
	uint32_t ll = lc->base + (uint32_t)seq_read(&sd->in, lc->extra, bmi2);

	if (!last) {
		/* State updates go LL, ML, OF. */
		/* Whole 64-bit reads: no zero-extension step before the scaled add. */
		sd->lls = next_state(lc, seq_read(&sd->in, lc->nbits, bmi2));
		sd->mls = next_state(mc, seq_read(&sd->in, mc->nbits, bmi2));
		sd->ofs = next_state(oc, seq_read(&sd->in, oc->nbits, bmi2));
		seq_reload(&sd->in, safe);
	}

	struct seq_val v = { ll, ml, repeat_offsets(sd, ofv, ll) };

	return v;
}

/* The executing side: literals, output and its limits. */
struct seq_exec {
	const uint8_t *lit, *lit_end;
	uint8_t *op, *block_end, *dst_end, *frame_start;
	uint8_t *fast_end;   /* below this, a sequence fits the block and leaves WILD_SLACK of room */
	size_t window_limit; /* offsets above this are out of the window */
};

/* The copies of a checked sequence too close to the end of the output for the fast path's
 * slack: wild copies for as much as leaves them WILD_SLACK before dst_end, then 8 bytes at a
 * time and single bytes. Every block's last few sequences come here (a 4 KiB frame's are a
 * tenth of its sequences), and a byte-by-byte match copy, each byte loaded from one just
 * stored, was 2-3 % of decoding 4 KiB frames of binaries at level 1. */
static void copy_near_end(uint8_t *op, const uint8_t *lit, size_t ll, size_t offset, size_t ml,
			  const uint8_t *dst_end)
{
	uint8_t *mstart = op + ll;
	size_t room = (size_t)(dst_end - mstart); /* >= ml: checked by the caller */
	const uint8_t *match = mstart - offset;
	size_t i = 0;

	/* The literals have ZS_LIT_SLACK readable bytes after them, as on the fast path. */
	if (room >= WILD_SLACK)
		wild_copy32(op, lit, ll);
	else
		memcpy(op, lit, ll);
	if (room >= WILD_SLACK) {
		i = ml < room - WILD_SLACK ? ml : room - WILD_SLACK;
		if (i != 0)
			wild_match(mstart, offset, i);
	}
	/* Each 8-byte load is of bytes already final when the offset is at least 8. */
	if (offset >= 8)
		for (; ml - i >= 8; i += 8)
			zs_copy8(mstart + i, match + i);
	for (; i < ml; i++)
		mstart[i] = match[i];
}

/* One sequence with every check of its own, for sequences near the end of the room or the
 * literals, or near the stream start: wild copies while they fit, byte copies after. */
static int exec_careful(struct seq_exec *ex, size_t ll, size_t ml, size_t offset)
{
	uint8_t *op = ex->op;

	if (ll > (size_t)(ex->lit_end - ex->lit))
		return ZS_ERR_LITERAL_LENGTH;
	size_t total = ll + ml;
	uint8_t *mstart = op + ll;

	if (offset == 0 || offset > (size_t)(mstart - ex->frame_start) || offset > ex->window_limit)
		return ZS_ERR_OFFSET;
	if (ex->fast_end > op && total <= (size_t)(ex->fast_end - op)) {
		wild_copy32(op, ex->lit, ll);
		wild_match(mstart, offset, ml);
	} else {
		if (total > (size_t)(ex->block_end - op))
			return ex->block_end < ex->dst_end ? ZS_ERR_BLOCK_SIZE : ZS_ERR_DST_TOO_SMALL;
		copy_near_end(op, ex->lit, ll, offset, ml, ex->dst_end);
	}
	ex->op = op + total;
	ex->lit += ll;
	return ZS_OK;
}

/* One sequence on the fast path: the caller knows its literals and output fit. `check_window`
 * is 0 when the window cannot be smaller than the frame's history (the frame-start check then
 * bounds offsets already). */
static inline __attribute__((always_inline)) int exec_fast(uint8_t **opp, const uint8_t **litp,
							  const struct seq_exec *ex, size_t ll,
							  size_t ml, size_t offset, int check_window)
{
	uint8_t *op = *opp;
	uint8_t *mstart = op + ll;

	/* offset 0 wraps to the largest value: refused here too. */
	if (__builtin_expect(offset - 1 >= (size_t)(mstart - ex->frame_start) ||
			     (check_window && offset > ex->window_limit), 0))
		return ZS_ERR_OFFSET;
	wild_copy32(op, *litp, ll);
	wild_match(mstart, offset, ml);
	*opp = mstart + ml;
	*litp += ll;
	return ZS_OK;
}

/* Decode and execute the block's sequences one after the other. Decoding is a chain of
 * dependent table loads and shifts, execution mostly waits on copies through the store
 * buffer: in one loop each fills the other's idle cycles. A sequence whose literals and output
 * fit (all but the block's last few, usually) takes the fast path, which checks only the
 * offset. The reader runs without the reload clamp for as many sequences as it has bytes
 * for (unclamped_sequences), in runs that shrink as it nears the stream start; only the block's
 * last sequence and those within a sequence's bits of the start go one at a time with the
 * clamp. */
static inline __attribute__((always_inline)) int run_sequences(struct seq_dec *sd, struct seq_exec *ex,
							      uint32_t nseq, int check_window, int bmi2)
{
	uint32_t i = 0;

	while (i < nseq) {
		size_t safe = unclamped_sequences(&sd->in, sd->per_seq);
		uint32_t end = nseq - 1 - i < safe ? nseq - 1 : i + (uint32_t)safe;
		const uint8_t *lit = ex->lit;
		uint8_t *op = ex->op;
		int rc;

		/* A count down, one register for the loop. */
		for (uint32_t k = end - i; k != 0; k--) {
			struct seq_val v = decode_seq(sd, 0, 1, bmi2);
			size_t ll = v.ll, total = ll + v.ml;

			if (__builtin_expect(ll > (size_t)(ex->lit_end - lit) ||
					     (ptrdiff_t)total > ex->fast_end - op, 0)) {
				ex->op = op;
				ex->lit = lit;
				rc = exec_careful(ex, ll, v.ml, v.offset);
				if (rc != ZS_OK)
					return rc;
				op = ex->op;
				lit = ex->lit;
				continue;
			}
			rc = exec_fast(&op, &lit, ex, ll, v.ml, v.offset, check_window);
			if (rc != ZS_OK)
				return rc;
		}
		ex->op = op;
		ex->lit = lit;
		if (end != i) {
			i = end;
			continue;
		}
		/* The clamped step only when no run fits (or for the last sequence): after a run
		 * the reader usually has bytes for another, shorter one. */
		struct seq_val v = decode_seq(sd, i == nseq - 1, 0, bmi2);

		rc = exec_careful(ex, v.ll, v.ml, v.offset);
		if (rc != ZS_OK)
			return rc;
		i++;
	}
	return ZS_OK;
}

static inline __attribute__((always_inline)) int execute_body(struct zs_dctx *d, const uint8_t *src,
								size_t len, uint32_t nseq,
								struct zs_out *out, int bmi2)
{
	struct seq_dec sd;
	struct seq_exec ex;
	struct zs_bitin in;
	uint8_t pad[8];
	int rc = ZS_OK;

	if (zs_bitin_init(&in, src, len, pad) != 0)
		return ZS_ERR_SEQ_STREAM;
	sd.lls = (const char *)(d->ll.cells + zs_bitin_read(&in, d->ll.log));
	sd.ofs = (const char *)(d->of.cells + zs_bitin_read(&in, d->of.log));
	sd.mls = (const char *)(d->ml.cells + zs_bitin_read(&in, d->ml.log));
	zs_bitin_reload(&in);
	sd.in.bits = in.bits;
	sd.in.left = -(int)in.consumed;
	sd.in.ptr = in.ptr;
	sd.in.start = in.start;
	sd.per_seq = d->ll.seq_bits + d->of.seq_bits + d->ml.seq_bits;
	sd.per_seq += sd.per_seq == 0;
	sd.rep0 = d->rep[0];
	sd.rep1 = d->rep[1];
	sd.rep2 = d->rep[2];
	ex.lit = d->lit;
	ex.lit_end = d->lit + d->lit_len;
	ex.op = out->op;
	ex.block_end = out->block_end;
	ex.dst_end = out->dst_end;
	ex.frame_start = out->frame_start;
	ex.fast_end = (size_t)(out->dst_end - out->block_end) >= WILD_SLACK ? out->block_end
		      : (size_t)(out->dst_end - out->op) >= WILD_SLACK ? out->dst_end - WILD_SLACK
								      : out->op;
	/* The frame-start check already bounds offsets by the room, so a window at least that
	 * large needs no second compare. */
	int check_window = out->window < (uint64_t)(out->dst_end - out->frame_start);

	ex.window_limit = check_window ? (size_t)out->window : SIZE_MAX;
	rc = check_window ? run_sequences(&sd, &ex, nseq, 1, bmi2) : run_sequences(&sd, &ex, nseq, 0, bmi2);
	if (rc != ZS_OK)
		return rc;
	seq_reload(&sd.in, 0);
	if (sd.in.ptr != sd.in.start || sd.in.left != -64)
		return ZS_ERR_SEQ_STREAM;

	size_t rest = (size_t)(ex.lit_end - ex.lit);

	if (rest > (size_t)(ex.block_end - ex.op))
		return ex.block_end < ex.dst_end ? ZS_ERR_BLOCK_SIZE : ZS_ERR_DST_TOO_SMALL;
	memcpy(ex.op, ex.lit, rest);
	out->op = ex.op + rest;
	d->rep[0] = sd.rep0;
	d->rep[1] = sd.rep1;
	d->rep[2] = sd.rep2;
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
