/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* lzma.c — the legacy lzma compressor (id 2): each block is a .lzma ("LZMA alone") stream from
 * liblzma, as squashfs-tools builds it. Linux never could mount such images.
 *
 * Block layout (squashfs-tools' lzma_wrapper / lzma_xz_wrapper): 5 property bytes (lc/lp/pb, then
 * the dictionary size as LE32: the block size for data, 8192 for metadata), the uncompressed
 * size as LE64 (the encoder writes "unknown" and squashfs-tools fills in the real size), then
 * LZMA1 data ending with an end-of-payload marker. Settings: liblzma preset 5. There is no
 * options block and there are no -X options. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "common/util/endian.h"

#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define LZMA_PROPS_BYTES 5u
#define LZMA_HEADER_BYTES 13u
#define LZMA_PRESET 5u
/* Readers refuse dictionaries whose decoder would need more (block sizes are at most 1 MiB). */
#define LZMA_DECODE_MEMLIMIT (64u << 20)

struct lzma_state {
	uint32_t max_block;
	lzma_stream enc;    /* reinitialised per block: liblzma keeps its buffers */
	lzma_stream dec;
	uint8_t header[LZMA_HEADER_BYTES];
};

static void lzma_init_options(struct codec_opts *opts, uint32_t block_size)
{
	(void)block_size;
	memset(opts, 0, sizeof *opts);
}

static int lzma_parse_option(struct codec_opts *opts, int argc, char **argv, char *err,
			     size_t errlen)
{
	(void)opts, (void)argc, (void)argv, (void)err, (void)errlen;
	return 0;
}

static size_t lzma_write_options(const struct codec_opts *opts, uint8_t *buf)
{
	(void)opts, (void)buf;
	return 0;
}

static int lzma_read_options(struct codec_opts *opts, const uint8_t *buf, size_t len,
			     uint32_t block_size, char *err, size_t errlen)
{
	(void)opts, (void)buf, (void)block_size;
	snprintf(err, errlen, "lzma: unexpected compressor options block (%zu bytes): lzma has no "
			      "options", len);
	return -1;
}

static void lzma_print_options(const struct codec_opts *opts, FILE *out)
{
	(void)opts, (void)out; /* nothing to say: lzma has no options */
}

static void lzma_print_help(FILE *out)
{
	fputs("\t  (no options) (deprecated - no kernel support)\n", out);
}

static void *lzma_state_new(const struct codec_opts *opts, uint32_t max_block)
{
	(void)opts;
	struct lzma_state *st = calloc(1, sizeof *st);
	if (st == NULL)
		return NULL;
	st->max_block = max_block;
	st->enc = (lzma_stream)LZMA_STREAM_INIT;
	st->dec = (lzma_stream)LZMA_STREAM_INIT;
	return st;
}

static void lzma_state_free(void *state)
{
	struct lzma_state *st = state;
	if (st == NULL)
		return;
	lzma_end(&st->enc);
	lzma_end(&st->dec);
	free(st);
}

static ptrdiff_t lzma_compress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			       size_t cap)
{
	struct lzma_state *st = state;
	/* Nothing to compress is stored raw; a block larger than promised is a caller's bug. */
	if (len == 0 || len > st->max_block || cap < len)
		return len == 0 ? 0 : -1;
	lzma_options_lzma opt;
	if (lzma_lzma_preset(&opt, LZMA_PRESET))
		return -1;
	/* The dictionary is the block size the reader expects (data or metadata blocks). */
	opt.dict_size = st->max_block;
	if (lzma_alone_encoder(&st->enc, &opt) != LZMA_OK)
		return -1;
	st->enc.next_in = src;
	st->enc.avail_in = len;
	st->enc.next_out = dst;
	st->enc.avail_out = len - 1; /* not smaller: stored raw */
	lzma_ret ret = lzma_code(&st->enc, LZMA_FINISH);
	if (ret == LZMA_MEM_ERROR || ret == LZMA_PROG_ERROR || ret == LZMA_OPTIONS_ERROR)
		return -1;
	if (ret != LZMA_STREAM_END)
		return 0;
	size_t out = (size_t)st->enc.total_out;
	if (out < LZMA_HEADER_BYTES)
		return -1;
	/* The encoder wrote "size unknown"; readers (and the reference) want the real size. */
	put_le32(dst + LZMA_PROPS_BYTES, (uint32_t)len);
	put_le32(dst + LZMA_PROPS_BYTES + 4, 0);
	return (ptrdiff_t)out;
}

static ptrdiff_t lzma_decompress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
				 size_t cap, const char **why)
{
	struct lzma_state *st = state;
	if (len < LZMA_HEADER_BYTES) {
		*why = "lzma block shorter than its 13-byte header";
		return -1;
	}
	uint64_t size = get_le64(src + LZMA_PROPS_BYTES);
	if (size > cap) {
		*why = "lzma block header claims more bytes than a block holds";
		return -1;
	}
	if (lzma_alone_decoder(&st->dec, LZMA_DECODE_MEMLIMIT) != LZMA_OK) {
		*why = "cannot set up the lzma decoder";
		return -1;
	}
	/* Decode as a stream of unknown size ending in its marker, as squashfs-tools writes
	 * it; the size in the header is checked against what came out. */
	memcpy(st->header, src, LZMA_PROPS_BYTES);
	memset(st->header + LZMA_PROPS_BYTES, 0xff, 8);
	st->dec.next_in = st->header;
	st->dec.avail_in = LZMA_HEADER_BYTES;
	st->dec.next_out = dst;
	st->dec.avail_out = cap;
	lzma_ret ret = lzma_code(&st->dec, LZMA_RUN);
	if (ret != LZMA_OK || st->dec.avail_in != 0) {
		*why = ret == LZMA_MEMLIMIT_ERROR ? "lzma dictionary too large"
						  : "corrupt lzma block header";
		return -1;
	}
	st->dec.next_in = src + LZMA_HEADER_BYTES;
	st->dec.avail_in = len - LZMA_HEADER_BYTES;
	ret = lzma_code(&st->dec, LZMA_FINISH);
	bool whole = st->dec.total_out == size && st->dec.avail_in == 0;
	/* Every writer we know (squashfs-tools, squashfs-tools-ng) ends blocks with the marker:
	 * a block without it is taken as truncated. */
	if (!(ret == LZMA_STREAM_END && whole)) {
		*why = ret == LZMA_STREAM_END ? "lzma block size differs from its header"
					      : "corrupt or truncated lzma block";
		return -1;
	}
	return (ptrdiff_t)size;
}

const struct codec codec_lzma = {
	.id = 2,
	.name = "lzma",
	.supported = 1,
	CODEC_OPTION_FUNCS(lzma),
	CODEC_BLOCK_FUNCS(lzma),
};
