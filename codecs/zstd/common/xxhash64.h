/* xxhash64.h — XXH64, the content checksum of zstd frames (low 32 bits stored), one-shot and streaming. */
#ifndef SQ_ZSTD_COMMON_XXHASH64_H
#define SQ_ZSTD_COMMON_XXHASH64_H

#include <stddef.h>
#include <stdint.h>

/* Streaming state: feed any number of zs_xxh64_update calls, then zs_xxh64_digest (which does
 * not modify the state). Plain data, no allocation; copyable. */
struct zs_xxh64_state {
	uint64_t total_len;
	uint64_t v[4];
	uint8_t buf[32]; /* a partial stripe */
	uint32_t buf_len;
	uint64_t seed;
};

void zs_xxh64_init(struct zs_xxh64_state *st, uint64_t seed);
void zs_xxh64_update(struct zs_xxh64_state *st, const void *data, size_t len);
uint64_t zs_xxh64_digest(const struct zs_xxh64_state *st);

/* The hash of data[0..len) in one call (zstd uses seed 0). */
uint64_t zs_xxh64(const void *data, size_t len, uint64_t seed);

#endif
