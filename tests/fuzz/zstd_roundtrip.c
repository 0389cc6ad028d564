/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zstd_roundtrip.c — libFuzzer target: whatever the encoder writes at any level must decode to its input. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/zstd.h"

/* The fuzzer's bytes are not compressed as they are: random bytes hardly ever hold the long,
 * nearly equal repeats that match finders get wrong (the level 19-22 bug of 2026-12-03 needed
 * repeats of hundreds of bytes differing far from their start). They are read as a small
 * program that builds the input: literal runs, copies of earlier output (long ones included),
 * copies with one byte changed, and slices of earlier output with a few bytes changed. Byte 0
 * picks the level, byte 1 the input size class and the checksum flag. */
enum { MAX_INPUT = 1024u * 1024u };

struct builder {
	const uint8_t *prog;
	size_t prog_len, pc, pass;
	uint8_t *out;
	size_t len, cap;
};

static unsigned next_byte(struct builder *b)
{
	return b->pc < b->prog_len ? b->prog[b->pc++] : 0;
}

/* A literal run of 1-64 program bytes. */
static void emit_literals(struct builder *b, unsigned op)
{
	size_t n = (op & 0x3f) + 1;

	for (size_t i = 0; i < n && b->len < b->cap && b->pc < b->prog_len; i++)
		b->out[b->len++] = b->prog[b->pc++];
}

/* A copy of earlier output: length 4-4099 (copies may overlap their source, as runs do),
 * distance from two bytes scaled by the op, optionally with one byte changed part-way. */
static void emit_copy(struct builder *b, unsigned op)
{
	size_t length = 4 + (((size_t)(op & 0x0f) << 8) | next_byte(b));
	size_t dist = ((size_t)next_byte(b) << 8) | next_byte(b);

	if (op & 0x10)
		dist <<= 3;
	if (b->len == 0)
		return;
	dist = 1 + dist % b->len;
	size_t change_at = (op & 0x20) ? (size_t)next_byte(b) * 4 : SIZE_MAX;
	uint8_t change_to = (uint8_t)next_byte(b);

	for (size_t i = 0; i < length && b->len < b->cap; i++) {
		uint8_t v = b->out[b->len - dist];

		b->out[b->len++] = i == change_at ? (uint8_t)(v ^ (change_to | 1)) : v;
	}
}

/* A slice of earlier output with 1-4 bytes changed, moved along on each replay of the program:
 * many long, nearly equal strings that differ at different places, like the number lists of
 * perl's unicore tables that showed the bug. */
static void emit_variant(struct builder *b, unsigned op)
{
	size_t length = 64 + (size_t)next_byte(b) * 8;
	size_t start = ((size_t)next_byte(b) << 8 | next_byte(b)) + b->pass * 131;
	size_t changes = 1 + (op & 3), first = b->len;

	if (b->len == 0)
		return;
	start %= b->len;
	for (size_t i = 0; i < length && b->len < b->cap; i++)
		b->out[b->len++] = b->out[start + i % (first - start)];
	for (size_t k = 0; k < changes; k++) {
		size_t at = first + ((size_t)next_byte(b) * 8 + b->pass * 37) % length;

		if (at < b->len)
			b->out[at] ^= (uint8_t)(1 + (op >> 2 & 0x0f));
	}
}

static size_t build_input(const uint8_t *prog, size_t prog_len, uint8_t *out, size_t cap)
{
	struct builder b = { .prog = prog, .prog_len = prog_len, .out = out, .cap = cap };

	/* Replaying the program until the input is full makes a short program a long input. */
	for (b.pass = 0; b.pass < 256 && b.len < cap && prog_len > 0; b.pass++) {
		b.pc = 0;
		while (b.pc < b.prog_len && b.len < b.cap) {
			unsigned op = next_byte(&b);

			if (op & 0x80)
				emit_variant(&b, op);
			else if (op & 0x40)
				emit_copy(&b, op);
			else
				emit_literals(&b, op);
		}
	}
	return b.len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* One context per level, made once: their tables are large and reuse is what mksquashfs
	 * does, so a context carrying state from frame to frame is tested too. */
	static zs_cctx *cctx[ZS_MAX_LEVEL + 1];
	static zs_dctx *dctx;
	static uint8_t *input, *frame, *back;
	/* Mostly small inputs, for many runs a second; 128 KiB is mksquashfs's default block,
	 * over 256 KiB the levels take their second row of parameters, and the bug above needed
	 * a 1 MiB block to show. */
	static const size_t size_class[8] = { 1024, 4096, 4096, 32768, 32768, 131072, 300000,
					      MAX_INPUT };

	if (size < 3)
		return 0;
	if (dctx == NULL) {
		dctx = zs_dctx_new();
		input = malloc(MAX_INPUT);
		frame = malloc(zs_compress_bound(MAX_INPUT));
		back = malloc(MAX_INPUT);
		if (dctx == NULL || input == NULL || frame == NULL || back == NULL)
			abort();
	}
	int level = ZS_MIN_LEVEL + data[0] % ZS_MAX_LEVEL;
	size_t len = build_input(data + 2, size - 2, input, size_class[data[1] & 7]);

	if (cctx[level] == NULL && (cctx[level] = zs_cctx_new(level, MAX_INPUT)) == NULL)
		abort();
	ptrdiff_t n = zs_compress(cctx[level], input, len, frame, zs_compress_bound(MAX_INPUT),
				  data[1] & 8);

	if (n <= 0)
		abort();
	ptrdiff_t r = zs_decompress(dctx, frame, (size_t)n, back, MAX_INPUT, 0);

	if (r < 0 || (size_t)r != len || memcmp(back, input, len) != 0)
		abort();
	return 0;
}
