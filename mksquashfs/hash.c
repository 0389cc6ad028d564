/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* hash.c — the content hash behind duplicate detection: the zstd codec's xxHash64, reused so the
 * project keeps one implementation of a vetted 64-bit hash. */
#include "config.h"
#include "mksquashfs/hash.h"

#include "common/util/xxhash64.h"

uint64_t sq_hash64(const void *data, size_t len, uint64_t seed)
{
	return sq_xxh64(data, len, seed);
}
