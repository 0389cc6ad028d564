/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zstd.c — the zstd compressor (id 6): adapts our own codec (codecs/zstd/zstd.h) to codec.h. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "codecs/codec_util.h"
#include "codecs/zstd/zstd.h"
#include "common/util/endian.h"

#include <stdlib.h>
#include <string.h>

#define ZSTD_OPTIONS_LEN 4u
#define ZSTD_DEFAULT_LEVEL 15
/* The kernel sizes its workspace for a window of max(block size, this). */
#define ZSTD_MIN_WINDOW 8192u

struct zstd_opts {
	int32_t level;
	uint8_t from_image;
};
_Static_assert(sizeof(struct zstd_opts) <= CODEC_OPTS_STORAGE, "zstd options fit");

struct zstd_state {
	struct zstd_opts opts;
	uint32_t max_block;
	zs_cctx *cctx;
	zs_dctx *dctx;
};

static void zstd_init_options(struct codec_opts *opts, uint32_t block_size)
{
	(void)block_size;
	struct zstd_opts o = { .level = ZSTD_DEFAULT_LEVEL };
	codec_opts_store(opts, &o, sizeof o);
}

static int zstd_parse_option(struct codec_opts *opts, int argc, char **argv, char *err,
			     size_t errlen)
{
	if (strcmp(argv[0], "-Xcompression-level") != 0)
		return 0;
	long v;
	if (codec_parse_ranged("zstd", argc, argv, ZS_MIN_LEVEL, ZS_MAX_LEVEL, &v, err, errlen) < 0)
		return -1;
	struct zstd_opts o;
	codec_opts_load(opts, &o, sizeof o);
	o.level = (int32_t)v;
	codec_opts_store(opts, &o, sizeof o);
	return 2;
}

static size_t zstd_write_options(const struct codec_opts *opts, uint8_t *buf)
{
	struct zstd_opts o;
	codec_opts_load(opts, &o, sizeof o);
	if (o.level == ZSTD_DEFAULT_LEVEL)
		return 0;
	put_le32(buf, (uint32_t)o.level);
	return ZSTD_OPTIONS_LEN;
}

static int zstd_read_options(struct codec_opts *opts, const uint8_t *buf, size_t len,
			     uint32_t block_size, char *err, size_t errlen)
{
	(void)block_size;
	if (codec_options_len("zstd", len, ZSTD_OPTIONS_LEN, err, errlen) != 0)
		return -1;
	int32_t level = (int32_t)get_le32(buf);
	if (level < ZS_MIN_LEVEL || level > ZS_MAX_LEVEL) {
		snprintf(err, errlen, "zstd: compressor options: compression level %d is not "
				      "%d .. %d", (int)level, ZS_MIN_LEVEL, ZS_MAX_LEVEL);
		return -1;
	}
	struct zstd_opts o = { .level = level, .from_image = 1 };
	codec_opts_store(opts, &o, sizeof o);
	return 0;
}

static void zstd_print_options(const struct codec_opts *opts, FILE *out)
{
	struct zstd_opts o;
	codec_opts_load(opts, &o, sizeof o);
	if (!o.from_image && o.level == ZSTD_DEFAULT_LEVEL)
		return;
	fprintf(out, "\tcompression-level %d\n", (int)o.level);
}

static void zstd_print_help(FILE *out)
{
	fputs("\t  -Xcompression-level <compression-level>\n"
	      "\t\t<compression-level> should be 1 .. 22 (default 15)\n",
	      out);
}

static void *zstd_state_new(const struct codec_opts *opts, uint32_t max_block)
{
	struct zstd_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return NULL;
	codec_opts_load(opts, &st->opts, sizeof st->opts);
	st->max_block = max_block;
	return st;
}

static void zstd_state_free(void *state)
{
	struct zstd_state *st = state;
	if (st == NULL)
		return;
	zs_cctx_free(st->cctx);
	zs_dctx_free(st->dctx);
	free(st);
}

static ptrdiff_t zstd_compress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			       size_t cap)
{
	struct zstd_state *st = state;
	if (len == 0)
		return 0;
	if (len > st->max_block || cap < len)
		return -1;
	if (st->cctx == NULL) {
		st->cctx = zs_cctx_new(st->opts.level, st->max_block);
		if (st->cctx == NULL)
			return -1;
	}
	/* Only a frame smaller than the block is worth keeping: let the encoder stop early. */
	ptrdiff_t n = zs_compress(st->cctx, src, len, dst, len - 1, 0);
	if (n == ZS_ERR_DST_TOO_SMALL)
		return 0;
	if (n < 0)
		return -1;
	return (size_t)n < len ? n : 0;
}

static ptrdiff_t zstd_decompress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
				 size_t cap, const char **why)
{
	struct zstd_state *st = state;
	if (st->dctx == NULL) {
		st->dctx = zs_dctx_new();
		if (st->dctx == NULL) {
			*why = "out of memory for the zstd decoder";
			return -1;
		}
	}
	size_t window = st->max_block > ZSTD_MIN_WINDOW ? st->max_block : ZSTD_MIN_WINDOW;
	ptrdiff_t n = zs_decompress(st->dctx, src, len, dst, cap, window);
	if (n < 0) {
		*why = zs_error_string((int)n);
		return -1;
	}
	return n;
}

const struct codec codec_zstd = {
	.id = 6,
	.name = "zstd",
	.supported = 1,
	.init_options = zstd_init_options,
	.parse_option = zstd_parse_option,
	.finish_options = NULL,
	.write_options = zstd_write_options,
	.read_options = zstd_read_options,
	.print_options = zstd_print_options,
	.print_help = zstd_print_help,
	.state_new = zstd_state_new,
	.state_free = zstd_state_free,
	.compress = zstd_compress,
	.decompress = zstd_decompress,
};
