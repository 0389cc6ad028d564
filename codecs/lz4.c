/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lz4.c — the lz4 compressor (id 5): raw LZ4 blocks via liblz4, -Xhc, squashfs-tools 4.7.6's
 * -Xacceleration and -Xcompression-level, the always-present options block.
 *
 * Options block: version 1 (the legacy block format) and flags (bit 0: high compression), 8 bytes;
 * with a non-default acceleration (default 1) or HC level (default 12) it grows to 12 bytes:
 * flags gain bit 1 ("non-default") and a third word holds the acceleration or the level. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "common/util/endian.h"

#include <limits.h>
#include <lz4.h>
#include <stdbool.h>
#include <lz4hc.h>
#include <stdlib.h>
#include <string.h>

#define LZ4_OPTIONS_LEN 8u
#define LZ4_OPTIONS_V2_LEN 12u
/* The only block format squashfs knows ("legacy"); the kernel refuses anything else. */
#define LZ4_FORMAT_LEGACY 1u
#define LZ4_FLAG_HC 1u
#define LZ4_FLAG_NON_DEFAULT 2u
#define LZ4_ACCEL_DEFAULT 1u
#define LZ4_ACCEL_MAX 65537u
#define LZ4_LEVEL_DEFAULT 12u

struct lz4_opts {
	uint32_t flags;          /* LZ4_FLAG_HC */
	uint32_t acceleration;   /* fast mode */
	uint32_t level;          /* HC mode */
	uint8_t accel_given, level_given;
	uint8_t from_image;
	uint8_t v2;              /* read from a 12-byte block */
};
_Static_assert(sizeof(struct lz4_opts) <= CODEC_OPTS_STORAGE, "lz4 options fit");

struct lz4_state {
	struct lz4_opts opts;
	uint32_t max_block;
	void *ctx; /* LZ4 or LZ4HC state, by opts.flags */
};

static struct lz4_opts load(const struct codec_opts *opts)
{
	struct lz4_opts o;
	memcpy(&o, opts->u.bytes, sizeof o);
	return o;
}

static void store(struct codec_opts *opts, const struct lz4_opts *o)
{
	memcpy(opts->u.bytes, o, sizeof *o);
}

static void lz4_init_options(struct codec_opts *opts, uint32_t block_size)
{
	(void)block_size;
	struct lz4_opts o = { .acceleration = LZ4_ACCEL_DEFAULT, .level = LZ4_LEVEL_DEFAULT };
	memset(opts, 0, sizeof *opts);
	store(opts, &o);
}

static int parse_number(const char *name, int argc, char **argv, long max, long *out, char *err,
			size_t errlen)
{
	if (argc < 2 || codec_parse_int(argv[1], 1, max, out) != 0) {
		snprintf(err, errlen, "lz4: %s missing or invalid value '%s': it should be 1 .. %ld",
			 name, argc < 2 ? "" : argv[1], max);
		return -1;
	}
	return 0;
}

static int lz4_parse_option(struct codec_opts *opts, int argc, char **argv, char *err,
			    size_t errlen)
{
	struct lz4_opts o = load(opts);
	long v;
	int used = 2;
	if (strcmp(argv[0], "-Xhc") == 0) {
		o.flags |= LZ4_FLAG_HC;
		used = 1;
	} else if (strcmp(argv[0], "-Xacceleration") == 0) {
		if (parse_number(argv[0], argc, argv, LZ4_ACCEL_MAX, &v, err, errlen) != 0)
			return -1;
		o.acceleration = (uint32_t)v;
		o.accel_given = 1;
	} else if (strcmp(argv[0], "-Xcompression-level") == 0) {
		if (parse_number(argv[0], argc, argv, LZ4HC_CLEVEL_MAX, &v, err, errlen) != 0)
			return -1;
		o.level = (uint32_t)v;
		o.level_given = 1;
	} else {
		return 0;
	}
	store(opts, &o);
	return used;
}

static int lz4_finish_options(struct codec_opts *opts, uint32_t block_size, char *err,
			      size_t errlen)
{
	(void)block_size;
	struct lz4_opts o = load(opts);
	if (o.accel_given && (o.flags & LZ4_FLAG_HC)) {
		snprintf(err, errlen, "lz4: -Xacceleration can't be used with -Xhc");
		return -1;
	}
	if (o.level_given && !(o.flags & LZ4_FLAG_HC)) {
		snprintf(err, errlen, "lz4: -Xcompression-level can't be used without -Xhc");
		return -1;
	}
	return 0;
}

static bool non_default(const struct lz4_opts *o)
{
	return o->acceleration != LZ4_ACCEL_DEFAULT || o->level != LZ4_LEVEL_DEFAULT;
}

/* Always written: the kernel will not mount an lz4 image without it. */
static size_t lz4_write_options(const struct codec_opts *opts, uint8_t *buf)
{
	struct lz4_opts o = load(opts);
	put_le32(buf, LZ4_FORMAT_LEGACY);
	if (!non_default(&o)) {
		put_le32(buf + 4, o.flags);
		return LZ4_OPTIONS_LEN;
	}
	put_le32(buf + 4, o.flags | LZ4_FLAG_NON_DEFAULT);
	put_le32(buf + 8, (o.flags & LZ4_FLAG_HC) ? o.level : o.acceleration);
	return LZ4_OPTIONS_V2_LEN;
}

static int lz4_read_options(struct codec_opts *opts, const uint8_t *buf, size_t len,
			    uint32_t block_size, char *err, size_t errlen)
{
	(void)block_size;
	if (len < LZ4_OPTIONS_LEN) {
		snprintf(err, errlen, "lz4: compressor options block is %zu bytes, expected %u",
			 len, LZ4_OPTIONS_LEN);
		return -1;
	}
	uint32_t version = get_le32(buf);
	uint32_t flags = get_le32(buf + 4);
	if (version != LZ4_FORMAT_LEGACY) {
		snprintf(err, errlen, "lz4: compressor options: unknown format version %u "
				      "(only 1 exists)", version);
		return -1;
	}
	struct lz4_opts o = { .acceleration = LZ4_ACCEL_DEFAULT, .level = LZ4_LEVEL_DEFAULT,
			      .from_image = 1 };
	if (len >= LZ4_OPTIONS_V2_LEN) {
		uint32_t data = get_le32(buf + 8);
		if (!(flags & LZ4_FLAG_NON_DEFAULT) || (flags & ~(LZ4_FLAG_HC | LZ4_FLAG_NON_DEFAULT))) {
			snprintf(err, errlen, "lz4: compressor options: bad flags 0x%x in a 12-byte "
					      "block", flags);
			return -1;
		}
		uint32_t max = (flags & LZ4_FLAG_HC) ? LZ4HC_CLEVEL_MAX : LZ4_ACCEL_MAX;
		if (data < 1 || data > max) {
			snprintf(err, errlen, "lz4: compressor options: %s %u out of range 1 .. %u",
				 (flags & LZ4_FLAG_HC) ? "compression level" : "acceleration", data, max);
			return -1;
		}
		if (flags & LZ4_FLAG_HC)
			o.level = data;
		else
			o.acceleration = data;
		o.v2 = 1;
		flags &= LZ4_FLAG_HC;
	} else if (flags & ~LZ4_FLAG_HC) {
		snprintf(err, errlen, "lz4: compressor options: unknown flags 0x%x",
			 flags & ~LZ4_FLAG_HC);
		return -1;
	}
	o.flags = flags;
	memset(opts, 0, sizeof *opts);
	store(opts, &o);
	return 0;
}

static void lz4_print_options(const struct codec_opts *opts, FILE *out)
{
	struct lz4_opts o = load(opts);
	if (o.flags & LZ4_FLAG_HC)
		fprintf(out, "\tHigh Compression option specified (-Xhc)\n");
	/* The 4.7.6 figures, only for the 12-byte block that carries them (4.5.1 prints nothing
	 * more for the 8-byte one). */
	if (o.v2 && (o.flags & LZ4_FLAG_HC))
		fprintf(out, "\tCompression-level %u%s\n", o.level,
			o.level == LZ4_LEVEL_DEFAULT ? " (default)" : "");
	else if (o.v2)
		fprintf(out, "\tAcceleration %u%s\n", o.acceleration,
			o.acceleration == LZ4_ACCEL_DEFAULT ? " (default)" : "");
}

static void lz4_print_help(FILE *out)
{
	fputs("\t  -Xhc\n"
	      "\t\tCompress using LZ4 High Compression\n"
	      "\t  -Xacceleration <acceleration>\n"
	      "\t\tAccelerate compression by <acceleration>.  <acceleration>\n"
	      "\t\tshould be between 1 .. 65537 (default 1).  Option doesn't\n"
	      "\t\tapply to LZ4 High Compression\n"
	      "\t  -Xcompression-level <compression-level>\n"
	      "\t\t<compression-level> should be 1 .. 12 (default 12).  Option\n"
	      "\t\tonly applies to LZ4 High Compression\n",
	      out);
}

static void *lz4_state_new(const struct codec_opts *opts, uint32_t max_block)
{
	if (max_block > (uint32_t)LZ4_MAX_INPUT_SIZE)
		return NULL;
	struct lz4_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return NULL;
	st->opts = load(opts);
	st->max_block = max_block;
	return st;
}

static void lz4_state_free(void *state)
{
	struct lz4_state *st = state;
	if (st == NULL)
		return;
	free(st->ctx);
	free(st);
}

static ptrdiff_t lz4_compress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			      size_t cap)
{
	struct lz4_state *st = state;
	int hc = (st->opts.flags & LZ4_FLAG_HC) != 0;
	if (len == 0)
		return 0;
	if (len > st->max_block || cap < len)
		return -1;
	if (st->ctx == NULL) {
		st->ctx = malloc((size_t)(hc ? LZ4_sizeofStateHC() : LZ4_sizeofState()));
		if (st->ctx == NULL)
			return -1;
	}
	/* A limit of len - 1 makes liblz4 give up (0) exactly when the block isn't smaller. */
	int limit = (int)len - 1;
	int n;
	if (hc)
		n = LZ4_compress_HC_extStateHC(st->ctx, (const char *)src, (char *)dst, (int)len,
					       limit, (int)st->opts.level);
	else
		n = LZ4_compress_fast_extState(st->ctx, (const char *)src, (char *)dst, (int)len,
					       limit, (int)st->opts.acceleration);
	return n > 0 ? n : 0;
}

static ptrdiff_t lz4_decompress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
				size_t cap, const char **why)
{
	(void)state;
	if (len > INT_MAX || cap > INT_MAX) {
		*why = "block too large";
		return -1;
	}
	int n = LZ4_decompress_safe((const char *)src, (char *)dst, (int)len, (int)cap);
	if (n < 0) {
		*why = "corrupt or truncated lz4 block";
		return -1;
	}
	return n;
}

const struct codec codec_lz4 = {
	.id = 5,
	.name = "lz4",
	.supported = 1,
	.init_options = lz4_init_options,
	.parse_option = lz4_parse_option,
	.finish_options = lz4_finish_options,
	.write_options = lz4_write_options,
	.read_options = lz4_read_options,
	.print_options = lz4_print_options,
	.print_help = lz4_print_help,
	.state_new = lz4_state_new,
	.state_free = lz4_state_free,
	.compress = lz4_compress,
	.decompress = lz4_decompress,
};
