/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* gzip.c — the gzip compressor (id 1): zlib streams, squashfs-tools' -X options and options block.
 *
 * With libdeflate (configure finds it) blocks are compressed and decompressed by libdeflate: at
 * the same level it takes about half of zlib's time and its streams are about 1 % smaller. zlib
 * stays for what libdeflate cannot do (a window under 32 KiB, strategies other than the default)
 * and for -Xzlib, whose streams are byte-identical to squashfs-tools'. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "common/util/endian.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#define GZIP_DEFAULT_LEVEL 9
#define GZIP_DEFAULT_WINDOW 15
#define GZIP_OPTIONS_LEN 8u

/* Bit order of the on-disk strategy mask; squashfs-tools lists and prints them in this order. */
static const char *const strategy_names[] = {
	"default", "filtered", "huffman_only", "run_length_encoded", "fixed",
};
static const int strategy_zlib[] = {
	Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED,
};
#define STRATEGY_COUNT 5u
#define STRATEGY_ALL ((UINT32_C(1) << STRATEGY_COUNT) - 1)

struct gzip_opts {
	int32_t level;
	int32_t window;
	/* 0 = only the default strategy, as squashfs-tools stores "-Xstrategy default" alone. */
	uint32_t strategies;
	uint8_t from_image;
	uint8_t zlib;     /* -Xzlib: compress with zlib even when libdeflate is built in */
};
_Static_assert(sizeof(struct gzip_opts) <= CODEC_OPTS_STORAGE, "gzip options fit");

struct gzip_state {
	struct gzip_opts opts;
	uint32_t max_block;
	unsigned nstreams;
	int deflate_ready;
	int inflate_ready;
	z_stream deflaters[STRATEGY_COUNT]; /* one per selected strategy, in bit order */
	z_stream inflater;
	uint8_t *scratch; /* second output buffer while strategies compete */
#ifdef HAVE_LIBDEFLATE
	struct libdeflate_compressor *ld_comp;     /* NULL: zlib compresses */
	struct libdeflate_decompressor *ld_dec;
#endif
};

static struct gzip_opts load(const struct codec_opts *opts)
{
	struct gzip_opts o;
	memcpy(&o, opts->u.bytes, sizeof o);
	return o;
}

static void store(struct codec_opts *opts, const struct gzip_opts *o)
{
	memcpy(opts->u.bytes, o, sizeof *o);
}

static void gzip_init_options(struct codec_opts *opts, uint32_t block_size)
{
	(void)block_size;
	struct gzip_opts o = { .level = GZIP_DEFAULT_LEVEL, .window = GZIP_DEFAULT_WINDOW };
	memset(opts, 0, sizeof *opts);
	store(opts, &o);
}

static int parse_ranged(const char *opt, int argc, char **argv, long min, long max, long *value,
			char *err, size_t errlen)
{
	if (argc < 2) {
		snprintf(err, errlen, "gzip: %s needs a value (%ld .. %ld)", opt, min, max);
		return -1;
	}
	if (codec_parse_int(argv[1], min, max, value) != 0) {
		snprintf(err, errlen, "gzip: %s '%s' is invalid: it should be %ld .. %ld", opt,
			 argv[1], min, max);
		return -1;
	}
	return 2;
}

static int gzip_parse_option(struct codec_opts *opts, int argc, char **argv, char *err,
			     size_t errlen)
{
	struct gzip_opts o = load(opts);
	long v;
	int used;

	if (strcmp(argv[0], "-Xcompression-level") == 0) {
		used = parse_ranged(argv[0], argc, argv, 1, 9, &v, err, errlen);
		if (used < 0)
			return -1;
		o.level = (int32_t)v;
	} else if (strcmp(argv[0], "-Xwindow-size") == 0) {
		used = parse_ranged(argv[0], argc, argv, 8, 15, &v, err, errlen);
		if (used < 0)
			return -1;
		o.window = (int32_t)v;
	} else if (strcmp(argv[0], "-Xzlib") == 0) {
		o.zlib = 1;
		used = 1;
	} else if (strcmp(argv[0], "-Xstrategy") == 0) {
		if (argc < 2) {
			snprintf(err, errlen, "gzip: -Xstrategy needs a comma-separated list of "
					      "strategies (default, filtered, huffman_only, "
					      "run_length_encoded, fixed)");
			return -1;
		}
		uint32_t mask;
		const char *bad;
		size_t bad_len;
		if (codec_parse_list(argv[1], strategy_names, STRATEGY_COUNT, &mask, &bad,
				     &bad_len) != 0) {
			snprintf(err, errlen, "gzip: -Xstrategy: unrecognised strategy '%.*s' "
					      "(available: default, filtered, huffman_only, "
					      "run_length_encoded, fixed)", (int)bad_len, bad);
			return -1;
		}
		o.strategies |= mask;
		used = 2;
	} else {
		return 0;
	}
	store(opts, &o);
	return used;
}

static int gzip_finish_options(struct codec_opts *opts, uint32_t block_size, char *err,
			       size_t errlen)
{
	(void)block_size;
	(void)err;
	(void)errlen;
	struct gzip_opts o = load(opts);
	if (o.strategies == 1)
		o.strategies = 0;
	store(opts, &o);
	return 0;
}

static size_t gzip_write_options(const struct codec_opts *opts, uint8_t *buf)
{
	struct gzip_opts o = load(opts);
	uint32_t strategies = o.strategies == 1 ? 0 : o.strategies;
	if (o.level == GZIP_DEFAULT_LEVEL && o.window == GZIP_DEFAULT_WINDOW && strategies == 0)
		return 0;
	put_le32(buf, (uint32_t)o.level);
	put_le16(buf + 4, (uint16_t)o.window);
	put_le16(buf + 6, (uint16_t)strategies);
	return GZIP_OPTIONS_LEN;
}

static int gzip_read_options(struct codec_opts *opts, const uint8_t *buf, size_t len,
			     uint32_t block_size, char *err, size_t errlen)
{
	(void)block_size;
	if (len < GZIP_OPTIONS_LEN) {
		snprintf(err, errlen, "gzip: compressor options block is %zu bytes, expected %u",
			 len, GZIP_OPTIONS_LEN);
		return -1;
	}
	int32_t level = (int32_t)get_le32(buf);
	uint16_t window = get_le16(buf + 4);
	uint16_t strategies = get_le16(buf + 6);
	if (level < 1 || level > 9) {
		snprintf(err, errlen, "gzip: compressor options: compression level %d is not 1 .. 9",
			 (int)level);
		return -1;
	}
	if (window < 8 || window > 15) {
		snprintf(err, errlen, "gzip: compressor options: window size %u is not 8 .. 15",
			 (unsigned)window);
		return -1;
	}
	if (strategies & ~STRATEGY_ALL) {
		snprintf(err, errlen, "gzip: compressor options: unknown strategy bits 0x%x",
			 (unsigned)(strategies & ~STRATEGY_ALL));
		return -1;
	}
	struct gzip_opts o = {
		.level = level, .window = window, .strategies = strategies, .from_image = 1,
	};
	memset(opts, 0, sizeof *opts);
	store(opts, &o);
	return 0;
}

static void gzip_print_options(const struct codec_opts *opts, FILE *out)
{
	struct gzip_opts o = load(opts);
	uint8_t buf[CODEC_OPTIONS_MAX];
	if (!o.from_image && gzip_write_options(opts, buf) == 0)
		return;
	fprintf(out, "\tcompression-level %d\n", (int)o.level);
	fprintf(out, "\twindow-size %d\n", (int)o.window);
	fprintf(out, "\tStrategies selected: ");
	codec_print_mask(out, o.strategies ? o.strategies : 1, strategy_names, STRATEGY_COUNT);
	fprintf(out, "\n");
}

/* The reference's lines exactly (the codec interface's contract, checked against it by
 * tests/codecs/registry.c): -Xzlib, ours only, is described in the man page and README. */
static void gzip_print_help(FILE *out)
{
	fputs("\t  -Xcompression-level <compression-level>\n"
	      "\t\t<compression-level> should be 1 .. 9 (default 9)\n"
	      "\t  -Xwindow-size <window-size>\n"
	      "\t\t<window-size> should be 8 .. 15 (default 15)\n"
	      "\t  -Xstrategy strategy1,strategy2,...,strategyN\n"
	      "\t\tCompress using strategy1,strategy2,...,strategyN in turn\n"
	      "\t\tand choose the best compression.\n"
	      "\t\tAvailable strategies: default, filtered, huffman_only,\n"
	      "\t\trun_length_encoded and fixed\n",
	      out);
}

static void *gzip_state_new(const struct codec_opts *opts, uint32_t max_block)
{
	struct gzip_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return NULL;
	st->opts = load(opts);
	st->max_block = max_block;
	return st;
}

static void gzip_state_free(void *state)
{
	struct gzip_state *st = state;
	if (st == NULL)
		return;
	for (unsigned i = 0; i < st->nstreams; i++)
		deflateEnd(&st->deflaters[i]);
#ifdef HAVE_LIBDEFLATE
	if (st->ld_comp != NULL)
		libdeflate_free_compressor(st->ld_comp);
	if (st->ld_dec != NULL)
		libdeflate_free_decompressor(st->ld_dec);
#endif
	if (st->inflate_ready)
		inflateEnd(&st->inflater);
	free(st->scratch);
	free(st);
}

static int deflaters_setup(struct gzip_state *st)
{
	uint32_t mask = st->opts.strategies ? st->opts.strategies : 1;
#ifdef HAVE_LIBDEFLATE
	/* libdeflate always writes a 32 KiB window and has no strategies. */
	if (!st->opts.zlib && st->opts.window == 15 && mask == 1) {
		st->ld_comp = libdeflate_alloc_compressor(st->opts.level);
		if (st->ld_comp == NULL)
			return -1;
		st->deflate_ready = 1;
		return 0;
	}
#endif
	if (mask & (mask - 1)) {
		st->scratch = malloc(st->max_block);
		if (st->scratch == NULL)
			return -1;
	}
	for (unsigned i = 0; i < STRATEGY_COUNT; i++) {
		if (!(mask & (UINT32_C(1) << i)))
			continue;
		z_stream *zs = &st->deflaters[st->nstreams];
		memset(zs, 0, sizeof *zs);
		if (deflateInit2(zs, st->opts.level, Z_DEFLATED, st->opts.window, 8,
				 strategy_zlib[i]) != Z_OK)
			return -1;
		st->nstreams++;
	}
	st->deflate_ready = 1;
	return 0;
}

/* One strategy's attempt: the size if it ends below limit bytes, else 0. */
static ptrdiff_t deflate_once(z_stream *zs, const uint8_t *src, size_t len, uint8_t *dst,
			      size_t limit)
{
	if (deflateReset(zs) != Z_OK)
		return -1;
	zs->next_in = (Bytef *)src;
	zs->avail_in = (uInt)len;
	zs->next_out = dst;
	zs->avail_out = (uInt)limit;
	int ret = deflate(zs, Z_FINISH);
	if (ret == Z_STREAM_END)
		return (ptrdiff_t)zs->total_out;
	return ret == Z_OK || ret == Z_BUF_ERROR ? 0 : -1;
}

static ptrdiff_t gzip_compress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			       size_t cap)
{
	struct gzip_state *st = state;
	if (len == 0)
		return 0;
	if (len > st->max_block || cap < len)
		return -1;
	if (!st->deflate_ready && deflaters_setup(st) != 0)
		return -1;
	/* Strictly smaller than the input, or it is stored raw. */
	size_t limit = len - 1;
#ifdef HAVE_LIBDEFLATE
	if (st->ld_comp != NULL)
		return limit == 0 ? 0 : (ptrdiff_t)libdeflate_zlib_compress(st->ld_comp, src, len, dst,
									 limit);
#endif
	uint8_t *best = dst, *spare = st->scratch;
	ptrdiff_t best_size = 0;
	for (unsigned i = 0; i < st->nstreams; i++) {
		uint8_t *out = best_size > 0 ? spare : best;
		ptrdiff_t n = deflate_once(&st->deflaters[i], src, len, out, limit);
		if (n < 0)
			return -1;
		if (n > 0 && (best_size == 0 || n < best_size)) {
			if (out == spare) {
				spare = best;
				best = out;
			}
			best_size = n;
			limit = (size_t)n - 1; /* later strategies must beat it */
		}
		if (limit == 0)
			break;
	}
	if (best_size > 0 && best != dst)
		memcpy(dst, best, (size_t)best_size);
	return best_size;
}

#ifdef HAVE_LIBDEFLATE
static ptrdiff_t inflate_libdeflate(struct gzip_state *st, const uint8_t *src, size_t len,
				   uint8_t *dst, size_t cap, const char **why)
{
	if (st->ld_dec == NULL && (st->ld_dec = libdeflate_alloc_decompressor()) == NULL) {
		*why = "out of memory for the zlib decoder";
		return -1;
	}
	size_t used = 0, got = 0;
	enum libdeflate_result r = libdeflate_zlib_decompress_ex(st->ld_dec, src, len, dst, cap,
								 &used, &got);
	if (r == LIBDEFLATE_SUCCESS && used != len)
		*why = "bytes after the end of the zlib stream";
	else if (r == LIBDEFLATE_SUCCESS)
		return (ptrdiff_t)got;
	else if (r == LIBDEFLATE_INSUFFICIENT_SPACE)
		*why = "zlib stream expands beyond the block size";
	else
		*why = "corrupt or truncated zlib stream";
	return -1;
}
#endif

#ifndef HAVE_LIBDEFLATE
static ptrdiff_t inflate_zlib(struct gzip_state *st, const uint8_t *src, size_t len,
			      uint8_t *dst, size_t cap, const char **why)
{
	if (!st->inflate_ready) {
		memset(&st->inflater, 0, sizeof st->inflater);
		/* Window 15 reads streams of every window size squashfs allows. */
		if (inflateInit2(&st->inflater, 15) != Z_OK) {
			*why = "out of memory for the zlib decoder";
			return -1;
		}
		st->inflate_ready = 1;
	}
	z_stream *zs = &st->inflater;
	if (inflateReset(zs) != Z_OK) {
		*why = "zlib decoder reset failed";
		return -1;
	}
	if (len > UINT32_MAX || cap > UINT32_MAX) {
		*why = "block too large";
		return -1;
	}
	zs->next_in = (Bytef *)src;
	zs->avail_in = (uInt)len;
	zs->next_out = dst;
	zs->avail_out = (uInt)cap;
	int ret = inflate(zs, Z_FINISH);
	if (ret == Z_STREAM_END) {
		if (zs->avail_in != 0) {
			*why = "bytes after the end of the zlib stream";
			return -1;
		}
		return (ptrdiff_t)zs->total_out;
	}
	if (ret == Z_DATA_ERROR)
		*why = zs->msg ? zs->msg : "corrupt zlib stream";
	else if (ret == Z_MEM_ERROR)
		*why = "out of memory in the zlib decoder";
	else if (zs->avail_out == 0)
		*why = "zlib stream expands beyond the block size";
	else
		*why = "truncated zlib stream";
	return -1;
}
#endif

static ptrdiff_t gzip_decompress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
				 size_t cap, const char **why)
{
#ifdef HAVE_LIBDEFLATE
	/* Reads the streams of every window size, whoever wrote them, about twice as fast. */
	return inflate_libdeflate(state, src, len, dst, cap, why);
#else
	return inflate_zlib(state, src, len, dst, cap, why);
#endif
}

const struct codec codec_gzip = {
	.id = 1,
	.name = "gzip",
	.supported = 1,
	.init_options = gzip_init_options,
	.parse_option = gzip_parse_option,
	.finish_options = gzip_finish_options,
	.write_options = gzip_write_options,
	.read_options = gzip_read_options,
	.print_options = gzip_print_options,
	.print_help = gzip_print_help,
	.state_new = gzip_state_new,
	.state_free = gzip_state_free,
	.compress = gzip_compress,
	.decompress = gzip_decompress,
};
