/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzma2_dec.c — LZMA2's chunks: dictionary and state resets, new properties, uncompressed
 * chunks, each chunk's sizes checked against the input and the output before it is decoded. */
#include "config.h"
#include "codecs/xz/xz_internal.h"

#include <string.h>

/* What the previous chunks require of the next one (LZMA2's rules, as liblzma enforces them). */
struct chunk_rules {
	int need_dict_reset; /* nothing decoded yet: the first chunk must reset the dictionary */
	int need_props;      /* a dictionary reset happened: the next LZMA chunk must set lc/lp/pb */
};

static unsigned be16(const uint8_t *p)
{
	return ((unsigned)p[0] << 8) | p[1];
}

/* An LZMA chunk whose control byte c was read; *ip is just after it. */
static int lzma_chunk(struct lzma_dec *d, struct chunk_rules *rules, unsigned c, const uint8_t *in,
		      size_t in_len, size_t *ip, uint8_t *out, size_t cap, size_t base, size_t *pos)
{
	size_t header = c >= 0xC0 ? 5 : 4;
	if (in_len - *ip < header)
		return XZ_ERR_TRUNCATED;
	const uint8_t *h = in + *ip;
	size_t usize = ((size_t)(c & 0x1F) << 16) + be16(h) + 1;
	size_t csize = (size_t)be16(h + 2) + 1;
	if (c >= 0xC0) {
		if (lzma_dec_props(d, h[4]) != 0)
			return XZ_ERR_CORRUPT;
		rules->need_props = 0;
	} else if (rules->need_props) {
		return XZ_ERR_CORRUPT;
	} else if (c >= 0xA0) {
		lzma_dec_reset(d);
	}
	*ip += header;
	if (csize > in_len - *ip)
		return XZ_ERR_TRUNCATED;
	if (usize > cap - *pos)
		return XZ_ERR_OVERFLOW;
	int ret = lzma_dec_chunk(d, in + *ip, csize, out, base, *pos, *pos + usize, cap);
	if (ret != 0)
		return ret;
	*ip += csize;
	*pos += usize;
	return 0;
}

int lzma2_decode(struct lzma_dec *d, const uint8_t *in, size_t in_len, size_t *in_used,
		 uint8_t *out, size_t cap, size_t *out_len)
{
	struct chunk_rules rules = { .need_dict_reset = 1, .need_props = 1 };
	size_t ip = 0, pos = 0, base = 0;
	for (;;) {
		if (ip >= in_len)
			return XZ_ERR_TRUNCATED;
		unsigned c = in[ip++];
		if (c == 0x00)
			break;
		if (c >= 0xE0 || c == 0x01) {
			rules.need_props = 1;
			rules.need_dict_reset = 0;
			base = pos;
		} else if (rules.need_dict_reset) {
			return XZ_ERR_CORRUPT;
		}
		if (c >= 0x80) {
			int ret = lzma_chunk(d, &rules, c, in, in_len, &ip, out, cap, base, &pos);
			if (ret != 0)
				return ret;
			continue;
		}
		if (c > 0x02)
			return XZ_ERR_CORRUPT;
		/* An uncompressed chunk: into the dictionary as it is; the LZMA state carries on. */
		if (in_len - ip < 2)
			return XZ_ERR_TRUNCATED;
		size_t size = (size_t)be16(in + ip) + 1;
		ip += 2;
		if (size > in_len - ip)
			return XZ_ERR_TRUNCATED;
		if (size > cap - pos)
			return XZ_ERR_OVERFLOW;
		memcpy(out + pos, in + ip, size);
		ip += size;
		pos += size;
	}
	*in_used = ip;
	*out_len = pos;
	return 0;
}
