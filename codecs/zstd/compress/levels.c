/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* levels.c — the search parameters of levels 1..22: one row for inputs up to 256 KiB, one for larger ones (levels_small.c and levels_mid.c override them for some sizes). */
#include "config.h"

#include "codecs/zstd/compress/cctx.h"
#include "codecs/zstd/zstd.h"

/* Per level: { parameters for inputs up to 256 KiB, for larger ones }. Each is
 * { strategy, hash_log, chain_log, search_log, min_match, target_len, passes }.
 * Inputs over 256 KiB (squashfs blocks of 512 KiB and 1 MiB) get the second: a window that large
 * finds more, so the same effort compresses better, and the slow strategies can step down. Hash
 * and chain sizes are those for 128 KiB: frame.c scales them with the input. The row levels
 * (ZS_GREEDY..ZS_LAZY2) keep no hash table (their chain_log sizes the row table of
 * match_row.h: 4 << chain_log bytes, 2 per input byte at most; search_log also picks the row
 * size, 64 bytes for 2^3 candidates, 128 for 2^4, 192 for 2^5, 256 above). Their target_len
 * (and that of ZS_BTLAZY2) is the length from which a match is taken without lazy evaluation,
 * 0 for none (match_lazy.c): inside a long match the steps' searches are compares far back in
 * the input that seldom find better. At 1 MiB,
 * levels 11-12 take 4-byte matches: 2 % smaller on the tree and bin samples than 5-byte ones
 * at the same speed.
 * Levels 1-4 (ZS_DFAST) use no chain: their chain_log is 0 for one table of min_match-byte
 * hashes (levels 1-2, the cheapest search: match_fast.c), else the size of the short table
 * beside the long one (match_dfast.c); a match under target_len tries the candidate one byte
 * on (a single-table row of target_len 0 never does, one of target_len 1 probes positions in
 * pairs with no retry, one of 2 pairs from a step of 3).
 * Level 15 over 256 KiB, mksquashfs's default, is the lazy2 parse over the trees with 64
 * descents, as libzstd's level 15 there (its search_log 6), sorting at most 32 passed
 * positions a search (match_lazy.c): 0.1-2.4 % smaller than libzstd (text the least).
 * The optimal parser's cheapest row that stayed smaller (8 attempts, 5-byte matches; 4
 * attempts or a 32-byte target left text 1.3-2.4 % larger) was 1.8-4.5 % smaller but ran
 * 0.77-0.79x libzstd's speed on the tree and bin samples (idle), its descents at every
 * position waiting on a node and a string each step; the trees' lazy parse searches a few
 * positions per match (four alternating runs against it, per round: bin 1.0-1.6x, tree
 * 0.95-1.4x, text 0.82-1.17x and misc 0.81-1.10x, where that row had 4-8 % to spare, until
 * the sorts were capped: text then 1.18x and bin 1.09x faster again).
 * 32 descents, level 14's, are 1.0024 of libzstd's level-15 size on text.
 * ZS_BTLAZY2 is the lazy2 parse over match_btlazy.h's trees (match_lazy.c): rows of at most
 * 48 slots left levels 11-12 at 128 KiB and 13-14 at 1 MiB 0.1-1.2 % larger than libzstd's
 * binary-tree lazy levels; the trees search as far back as the input, and sort in a position
 * the parse passes only when a search comes its way. Their chain_log must stay at 18 or
 * more: the trees keep two links for every position of the frame. */
static const struct zs_params level_table[ZS_MAX_LEVEL + 1][2] = {
	{{ZS_DFAST, 12, 12, 8, 5, 1, 1}, {ZS_DFAST, 12, 12, 8, 5, 1, 1}}, /* unused (level 0) */
	/* 1: levels 1-2 probe in pairs (target_len 1, match_fast.c's parse_pair): 0.3-1.5 %
	 * larger than the retry one byte on made them, 1.10-1.13x as fast. Level 1 at 1 MiB in
	 * pairs from a step of 3 (target_len 2: two positions of three), step growth every 128
	 * bytes: 0.9600-0.9924 of libzstd's size (0.9558-0.9902 since match_fast.c fills pair + 3
	 * after every match, 0.9649-0.9973 since it fills one of the match's last positions, not
	 * two: 1.5-2 % faster), 1.05-1.06x as fast as one position at a time
	 * (0.9661-0.9850); pairs from a step of 2 were 0.9555-0.9881 and 1.04x, from a step of 4
	 * 1.0162-1.0310. Every 32 bytes from a step of 3: bin 1.0010 (every 64: +0.01-0.15 %, no
	 * faster on the EPYC); 5-byte hashes or 2^13 slots were 4-5 % slower or larger (2^13 on
	 * the EPYC: 2-3.5 % faster, 1.0004-1.0245), 2^15-2^16 slots 2-9 % slower (the table leaves
	 * the cache), 7-byte hashes 1.0003-1.0049 on tree and bin. Level 1 at 128 KiB steps one
	 * byte further every 512 bytes without a match (256, with both end fills: bin 0.99996 of
	 * libzstd's size, the same speed); 2^14 slots or 5-byte hashes were smaller but 0.92x and
	 * 0.95x as fast. With one end fill (1.5-3 % faster), level 1 at 128 KiB is 0.9967-0.9995
	 * of libzstd's size, level 2 0.9968-0.9997 at 128 KiB and 0.9927-0.9998 at 1 MiB (bin the
	 * least margin in both). With tagged entries (match_fast.c's seek_tagged: a slot tells a
	 * miss before the candidate's bytes are read), levels 1-2 ran 1.08-1.20x libzstd's speed
	 * where they were 0.995-1.12x (level 1 at 1 MiB, misc, the least), sizes within 0.01 %:
	 * 0.9886 of libzstd's at most at level 1 1 MiB (bin), 0.9996 at 128 KiB (bin); level 2
	 * at 1 MiB went to bin 1.00003, and steps one byte further every 512 bytes, not 256,
	 * since (bin 0.9998, as fast); 2^17 slots there: 0.9911-0.9935 and 1.08-1.12x libzstd's
	 * speed (one run). */
	{{ZS_DFAST, 13, 0, 9, 6, 1, 1}, {ZS_DFAST, 14, 0, 7, 6, 2, 1}},
	{{ZS_DFAST, 15, 0, 8, 5, 1, 1}, {ZS_DFAST, 16, 0, 9, 6, 1, 1}}, /* 2 */
	/* 3-4 over 256 KiB: 2^16 long and short slots, 512 KiB of tables where 2^17 long ones and
	 * 2^16-2^17 short ones took 768 KiB-1 MiB (their probes are random reads, so the tables'
	 * size sets the time): level 3 1.07-1.09x, level 4 1.12-1.19x as fast, both 0.3 % larger;
	 * level 4 makes some of it up with a longer retry target (24; 16 left bin at 1.0001).
	 * But with the same tables at 1 MiB level 3 ran 0.98-1.03x level 4's speed (the retry
	 * is a small part of the work): level 4 there takes 2^17 long slots (768 KiB), 0.9723-
	 * 0.9977 of libzstd's size (0.16-0.5 % smaller), 1.035-1.056x libzstd's speed on text
	 * (1.05-1.07 before), tree, bin and misc 1.12-1.30x; level 3 then 1.02-1.05x level 4's
	 * speed, 1.034-1.037 on average per sample (1.01-1.03 before; locked A/B, four rounds).
	 * Text is the bind: libzstd's levels 3 and 4 run there at one speed, ours at 1.065x.
	 * Level 3 itself had no cheaper row within bin's 0.17 %: 2^15 short slots bin 1.0027,
	 * a target of 8 1.0036, 2^15 long and short slots 1.0091; a target of 10 (0.9990) or a
	 * step growing every 64 bytes were no faster than 12 (0.99-1.04x level 4's speed). A
	 * target of 64 at level 4: 0.01-0.3 % smaller, 0-2 % slower (one round).
	 * Level 4 at 128 KiB: 2^16 long and 2^15 short slots of 4-byte hashes (384 KiB, level
	 * 3's) where 2^17 + 2^17 took 1 MiB, with match_dfast.c's probe, on which the smaller
	 * tables gained 6 % (with a branch per test they were no faster). 2^15 + 2^15: as fast,
	 * bin 0.9991; 2^14 + 2^14: bin 1.003. A retry target of 64 (nearly every match tries the
	 * candidate one byte on): 0.9786-0.9982 of libzstd's size, 0.06-0.6 % smaller than 16,
	 * and as fast since match_dfast.c reads that candidate before counting the match (text
	 * 1.035x libzstd's speed against 1.030, misc 1.068 against 1.059, three locked rounds;
	 * before those early reads 24 ran text at 0.95x against 1.04x for 16).
	 * Level 3: 2^15 short slots at 1 MiB left bin at 1.0025; a target of 10 was no faster
	 * than 12, one of 8 1.001-1.008 of libzstd's size; 64 (after the early reads) as fast
	 * and 0.1-1.2 % smaller, but level 3 at 1 MiB then within 0.07 % of level 4's sizes; at
	 * 128 KiB 16 already left misc smaller than level 4 (0.9999 of its size; 24: 0.9985). */
	{{ZS_DFAST, 16, 15, 8, 5, 12, 1}, {ZS_DFAST, 16, 16, 8, 5, 12, 1}}, /* 3 */
	{{ZS_DFAST, 16, 15, 8, 4, 64, 1}, {ZS_DFAST, 17, 16, 8, 5, 24, 1}}, /* 4 */
	/* Levels 5-10 at 128 KiB keep 512 KiB of rows (chain_log 17), 1 byte per input byte: the
	 * 1 MiB of chain_log 18 missed a 1 MiB cache 3.7x as often (cachegrind, level 5: 0.67M
	 * read misses to 0.18M; libzstd's 0.15M) for 0.04-0.17 % in size. */
	/* Level 5 at 1 MiB keeps 2 MiB of rows (chain_log 16), where 4 MiB were 0.1-0.3 %
	 * smaller: 3-5 % faster in locked A/B runs (as levels 6 and 8 were before their targets).
	 * Bin is then 0.9999 of libzstd's size, the thinnest margin of the table. */
	/* 5: greedy, 8 candidates (16 were 1-2 % smaller for 1.10x libzstd's instructions) */
	{{ZS_GREEDY, 6, 17, 3, 4, 0, 1}, {ZS_GREEDY, 6, 16, 3, 5, 0, 1}},
	/* 6: one step of lazy evaluation on level 5's rows, none after a match of 32 bytes (128
	 * KiB) or 24 (1 MiB). At 1 MiB in 4 MiB of rows: a target of 24 in level 5's 2 MiB left
	 * bin at 1.0002 of libzstd's size; in 4 MiB 0.9966-0.9988, 3-8 % faster than no target
	 * in 2 MiB (locked A/B runs). At 128 KiB 32 costs 0.01-0.3 % (text 0.9981). */
	{{ZS_LAZY, 6, 17, 3, 4, 32, 1}, {ZS_LAZY, 6, 17, 3, 5, 24, 1}},
	/* 7: two steps; at 1 MiB one step over 16 candidates in 128-byte rows (libzstd's shape
	 * there): 0.9914-0.9980 of libzstd's size (two steps over 8: 0.9957-0.9975) and 1.05-1.10x
	 * its speed where two steps read 0.98-1.01 (misc 0.90-0.94): 1 % fewer instructions,
	 * though a 1 MiB cache misses 1.6x as often (two lines a row). 4 MiB of rows; 2 MiB were
	 * 0.01-0.1 % larger and not faster (1.06 against 1.07). A target of 24 at 1 MiB (16:
	 * text 1.0038); none at 128 KiB (32 cost 0.01-0.3 % for 1.5 % in speed, where level 7
	 * already runs 1.05-1.1x libzstd's). At 1 MiB its step looks only for a match as long as
	 * the one in hand (match_lazy.c): 0.9954-0.9997 (bin the least), misc 1.00 -> 1.09x. */
	{{ZS_LAZY2, 6, 17, 3, 4, 0, 1}, {ZS_LAZY, 6, 17, 4, 5, 24, 1}},
	/* 8: 16 candidates in 128-byte rows; at 1 MiB a target of 32 in 2 MiB of rows, since
	 * the tags see all five bytes (match_row.h): 0.9970-0.9999 of libzstd's size (tree the
	 * least margin; 40: 0.9953-0.9996, no faster than 4 MiB), 1.8 % fewer instructions and
	 * 24 % fewer misses of a simulated 1 MiB cache than 4 MiB of rows (cachegrind, misc and
	 * text), 3-15 % faster in three locked rounds (misc 0.92-0.94 -> 0.95-1.11). Before the
	 * tags, 2 MiB left tree at 1.0001 (24 in 4 MiB: 1.0015). At 128 KiB a target of 32 too:
	 * 0.9975-0.9989 (0.9958-0.9988 without; 24: text 1.0006), 1.8 % fewer instructions and 3 %
	 * fewer mispredicted branches (cachegrind, four samples; text and misc: 2.5 %, 4.5 %). */
	{{ZS_LAZY2, 6, 17, 4, 4, 32, 1}, {ZS_LAZY2, 6, 16, 4, 5, 32, 1}},
	/* 9: 32 candidates at 128 KiB; 1 MiB: 16, in twice level 8's rows, 4 MiB: 0.9931-0.9983
	 * of libzstd's size (8 MiB: 0.9924-0.9980), 1.13x its speed against 0.99-1.06x in the
	 * same locked runs (misc 0.93-0.97 -> 1.06-1.08); a target of 48 (32 would make it
	 * level 8) */
	{{ZS_LAZY2, 6, 17, 5, 4, 0, 1}, {ZS_LAZY2, 6, 17, 4, 5, 48, 1}},
	/* 10: the deepest row search, 48 slots. Misc at 128 KiB was 1.0011 (as 5-7:
	 * 1.00002-1.0002) until a longer match had to be worth its offset (match_lazy.c): 0.9969.
	 * 1 MiB: 32 candidates of 5-byte matches (libzstd's) in 4 MiB of rows: 0.9935-0.9988 of
	 * libzstd's size. 4-byte ones in 2 MiB of rows were 0.9769-0.9968, but misc ran 0.82-0.94x
	 * libzstd's speed (idle, and locked A/B runs): every position of that sample finds many
	 * true 4-byte candidates, each a compare far back in the input; 5-byte ones run 11 % fewer
	 * instructions there (cachegrind, misc: 415M -> 369M) and misc reads 0.97-1.03 in the same
	 * runs. 5-byte ones in 2 MiB of rows: bin 1.0018. A target of 32 at 1 MiB (24: tree,
	 * text 1.0002-1.0004); 128 KiB none (32: text 1.0022). */
	{{ZS_LAZY2, 6, 17, 6, 4, 0, 1}, {ZS_LAZY2, 6, 17, 5, 5, 32, 1}},
	/* 11: trees at 128 KiB (rows: 1.0014-1.0078); 32 descents, libzstd's depth: 0.995-0.999.
	 * Levels 11-12 at 128 KiB take 2^16 heads: the same sizes (+-0.01 %) as 2^17, and the
	 * heads and nodes (1.25 MiB) miss the 1 MiB L2 cache on reads no more than libzstd's
	 * (cachegrind, level 11: 0.64x the read misses of 2^17 heads on text and bin) */
	/* Level 11 at 1 MiB in 4 MiB of rows: 0.9747-0.9944 of libzstd's size (8 MiB:
	 * 0.9744-0.9936), 14 % fewer simulated misses, 2.5 % fewer instructions, 3-5 % faster.
	 * A target of 32 at both sizes (at 1 MiB 24 left text 1.0017). */
	{{ZS_BTLAZY2, 16, 18, 5, 4, 32, 1}, {ZS_LAZY2, 6, 17, 6, 4, 32, 1}},
	/* 12: 128 descents (rows: 1.002-1.011); 1 MiB: level 11's rows (libzstd's levels 11 and
	 * 12 give the same sizes there too); 8 MiB of rows were 0.01-0.1 % smaller and 1.08x
	 * libzstd's speed against 1.14x in the same locked runs. At 128 KiB no target (32: misc
	 * 1.0004; 64: no faster) */
	{{ZS_BTLAZY2, 16, 18, 7, 4, 0, 1}, {ZS_LAZY2, 6, 17, 6, 4, 32, 1}},
	/* 13-14 over 256 KiB: trees of 4-byte matches, 16 and 32 descents (rows: up to 1.012 on
	 * text and misc; 5-byte matches 0.995-1.001); 2^18 heads at 1 MiB, 1 MiB of them where
	 * 2^20 took 4 MiB beside the 8 MiB of nodes, for the same sizes (+-0.01 %); 15: 64
	 * descents (see the top) */
	/* 13 at 128 KiB: the optimal parse, 8 attempts, 4-byte matches (libzstd's level 13 there
	 * is an optimal parse too); a match of 20 bytes is taken at once (24 before): 0.9845-0.9966
	 * of libzstd's size (24: 0.9780-0.9910; 18: text 1.0017, misc 1.0007; 4 attempts: misc
	 * 1.005-1.011 even at a target of 32-48), and bin 0.94 -> 1.00 of libzstd's speed, the
	 * other samples 5-15 % faster (three rounds of one locked run, every round higher).
	 * match_opt.c also skips level 13's search where the next position is reached for at most
	 * one bit more (ABORT_MARGIN_13): 0.9858-0.9986, bin 1.05 -> 1.16x. A target of 40 would
	 * make level 13 no larger than level 12 on text (libzstd's level 13 is larger there too),
	 * but bin and misc then ran 0.74-1.00x as fast. */
	{{ZS_BTOPT, 17, 18, 3, 4, 20, 1}, {ZS_BTLAZY2, 18, 18, 4, 4, 0, 1}}, /* 13 */
	{{ZS_BTOPT, 17, 18, 4, 3, 64, 1}, {ZS_BTLAZY2, 18, 18, 5, 4, 0, 1}}, /* 14 */
	{{ZS_BTOPT, 17, 18, 6, 3, 256, 1}, {ZS_BTLAZY2, 18, 18, 6, 4, 0, 1}}, /* 15 */
	/* 16 at 1 MiB: 4-byte matches (3-byte ones: 0.9434-0.9893 of libzstd's size, bin
	 * 0.94-1.00x its speed): 0.9681-0.9907, 1.04-1.07x as fast as 3-byte ones, no 3-byte
	 * table to read at every position (bin: 6 % fewer instructions, 21 % fewer simulated
	 * 1 MiB-cache read misses); with btopt's 16 insert steps (match_opt.c) 0.9686-0.9953.
	 * A target of 48: text 1.0015; 2^4 descents: text 1.0026; a window of 512 KiB (chain_log
	 * 17): text 1.044; 2^18 heads: the same sizes and speed as 2^17. */
	{{ZS_BTULTRA, 17, 18, 5, 3, 256, 1}, {ZS_BTOPT, 17, 18, 5, 4, 64, 1}}, /* 16 */
	{{ZS_BTULTRA, 17, 18, 7, 3, 256, 1}, {ZS_BTOPT, 17, 18, 6, 3, 256, 1}}, /* 17 */
	/* 18 at 1 MiB: a match of 128 bytes is taken at once (256: text 0.9855 of libzstd's size
	 * at 1.03x its speed): 0.9891-0.9964, text 11 % fewer instructions (cachegrind) and
	 * 1.16x libzstd's speed; 192: text 2.5 % fewer; 96: 20 % fewer, text 0.9932. 2^7
	 * descents gave the sizes of 2^9 (+-0.03 %) for 0.5 % fewer instructions. */
	{{ZS_BTULTRA, 17, 18, 9, 3, 256, 1}, {ZS_BTULTRA, 17, 18, 9, 3, 128, 1}}, /* 18 */
	/* 19 at 1 MiB: one pass (the second over the first block cost 7.5 % of bin's
	 * instructions for 0.05-0.1 % in size; a quick first pass, 2^4 descents, saved 2.5 %)
	 * and 2^7 descents (2^11: 5 % more instructions on bin, sizes within 0.07 %):
	 * 0.9839-0.9987 of libzstd's size where 20-22's rows give 0.9837-0.9980; bin 1.04 ->
	 * 1.14x libzstd's speed (locked A/B, two rounds), the others 1.04-1.16x faster. */
	{{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, {ZS_BTULTRA2, 17, 18, 7, 3, 999, 1}}, /* 19 */
	/* 20 at 1 MiB: 2^7 descents in the final pass (as 19's), after the quick pass of
	 * match_opt.c: 0.9837-0.9982 of libzstd's size, no larger than level 19 on any sample,
	 * bin 5 % fewer instructions than 2^11 after the same quick pass (cachegrind; 2^8:
	 * 0.7 %), and the same size. */
	{{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, {ZS_BTULTRA2, 17, 18, 7, 3, 999, 2}}, /* 20 */
	{{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, {ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}}, /* 21 */
	/* 22 at 128 KiB: a third pass gained 0.02-0.13 % for 1.4x the time (issue 17 needs the
	 * speed), and deeper descents (2^13, 2^15) found nothing more: the trees of a 128 KiB
	 * input rarely go 2^11 deep. At 1 MiB a third pass over the first block left the tree
	 * sample 0.013 % larger than level 21 (the others 0.001-0.007 % smaller) for its time,
	 * with bin at 1.05x libzstd's speed: two passes, as 19-21. */
	{{ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}, {ZS_BTULTRA2, 17, 18, 11, 3, 999, 2}}, /* 22 */
};

const struct zs_params *zs_level_params(int level, size_t input)
{
	if (level < ZS_MIN_LEVEL || level > ZS_MAX_LEVEL)
		return NULL;
	if (input != 0 && input <= ZS_SMALL_INPUT)
		return zs_small_params(level);
	const struct zs_params *mid = zs_mid_params(level, input);

	return mid != NULL ? mid : &level_table[level][input > ZS_LARGE_INPUT];
}
