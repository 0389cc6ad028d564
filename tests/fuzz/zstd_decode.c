/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zstd_decode.c — libFuzzer target: zs_decompress on arbitrary bytes must never crash, hang or overrun. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/zstd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static zs_dctx *d;
	/* Output room is chosen by the input's first byte so tight and roomy buffers both get
	 * exercised; the buffer is exactly that size so ASan sees any overrun. */
	static const size_t caps[4] = { 0, 1000, 1u << 17, 1u << 20 };

	if (d == NULL && (d = zs_dctx_new()) == NULL)
		abort();
	if (size < 1)
		return 0;
	size_t cap = caps[data[0] & 3];
	uint8_t *dst = malloc(cap ? cap : 1);

	if (dst == NULL)
		return 0;
	ptrdiff_t r = zs_decompress(d, data + 1, size - 1, dst, cap, (data[0] & 4) ? 1u << 17 : 0);

	if (r > (ptrdiff_t)cap)
		abort();
	/* A success must be reproducible: the context keeps no state across calls. */
	if (r >= 0 && cap <= (1u << 17)) {
		uint8_t *again = malloc(cap ? cap : 1);

		if (again != NULL) {
			ptrdiff_t r2 = zs_decompress(d, data + 1, size - 1, again, cap,
						     (data[0] & 4) ? 1u << 17 : 0);

			if (r2 != r || memcmp(dst, again, (size_t)r) != 0)
				abort();
			free(again);
		}
	}
	free(dst);
	return 0;
}
