/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* comp_roundtrip.c — zstd encoder tests: every level on many kinds of data, decoded by our decoder;
 * --reference: the same frames decoded by the reference CLI; --corpus: the shared corpus's
 * golden-compression inputs. Each mode is its own test, which exits 77 when what it needs is absent. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codecs/zstd/zstd.h"
#include "tests/lib/check.h"
#include "tests/zstd/dec_util.h"

#define LARGEST_INPUT (1u << 20)

struct input {
	char name[96];
	uint8_t *data;
	size_t len;
	int big; /* 1 MiB: only some levels, the slow ones are costly */
};

/* A check of what on input in at level, with the detail on failure. */
#define CHECK_AT(cond, what, in, level, detail) \
	CHECK(cond, "%s: %s at level %d: %s", what, (in)->name, level, detail)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	return dec_xorshift64(&rng_state);
}

static struct input inputs[64];
static int ninputs;

static uint8_t *add_input(const char *name, size_t len, int big)
{
	struct input *in = &inputs[ninputs++];

	snprintf(in->name, sizeof(in->name), "%s", name);
	in->data = malloc(len ? len : 1);
	in->len = len;
	in->big = big;
	if (in->data == NULL) {
		fprintf(stderr, "out of memory\n");
		exit(99);
	}
	return in->data;
}

/* English-like text from a small vocabulary: lots of medium matches, skewed literals. */
static void gen_text(uint8_t *p, size_t len)
{
	static const char *words[] = {"the ", "squashfs ", "block ", "of ", "compressed ", "data ",
				      "kernel ", "and ", "a ", "file ", "system ", "inode ", "\n",
				      "directory ", "fragment ", "table ", "is ", "to ", "in ", "zstd, "};
	size_t i = 0;

	while (i < len) {
		const char *w = words[rng() % (sizeof(words) / sizeof(words[0]))];

		for (size_t k = 0; w[k] && i < len; k++)
			p[i++] = (uint8_t)w[k];
	}
}

/* Structured binary: records with counters, small integers and repeated headers. */
static void gen_records(uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		size_t r = i / 32, f = i % 32;

		p[i] = f < 4 ? (uint8_t)"RECD"[f] : f < 8 ? (uint8_t)(r >> (8 * (f - 4))) :
			f < 16 ? (uint8_t)(rng() % 4) : (uint8_t)(f * 7 + (r % 3));
	}
}

/* Lines of numbers in records that repeat one long list with a few numbers changed: matches
 * hundreds of bytes long that differ from their neighbours far from their start, the case
 * where trees ordered on a capped prefix once let a match claim bytes that differ. */
static void gen_near_duplicates(uint8_t *p, size_t len)
{
	enum { LIST = 400 };
	uint32_t base[LIST], list[LIST];
	size_t i = 0;

	for (unsigned k = 0; k < LIST; k++)
		base[k] = (uint32_t)(rng() % 200000);
	while (i < len) {
		char line[32];

		memcpy(list, base, sizeof(list));
		for (uint64_t e = 1 + rng() % 5; e > 0; e--)
			list[rng() % LIST] = (uint32_t)(rng() % 200000);
		size_t from = (size_t)(rng() % LIST), count = 20 + (size_t)(rng() % 280);
		int n = snprintf(line, sizeof(line), "return <<'END';\nV%u\n", (unsigned)(1 + rng() % 39));

		for (int k = 0; k < n && i < len; k++)
			p[i++] = (uint8_t)line[k];
		for (size_t k = from; k < from + count && k < LIST; k++) {
			n = snprintf(line, sizeof(line), "%u\n", (unsigned)list[k]);
			for (int m = 0; m < n && i < len; m++)
				p[i++] = (uint8_t)line[m];
		}
		for (const char *end = "END\n"; *end && i < len; end++)
			p[i++] = (uint8_t)*end;
	}
}

static int load_file(const char *path, const char *label, size_t max, int big)
{
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		return -1;
	uint8_t *buf = malloc(max);
	size_t n = buf ? fread(buf, 1, max, f) : 0;

	fclose(f);
	if (buf == NULL || n == 0) {
		free(buf);
		return -1;
	}
	uint8_t *d = add_input(label, n, big);

	memcpy(d, buf, n);
	free(buf);
	return 0;
}

static void build_inputs(void)
{
	uint8_t *p;

	add_input("empty", 0, 0);
	p = add_input("one-byte", 1, 0);
	p[0] = 'x';
	p = add_input("short-17", 17, 0);
	gen_text(p, 17);
	p = add_input("short-200", 200, 0);
	gen_text(p, 200);
	p = add_input("zeros-4k", 4096, 0);
	memset(p, 0, 4096);
	p = add_input("zeros-128k", 131072, 0);
	memset(p, 0, 131072);
	p = add_input("random-64k", 65536, 0);
	for (size_t i = 0; i < 65536; i++)
		p[i] = (uint8_t)rng();
	p = add_input("text-8k", 8192, 0);
	gen_text(p, 8192);
	p = add_input("text-128k", 131072, 0);
	gen_text(p, 131072);
	p = add_input("records-100k", 100000, 0);
	gen_records(p, 100000);
	/* Text, a zero run, noise, text: the statistics change inside one block. */
	p = add_input("mixed-128k", 131072, 0);
	gen_text(p, 40000);
	memset(p + 40000, 0, 30000);
	for (size_t i = 70000; i < 75000; i++)
		p[i] = (uint8_t)rng();
	memcpy(p + 75000, p, 56072);
	/* Two symbols only, and a single repeated 3-byte period (offset 3 repeats). */
	p = add_input("two-symbols-20k", 20000, 0);
	for (size_t i = 0; i < 20000; i++)
		p[i] = (rng() & 1) ? 'a' : 'b';
	p = add_input("period3-50k", 50000, 0);
	for (size_t i = 0; i < 50000; i++)
		p[i] = (uint8_t)"abc"[i % 3];
	p = add_input("near-duplicates-128k", 131072, 0);
	gen_near_duplicates(p, 131072);
	/* Inputs of 128-512 KiB take levels_mid.c's rows, at every level here. */
	p = add_input("near-duplicates-256k", 262144, 0);
	gen_near_duplicates(p, 262144);
	p = add_input("text-200k", 200000, 0);
	gen_text(p, 200000);
	p = add_input("text-400k", 400000, 0);
	gen_text(p, 400000);
	p = add_input("near-duplicates-1m", LARGEST_INPUT, 1);
	gen_near_duplicates(p, LARGEST_INPUT);
	p = add_input("text-1m", LARGEST_INPUT, 1);
	gen_text(p, LARGEST_INPUT);
	for (size_t i = 300000; i < 310000; i++)
		p[i] = (uint8_t)rng();
	p = add_input("random-1m", LARGEST_INPUT, 1);
	for (size_t i = 0; i < LARGEST_INPUT; i++)
		p[i] = (uint8_t)rng();

	/* Real binaries: every system that runs this suite has them. */
	CHECK(load_file("/bin/sh", "bin-sh-128k", 131072, 0) == 0, "cannot read /bin/sh");
	CHECK(load_file("/bin/ls", "bin-ls-128k", 131072, 0) == 0, "cannot read /bin/ls");
}

/* The golden-compression inputs of the shared corpus; returns how many were found. */
static int build_corpus_inputs(void)
{
	char dir[4096];
	const char *corpus = dec_corpus_dir(dir, sizeof(dir));
	static const char *golden[] = {"PR-3517-block-splitter-corruption-test", "http",
				       "huffman-compressed-larger", "large-literal-and-match-lengths"};
	int found = 0;

	for (size_t i = 0; corpus != NULL && i < sizeof(golden) / sizeof(golden[0]); i++) {
		char path[4400], label[96];

		snprintf(path, sizeof(path), "%s/golden/golden-compression/%s", corpus, golden[i]);
		snprintf(label, sizeof(label), "golden-%s", golden[i]);
		found += load_file(path, label, LARGEST_INPUT, 0) == 0;
	}
	return found;
}

static int level_wanted(const struct input *in, int level)
{
	if (!in->big)
		return 1;
	/* Every strategy of the large-input row: double fast, greedy, lazy2, btopt, btultra, btultra2. */
	return level == 1 || level == 3 || level == 5 || level == 9 || level == 13 || level == 15 ||
	       level == 16 || level == 18 || level == 19 || level == 22;
}

/* Walks the frame: header fields as promised, block sizes legal, nothing after the end. */
static int check_frame_shape(const uint8_t *f, size_t n, size_t content, int checksum, char *why)
{
	if (n < 6 || f[0] != 0x28 || f[1] != 0xB5 || f[2] != 0x2F || f[3] != 0xFD)
		return sprintf(why, "bad magic"), -1;
	uint8_t d = f[4];
	unsigned fcs_flag = d >> 6;
	size_t pos = 5, fcs_size = fcs_flag == 0 ? 1 : fcs_flag == 1 ? 2 : fcs_flag == 2 ? 4 : 8;

	if (!(d & 0x20) || (d & 3) || ((d >> 2) & 1) != (checksum != 0))
		return sprintf(why, "descriptor 0x%02x: want single segment, no dictionary", d), -1;
	uint64_t fcs = 0;

	for (size_t i = 0; i < fcs_size; i++)
		fcs |= (uint64_t)f[pos + i] << (8 * i);
	if (fcs_flag == 1)
		fcs += 256;
	if (fcs != content)
		return sprintf(why, "content size %llu, want %zu", (unsigned long long)fcs, content), -1;
	pos += fcs_size;
	for (int last = 0; !last;) {
		if (pos + 3 > n)
			return sprintf(why, "truncated block header"), -1;
		uint32_t h = f[pos] | (f[pos + 1] << 8) | ((uint32_t)f[pos + 2] << 16);
		unsigned type = (h >> 1) & 3;
		size_t size = h >> 3;

		last = h & 1;
		pos += 3;
		if (type == 3 || size > 131072)
			return sprintf(why, "block type %u size %zu", type, size), -1;
		/* What old decoders refuse (facebook/zstd doc/decompressor_errata.md): a compressed
		 * block of compressed size 128 KiB, an RLE first block followed by others. */
		if (type == 2 && size >= 131072)
			return sprintf(why, "compressed block of Block_Size %zu", size), -1;
		if (type == 1 && pos == 5 + fcs_size + 3 && !last)
			return sprintf(why, "RLE first block followed by others"), -1;
		pos += type == 1 ? 1 : size;
	}
	if (pos + (checksum ? 4 : 0) != n)
		return sprintf(why, "frame ends at %zu of %zu", pos, n), -1;
	return 0;
}

static uint8_t *frames[ZS_MAX_LEVEL + 1];
static size_t frame_len[ZS_MAX_LEVEL + 1];

static void run_reference(const struct input *in)
{
	char path[256], cmd[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/zenc-ref-%d.zst", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
		 (int)getpid());
	f = fopen(path, "wb");
	CHECK_AT(f != NULL, "reference", in, 0, strerror(errno));
	if (f == NULL)
		return;
	size_t expect = 0;

	for (int l = ZS_MIN_LEVEL; l <= ZS_MAX_LEVEL; l++) {
		if (frames[l] == NULL)
			continue;
		fwrite(frames[l], 1, frame_len[l], f);
		expect += in->len;
	}
	fclose(f);
	/* The window may be no larger than the input (the kernel's squashfs limit). */
	size_t kib = (in->len + 1023) / 1024;

	snprintf(cmd, sizeof(cmd), "zstd -q -d --memory=%zuKB -c '%s'", kib ? kib : 1, path);
	FILE *p = popen(cmd, "r");
	uint8_t *buf = malloc(in->len + 1);
	size_t got = 0, ok = 1;

	for (;;) {
		size_t n = fread(buf, 1, in->len ? in->len : 1, p);

		if (n == 0)
			break;
		/* Each level's output is the input again, back to back. */
		for (size_t i = 0; i < n; i++) {
			if (buf[i] != in->data[(got + i) % (in->len ? in->len : 1)])
				ok = 0;
		}
		got += n;
	}
	int st = pclose(p);

	free(buf);
	remove(path);
	char why[128];

	snprintf(why, sizeof(why), "reference zstd -d: status %d, %zu of %zu bytes, %s", st, got,
		 expect, ok ? "content ok" : "content differs");
	CHECK_AT(st == 0 && got == expect && ok, "reference", in, 0, why);
}

static void test_input(const struct input *in, int reference)
{
	zs_dctx *d = zs_dctx_new();
	uint8_t *back = malloc(in->len + 1);
	size_t cap = zs_compress_bound(in->len);
	char why[160];

	for (int l = ZS_MIN_LEVEL; l <= ZS_MAX_LEVEL; l++) {
		frames[l] = NULL;
		if (!level_wanted(in, l))
			continue;
		zs_cctx *c = zs_cctx_new(l, in->len ? in->len : 1);
		uint8_t *out = malloc(cap);
		int checksum = (l % 5) == 0;

		CHECK_AT(c != NULL && out != NULL && d != NULL && back != NULL, "alloc", in, l,
			 "out of memory");
		if (c == NULL || out == NULL || d == NULL || back == NULL) {
			zs_cctx_free(c);
			free(out);
			continue;
		}
		ptrdiff_t z = zs_compress(c, in->data, in->len, out, cap, checksum);

		CHECK_AT(z >= 0, "compress", in, l, z < 0 ? zs_error_string((int)z) : "");
		if (z < 0) {
			zs_cctx_free(c);
			free(out);
			continue;
		}
		why[0] = '\0';
		CHECK_AT(check_frame_shape(out, (size_t)z, in->len, checksum, why) == 0, "frame shape",
			 in, l, why);
		ptrdiff_t n = zs_decompress(d, out, (size_t)z, back, in->len, in->len);

		CHECK_AT(n >= 0, "decode", in, l, n < 0 ? zs_error_string((int)n) : "");
		CHECK_AT(n < 0 || ((size_t)n == in->len &&
				   (in->len == 0 || memcmp(back, in->data, in->len) == 0)),
			 "decode", in, l, "content differs");

		/* Determinism: again with the same (now used) context. */
		uint8_t *again = malloc(cap);
		ptrdiff_t z2 = again ? zs_compress(c, in->data, in->len, again, cap, checksum) : -1;

		CHECK_AT(z2 == z && memcmp(again, out, (size_t)z) == 0, "determinism", in, l,
			 "second run gave different bytes");
		free(again);
		zs_cctx_free(c);
		frames[l] = out;
		frame_len[l] = (size_t)z;
	}
	if (reference)
		run_reference(in);
	for (int l = ZS_MIN_LEVEL; l <= ZS_MAX_LEVEL; l++)
		free(frames[l]);
	free(back);
	zs_dctx_free(d);
}

/* Contexts carry nothing from one frame to the next; the API refuses bad arguments. */
static void test_api(void)
{
	const struct input *a = &inputs[8], *b = &inputs[9]; /* text-128k, records-100k */
	size_t cap = zs_compress_bound(LARGEST_INPUT);
	uint8_t *x = malloc(cap), *y = malloc(cap);

	for (int l = 1; l <= ZS_MAX_LEVEL; l += 3) {
		zs_cctx *fresh = zs_cctx_new(l, 131072), *used = zs_cctx_new(l, 131072);
		ptrdiff_t zx = zs_compress(fresh, a->data, a->len, x, cap, 0);

		zs_compress(used, b->data, b->len, y, cap, 0);
		ptrdiff_t zy = zs_compress(used, a->data, a->len, y, cap, 0);

		CHECK_AT(zx >= 0 && zx == zy && memcmp(x, y, (size_t)zx) == 0, "context reuse", a, l,
			 "output depends on the previous frame");
		/* A dst of exactly the frame's size works (callers pass "less than the input"). */
		ptrdiff_t exact = zs_compress(fresh, a->data, a->len, y, (size_t)zx, 0);

		CHECK_AT(exact == zx && memcmp(x, y, (size_t)zx) == 0, "exact dst", a, l,
			 "a dst of the frame's size was refused or differs");
		ptrdiff_t small = zs_compress(fresh, a->data, a->len, x, (size_t)zx - 1, 0);

		CHECK_AT(small == ZS_ERR_DST_TOO_SMALL, "dst too small", a, l, "not refused");
		CHECK_AT(zs_compress(fresh, a->data, 131073, x, cap, 0) == ZS_ERR_PARAM, "over max_input",
			 a, l, "not refused");
		/* The context's capacity does not change the output either. */
		zs_cctx *roomy = zs_cctx_new(l, LARGEST_INPUT);
		ptrdiff_t zr = roomy ? zs_compress(roomy, a->data, a->len, y, cap, 0) : -1;

		CHECK_AT(zr == zx && memcmp(x, y, (size_t)zx) == 0, "max_input", a, l,
			 "a larger context gave different bytes");
		zs_cctx_free(roomy);
		zs_cctx_free(fresh);
		zs_cctx_free(used);
	}
	CHECK(zs_cctx_new(0, 4096) == NULL && zs_cctx_new(23, 4096) == NULL,
	      "levels 0 and 23 accepted");
	free(x);
	free(y);
}

/* Many small structured-random inputs at random levels: odd corners of the entropy stage
 * (a handful of sequences, one-symbol streams, tables at their limits). */
static void test_random_small(void)
{
	zs_dctx *d = zs_dctx_new();
	uint8_t *in = malloc(70000), *out = malloc(zs_compress_bound(70000)), *back = malloc(70000);

	for (int t = 0; t < 300 && d && in && out && back; t++) {
		size_t len = t < 100 ? rng() % 300 + 1 : rng() % 70000 + 1, i = 0;
		int level = (int)(rng() % ZS_MAX_LEVEL) + 1;
		unsigned alphabet = (unsigned)(rng() % 255) + 1;

		while (i < len) {
			size_t run = rng() % 64 + 1;
			unsigned kind = (unsigned)(rng() % 4);

			for (size_t k = 0; k < run && i < len; k++, i++) {
				if (kind == 0 || i < 16)
					in[i] = (uint8_t)(rng() % alphabet);
				else if (kind == 1)
					in[i] = in[i - 1];
				else if (kind == 2)
					in[i] = in[i - 1 - (size_t)(rng() % (i < 300 ? i : 300))];
				else
					in[i] = in[i - 8];
			}
		}
		zs_cctx *c = zs_cctx_new(level, len);
		ptrdiff_t z = c ? zs_compress(c, in, len, out, zs_compress_bound(len), (int)(t & 1)) : -1;
		struct input label = {"", NULL, len, 0};

		snprintf(label.name, sizeof(label.name), "random-small-%d (%zu bytes)", t, len);
		CHECK_AT(z >= 0, "compress", &label, level, "failed");
		if (z >= 0) {
			ptrdiff_t n = zs_decompress(d, out, (size_t)z, back, len, len);

			CHECK_AT(n == (ptrdiff_t)len && memcmp(back, in, len) == 0, "decode", &label, level,
				 n < 0 ? zs_error_string((int)n) : "content differs");
		}
		zs_cctx_free(c);
	}
	free(in);
	free(out);
	free(back);
	zs_dctx_free(d);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int reference = strcmp(mode, "--reference") == 0, corpus = strcmp(mode, "--corpus") == 0;

	if (!reference && !corpus && mode[0] != '\0') {
		fprintf(stderr, "usage: comp_roundtrip [--reference | --corpus]\n");
		return 2;
	}
	if (reference && system("zstd --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "SKIP: the reference zstd CLI is not installed\n");
		return 77;
	}
	if (corpus) {
		if (build_corpus_inputs() == 0) {
			fprintf(stderr, "SKIP: shared zstd corpus not found (set ZSTD_CORPUS, or "
					"keep it at $top_srcdir/../shared/zstd-corpus)\n");
			return 77;
		}
	} else {
		build_inputs();
	}
	if (!reference && !corpus) {
		test_api();
		test_random_small();
	}
	for (int i = 0; i < ninputs; i++)
		test_input(&inputs[i], reference);
	for (int i = 0; i < ninputs; i++)
		free(inputs[i].data);
	printf("%d inputs\n", ninputs);
	return check_exit(reference ? "zstd/comp_reference" : corpus ? "zstd/comp_corpus"
								 : "zstd/comp_roundtrip");
}
