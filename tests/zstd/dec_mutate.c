/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dec_mutate.c — corpus frames truncated, bit-flipped and overwritten must be decoded or refused, never crash or hang. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/zstd.h"
#include "tests/lib/check.h"
#include "tests/zstd/dec_util.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	return dec_xorshift64(&rng_state);
}

struct stats {
	long runs, refused, accepted;
};

/* The buffer is exactly cap bytes so ASan sees any write past the end. */
static void decode_one(zs_dctx *d, const uint8_t *src, size_t len, size_t cap, struct stats *st)
{
	uint8_t *dst = malloc(cap ? cap : 1);

	if (dst == NULL)
		return;
	ptrdiff_t r = zs_decompress(d, src, len, dst, cap, 0);

	st->runs++;
	if (r < 0) {
		st->refused++;
		CHECK(zs_error_string((int)r) != NULL, "status %td has no message", r);
	} else {
		st->accepted++;
		CHECK((size_t)r <= cap, "%td bytes decoded into %zu of room", r, cap);
	}
	free(dst);
}

static void mutate_frame(zs_dctx *d, const uint8_t *frame, size_t len, size_t orig_len, int rounds,
			 struct stats *st)
{
	uint8_t *m = malloc(len ? len : 1);
	size_t cap = orig_len + 64;

	if (m == NULL)
		return;
	for (int r = 0; r < rounds; r++) {
		memcpy(m, frame, len);
		size_t mlen = len;

		switch (rng() % 5) {
		case 0: /* truncation */
			mlen = len ? (size_t)(rng() % len) : 0;
			break;
		case 1: /* single bit flip */
			if (len)
				m[rng() % len] ^= (uint8_t)(1u << (rng() % 8));
			break;
		case 2: /* a few bit flips */
			for (int k = 0; k < 4 && len; k++)
				m[rng() % len] ^= (uint8_t)(1u << (rng() % 8));
			break;
		case 3: /* random byte values, a favourite of header fields */
			for (int k = 0; k < 2 && len; k++)
				m[rng() % len] = (uint8_t)rng();
			break;
		default: /* flip near the end, where backward streams start */
			if (len)
				m[len - 1 - (size_t)(rng() % (len < 16 ? len : 16))] ^= (uint8_t)(1u << (rng() % 8));
			break;
		}
		decode_one(d, m, mlen, cap, st);
		/* Tight output room too: exercises the careful tail paths. */
		decode_one(d, m, mlen, orig_len, st);
	}
	free(m);
}

static void run_set(zs_dctx *d, const char *corpus, const char *set, int step, int rounds,
		   struct stats *st)
{
	char zdir[4096], path[4096], orig[4096];
	char **names;
	int n;

	dec_path(zdir, sizeof(zdir), "%s/%s/zst", corpus, set);
	n = dec_list(zdir, ".zst", &names);
	CHECK(n > 0, "%s: no frames", zdir);
	if (n <= 0)
		return;
	for (int i = 0; i < n; i += step) {
		size_t zlen = 0, olen = 0;
		uint8_t *z, *o;

		dec_path(path, sizeof(path), "%s/%s", zdir, names[i]);
		dec_path(orig, sizeof(orig), "%s/%s/orig/%.*s", corpus, set, (int)(strlen(names[i]) - 4),
			 names[i]);
		z = dec_read_file(path, &zlen);
		o = dec_read_file(orig, &olen);
		if (z && o)
			mutate_frame(d, z, zlen, olen, rounds, st);
		free(z);
		free(o);
	}
	dec_free_list(names, n);
}

int main(void)
{
	char cbuf[4096];
	const char *corpus = dec_corpus_dir(cbuf, sizeof(cbuf));
	struct stats st = { 0, 0, 0 };
	zs_dctx *d;

	if (corpus == NULL)
		return 77;
	d = zs_dctx_new();
	if (d == NULL)
		return 1;
	run_set(d, corpus, "small", 1, 12, &st);
	run_set(d, corpus, "large", 3, 6, &st);
	zs_dctx_free(d);
	fprintf(stderr, "%ld mutated decodes: %ld refused, %ld accepted, none crashed\n", st.runs,
		st.refused, st.accepted);
	/* Mutations that all decode would mean the decoder checks nothing. */
	CHECK(st.refused >= st.runs / 2, "too few mutated frames were refused");
	return check_exit("zstd/dec_mutate");
}
