/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* match_dfast.c — the double-table parser of levels 3-4: a long (8-byte) and a short table, one
 * probe of each per position and no chains, skipping faster through data that does not match. */
#include "config.h"

#include "codecs/zstd/common/cpu.h"
#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/compress/match_fast.h"

/* v, hidden from the compiler: a test of several conditions joined by & stays one branch on
 * their value (gcc split such tests into a branch per condition, each mispredicted on its
 * own). */
static inline __attribute__((always_inline)) int opaque(int v)
{
	__asm__("" : "+r"(v));
	return v;
}

/* The common length of a and b, at most limit - a, for the long (8-byte) candidates: 16
 * bytes a step with one exit test for both words, the word found by a mask. On text half the
 * long matches run past their first word, on average 2.6 words further, and zs_match_len's
 * exit tests (the first word's, then the loop's) were mispredicted about once a match each
 * (callgrind's model: 55K of 249K at level 3, 128 KiB). 11 % fewer mispredictions in all,
 * 2.6 % more instructions, 3-4 % faster on text at level 3 (bench/README.md, zdfast11);
 * for the repeat and short matches, mostly shorter, it gained nothing or lost. */
static inline __attribute__((always_inline)) size_t
len_pairs(const uint8_t *a, const uint8_t *b, const uint8_t *limit)
{
	const uint8_t *start = a;

	while (a + 16 <= limit) {
		uint64_t x0 = zs_read64(a) ^ zs_read64(b);
		uint64_t x1 = zs_read64(a + 8) ^ zs_read64(b + 8);

		if (x0 | x1) {
			uint64_t z = x0 == 0;
			uint64_t x = x0 | (x1 & (0 - z));

			return (size_t)(a - start) + (((size_t)__builtin_ctzll(x) + (z << 6)) >> 3);
		}
		a += 16;
		b += 16;
	}
	return (size_t)(a - start) + zs_match_len(a, b, limit);
}

/* The retry one byte on (a longer match there replaces m) in two halves: ahead_load
 * reads the long slot of p and its candidate's first 8 bytes when the probe finds a table
 * match, before that match's length is counted, so that these reads (two random ones, the
 * slot often outside the L1 cache) overlap the count and its mispredicted exit instead of
 * following them; ahead_try claims the slot and tests the candidate. */
struct ahead {
	uint32_t *slot;
	uint32_t cand;
	uint64_t x; /* the candidate's first 8 bytes ^ p's (at p itself for a stale slot) */
};

static inline __attribute__((always_inline)) void
ahead_load(struct ahead *a, uint32_t *longs, uint32_t base, const uint8_t *src, size_t p,
	   unsigned log)
{
	uint64_t w = zs_read64(src + p);

	a->slot = longs + zs_hash_word(w, 8, log);
	a->cand = *a->slot - base;
	a->x = zs_read64(src + pick(a->cand < p, a->cand, p)) ^ w;
	/* an empty statement that needs x: gcc sank the reads into ahead_try's branch */
	__asm__ __volatile__("" : : "r"(a->x));
}

/* The match at p of the candidate cand (its first 8 bytes equal) replaces m if longer. */
static inline __attribute__((always_inline)) void
take_longer(const uint8_t *src, size_t p, size_t cand, const uint8_t *limit, struct fmatch *m)
{
	size_t len = 8 + zs_match_len(src + p + 8, src + cand + 8, limit);

	if (len <= m->len)
		return;
	m->pos = p;
	m->dist = (uint32_t)(p - cand);
	m->len = len;
}

static inline __attribute__((always_inline)) void
ahead_try(const struct ahead *a, uint32_t base, const uint8_t *src, size_t p,
	  const uint8_t *limit, struct fmatch *m)
{
	*a->slot = (uint32_t)p + base;
	if (a->cand >= p || p - a->cand == m->dist || a->x != 0)
		return;
	take_longer(src, p, a->cand, limit, m);
}

/* ahead_try where want (m shorter than the retry target, or 1 for a short match), with one
 * branch on all the tests: level 3's target (12) made its length test alone a coin toss on
 * text, mispredicted in one long match of three (callgrind's model: 19.7K of 61.9K at 128
 * KiB); one branch for all: 177K mispredictions in all where there were 201K, for 1.8M
 * more instructions (7 %), level 3 on text 1.7 % faster at 128 KiB, 3 % at 1 MiB (locked
 * A/B, two rounds). Level 4's target (64, 24) is a safer guess: its copies keep ahead_try.
 * The slot is claimed only where wanted, as ahead_try's callers do. */
static inline __attribute__((always_inline)) void
ahead_fused(const struct ahead *a, uint32_t base, const uint8_t *src, size_t p,
	    const uint8_t *limit, struct fmatch *m, int want)
{
	int go = opaque(want & (a->cand < p) & (p - a->cand != m->dist) & (a->x == 0));

	*a->slot = (uint32_t)pick(want, p + base, a->cand + base);
	if (__builtin_expect(!go, 1))
		return;
	take_longer(src, p, a->cand, limit, m);
}

/* The retry where want: by ahead_fused where fuse, else by ahead_try. */
static inline __attribute__((always_inline)) void
ahead_retry(const struct ahead *a, uint32_t base, const uint8_t *src, size_t p,
	    const uint8_t *limit, struct fmatch *m, int want, int fuse)
{
	if (fuse)
		ahead_fused(a, base, src, p, limit, m, want);
	else if (want)
		ahead_try(a, base, src, p, limit, m);
}

/* Prefetches the two table slots that the probe at a match's end (end, at most ilimit) will
 * read, as soon as the match's length is counted: on text a match is found every 1.5 probes,
 * and the next probe's slot reads (mostly outside the L1 cache) otherwise wait behind the
 * match's backward extension, its store and the fills, which mispredict often. */
static inline __attribute__((always_inline)) void
prefetch_probe(const uint32_t *longs, const uint32_t *shorts, const uint8_t *src, size_t end,
	       size_t ilimit, unsigned mm, unsigned log, unsigned slog)
{
	uint64_t v = zs_read64(src + (end < ilimit ? end : ilimit));

	__builtin_prefetch(longs + zs_hash_word(v, 8, log));
	__builtin_prefetch(shorts + zs_hash_word(v, mm, slog));
}

/* The slots filled after a match from mstart to end: both tables two bytes into it, the long
 * one two bytes before its end and the short one a byte before it. */
static inline __attribute__((always_inline)) void
fill_after(uint32_t *longs, uint32_t *shorts, uint32_t base, const uint8_t *src, size_t mstart,
	   size_t end, unsigned mm, unsigned log, unsigned slog)
{
	longs[zs_hash(src + mstart + 2, 8, log)] = (uint32_t)(mstart + 2) + base;
	shorts[zs_hash(src + mstart + 2, mm, slog)] = (uint32_t)(mstart + 2) + base;
	longs[zs_hash(src + end - 2, 8, log)] = (uint32_t)(end - 2) + base;
	shorts[zs_hash(src + end - 1, mm, slog)] = (uint32_t)(end - 1) + base;
}

/* The rows' copies: a match of ml bytes at mpos at the repeat offset rep[0], after the
 * literals from anchor (never none: the probe found it one byte past a position at or after
 * the anchor): code 1, the repeat offsets unchanged, so neither offval_raw nor zs_offval
 * (whose search level 4 at 1 MiB would pay) is needed. Not extended back: the probe a byte
 * before (at step 1) tested this offset already, and the byte loop's exit cost a mispredicted
 * branch in about four matches on text. The other copies keep store_match's path, so that
 * level 2's small frames (a double-table row, levels_small.c) stay byte-identical. Returns
 * the match's end. */
static inline __attribute__((always_inline)) size_t
put_rep0(struct cursor *cu, const uint8_t *src, size_t anchor, size_t mpos, uint32_t ml)
{
	uint32_t lit = (uint32_t)(mpos - anchor);

	zs_copy_wild(cu->lit, src + anchor, lit);
	cu->lit += lit;
	cu->seq->lit = lit;
	cu->seq->ml = ml;
	cu->seq->offval = 1;
	cu->seq++;
	return mpos + ml;
}

/* A table match (the rows' copies, raw): extended back over the literals as store_match,
 * then stored as a new offset pushed into the history without comparing it with rep[0]: a
 * table match at rep[0]'s distance is rare here (the probe tests rep[0] first), and a
 * repeated offset pushed again is still valid zstd. Returns the match's end. */
static inline __attribute__((always_inline)) size_t
put_new(struct cursor *cu, const uint8_t *src, size_t anchor, struct fmatch *m)
{
	size_t low = anchor > m->dist ? anchor : m->dist;

	while (m->pos > low && src[m->pos - 1] == src[m->pos - 1 - m->dist]) {
		m->pos--;
		m->len++;
	}
	uint32_t lit = (uint32_t)(m->pos - anchor);

	zs_copy_wild(cu->lit, src + anchor, lit);
	cu->lit += lit;
	cu->seq->lit = lit;
	cu->seq->ml = (uint32_t)m->len;
	cu->seq->offval = m->dist + 3;
	cu->seq++;
	cu->rep[2] = cu->rep[1];
	cu->rep[1] = cu->rep[0];
	cu->rep[0] = m->dist;
	return m->pos + m->len;
}

/* A table match: put_new in the rows' copies (raw), else store_match with zs_offval. */
static inline __attribute__((always_inline)) size_t
store_table(struct cursor *cu, const uint8_t *src, size_t anchor, struct fmatch *m, int raw)
{
	return raw ? put_new(cu, src, anchor, m) : store_match(cu, src, anchor, m, 0, 0);
}

enum { FOUND_NONE, FOUND_REP, FOUND_LONG, FOUND_SHORT };

/* One probe at pos: both tables read and claimed, then the repeat offset one byte on, the
 * long and the short candidate tested (see parse_double), the candidates left in cl and cs. */
static inline __attribute__((always_inline)) int
probe(uint32_t *longs, uint32_t *shorts, uint32_t base, const uint8_t *src, size_t pos,
      const uint8_t *rsrc, unsigned mm, unsigned log, unsigned slog, uint32_t *cl, uint32_t *cs)
{
	uint64_t v = zs_read64(src + pos);
	size_t hl = zs_hash_word(v, 8, log), hs = zs_hash_word(v, mm, slog);
	*cl = longs[hl] - base;
	*cs = shorts[hs] - base;
	longs[hl] = shorts[hs] = (uint32_t)pos + base;
	size_t al = pick(*cl < pos, *cl, pos - 1), as = pick(*cs < pos, *cs, pos - 1);
	uint64_t xl = zs_read64(src + al) ^ v;
	uint64_t xs = (zs_read32(src + as) ^ v) << 32;
	uint32_t xr = (uint32_t)(v >> 8) ^ zs_read32(rsrc + pos);

	if (__builtin_expect(xr == 0, 0))
		return FOUND_REP;
	*cl = (uint32_t)al;
	*cs = (uint32_t)as;
	if (__builtin_expect(xl == 0, 0))
		return FOUND_LONG;
	if (__builtin_expect(xs == 0, 0))
		return FOUND_SHORT;
	return FOUND_NONE;
}

/* A long (8-byte) and a short (mm-byte, 2^chain_log slots) table; the long candidate is
 * preferred. A short match, or a long one under target_len, tries the long candidate one
 * byte on. (The short candidate there too found 0.3 % more for 2-3 % more work.) The repeat
 * offsets never exceed the position (see seek_single): rep0 one byte on needs no test.
 * The probe loop: the repeat offset on a branch of its own, as its load is the next bytes of
 * an earlier copy, in the cache, so a repeat match redirects the parse early; then the long
 * and the short candidate (gcc made two branches of a fused test anyway). Each test leaves
 * the loop for its own match code, which knows what was found: one exit whose code tested
 * all three again, reloading the probe's words, cost 1.2-1.7M instructions on the text
 * sample (4 %, bench/README.md, zdfast11). A candidate at or past pos (a stale slot) is
 * read at pos - 1 instead, so probes start at 1: a match there is a true one, at distance 1.
 * The step grows by one every 2^skip bytes since the anchor: lim is the next position where
 * it grows (or ilimit), so the loop adds a constant step and makes one test a position.
 * The first probe after a match (at its end, or one past a start) is a copy of its own, its
 * branches apart from the loop's: on text it finds a match 77 % of the time, later ones 22 %
 * (level 3, 128 KiB); 1-1.5 % faster at levels 3-4, text at level 3 1.6 % (locked A/B, two
 * rounds), the same frames.
 * Matches start at least 16 bytes before the block's end (zs_copy_wild): the long retry's 8
 * bytes one on stay inside the block and the input. mode: 0 for the other copies
 * (store_match, zs_offval), 1 for a row with zs_offval (level 4 at 1 MiB), 2 for a row
 * pushing new offsets (put_rep0 and store_table in both rows' kinds). fuse: the retry's
 * tests in one branch (ahead_fused, level 3's rows). */
static inline __attribute__((always_inline)) void
parse_double(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, unsigned mm,
	     unsigned log, unsigned slog, unsigned skip, int mode, int fuse)
{
	struct cursor cu;
	uint32_t *shorts = c->hash, *longs = c->hash2;
	uint32_t base = c->idx_base;
	size_t ilimit = zs_hash_limit(c);
	size_t pos = start + (start == 0), anchor = start;
	const uint8_t *limit = src + end;
	size_t retry_below = c->p.target_len; /* longer matches rarely improve one byte on */

	cursor_open(&cu, &c->store);
	if (ilimit + 17 > end)
		ilimit = end > 17 ? end - 17 : 0;
	while (pos < ilimit) {
		const uint8_t *rsrc = src + 1 - cu.rep[0];
		struct fmatch m;
		struct ahead ah;
		size_t mstart;
		uint32_t cl, cs;
		size_t step = 1; /* pos is at most one past the anchor */
		size_t lim = anchor + ((size_t)1 << skip);

		lim = lim < ilimit ? lim : ilimit;
		switch (probe(longs, shorts, base, src, pos, rsrc, mm, log, slog, &cl, &cs)) {
		case FOUND_REP:
			goto rep_found;
		case FOUND_LONG:
			goto long_found;
		case FOUND_SHORT:
			goto short_found;
		}
		if (++pos >= ilimit)
			break;
		for (;;) {
			switch (probe(longs, shorts, base, src, pos, rsrc, mm, log, slog, &cl, &cs)) {
			case FOUND_REP:
				goto rep_found;
			case FOUND_LONG:
				goto long_found;
			case FOUND_SHORT:
				goto short_found;
			}
			pos += step;
			if (__builtin_expect(pos >= lim, 0)) {
				if (pos >= ilimit)
					goto done;
				step = 1 + ((pos - anchor) >> skip);
				lim = anchor + (step << skip);
				lim = lim < ilimit ? lim : ilimit;
			}
		}
rep_found: /* rep[0] one byte past pos */
		m.pos = pos + 1;
		m.len = 4 + zs_match_len(src + pos + 5, rsrc + pos + 4, limit);
		prefetch_probe(longs, shorts, src, m.pos + m.len, ilimit, mm, log, slog);
		mstart = m.pos;
		if (mode) {
			pos = anchor = put_rep0(&cu, src, anchor, mstart, (uint32_t)m.len);
			goto matched;
		}
		m.dist = cu.rep[0]; /* the other copies: main's stores (level 2's small frames) */
		goto store;
long_found:
		ahead_load(&ah, longs, base, src, pos + 1, log);
		m.pos = pos;
		m.dist = (uint32_t)(pos - cl);
		m.len = 8 + len_pairs(src + pos + 8, src + cl + 8, limit);
		prefetch_probe(longs, shorts, src, pos + m.len, ilimit, mm, log, slog);
		ahead_retry(&ah, base, src, pos + 1, limit, &m, m.len < retry_below, fuse);
		goto store;
short_found:
		ahead_load(&ah, longs, base, src, pos + 1, log);
		m.pos = pos;
		m.dist = (uint32_t)(pos - cs);
		m.len = 4 + zs_match_len(src + pos + 4, src + cs + 4, limit);
		prefetch_probe(longs, shorts, src, pos + m.len, ilimit, mm, log, slog);
		ahead_retry(&ah, base, src, pos + 1, limit, &m, 1, fuse);
store:
		mstart = m.pos;
		pos = anchor = store_table(&cu, src, anchor, &m, mode == 2);
matched:
		if (pos > ilimit)
			break;
		fill_after(longs, shorts, base, src, mstart, pos, mm, log, slog);
		while (pos <= ilimit && zs_read32(src + pos) == zs_read32(src + pos - cu.rep[1])) {
			size_t r = 4 + zs_match_len(src + pos + 4, src + pos + 4 - cu.rep[1], limit);

			shorts[zs_hash(src + pos, mm, slog)] = (uint32_t)pos + base;
			longs[zs_hash(src + pos, 8, log)] = (uint32_t)pos + base;
			put_rep1(&cu, (uint32_t)r);
			pos += r;
			anchor = pos;
		}
	}
done:
	cursor_close(&cu, &c->store, src, anchor, end);
}

/* The double-table parser with the hash width, and for the rows of levels 3-4 over 128 KiB
 * and 1 MiB frames the table sizes and the step's growth, as constants in each copy: shifts
 * by a constant leave the probe loop two registers more, where gcc reloaded the shift counts
 * from the stack at every position (3.4-4.2 % fewer instructions in all at levels 3-4,
 * callgrind, the same frames). Other sizes (small frames, whose tables shrink with the
 * input) take the copies that read them. The rows' copies code offsets by offval_raw (3.6 %
 * fewer instructions on text, 0.02-0.1 % larger frames), all but level 4 at 1 MiB (target
 * 24), where bin would be 0.9999 of libzstd's size; the small frames' rows keep zs_offval. */
/* Each copy a function of its own (twice with a BMI2 path: generic, and BMI2, whose shifts by
 * the hash size leave the CL register free), so that gcc allocates its registers apart from
 * the other copies': inlined into one function, a change to one copy moved the others' spills
 * (level 4's probe loop an instruction longer for a change to level 3's retry). Apart, the
 * copies of levels 3 and 4 at 1 MiB ran 3 % fewer instructions on text, level 4 at 128 KiB
 * 1 % more (callgrind), as fast (locked A/B, two rounds); the same frames. */
#if ZS_HAVE_BMI2_PATH
#define DOUBLE_COPY(name, ...)                                                                  \
	static __attribute__((noinline)) void name##_generic(struct zs_cctx *c,                  \
							     const uint8_t *src, size_t start,   \
							     size_t end)                         \
	{                                                                                       \
		parse_double(c, src, start, end, __VA_ARGS__);                                  \
	}                                                                                       \
	ZS_TARGET_BMI2 static __attribute__((noinline)) void name##_bmi2(                       \
		struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)                \
	{                                                                                       \
		parse_double(c, src, start, end, __VA_ARGS__);                                  \
	}
#define DOUBLE_RUN(name) (bmi2 ? name##_bmi2 : name##_generic)(c, src, start, end)
#else
#define DOUBLE_COPY(name, ...)                                                                  \
	static __attribute__((noinline)) void name##_generic(struct zs_cctx *c,                  \
							     const uint8_t *src, size_t start,   \
							     size_t end)                         \
	{                                                                                       \
		parse_double(c, src, start, end, __VA_ARGS__);                                  \
	}
#define DOUBLE_RUN(name) ((void)bmi2, name##_generic(c, src, start, end))
#endif

/* The double-table parser with the hash width, and for the rows of levels 3-4 over 128 KiB
 * and 1 MiB frames the table sizes and the step's growth, as constants in each copy: shifts
 * by a constant leave the probe loop two registers more, where gcc reloaded the shift counts
 * from the stack at every position (3.4-4.2 % fewer instructions in all at levels 3-4,
 * callgrind, the same frames). Other sizes (small frames, whose tables shrink with the
 * input) take the copies that read them. The rows' copies code offsets by offval_raw (3.6 %
 * fewer instructions on text, 0.02-0.1 % larger frames), all but level 4 at 1 MiB (target
 * 24), where bin was 0.9999 of libzstd's size in 2^16 long slots (in 2^17: 0.9980, and no
 * faster: text 1.039x libzstd's speed against 1.045); the small frames' rows keep zs_offval.
 * Levels 3-4's rows (levels.c): 2^16 long slots and 2^15 or 2^16 short ones, but level 4's
 * at 1 MiB: 2^17 long and 2^16 short ones (row4l). */
DOUBLE_COPY(row3s, 5, 16, 15, 8, 2, 1)
DOUBLE_COPY(row3l, 5, 16, 16, 8, 2, 1)
DOUBLE_COPY(row4l, 5, 17, 16, 8, 1, 0)
DOUBLE_COPY(row4s, 4, 16, 15, 8, 2, 0)
DOUBLE_COPY(any4, 4, c->hash_log, c->p.chain_log < c->hash_log ? c->p.chain_log : c->hash_log,
	    c->p.search_log, 0, 0)
DOUBLE_COPY(any5, 5, c->hash_log, c->p.chain_log < c->hash_log ? c->p.chain_log : c->hash_log,
	    c->p.search_log, 0, 0)
DOUBLE_COPY(any, c->p.min_match, c->hash_log,
	    c->p.chain_log < c->hash_log ? c->p.chain_log : c->hash_log, c->p.search_log, 0, 0)

static void double_mm(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end, int bmi2)
{
	unsigned mm = c->p.min_match, log = c->hash_log, skip = c->p.search_log;
	unsigned slog = c->p.chain_log < log ? c->p.chain_log : log;
	int row = skip == 8 && log == 16;

	if (row && mm == 5 && slog == 15)
		DOUBLE_RUN(row3s);
	else if (row && mm == 5 && slog == 16 && c->p.target_len < 24)
		DOUBLE_RUN(row3l);
	else if (skip == 8 && log == 17 && mm == 5 && slog == 16)
		DOUBLE_RUN(row4l);
	else if (row && mm == 4 && slog == 15)
		DOUBLE_RUN(row4s);
	else if (mm == 4)
		DOUBLE_RUN(any4);
	else if (mm == 5)
		DOUBLE_RUN(any5);
	else
		DOUBLE_RUN(any);
}

void zs_parse_double(struct zs_cctx *c, const uint8_t *src, size_t start, size_t end)
{
	double_mm(c, src, start, end, zs_cpu_has_bmi2());
}
