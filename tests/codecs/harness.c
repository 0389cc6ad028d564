/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* harness.c — the checks shared by every codec unit test (see harness.h). */
#include "config.h"
#include "tests/codecs/harness.h"
#include "common/util/endian.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int harness_truncation_detectable = 1;

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64*: reproducible data without libc's rand state */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static const char *const words[] = {
	"squashfs", "block", "the", "inode", "of", "fragment", "and", "directory", "table",
	"compressed", "a", "to", "image", "kernel", "metadata", "is", "\n", "id", "xattr", "data",
};

void harness_fill(enum data_kind kind, uint8_t *buf, size_t len, uint64_t seed)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15u + 1;
	size_t i = 0;
	switch (kind) {
	case DATA_ZEROS:
		memset(buf, 0, len);
		return;
	case DATA_RANDOM:
		for (; i < len; i++)
			buf[i] = (uint8_t)(rng_next(&s) >> 32);
		return;
	case DATA_TEXT:
		while (i < len) {
			const char *w = words[rng_next(&s) % (sizeof words / sizeof words[0])];
			for (; *w && i < len; w++)
				buf[i++] = (uint8_t)*w;
			if (i < len)
				buf[i++] = ' ';
		}
		return;
	case DATA_CODE:
		/* x86-like: short opcodes and call rel32 to a few absolute targets, which is what
		 * the BCJ filters turn into repeats. */
		while (i < len) {
			uint64_t r = rng_next(&s);
			if (r % 3 == 0 && i + 5 <= len) {
				uint32_t target = (uint32_t)(0x1000 * (1 + (r >> 8) % 16));
				buf[i] = 0xE8;
				put_le32(buf + i + 1, target - (uint32_t)(i + 5));
				i += 5;
			} else {
				static const uint8_t ops[] = { 0x55, 0x89, 0xE5, 0x8B, 0x45, 0x08,
							       0xC3, 0x90, 0x48, 0x83, 0xEC, 0x10 };
				buf[i++] = ops[(r >> 16) % sizeof ops];
			}
		}
		return;
	case DATA_MIXED:
	default:
		while (i < len) {
			uint64_t r = rng_next(&s);
			size_t run = 8 + (size_t)(r % 120);
			if (run > len - i)
				run = len - i;
			switch ((r >> 8) % 4) {
			case 0: /* a repeat of earlier data */
				if (i > run) {
					size_t from = (size_t)((r >> 16) % (i - run));
					memmove(buf + i, buf + from, run);
					break;
				}
				/* fall through */
			case 1: /* noise */
				for (size_t k = 0; k < run; k++)
					buf[i + k] = (uint8_t)(rng_next(&s) >> 40);
				break;
			case 2: /* a byte run */
				memset(buf + i, (int)((r >> 24) & 0xFF), run);
				break;
			default: /* counting bytes */
				for (size_t k = 0; k < run; k++)
					buf[i + k] = (uint8_t)(k + (r >> 32));
				break;
			}
			i += run;
		}
		return;
	}
}

int harness_parse(const struct codec *c, struct codec_opts *opts, uint32_t block_size,
		  const char *args, char *err, size_t errlen)
{
	char copy[512];
	char *argv[32];
	int argc = 0;
	snprintf(copy, sizeof copy, "%s", args);
	for (char *w = strtok(copy, " "); w != NULL && argc < 32; w = strtok(NULL, " "))
		argv[argc++] = w;
	err[0] = '\0';
	c->init_options(opts, block_size);
	for (int i = 0; i < argc;) {
		int used = c->parse_option(opts, argc - i, argv + i, err, errlen);
		if (used == 0) {
			snprintf(err, errlen, "(test) %s: option %s not recognised", c->name, argv[i]);
			return -1;
		}
		if (used < 0)
			return -1;
		i += used;
	}
	if (c->finish_options != NULL && c->finish_options(opts, block_size, err, errlen) != 0)
		return -1;
	return 0;
}

/* Compress src into a fresh buffer; returns the size (0 = raw), the buffer in *out. */
static ptrdiff_t compress_copy(const struct codec *c, void *st, const uint8_t *src, size_t len,
			       uint8_t **out)
{
	*out = malloc(len ? len : 1);
	if (*out == NULL)
		return -1;
	return c->compress(st, src, len, *out, len);
}

void harness_roundtrip(const struct codec *c, const struct codec_opts *opts, uint32_t block_size)
{
	const size_t sizes[] = { 1, 2, 17, 255, 4096, 8192, 65536, 131072, 1048576 };
	void *st = c->state_new(opts, block_size);
	void *st2 = c->state_new(opts, block_size);
	CHECK(st != NULL && st2 != NULL, "%s: state_new", c->name);
	if (st == NULL || st2 == NULL)
		goto out;
	uint8_t *src = malloc(block_size), *back = malloc(block_size);
	CHECK(src && back, "alloc");
	for (size_t si = 0; src && back && si < sizeof sizes / sizeof sizes[0]; si++) {
		size_t len = sizes[si] < block_size ? sizes[si] : block_size;
		if (si > 0 && len == (sizes[si - 1] < block_size ? sizes[si - 1] : block_size))
			continue;
		for (int kind = 0; kind < DATA_KINDS; kind++) {
			if (len > 131072 && kind != DATA_MIXED)
				continue; /* 1 MiB blocks: one kind is enough, and slow codecs stay quick */
			harness_fill((enum data_kind)kind, src, len, len + (size_t)kind);
			uint8_t *comp = NULL, *again = NULL;
			ptrdiff_t n = compress_copy(c, st, src, len, &comp);
			/* Determinism once per kind (a fresh state vs a used one) keeps the runtime
			 * modest under the sanitizers. */
			int twice = len == (block_size < 65536 ? block_size : 65536);
			ptrdiff_t n2 = twice ? compress_copy(c, st2, src, len, &again) : n;
			CHECK(n >= 0 && (size_t)n < len + (n == 0), "%s: compress kind %d len %zu: %td",
			      c->name, kind, len, n);
			CHECK(n == n2 && (!twice || n <= 0 || memcmp(comp, again, (size_t)n) == 0),
			      "%s: compress not deterministic (kind %d len %zu)", c->name, kind, len);
			if (kind != DATA_RANDOM && kind != DATA_CODE && len >= 4096)
				CHECK(n > 0, "%s: kind %d len %zu did not compress", c->name, kind, len);
			if (kind == DATA_RANDOM && len >= 256)
				CHECK(n == 0, "%s: random len %zu not stored raw (%td)", c->name, len, n);
			if (n > 0) {
				const char *why = NULL;
				ptrdiff_t d = c->decompress(st, comp, (size_t)n, back, len, &why);
				CHECK(d == (ptrdiff_t)len && memcmp(back, src, len) == 0,
				      "%s: round trip kind %d len %zu: %td (%s)", c->name, kind, len, d,
				      why ? why : "");
				why = NULL;
				d = c->decompress(st, comp, (size_t)n, back, len - 1, &why);
				CHECK(d < 0 && why != NULL,
				      "%s: kind %d len %zu decoded into a too small buffer: %td", c->name,
				      kind, len, d);
			}
			free(comp);
			free(again);
		}
	}
	free(src);
	free(back);
out:
	if (st)
		c->state_free(st);
	if (st2)
		c->state_free(st2);
}

void harness_hostile(const struct codec *c, const struct codec_opts *opts, uint32_t block_size)
{
	size_t len = block_size < 32768 ? block_size : 32768;
	void *st = c->state_new(opts, block_size);
	uint8_t *src = malloc(len), *comp = malloc(len + 1), *back = malloc(block_size);
	CHECK(st && src && comp && back, "%s: alloc", c->name);
	if (!(st && src && comp && back))
		goto out;
	const char *why;
	ptrdiff_t d;

	/* Garbage of assorted sizes: an error, or (lz4/lzo accept some short byte strings) a
	 * result within bounds. */
	for (size_t g = 0; g <= 4096; g = g ? g * 4 : 1) {
		harness_fill(DATA_RANDOM, comp, g, 1000 + g);
		why = NULL;
		d = c->decompress(st, comp, g, back, block_size, &why);
		CHECK((d < 0 && why != NULL) || (d >= 0 && (size_t)d <= block_size),
		      "%s: garbage of %zu bytes: %td", c->name, g, d);
	}

	harness_fill(DATA_MIXED, src, len, 7);
	ptrdiff_t n = c->compress(st, src, len, comp, len);
	CHECK(n > 0, "%s: hostile setup: compress %td", c->name, n);
	if (n <= 0)
		goto out;

	/* Every truncation (sampled on long blocks) must fail. */
	size_t step = (size_t)n > 2048 ? (size_t)n / 1024 : 1;
	unsigned bad = 0;
	for (size_t cut = 0; cut < (size_t)n; cut += step) {
		why = NULL;
		d = c->decompress(st, comp, cut, back, block_size, &why);
		int caught = d < 0 && why != NULL;
		if (!harness_truncation_detectable && d >= 0 && (size_t)d < len &&
		    memcmp(back, src, (size_t)d) == 0)
			caught = 1; /* a shorter prefix: the caller's size check catches it */
		if (!caught) {
			if (bad++ == 0)
				fprintf(stderr, "%s: truncated at %zu of %td decoded to %td\n", c->name,
					cut, n, d);
		}
	}
	CHECK(bad == 0, "%s: %u truncations were accepted", c->name, bad);

	/* A byte after the stream is an error (the reference rejects trailing bytes). */
	comp[n] = 0;
	why = NULL;
	d = c->decompress(st, comp, (size_t)n + 1, back, block_size, &why);
	CHECK(d < 0 && why != NULL, "%s: trailing byte accepted: %td", c->name, d);

	/* Bit flips: no crash, no out-of-bounds (ASan), a result within bounds or a message. */
	uint64_t s = 99;
	for (int k = 0; k < 300; k++) {
		size_t bit = (size_t)(rng_next(&s) % ((uint64_t)n * 8));
		comp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		why = NULL;
		d = c->decompress(st, comp, (size_t)n, back, len, &why);
		CHECK((d < 0 && why != NULL) || (d >= 0 && (size_t)d <= len),
		      "%s: bit flip %zu: %td", c->name, bit, d);
		comp[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	/* And the state still works after all that. */
	why = NULL;
	d = c->decompress(st, comp, (size_t)n, back, len, &why);
	CHECK(d == (ptrdiff_t)len && memcmp(back, src, len) == 0, "%s: state unusable after errors",
	      c->name);
out:
	free(src);
	free(comp);
	free(back);
	if (st)
		c->state_free(st);
}

/* Which part of the checks this run makes: the codec's own (no reference tools needed), or
 * the comparisons with the reference squashfs-tools (tests/codecs/reference.sh). */
/* A switch that selects a library's encoder (ours alone: squashfs-tools has no such option) is not
 * stored in the image, round-trips, and its streams and the default encoder's decode with either
 * state. */
void harness_library_switch(const struct codec *c, const char *option)
{
	struct codec_opts lib, dflt;
	char err[256] = "";
	CHECK(harness_parse(c, &lib, 131072, option, err, sizeof err) == 0, "%s: %s", option, err);
	CHECK(harness_parse(c, &dflt, 131072, "", err, sizeof err) == 0, "defaults: %s", err);
	uint8_t a[CODEC_OPTIONS_MAX], b[CODEC_OPTIONS_MAX];
	CHECK(c->write_options(&lib, a) == 0 && c->write_options(&dflt, b) == 0,
	      "%s changes the options block", option);
	harness_roundtrip(c, &lib, 131072);
	static uint8_t text[131072], packed[2][131072], back[131072];
	harness_fill(DATA_TEXT, text, sizeof text, 7);
	void *st[2] = { c->state_new(&lib, 131072), c->state_new(&dflt, 131072) };
	CHECK(st[0] != NULL && st[1] != NULL, "state_new");
	if (st[0] == NULL || st[1] == NULL)
		goto out;
	ptrdiff_t n[2];
	for (int i = 0; i < 2; i++)
		n[i] = c->compress(st[i], text, sizeof text, packed[i], sizeof packed[i]);
	CHECK(n[0] > 0 && n[1] > 0, "text: %s %td bytes, default %td", option, n[0], n[1]);
	for (int i = 0; i < 2 && n[0] > 0 && n[1] > 0; i++) {
		const char *why = NULL;
		ptrdiff_t d = c->decompress(st[1 - i], packed[i], (size_t)n[i], back, sizeof back, &why);
		CHECK(d == (ptrdiff_t)sizeof text && memcmp(back, text, sizeof text) == 0,
		      "stream %d decoded by the other state: %td (%s)", i, d, why ? why : "");
	}
out:
	for (int i = 0; i < 2; i++)
		c->state_free(st[i]);
}

static int reference_part;

void harness_init(int argc, char **argv)
{
	reference_part = argc > 1 && strcmp(argv[1], "--reference") == 0;
	if (reference_part && system("command -v mksquashfs >/dev/null 2>&1 && "
				     "command -v unsquashfs >/dev/null 2>&1") != 0) {
		fprintf(stderr, "SKIP: the reference mksquashfs/unsquashfs are not installed\n");
		exit(77);
	}
}

int harness_have_reference(void)
{
	return reference_part;
}

struct ref_image {
	char dir[64];
	uint8_t *bytes;
	size_t size;
	uint8_t *file; /* the one file's contents, block_size bytes */
};

static void ref_cleanup(struct ref_image *ri)
{
	char cmd[128];
	if (ri->dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", ri->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "warning: could not remove %s\n", ri->dir);
	}
	free(ri->bytes);
	free(ri->file);
	memset(ri, 0, sizeof *ri);
}

/* Runs the reference mksquashfs; returns its exit status, or -1 when the test itself failed.
 * On success (0) ri->bytes holds the image. */
static int ref_make(struct ref_image *ri, const char *comp, const char *args, uint32_t block_size)
{
	char path[128], cmd[1024];
	memset(ri, 0, sizeof *ri);
	snprintf(ri->dir, sizeof ri->dir, "/tmp/codecs-test-XXXXXX");
	if (mkdtemp(ri->dir) == NULL) {
		ri->dir[0] = '\0';
		return -1;
	}
	snprintf(path, sizeof path, "%s/src", ri->dir);
	if (mkdir(path, 0755) != 0)
		return -1;
	ri->file = malloc(block_size);
	if (ri->file == NULL)
		return -1;
	harness_fill(DATA_MIXED, ri->file, block_size, 42);
	snprintf(path, sizeof path, "%s/src/f", ri->dir);
	FILE *f = fopen(path, "wb");
	if (f == NULL)
		return -1;
	size_t wrote = fwrite(ri->file, 1, block_size, f);
	if (fclose(f) != 0 || wrote != block_size)
		return -1;
	snprintf(cmd, sizeof cmd,
		 "mksquashfs '%s/src' '%s/img' -noappend -no-progress -quiet -no-fragments "
		 "-no-xattrs -b %u -comp %s %s >'%s/log' 2>&1",
		 ri->dir, ri->dir, block_size, comp, args, ri->dir);
	int status = system(cmd);
	if (status == -1 || !WIFEXITED(status))
		return -1;
	if (WEXITSTATUS(status) != 0)
		return WEXITSTATUS(status);
	snprintf(path, sizeof path, "%s/img", ri->dir);
	f = fopen(path, "rb");
	if (f == NULL)
		return -1;
	ri->bytes = malloc(block_size * 2 + 65536);
	if (ri->bytes)
		ri->size = fread(ri->bytes, 1, block_size * 2 + 65536, f);
	fclose(f);
	return ri->bytes && ri->size > 96 ? 0 : -1;
}

/* The lines the reference unsquashfs -s prints between "Compression NAME" and "Block size". */
static int ref_print(const struct ref_image *ri, char *out, size_t cap)
{
	char cmd[256], line[512];
	snprintf(cmd, sizeof cmd, "unsquashfs -s '%s/img' 2>&1", ri->dir);
	FILE *p = popen(cmd, "r");
	if (p == NULL)
		return -1;
	size_t used = 0;
	int inside = 0;
	out[0] = '\0';
	while (fgets(line, sizeof line, p) != NULL) {
		if (strncmp(line, "Compression ", 12) == 0) {
			inside = 1;
			continue;
		}
		if (strncmp(line, "Block size", 10) == 0)
			inside = 0;
		if (inside && used + strlen(line) < cap) {
			strcpy(out + used, line);
			used += strlen(line);
		}
	}
	return pclose(p) == 0 ? 0 : -1;
}

static void print_to(const struct codec *c, const struct codec_opts *opts, char *out, size_t cap)
{
	out[0] = '\0';
	FILE *m = fmemopen(out, cap, "w");
	if (m == NULL)
		return;
	if (c->print_options)
		c->print_options(opts, m);
	fclose(m);
}

static void compare_with_reference(const struct codec *c, const char *args, uint32_t block_size,
				   const struct codec_opts *ours)
{
	struct ref_image ri;
	int rc = ref_make(&ri, c->name, args, block_size);
	CHECK(rc == 0, "%s '%s' -b %u: reference mksquashfs failed (%d)", c->name, args,
	      block_size, rc);
	if (rc != 0)
		goto out;
	uint8_t mine[CODEC_OPTIONS_MAX];
	size_t mine_len = c->write_options(ours, mine);
	uint16_t flags = get_le16(ri.bytes + 24);
	size_t data_start = 96, ref_len = 0;
	const uint8_t *ref_payload = NULL;
	if (flags & 0x0400) {
		uint16_t hdr = get_le16(ri.bytes + 96);
		ref_len = hdr & 0x7FFF;
		ref_payload = ri.bytes + 98;
		data_start = 98 + ref_len;
		CHECK((hdr & 0x8000) && ref_len <= CODEC_OPTIONS_MAX, "reference header %04x", hdr);
	}
	CHECK(mine_len == ref_len && (ref_len == 0 || memcmp(mine, ref_payload, ref_len) == 0),
	      "%s '%s' -b %u: options block differs from the reference's (ours %zu bytes, "
	      "reference %zu)", c->name, args, block_size, mine_len, ref_len);

	/* What unsquashfs -s prints, from our parse and from reading the reference's block. */
	char ref_text[1024], our_text[1024];
	CHECK(ref_print(&ri, ref_text, sizeof ref_text) == 0, "reference unsquashfs -s failed");
	print_to(c, ours, our_text, sizeof our_text);
	CHECK(strcmp(ref_text, our_text) == 0, "%s '%s': print_options\n--- ours:\n%s--- reference:\n%s",
	      c->name, args, our_text, ref_text);
	if (ref_len > 0) {
		struct codec_opts read_back;
		char err[256] = "";
		int r = c->read_options(&read_back, ref_payload, ref_len, block_size, err, sizeof err);
		CHECK(r == 0, "%s '%s': reading the reference's block: %s", c->name, args, err);
		if (r == 0) {
			print_to(c, &read_back, our_text, sizeof our_text);
			CHECK(strcmp(ref_text, our_text) == 0,
			      "%s '%s': print after read\n--- ours:\n%s--- reference:\n%s", c->name,
			      args, our_text, ref_text);
			uint8_t again[CODEC_OPTIONS_MAX];
			size_t again_len = c->write_options(&read_back, again);
			CHECK(again_len == ref_len && memcmp(again, ref_payload, ref_len) == 0,
			      "%s '%s': read then write does not give the same block", c->name, args);
		}
	}

	/* The file's single data block: decode the reference's stream with our decoder. */
	uint64_t inode_table = get_le64(ri.bytes + 64);
	CHECK(inode_table > data_start && inode_table <= ri.size, "reference layout");
	if (inode_table > data_start && inode_table <= ri.size) {
		size_t blk = (size_t)(inode_table - data_start);
		if (blk >= block_size) {
			fprintf(stderr, "note: %s '%s': reference stored the block raw\n", c->name, args);
		} else {
			void *st = c->state_new(ours, block_size);
			uint8_t *back = malloc(block_size);
			const char *why = NULL;
			ptrdiff_t d = st && back ? c->decompress(st, ri.bytes + data_start, blk, back,
								 block_size, &why)
						 : -1;
			CHECK(d == (ptrdiff_t)block_size && memcmp(back, ri.file, block_size) == 0,
			      "%s '%s' -b %u: decoding the reference's block: %td (%s)", c->name, args,
			      block_size, d, why ? why : "");
			free(back);
			if (st)
				c->state_free(st);
		}
	}
out:
	ref_cleanup(&ri);
}

void harness_option_set(const struct codec *c, const char *args, uint32_t block_size)
{
	struct codec_opts opts;
	char err[256];
	int r = harness_parse(c, &opts, block_size, args, err, sizeof err);
	CHECK(r == 0, "%s '%s' -b %u rejected: %s", c->name, args, block_size, err);
	if (r != 0)
		return;
	if (harness_have_reference())
		compare_with_reference(c, args, block_size, &opts);
	harness_roundtrip(c, &opts, block_size);
}

void harness_rejected(const struct codec *c, const char *args, uint32_t block_size,
		      int ref_rejects)
{
	struct codec_opts opts;
	char err[256];
	size_t name_len = strlen(c->name);
	int r = harness_parse(c, &opts, block_size, args, err, sizeof err);
	CHECK(r == -1 && strncmp(err, c->name, name_len) == 0 && err[name_len] == ':' &&
		      strlen(err) > name_len + 10 && strchr(err, '\n') == NULL,
	      "%s '%s' -b %u: expected a one-line rejection naming the codec, got %d '%s'",
	      c->name, args, block_size, r, err);
	if (ref_rejects && harness_have_reference()) {
		struct ref_image ri;
		int rc = ref_make(&ri, c->name, args, block_size);
		CHECK(rc > 0, "%s '%s' -b %u: the reference accepts it (%d)", c->name, args,
		      block_size, rc);
		ref_cleanup(&ri);
	}
}

void harness_bad_block(const struct codec *c, const uint8_t *payload, size_t len,
		       uint32_t block_size)
{
	struct codec_opts opts;
	char err[256] = "";
	int r = c->read_options(&opts, payload, len, block_size, err, sizeof err);
	CHECK(r == -1 && strncmp(err, c->name, strlen(c->name)) == 0,
	      "%s: a bad options block (%zu bytes) was accepted or gave no message ('%s')",
	      c->name, len, err);
}

int harness_exit_code(const char *name)
{
	fprintf(stderr, "%s: %u checks, %u failed\n", name, check_count, check_failures);
	return check_failures == 0 && check_count > 0 ? 0 : 1;
}
