/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xxhash64.c — XXH64 written from the published algorithm description (stripes of 4 lanes, avalanche). */
#include "config.h"

#include <string.h>

#include "common/util/endian.h"
#include "common/util/xxhash64.h"

#define PRIME1 0x9E3779B185EBCA87ull
#define PRIME2 0xC2B2AE3D27D4EB4Full
#define PRIME3 0x165667B19E3779F9ull
#define PRIME4 0x85EBCA77C2B2AE63ull
#define PRIME5 0x27D4EB2F165667C5ull

static inline uint64_t rotl64(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t lane_round(uint64_t acc, uint64_t lane)
{
	acc += lane * PRIME2;
	acc = rotl64(acc, 31);
	return acc * PRIME1;
}

static inline uint64_t merge_lane(uint64_t h, uint64_t v)
{
	h ^= lane_round(0, v);
	return h * PRIME1 + PRIME4;
}

/* Consumes whole 32-byte stripes; returns the bytes used. */
static size_t consume_stripes(uint64_t v[4], const uint8_t *p, size_t len)
{
	size_t done = 0;
	uint64_t a = v[0], b = v[1], c = v[2], d = v[3];

	while (len - done >= 32) {
		a = lane_round(a, get_le64(p + done));
		b = lane_round(b, get_le64(p + done + 8));
		c = lane_round(c, get_le64(p + done + 16));
		d = lane_round(d, get_le64(p + done + 24));
		done += 32;
	}
	v[0] = a;
	v[1] = b;
	v[2] = c;
	v[3] = d;
	return done;
}

/* The tail (fewer than 32 bytes) and the final mixing shared by both interfaces. */
static uint64_t finish(uint64_t h, const uint8_t *p, size_t len)
{
	while (len >= 8) {
		h ^= lane_round(0, get_le64(p));
		h = rotl64(h, 27) * PRIME1 + PRIME4;
		p += 8;
		len -= 8;
	}
	if (len >= 4) {
		h ^= (uint64_t)get_le32(p) * PRIME1;
		h = rotl64(h, 23) * PRIME2 + PRIME3;
		p += 4;
		len -= 4;
	}
	while (len > 0) {
		h ^= (uint64_t)*p * PRIME5;
		h = rotl64(h, 11) * PRIME1;
		p++;
		len--;
	}
	h ^= h >> 33;
	h *= PRIME2;
	h ^= h >> 29;
	h *= PRIME3;
	h ^= h >> 32;
	return h;
}

static uint64_t converge(const uint64_t v[4])
{
	uint64_t h = rotl64(v[0], 1) + rotl64(v[1], 7) + rotl64(v[2], 12) + rotl64(v[3], 18);

	for (int i = 0; i < 4; i++)
		h = merge_lane(h, v[i]);
	return h;
}

static void init_lanes(uint64_t v[4], uint64_t seed)
{
	v[0] = seed + PRIME1 + PRIME2;
	v[1] = seed + PRIME2;
	v[2] = seed;
	v[3] = seed - PRIME1;
}

uint64_t sq_xxh64(const void *data, size_t len, uint64_t seed)
{
	const uint8_t *p = data;
	uint64_t h;
	size_t done = 0;

	if (len >= 32) {
		uint64_t v[4];

		init_lanes(v, seed);
		done = consume_stripes(v, p, len);
		h = converge(v);
	} else {
		h = seed + PRIME5;
	}
	h += (uint64_t)len;
	return finish(h, p + done, len - done);
}

void sq_xxh64_init(struct sq_xxh64_state *st, uint64_t seed)
{
	memset(st, 0, sizeof(*st));
	st->seed = seed;
	init_lanes(st->v, seed);
}

void sq_xxh64_update(struct sq_xxh64_state *st, const void *data, size_t len)
{
	const uint8_t *p = data;

	st->total_len += len;
	if (st->buf_len + len < 32) {
		if (len > 0)
			memcpy(st->buf + st->buf_len, p, len);
		st->buf_len += (uint32_t)len;
		return;
	}
	if (st->buf_len > 0) {
		size_t fill = 32 - st->buf_len;

		memcpy(st->buf + st->buf_len, p, fill);
		consume_stripes(st->v, st->buf, 32);
		p += fill;
		len -= fill;
		st->buf_len = 0;
	}
	size_t used = consume_stripes(st->v, p, len);

	p += used;
	len -= used;
	if (len > 0)
		memcpy(st->buf, p, len);
	st->buf_len = (uint32_t)len;
}

uint64_t sq_xxh64_digest(const struct sq_xxh64_state *st)
{
	uint64_t h = st->total_len >= 32 ? converge(st->v) : st->seed + PRIME5;

	h += st->total_len;
	return finish(h, st->buf, st->buf_len);
}
