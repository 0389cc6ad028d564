/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz.c — the xz compressor (id 4): .xz streams via liblzma, BCJ filter trials, dictionary sizing. */
#include "config.h"
#include "codecs/xz_image.h"
#include "codecs/codec_util.h"
#include "codecs/xz/xz_dec.h"

#include <lzma.h>
#include <stdlib.h>
#include <string.h>

/* liblzma's filter ids in the on-disk mask's bit order (xz_filter_names). */
static const lzma_vli filter_ids[] = {
	LZMA_FILTER_X86, LZMA_FILTER_POWERPC, LZMA_FILTER_IA64,
	LZMA_FILTER_ARM, LZMA_FILTER_ARMTHUMB, LZMA_FILTER_SPARC,
};
_Static_assert(sizeof filter_ids / sizeof filter_ids[0] == XZ_FILTER_COUNT, "one id a filter");

/* Encoder 0 runs LZMA2 alone; encoder i > 0 puts the i-th selected BCJ filter before it. */
struct xz_state {
	struct xz_opts opts;
	uint32_t max_block;
	unsigned nencoders;
	int encode_ready;
	int decode_ready;
	lzma_options_lzma lzma2;
	lzma_filter chains[1 + XZ_FILTER_COUNT][3];
	lzma_stream encoders[1 + XZ_FILTER_COUNT];
	lzma_stream decoder;
	struct xzd_ctx *own; /* our decoder, tried first; liblzma for what it leaves */
	uint8_t *scratch;
};

/* "N", "NK", "NM" (integers) or "P%" (P may have a fraction). */
static int parse_dict(struct xz_opts *o, const char *text, char *err, size_t errlen)
{
	const char *p = text;
	uint64_t whole = 0;
	double frac = 0, scale = 0.1;
	int digits = 0, fractional = 0;
	while (*p >= '0' && *p <= '9') {
		whole = whole * 10 + (uint64_t)(*p - '0');
		if (whole > UINT32_MAX)
			goto invalid;
		p++;
		digits++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			frac += (*p - '0') * scale;
			scale /= 10;
			p++;
			fractional = 1;
		}
	}
	if (digits == 0)
		goto invalid;
	if (p[0] == '%' && p[1] == '\0') {
		double percent = (double)whole + frac;
		if (!(percent > 0 && percent <= 100)) {
			snprintf(err, errlen, "xz: -Xdict-size '%s': a percentage should be "
					      "0 < dict-size <= 100", text);
			return -1;
		}
		o->dict_percent = percent;
		o->dict_size = 0;
		return 0;
	}
	if (fractional || frac != 0) {
		snprintf(err, errlen, "xz: -Xdict-size '%s' can't be fractional unless a "
				      "percentage of the block size", text);
		return -1;
	}
	uint64_t mult = 1;
	if ((p[0] == 'k' || p[0] == 'K') && p[1] == '\0')
		mult = 1024;
	else if ((p[0] == 'm' || p[0] == 'M') && p[1] == '\0')
		mult = 1024 * 1024;
	else if (p[0] != '\0')
		goto invalid;
	/* Anything beyond 4 GiB is over every block size: clamp so finish_options says so. */
	uint64_t bytes = whole * mult;
	o->dict_size = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
	o->dict_percent = 0;
	return 0;
invalid:
	snprintf(err, errlen, "xz: -Xdict-size '%s' is invalid: give bytes, or a number with "
			      "K or M, or a percentage of the block size", text);
	return -1;
}

static int xz_parse_option(struct codec_opts *opts, int argc, char **argv, char *err,
			   size_t errlen)
{
	struct xz_opts o;
	codec_opts_load(opts, &o, sizeof o);
	if (strcmp(argv[0], "-Xbcj") == 0) {
		if (argc < 2) {
			snprintf(err, errlen, "xz: -Xbcj needs a comma-separated list of filters "
					      "(x86, arm, armthumb, powerpc, sparc, ia64)");
			return -1;
		}
		uint32_t mask;
		const char *bad;
		size_t bad_len;
		if (codec_parse_list(argv[1], xz_filter_names, XZ_FILTER_COUNT, &mask, &bad,
				     &bad_len) != 0) {
			snprintf(err, errlen, "xz: -Xbcj: unrecognised filter '%.*s' (available: "
					      "x86, arm, armthumb, powerpc, sparc, ia64)",
				 (int)bad_len, bad);
			return -1;
		}
		o.filters |= mask;
	} else if (strcmp(argv[0], "-Xdict-size") == 0) {
		if (argc < 2) {
			snprintf(err, errlen, "xz: -Xdict-size needs a size (e.g. 64K, or 50%%)");
			return -1;
		}
		if (parse_dict(&o, argv[1], err, errlen) != 0)
			return -1;
	} else {
		return 0;
	}
	codec_opts_store(opts, &o, sizeof o);
	return 2;
}

static int xz_finish_options(struct codec_opts *opts, uint32_t block_size, char *err,
			     size_t errlen)
{
	struct xz_opts o;
	codec_opts_load(opts, &o, sizeof o);
	uint32_t dict = block_size;
	if (o.dict_percent > 0)
		dict = (uint32_t)((double)block_size * o.dict_percent / 100.0);
	else if (o.dict_size != 0)
		dict = o.dict_size;
	/* The minimum binds only a dictionary the user chose: squashfs-tools takes the default
	 * (the block size) at -b 4096 too, and writes 4096 when -Xbcj forces an options block. */
	int given = o.dict_percent > 0 || o.dict_size != 0;
	if (given && dict < XZ_MIN_DICT) {
		snprintf(err, errlen, "xz: -Xdict-size: the dictionary (%u bytes) should be 8192 "
				      "bytes or larger", dict);
		return -1;
	}
	if (dict > block_size) {
		snprintf(err, errlen, "xz: -Xdict-size: the dictionary (%u bytes) is larger than "
				      "the block size (%u)", dict, block_size);
		return -1;
	}
	if (!xz_dict_storable(dict)) {
		snprintf(err, errlen, "xz: -Xdict-size: %u bytes can't be stored in the xz header: "
				      "it must be 2^n or 2^n+2^(n-1), e.g. 75%%, 50%%, 37.5%%, 25%%, "
				      "or 32K, 16K, 8K", dict);
		return -1;
	}
	o.block_size = block_size;
	o.dict_size = dict;
	o.dict_percent = 0;
	codec_opts_store(opts, &o, sizeof o);
	return 0;
}

static void xz_print_help(FILE *out)
{
	fputs("\t  -Xbcj filter1,filter2,...,filterN\n"
	      "\t\tCompress using filter1,filter2,...,filterN in turn\n"
	      "\t\t(in addition to no filter), and choose the best compression.\n"
	      "\t\tAvailable filters: x86, arm, armthumb, powerpc, sparc, ia64\n"
	      "\t  -Xdict-size <dict-size>\n"
	      "\t\tUse <dict-size> as the XZ dictionary size.  The dictionary size\n"
	      "\t\tcan be specified as a percentage of the block size, or as an\n"
	      "\t\tabsolute value.  The dictionary size must be less than or equal\n"
	      "\t\tto the block size and 8192 bytes or larger.  It must also be\n"
	      "\t\tstorable in the xz header as either 2^n or as 2^n+2^(n+1).\n"
	      "\t\tExample dict-sizes are 75%, 50%, 37.5%, 25%, or 32K, 16K, 8K\n"
	      "\t\tetc.\n",
	      out);
}

static void *xz_state_new(const struct codec_opts *opts, uint32_t max_block)
{
	struct xz_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return NULL;
	codec_opts_load(opts, &st->opts, sizeof st->opts);
	st->max_block = max_block;
	return st;
}

static void xz_state_free(void *state)
{
	struct xz_state *st = state;
	if (st == NULL)
		return;
	for (unsigned i = 0; i < st->nencoders; i++)
		lzma_end(&st->encoders[i]);
	if (st->decode_ready)
		lzma_end(&st->decoder);
	xzd_free(st->own);
	free(st->scratch);
	free(st);
}

static int encoders_setup(struct xz_state *st)
{
	if (lzma_lzma_preset(&st->lzma2, LZMA_PRESET_DEFAULT))
		return -1;
	st->lzma2.dict_size = xz_effective_dict(&st->opts);
	if (st->lzma2.dict_size < LZMA_DICT_SIZE_MIN)
		st->lzma2.dict_size = LZMA_DICT_SIZE_MIN;
	unsigned n = 0;
	for (int i = -1; i < (int)XZ_FILTER_COUNT; i++) {
		if (i >= 0 && !(st->opts.filters & (UINT32_C(1) << i)))
			continue;
		lzma_filter *chain = st->chains[n];
		unsigned k = 0;
		if (i >= 0)
			chain[k++] = (lzma_filter){ .id = filter_ids[i], .options = NULL };
		chain[k++] = (lzma_filter){ .id = LZMA_FILTER_LZMA2, .options = &st->lzma2 };
		chain[k] = (lzma_filter){ .id = LZMA_VLI_UNKNOWN, .options = NULL };
		st->encoders[n] = (lzma_stream)LZMA_STREAM_INIT;
		n++;
	}
	st->nencoders = n;
	if (n > 1) {
		st->scratch = malloc(st->max_block);
		if (st->scratch == NULL)
			return -1;
	}
	st->encode_ready = 1;
	return 0;
}

static void set_buffers(lzma_stream *strm, const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
	strm->next_in = src;
	strm->avail_in = len;
	strm->next_out = dst;
	strm->avail_out = cap;
}

/* One filter chain's attempt: the size when the stream ends within limit bytes, else 0. */
static ptrdiff_t encode_once(lzma_stream *strm, const lzma_filter *chain, const uint8_t *src,
			     size_t len, uint8_t *dst, size_t limit)
{
	/* Re-initialising the same stream with the same chain reuses liblzma's buffers. */
	if (lzma_stream_encoder(strm, chain, LZMA_CHECK_CRC32) != LZMA_OK)
		return -1;
	set_buffers(strm, src, len, dst, limit);
	lzma_ret ret;
	do
		ret = lzma_code(strm, LZMA_FINISH);
	while (ret == LZMA_OK && strm->avail_out > 0);
	if (ret == LZMA_STREAM_END)
		return (ptrdiff_t)(limit - strm->avail_out);
	return ret == LZMA_OK || ret == LZMA_BUF_ERROR ? 0 : -1;
}

static ptrdiff_t xz_compress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			     size_t cap)
{
	struct xz_state *st = state;
	if (len == 0)
		return 0;
	if (len > st->max_block || cap < len)
		return -1;
	if (!st->encode_ready && encoders_setup(st) != 0)
		return -1;
	size_t limit = len - 1;
	uint8_t *best = dst, *spare = st->scratch;
	ptrdiff_t best_size = 0;
	for (unsigned i = 0; i < st->nencoders && limit > 0; i++) {
		uint8_t *out = best_size > 0 ? spare : best;
		ptrdiff_t n = encode_once(&st->encoders[i], st->chains[i], src, len, out, limit);
		if (n < 0)
			return -1;
		if (n > 0) {
			if (out == spare) {
				spare = best;
				best = out;
			}
			best_size = n;
			limit = (size_t)n - 1;
		}
	}
	if (best_size > 0 && best != dst)
		memcpy(dst, best, (size_t)best_size);
	return best_size;
}

static ptrdiff_t xz_decompress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			       size_t cap, const char **why)
{
	struct xz_state *st = state;
	/* Ours decodes every single-block LZMA2 stream; only what it does not implement (BCJ
	 * filters, SHA-256, several blocks) goes to liblzma. A corrupt stream stays an error. */
	size_t out_len;
	int own = xz_own_decode(&st->own, src, len, dst, cap, &out_len, why);
	if (own == XZD_OK)
		return (ptrdiff_t)out_len;
	if (own == XZD_ERROR)
		return -1;
	if (!st->decode_ready) {
		st->decoder = (lzma_stream)LZMA_STREAM_INIT;
		st->decode_ready = 1;
	}
	/* Squashfs dictionaries never exceed the block size: a stream asking for much more
	 * memory than that is hostile. */
	uint64_t memlimit = 2 * (uint64_t)(st->max_block > 65536 ? st->max_block : 65536) +
			    (UINT64_C(4) << 20);
	lzma_stream *strm = &st->decoder;
	if (lzma_stream_decoder(strm, memlimit, 0) != LZMA_OK) {
		*why = "out of memory for the xz decoder";
		return -1;
	}
	set_buffers(strm, src, len, dst, cap);
	/* liblzma may stop with LZMA_OK to be called again (a full output buffer with the index
	 * still to check): go on while it makes progress. */
	lzma_ret ret;
	size_t in_left, out_left;
	do {
		in_left = strm->avail_in;
		out_left = strm->avail_out;
		ret = lzma_code(strm, LZMA_FINISH);
	} while (ret == LZMA_OK && (strm->avail_in != in_left || strm->avail_out != out_left));
	switch (ret) {
	case LZMA_STREAM_END:
		if (strm->avail_in != 0) {
			*why = "bytes after the end of the xz stream";
			return -1;
		}
		return (ptrdiff_t)(cap - strm->avail_out);
	case LZMA_MEMLIMIT_ERROR:
	case LZMA_MEM_ERROR:
		*why = "xz stream needs more memory than a squashfs block allows";
		return -1;
	case LZMA_FORMAT_ERROR:
		*why = "not an xz stream";
		return -1;
	case LZMA_OPTIONS_ERROR:
		*why = "xz stream uses unsupported options";
		return -1;
	case LZMA_DATA_ERROR:
		*why = "corrupt xz stream";
		return -1;
	case LZMA_BUF_ERROR:
	case LZMA_OK:
		*why = strm->avail_out == 0 ? "xz stream expands beyond the block size"
					    : "truncated xz stream";
		return -1;
	default:
		*why = "xz decoder failed";
		return -1;
	}
}

const struct codec codec_xz = {
	.id = 4,
	.name = "xz",
	.supported = 1,
	.init_options = xz_init_options,
	.parse_option = xz_parse_option,
	.finish_options = xz_finish_options,
	.write_options = xz_write_options,
	.read_options = xz_read_options,
	.print_options = xz_print_options,
	.print_help = xz_print_help,
	.state_new = xz_state_new,
	.state_free = xz_state_free,
	.compress = xz_compress,
	.decompress = xz_decompress,
};
