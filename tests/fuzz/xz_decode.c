/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_decode.c — libFuzzer target: our xz decoder (codecs/xz/) on arbitrary bytes never crashes or
 * overruns, and whenever liblzma decodes the input, ours gives the same bytes (or leaves it to
 * liblzma, as it may for what it does not implement). */
#include "config.h"

#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/xz/xz_dec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The first byte picks the output room: none, 1000 bytes, a 128 KiB or a 1 MiB block. */
	static const size_t rooms[4] = { 0, 1000, 1u << 17, 1u << 20 };
	static struct xzd_ctx *ctx;

	if (size == 0)
		return 0;
	if (ctx == NULL)
		ctx = xzd_new();
	if (ctx == NULL)
		abort();
	size_t cap = rooms[data[0] & 3];
	/* Buffers of exactly that size, so ASan sees any overrun. */
	uint8_t *ours = malloc(cap ? cap : 1), *ref = malloc(cap ? cap : 1);
	if (ours == NULL || ref == NULL)
		abort();
	size_t n = 0;
	const char *why = NULL;
	int r = xzd_decode(ctx, data + 1, size - 1, ours, cap, &n, &why);
	if (r == XZD_OK && n > cap)
		abort();
	if (r == XZD_ERROR && why == NULL)
		abort();
	/* Room for any dictionary a mutated header may ask for up to 64 MiB (xz -9's), so
	 * liblzma rarely refuses for memory where ours, which needs none, goes on. */
	uint64_t memlimit = UINT64_C(96) << 20;
	size_t in_pos = 0, out_pos = 0;
	lzma_ret lr = lzma_stream_buffer_decode(&memlimit, 0, NULL, data + 1, &in_pos, size - 1,
						ref, &out_pos, cap);
	if (lr == LZMA_OK && in_pos == size - 1 && r != XZD_NOT_MINE) {
		if (r != XZD_OK || n != out_pos || memcmp(ours, ref, n) != 0)
			abort();
	}
	free(ours);
	free(ref);
	return 0;
}
