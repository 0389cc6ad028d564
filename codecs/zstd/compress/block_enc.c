/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* block_enc.c — one compressed block (RFC 8878 "Compressed Blocks"): its literals section, then its
 * sequences section. */
#include "config.h"

#include "codecs/zstd/compress/block_enc.h"

size_t zs_encode_block(const struct zs_entropy *prev, struct zs_entropy *next,
		       struct zs_block_scratch *scratch, const uint8_t *lits, size_t nlits,
		       const struct zs_seq *seqs, size_t nseq, uint8_t *dst, size_t cap)
{
	size_t l = zs_encode_literals(prev, next, scratch, lits, nlits, dst, cap);

	if (l == 0)
		return 0;
	size_t s = zs_encode_sequences(prev, next, scratch, seqs, nseq, dst + l, cap - l);

	if (s == 0)
		return 0;
	return l + s;
}
