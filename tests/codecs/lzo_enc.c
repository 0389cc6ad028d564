/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzo_enc.c — unit test of our LZO1X encoder: every stream it writes is decoded by liblzo2's
 * lzo1x_decompress_safe (the decoder of squashfs-tools and, in substance, the kernel's) back to
 * the input: all lengths 0..300 of each data kind, runs, text, incompressible data, and inputs
 * built to need each instruction kind and each distance and length boundary. A walk over the
 * streams counts the instruction kinds, so a test that never reached one fails. Both levels
 * (8 and 9) run it all; over the compressible kinds ours must not be larger than liblzo2's
 * lzo1x_999 at the same level, and level 9 not larger than level 8. */
#include "config.h"
#include "codecs/lzo/lzo1x_enc.h"
#include "tests/codecs/harness.h"

#include <lzo/lzo1x.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 131072u

enum kind {
	K_FIRST_SHORT, K_FIRST_LONG, K_LIT, K_LIT_EXT, K_M1_NEAR, K_M1_FAR, K_M2, K_M3, K_M3_EXT,
	K_M4, K_M4_EXT, K_M4_HIGH, K_TRAIL_LIT, K_KINDS
};
static const char *const kind_names[K_KINDS] = {
	"first run 1-3", "first run 4-238", "literal run", "long literal run", "2-byte match",
	"3-byte match at 2049-3072", "near match", "match <= 16 KiB", "long match <= 16 KiB",
	"far match", "long far match", "match beyond 32 KiB", "1-3 literals after a match",
};

struct tally {
	unsigned long kinds[K_KINDS];
	size_t ours, lib; /* totals of the compressible kinds */
};

static size_t skip_count(const uint8_t *p, size_t *ip, size_t len)
{
	size_t n = 0;
	while (*ip < len && p[*ip] == 0) {
		n += 255;
		(*ip)++;
	}
	return *ip < len ? n + p[(*ip)++] : 0;
}

/* Counts the instruction kinds of a stream (the decoder has already accepted it). */
static void walk(const uint8_t *p, size_t len, struct tally *t)
{
	size_t ip = 0;
	unsigned state = 0;
	if (p[0] > 17) {
		unsigned r = p[0] - 17u;
		t->kinds[r < 4 ? K_FIRST_SHORT : K_FIRST_LONG]++;
		ip = 1 + r;
		state = r < 4 ? r : 4;
	}
	while (ip < len) {
		uint8_t b = p[ip++];
		unsigned s;
		if (b < 16 && state == 0) {
			size_t r = b != 0 ? b + 3u : 18 + skip_count(p, &ip, len);
			t->kinds[b != 0 ? K_LIT : K_LIT_EXT]++;
			ip += r;
			state = 4;
			continue;
		}
		if (b < 16) {
			t->kinds[state == 4 ? K_M1_FAR : K_M1_NEAR]++;
			s = b & 3;
			ip++;
		} else if (b >= 64) {
			t->kinds[K_M2]++;
			s = b & 3;
			ip++;
		} else {
			int far = b < 32;
			int ext = (b & (far ? 7 : 31)) == 0;
			if (ext)
				skip_count(p, &ip, len);
			if (ip + 2 > len)
				return;
			unsigned v = p[ip] | (unsigned)p[ip + 1] << 8;
			ip += 2;
			if (far && (b & 8) == 0 && v >> 2 == 0)
				return; /* the end marker */
			t->kinds[far ? (ext ? K_M4_EXT : K_M4) : (ext ? K_M3_EXT : K_M3)]++;
			if (far && (b & 8))
				t->kinds[K_M4_HIGH]++;
			s = v & 3;
		}
		if (s != 0)
			t->kinds[K_TRAIL_LIT]++;
		ip += s;
		state = s;
	}
}

/* Ours round trip through liblzo2; returns our size (len when stored raw). */
static size_t round_trip(struct lzo1x_enc *e, const uint8_t *src, size_t len, const char *what,
			 struct tally *t)
{
	static uint8_t packed[BLOCK + BLOCK / 16 + 64], back[BLOCK];
	size_t cap = len + len / 16 + 64;
	size_t n = lzo1x_enc_compress(e, src, (uint32_t)len, packed, cap);
	CHECK(len == 0 ? n == 0 : n > 0, "%s len %zu: compress gave %zu", what, len, n);
	if (n == 0)
		return len;
	lzo_uint out = BLOCK;
	int r = lzo1x_decompress_safe(packed, n, back, &out, NULL);
	CHECK(r == LZO_E_OK && out == len && memcmp(back, src, len) == 0,
	      "%s len %zu: liblzo2 decoding gave %d, %lu bytes", what, len, r, (unsigned long)out);
	if (r == LZO_E_OK)
		walk(packed, n, t);
	/* A cap one byte short of the stream: refused, not overrun. */
	CHECK(lzo1x_enc_compress(e, src, (uint32_t)len, packed, n - 1) == 0,
	      "%s len %zu: a cap of %zu was not refused", what, len, n - 1);
	return n;
}

static size_t lib_size(const uint8_t *src, size_t len, int level)
{
	static uint8_t packed[BLOCK + BLOCK / 16 + 64];
	static uint8_t work[LZO1X_999_MEM_COMPRESS];
	lzo_uint n = 0;
	CHECK(lzo1x_999_compress_level(src, len, packed, &n, work, NULL, 0, 0, level) == LZO_E_OK,
	      "lzo1x_999");
	return n < len ? n : len;
}

/* Random bytes with copies of earlier bytes placed at given distances and lengths. */
static void plant(uint8_t *buf, size_t len, uint64_t seed, const size_t (*copies)[3], size_t n)
{
	harness_fill(DATA_RANDOM, buf, len, seed);
	for (size_t i = 0; i < n; i++) /* at, distance, length; byte by byte: a run when they overlap */
		for (size_t k = 0; k < copies[i][2]; k++)
			buf[copies[i][0] + k] = buf[copies[i][0] - copies[i][1] + k];
}

static void boundaries(struct lzo1x_enc *e, struct tally *t)
{
	static uint8_t buf[BLOCK];
	static const size_t cases[][3] = {
		{ 60000, 49151, 40 }, { 60000, 49152, 40 }, { 60000, 49151, 3 },
		{ 40000, 16384, 40 }, { 40000, 16385, 40 }, { 40000, 16384, 5 }, { 40000, 16385, 5 },
		{ 40000, 32768, 8 }, { 40000, 32769, 300 }, { 40000, 10000, 700 },
		{ 9000, 2048, 8 }, { 9000, 2049, 3 }, { 9000, 3072, 3 }, { 9000, 3073, 3 },
		{ 9000, 1024, 2 }, { 9000, 1025, 2 }, { 9000, 1, 600 }, { 9000, 7, 9 },
	};
	char what[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t len = cases[i][0] + cases[i][2] + 500;
		plant(buf, len, i, &cases[i], 1);
		snprintf(what, sizeof what, "copy at distance %zu length %zu", cases[i][1],
			 cases[i][2]);
		round_trip(e, buf, len, what, t);
	}
	/* A literal, then 2 bytes from within 1 KiB, then a literal and a match: the 2-byte
	 * instruction saves a literal run header. */
	harness_fill(DATA_RANDOM, buf, 4096, 99);
	for (size_t at = 1000; at + 40 < 4096; at += 40) {
		memcpy(buf + at, buf + at - 300, 6);
		memcpy(buf + at + 7, buf + at - 500, 2);
		memcpy(buf + at + 10, buf + at - 700, 6);
	}
	round_trip(e, buf, 4096, "2-byte matches between literals", t);
	/* 4+ literals, then 3 bytes from 2049..3072 back. */
	harness_fill(DATA_RANDOM, buf, 16384, 98);
	for (size_t at = 4000; at + 20 < 16384; at += 20)
		memcpy(buf + at, buf + at - 2500, 3);
	round_trip(e, buf, 16384, "3-byte matches 2500 back after literals", t);
	/* Long runs: zeros, one repeated byte after random ones, a short period. */
	memset(buf, 0, BLOCK);
	round_trip(e, buf, BLOCK, "zeros", t);
	harness_fill(DATA_RANDOM, buf, 1000, 5);
	memset(buf + 1000, 'a', BLOCK - 1000);
	round_trip(e, buf, BLOCK, "random then a run", t);
	for (size_t i = 0; i < BLOCK; i++)
		buf[i] = (uint8_t)"abcdefg"[i % 7];
	round_trip(e, buf, BLOCK, "period 7", t);
	/* Incompressible at lengths that cross the literal headers' limits. */
	static const size_t lens[] = { 238, 239, 240, 273, 274, 529, 530, 4096, BLOCK };
	for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		harness_fill(DATA_RANDOM, buf, lens[i], 40 + i);
		round_trip(e, buf, lens[i], "random", t);
		/* Random but for a match in the middle: long literal runs on both sides. */
		if (lens[i] > 600) {
			memcpy(buf + lens[i] / 2, buf + 10, 20);
			round_trip(e, buf, lens[i], "random with one match", t);
		}
	}
}

/* Everything above at one level: the sizes of the compressible kinds in *ours and *lib. */
static void run_level(int level, size_t *ours, size_t *lib)
{
	struct lzo1x_enc *e = lzo1x_enc_new(BLOCK, level);
	CHECK(e != NULL, "lzo1x_enc_new");
	if (e == NULL)
		return;
	static uint8_t buf[BLOCK];
	struct tally t = { { 0 }, 0, 0 };
	char what[32];
	for (int kind = 0; kind < DATA_KINDS; kind++) {
		for (size_t len = 0; len <= 300; len++) {
			harness_fill((enum data_kind)kind, buf, len, len);
			snprintf(what, sizeof what, "level %d kind %d", level, kind);
			round_trip(e, buf, len, what, &t);
		}
		static const size_t lens[] = { 1000, 4096, 65536, 100000, BLOCK };
		for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
			harness_fill((enum data_kind)kind, buf, lens[i], 7 + i);
			size_t n = round_trip(e, buf, lens[i], what, &t);
			if (kind != DATA_RANDOM) {
				t.ours += n;
				t.lib += lib_size(buf, lens[i], level);
			}
		}
	}
	/* One encoder through many blocks, as mksquashfs uses it: the match finder's tables carry
	 * the earlier blocks' positions, which must stay out of reach. */
	for (uint64_t b = 0; b < 48; b++) {
		harness_fill(b % 3 ? DATA_TEXT : DATA_MIXED, buf, BLOCK, 1000 + b);
		round_trip(e, buf, BLOCK - (size_t)(b % 5) * 4099, "block sequence", &t);
	}
	boundaries(e, &t);
	printf("level %d: ours %zu bytes, lzo1x_999 %zu bytes on the compressible kinds\n", level,
	       t.ours, t.lib);
	CHECK(t.ours <= t.lib, "level %d: ours %zu bytes, liblzo2 %zu", level, t.ours, t.lib);
	for (int k = 0; k < K_KINDS; k++) {
		printf("%-28s %lu\n", kind_names[k], t.kinds[k]);
		CHECK(t.kinds[k] > 0, "level %d: no %s in any stream", level, kind_names[k]);
	}
	*ours = t.ours;
	*lib = t.lib;
	lzo1x_enc_free(e);
}

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	CHECK(lzo_init() == LZO_E_OK, "lzo_init");
	CHECK(lzo1x_enc_new(0, 8) == NULL && lzo1x_enc_new((1u << 26) + 1, 9) == NULL,
	      "bad sizes");
	size_t ours8 = 0, lib8 = 0, ours9 = 0, lib9 = 0;
	run_level(8, &ours8, &lib8);
	run_level(9, &ours9, &lib9);
	/* Level 9 searches more: never larger in sum (each block may differ either way). */
	CHECK(ours9 <= ours8, "level 9 %zu bytes, level 8 %zu", ours9, ours8);
	return check_exit("codecs_lzo_enc");
}
