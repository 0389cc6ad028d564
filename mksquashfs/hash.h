/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* hash.h — the fast 64-bit content hash behind duplicate detection (not cryptographic: a match
 * is always confirmed byte by byte). */
#ifndef SQ_MKSQUASHFS_HASH_H
#define SQ_MKSQUASHFS_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Hash len bytes of p. Equal bytes and seed give equal hashes on every host. */
uint64_t sq_hash64(const void *p, size_t len, uint64_t seed);

/* Fold a block's hash into a running whole-file hash (order matters). */
static inline uint64_t sq_hash_combine(uint64_t acc, uint64_t block_hash)
{
	acc ^= block_hash + 0x9E3779B97F4A7C15ull + (acc << 6) + (acc >> 2);
	acc *= 0xFF51AFD7ED558CCDull;
	return acc ^ (acc >> 32);
}

#endif
