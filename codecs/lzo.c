/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzo.c — the lzo compressor (id 3): raw lzo1x blocks, algorithm and level options. lzo1x_999 at
 * levels 8 (the default) and 9 on blocks of 32 KiB and more is our own encoder (codecs/lzo/),
 * smaller than liblzo2's and faster; -Xliblzo2 asks for liblzo2's, byte-identical to
 * squashfs-tools'. The other algorithms and levels, small blocks (metadata), and all decoding are
 * liblzo2's. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "codecs/codec_util.h"
#include "codecs/lzo/lzo1x_enc.h"
#include "common/util/endian.h"

#include <lzo/lzo1x.h>
#include <stdlib.h>
#include <string.h>

#define LZO_OPTIONS_LEN 8u
#define LZO_ALG_999 4
#define LZO_DEFAULT_LEVEL 8
#define LZO_OURS_LEVEL 8 /* lzo1x_999 from this level up is ours (unless -Xliblzo2) */
/* ... for blocks this long and longer: below, liblzo2's lzo1x_999 is as fast as ours (its match
 * chains are short in a small block), and its streams are the reference's. */
#define LZO_OURS_MIN_LEN 32768

/* On-disk algorithm numbers are the indexes of this table. */
static const char *const algorithm_names[] = {
	"lzo1x_1", "lzo1x_1_11", "lzo1x_1_12", "lzo1x_1_15", "lzo1x_999",
};
static const size_t algorithm_workmem[] = {
	LZO1X_1_MEM_COMPRESS, LZO1X_1_11_MEM_COMPRESS, LZO1X_1_12_MEM_COMPRESS,
	LZO1X_1_15_MEM_COMPRESS, LZO1X_999_MEM_COMPRESS,
};
#define ALGORITHM_COUNT 5

struct lzo_opts {
	int32_t algorithm;
	int32_t level;
	uint8_t level_given; /* -Xcompression-level with another algorithm is an error */
	uint8_t from_image;
	uint8_t library;     /* -Xliblzo2: liblzo2's lzo1x_999 even where ours is used */
};
_Static_assert(sizeof(struct lzo_opts) <= CODEC_OPTS_STORAGE, "lzo options fit");

struct lzo_state {
	struct lzo_opts opts;
	uint32_t max_block;
	void *workmem;
	uint8_t *out;     /* lzo may expand a block: compress here, copy when smaller */
	uint8_t *verify;  /* lzo1x_optimize re-decodes the block into this */
	struct lzo1x_enc *enc; /* ours, made on the first block */
};

static void lzo_init_options(struct codec_opts *opts, uint32_t block_size)
{
	(void)block_size;
	struct lzo_opts o = { .algorithm = LZO_ALG_999, .level = LZO_DEFAULT_LEVEL };
	codec_opts_store(opts, &o, sizeof o);
}

static int lzo_parse_option(struct codec_opts *opts, int argc, char **argv, char *err,
			    size_t errlen)
{
	struct lzo_opts o;
	codec_opts_load(opts, &o, sizeof o);
	if (strcmp(argv[0], "-Xalgorithm") == 0) {
		int i = 0;
		if (argc >= 2)
			for (; i < ALGORITHM_COUNT; i++)
				if (strcmp(argv[1], algorithm_names[i]) == 0)
					break;
		if (argc < 2) {
			snprintf(err, errlen, "lzo: -Xalgorithm needs a value: lzo1x_1, lzo1x_1_11, "
					      "lzo1x_1_12, lzo1x_1_15 or lzo1x_999");
			return -1;
		}
		if (i == ALGORITHM_COUNT) {
			snprintf(err, errlen, "lzo: -Xalgorithm '%s' is unrecognised: it should be one "
					      "of lzo1x_1, lzo1x_1_11, lzo1x_1_12, lzo1x_1_15, "
					      "lzo1x_999", argv[1]);
			return -1;
		}
		o.algorithm = i;
	} else if (strcmp(argv[0], "-Xliblzo2") == 0) {
		o.library = 1;
		codec_opts_store(opts, &o, sizeof o);
		return 1;
	} else if (strcmp(argv[0], "-Xcompression-level") == 0) {
		long v;
		if (codec_parse_ranged("lzo", argc, argv, 1, 9, &v, err, errlen) < 0)
			return -1;
		o.level = (int32_t)v;
		o.level_given = 1;
	} else {
		return 0;
	}
	codec_opts_store(opts, &o, sizeof o);
	return 2;
}

static int lzo_finish_options(struct codec_opts *opts, uint32_t block_size, char *err,
			      size_t errlen)
{
	(void)block_size;
	struct lzo_opts o;
	codec_opts_load(opts, &o, sizeof o);
	if (o.level_given && o.algorithm != LZO_ALG_999) {
		snprintf(err, errlen, "lzo: -Xcompression-level only applies to the lzo1x_999 "
				      "algorithm, not %s", algorithm_names[o.algorithm]);
		return -1;
	}
	return 0;
}

static size_t lzo_write_options(const struct codec_opts *opts, uint8_t *buf)
{
	struct lzo_opts o;
	codec_opts_load(opts, &o, sizeof o);
	if (o.algorithm == LZO_ALG_999 && o.level == LZO_DEFAULT_LEVEL)
		return 0;
	put_le32(buf, (uint32_t)o.algorithm);
	put_le32(buf + 4, o.algorithm == LZO_ALG_999 ? (uint32_t)o.level : 0);
	return LZO_OPTIONS_LEN;
}

static int lzo_read_options(struct codec_opts *opts, const uint8_t *buf, size_t len,
			    uint32_t block_size, char *err, size_t errlen)
{
	(void)block_size;
	if (codec_options_len("lzo", len, LZO_OPTIONS_LEN, err, errlen) != 0)
		return -1;
	uint32_t algorithm = get_le32(buf);
	int32_t level = (int32_t)get_le32(buf + 4);
	if (algorithm >= ALGORITHM_COUNT) {
		snprintf(err, errlen, "lzo: compressor options: unknown algorithm %u", algorithm);
		return -1;
	}
	/* squashfs-tools ignores the level of the other algorithms; so do we. */
	if (algorithm == LZO_ALG_999 && (level < 1 || level > 9)) {
		snprintf(err, errlen, "lzo: compressor options: compression level %d is not 1 .. 9",
			 (int)level);
		return -1;
	}
	struct lzo_opts o = {
		.algorithm = (int32_t)algorithm,
		.level = algorithm == LZO_ALG_999 ? level : LZO_DEFAULT_LEVEL,
		.from_image = 1,
	};
	codec_opts_store(opts, &o, sizeof o);
	return 0;
}

static void lzo_print_options(const struct codec_opts *opts, FILE *out)
{
	struct lzo_opts o;
	codec_opts_load(opts, &o, sizeof o);
	uint8_t buf[CODEC_OPTIONS_MAX];
	if (!o.from_image && lzo_write_options(opts, buf) == 0)
		return;
	fprintf(out, "\talgorithm %s\n", algorithm_names[o.algorithm]);
	if (o.algorithm == LZO_ALG_999)
		fprintf(out, "\tcompression level %d\n", (int)o.level);
}

static void lzo_print_help(FILE *out)
{
	fputs("\t  -Xalgorithm <algorithm>\n"
	      "\t\tWhere <algorithm> is one of:\n"
	      "\t\t\tlzo1x_1\n"
	      "\t\t\tlzo1x_1_11\n"
	      "\t\t\tlzo1x_1_12\n"
	      "\t\t\tlzo1x_1_15\n"
	      "\t\t\tlzo1x_999 (default)\n"
	      "\t  -Xcompression-level <compression-level>\n"
	      "\t\t<compression-level> should be 1 .. 9 (default 8)\n"
	      "\t\tOnly applies to lzo1x_999 algorithm\n",
	      out);
}

/* lzo1x's worst case for incompressible input (from the lzo documentation). */
static size_t lzo_bound(size_t len)
{
	return len + len / 16 + 64 + 3;
}

static void *lzo_state_new(const struct codec_opts *opts, uint32_t max_block)
{
	if (lzo_init() != LZO_E_OK)
		return NULL;
	struct lzo_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return NULL;
	codec_opts_load(opts, &st->opts, sizeof st->opts);
	st->max_block = max_block;
	return st;
}

static void lzo_state_free(void *state)
{
	struct lzo_state *st = state;
	if (st == NULL)
		return;
	free(st->workmem);
	free(st->out);
	free(st->verify);
	lzo1x_enc_free(st->enc);
	free(st);
}

static int lzo_ours(const struct lzo_opts *o)
{
	return o->algorithm == LZO_ALG_999 && o->level >= LZO_OURS_LEVEL && !o->library;
}

static ptrdiff_t lzo_compress_ours(struct lzo_state *st, const uint8_t *src, size_t len,
				   uint8_t *dst)
{
	if (st->enc == NULL) {
		st->enc = lzo1x_enc_new(st->max_block, st->opts.level);
		if (st->enc == NULL)
			return -1;
	}
	/* 0 (longer than len - 1): the caller stores the block raw. */
	return (ptrdiff_t)lzo1x_enc_compress(st->enc, src, (uint32_t)len, dst, len - 1);
}

static int lzo_compress_once(struct lzo_state *st, const uint8_t *src, size_t len,
			     lzo_uint *out_len)
{
	switch (st->opts.algorithm) {
	case 0:
		return lzo1x_1_compress(src, len, st->out, out_len, st->workmem);
	case 1:
		return lzo1x_1_11_compress(src, len, st->out, out_len, st->workmem);
	case 2:
		return lzo1x_1_12_compress(src, len, st->out, out_len, st->workmem);
	case 3:
		return lzo1x_1_15_compress(src, len, st->out, out_len, st->workmem);
	default:
		return lzo1x_999_compress_level(src, len, st->out, out_len, st->workmem, NULL, 0, 0,
						st->opts.level);
	}
}

static ptrdiff_t lzo_compress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			      size_t cap)
{
	struct lzo_state *st = state;
	if (len == 0)
		return 0;
	if (len > st->max_block || cap < len)
		return -1;
	if (lzo_ours(&st->opts) && len >= LZO_OURS_MIN_LEN)
		return lzo_compress_ours(st, src, len, dst);
	if (st->workmem == NULL) {
		st->workmem = malloc(algorithm_workmem[st->opts.algorithm]);
		st->out = malloc(lzo_bound(st->max_block));
		st->verify = st->opts.algorithm == LZO_ALG_999 ? malloc(st->max_block) : NULL;
		if (st->workmem == NULL || st->out == NULL ||
		    (st->opts.algorithm == LZO_ALG_999 && st->verify == NULL)) {
			free(st->workmem);
			free(st->out);
			free(st->verify);
			st->workmem = st->out = st->verify = NULL;
			return -1;
		}
	}
	lzo_uint out_len = 0;
	if (lzo_compress_once(st, src, len, &out_len) != LZO_E_OK)
		return -1;
	if (out_len >= len)
		return 0;
	if (st->opts.algorithm == LZO_ALG_999) {
		/* Rearranges literal runs in place for faster decoding; size unchanged. */
		lzo_uint orig = len;
		if (lzo1x_optimize(st->out, out_len, st->verify, &orig, NULL) != LZO_E_OK ||
		    orig != len)
			return -1;
	}
	memcpy(dst, st->out, out_len);
	return (ptrdiff_t)out_len;
}

static ptrdiff_t lzo_decompress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
				size_t cap, const char **why)
{
	(void)state;
	lzo_uint out_len = cap;
	int ret = lzo1x_decompress_safe(src, len, dst, &out_len, NULL);
	switch (ret) {
	case LZO_E_OK:
		return (ptrdiff_t)out_len;
	case LZO_E_INPUT_NOT_CONSUMED:
		*why = "bytes after the end of the lzo block";
		break;
	case LZO_E_INPUT_OVERRUN:
		*why = "truncated lzo block";
		break;
	case LZO_E_OUTPUT_OVERRUN:
		*why = "lzo block expands beyond the block size";
		break;
	case LZO_E_LOOKBEHIND_OVERRUN:
		*why = "corrupt lzo block (match before the start of the output)";
		break;
	default:
		*why = "corrupt lzo block";
		break;
	}
	return -1;
}

const struct codec codec_lzo = {
	.id = 3,
	.name = "lzo",
	.supported = 1,
	.init_options = lzo_init_options,
	.parse_option = lzo_parse_option,
	.finish_options = lzo_finish_options,
	.write_options = lzo_write_options,
	.read_options = lzo_read_options,
	.print_options = lzo_print_options,
	.print_help = lzo_print_help,
	.state_new = lzo_state_new,
	.state_free = lzo_state_free,
	.compress = lzo_compress,
	.decompress = lzo_decompress,
};
