/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xxhash64.h — XXH64: the content checksum of zstd frames (low 32 bits stored) and mksquashfs's
 * duplicate-file hash; one-shot and streaming. */
#ifndef SQ_UTIL_XXHASH64_H
#define SQ_UTIL_XXHASH64_H

#include <stddef.h>
#include <stdint.h>

/* Streaming state: feed any number of sq_xxh64_update calls, then sq_xxh64_digest (which does
 * not modify the state). Plain data, no allocation; copyable. */
struct sq_xxh64_state {
	uint64_t total_len;
	uint64_t v[4];
	uint8_t buf[32]; /* a partial stripe */
	uint32_t buf_len;
	uint64_t seed;
};

void sq_xxh64_init(struct sq_xxh64_state *st, uint64_t seed);
void sq_xxh64_update(struct sq_xxh64_state *st, const void *data, size_t len);
uint64_t sq_xxh64_digest(const struct sq_xxh64_state *st);

/* The hash of data[0..len) in one call (zstd uses seed 0). */
uint64_t sq_xxh64(const void *data, size_t len, uint64_t seed);

#endif
