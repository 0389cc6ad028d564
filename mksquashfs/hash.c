/* hash.c — a four-lane multiply/rotate hash: each lane consumes 8 bytes per step so the lanes
 * run in parallel on the CPU, then the lanes and the length are mixed together. */
#include "config.h"
#include "mksquashfs/hash.h"

#include <string.h>

#include "common/endian.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull

static inline uint64_t rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t lane_step(uint64_t lane, uint64_t word)
{
	lane += word * P2;
	lane = rotl(lane, 31);
	return lane * P1;
}

static inline uint64_t final_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	return h ^ (h >> 32);
}

uint64_t sq_hash64(const void *data, size_t len, uint64_t seed)
{
	const uint8_t *p = data;
	uint64_t a = seed + P1 + P2, b = seed + P2, c = seed, d = seed - P1;
	size_t i = 0;
	for (; i + 32 <= len; i += 32) {
		a = lane_step(a, get_le64(p + i));
		b = lane_step(b, get_le64(p + i + 8));
		c = lane_step(c, get_le64(p + i + 16));
		d = lane_step(d, get_le64(p + i + 24));
	}
	uint64_t h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
	h += (uint64_t)len * P3;
	for (; i + 8 <= len; i += 8)
		h = rotl(h ^ lane_step(0, get_le64(p + i)), 27) * P1 + P3;
	uint8_t rest[8] = { 0 };
	if (i < len) {
		memcpy(rest, p + i, len - i);
		h = rotl(h ^ lane_step(0, get_le64(rest) ^ (uint64_t)(len - i)), 23) * P2 + P1;
	}
	return final_mix(h);
}
