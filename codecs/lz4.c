/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lz4.c — the lz4 compressor (id 5): raw LZ4 blocks via liblz4, -Xhc, the always-present options block. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "common/util/endian.h"

#include <limits.h>
#include <lz4.h>
#include <lz4hc.h>
#include <stdlib.h>
#include <string.h>

#define LZ4_OPTIONS_LEN 8u
/* The only block format squashfs knows ("legacy"); the kernel refuses anything else. */
#define LZ4_FORMAT_LEGACY 1u
#define LZ4_FLAG_HC 1u

struct lz4_opts {
	uint32_t flags;
	uint8_t from_image;
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
	struct lz4_opts o = { .flags = 0 };
	memset(opts, 0, sizeof *opts);
	store(opts, &o);
}

static int lz4_parse_option(struct codec_opts *opts, int argc, char **argv, char *err,
			    size_t errlen)
{
	(void)argc;
	(void)err;
	(void)errlen;
	if (strcmp(argv[0], "-Xhc") != 0)
		return 0;
	struct lz4_opts o = load(opts);
	o.flags |= LZ4_FLAG_HC;
	store(opts, &o);
	return 1;
}

/* Always written: the kernel will not mount an lz4 image without it. */
static size_t lz4_write_options(const struct codec_opts *opts, uint8_t *buf)
{
	struct lz4_opts o = load(opts);
	put_le32(buf, LZ4_FORMAT_LEGACY);
	put_le32(buf + 4, o.flags);
	return LZ4_OPTIONS_LEN;
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
	if (flags & ~LZ4_FLAG_HC) {
		snprintf(err, errlen, "lz4: compressor options: unknown flags 0x%x",
			 flags & ~LZ4_FLAG_HC);
		return -1;
	}
	struct lz4_opts o = { .flags = flags, .from_image = 1 };
	memset(opts, 0, sizeof *opts);
	store(opts, &o);
	return 0;
}

static void lz4_print_options(const struct codec_opts *opts, FILE *out)
{
	struct lz4_opts o = load(opts);
	if (o.flags & LZ4_FLAG_HC)
		fprintf(out, "\tHigh Compression option specified (-Xhc)\n");
}

static void lz4_print_help(FILE *out)
{
	fputs("\t  -Xhc\n"
	      "\t\tCompress using LZ4 High Compression\n",
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
					       limit, LZ4HC_CLEVEL_MAX);
	else
		n = LZ4_compress_fast_extState(st->ctx, (const char *)src, (char *)dst, (int)len,
					       limit, 1);
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
	.finish_options = NULL,
	.write_options = lz4_write_options,
	.read_options = lz4_read_options,
	.print_options = lz4_print_options,
	.print_help = lz4_print_help,
	.state_new = lz4_state_new,
	.state_free = lz4_state_free,
	.compress = lz4_compress,
	.decompress = lz4_decompress,
};
