/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xz_image.c — the xz options block and its listing, and a decode-only xz codec over our own
 * decoder: a build without liblzma still lists and extracts xz images. */
#include "config.h"
#include "codecs/xz_image.h"
#include "codecs/codec_util.h"
#include "codecs/xz/xz_dec.h"
#include "common/util/endian.h"

#include <stdlib.h>

const char *const xz_filter_names[XZ_FILTER_COUNT] = {
	"x86", "powerpc", "ia64", "arm", "armthumb", "sparc",
};

int xz_dict_storable(uint32_t size)
{
	if (size == 0)
		return 0;
	while ((size & 1) == 0)
		size >>= 1;
	return size == 1 || size == 3;
}

uint32_t xz_effective_dict(const struct xz_opts *o)
{
	return o->dict_size != 0 ? o->dict_size : o->block_size;
}

void xz_init_options(struct codec_opts *opts, uint32_t block_size)
{
	struct xz_opts o = { .block_size = block_size };
	codec_opts_store(opts, &o, sizeof o);
}

size_t xz_write_options(const struct codec_opts *opts, uint8_t *buf)
{
	struct xz_opts o;
	codec_opts_load(opts, &o, sizeof o);
	uint32_t dict = xz_effective_dict(&o);
	if (dict == o.block_size && o.filters == 0)
		return 0;
	put_le32(buf, dict);
	put_le32(buf + 4, o.filters);
	return XZ_OPTIONS_LEN;
}

int xz_read_options(struct codec_opts *opts, const uint8_t *buf, size_t len, uint32_t block_size,
		    char *err, size_t errlen)
{
	if (codec_options_len("xz", len, XZ_OPTIONS_LEN, err, errlen) != 0)
		return -1;
	uint32_t dict = get_le32(buf);
	uint32_t filters = get_le32(buf + 4);
	if (!xz_dict_storable(dict)) {
		snprintf(err, errlen, "xz: compressor options: dictionary size %u is not 2^n or "
				      "2^n+2^(n-1)", dict);
		return -1;
	}
	if (filters & ~XZ_FILTER_ALL) {
		snprintf(err, errlen, "xz: compressor options: unknown filter bits 0x%x",
			 filters & ~XZ_FILTER_ALL);
		return -1;
	}
	struct xz_opts o = {
		.block_size = block_size, .dict_size = dict, .filters = filters, .from_image = 1,
	};
	codec_opts_store(opts, &o, sizeof o);
	return 0;
}

void xz_print_options(const struct codec_opts *opts, FILE *out)
{
	struct xz_opts o;
	codec_opts_load(opts, &o, sizeof o);
	uint8_t buf[CODEC_OPTIONS_MAX];
	if (!o.from_image && xz_write_options(opts, buf) == 0)
		return;
	fprintf(out, "\tDictionary size %u\n", xz_effective_dict(&o));
	if (o.filters == 0) {
		fprintf(out, "\tNo filters specified\n");
		return;
	}
	fprintf(out, "\tFilters selected: ");
	codec_print_mask(out, o.filters, xz_filter_names, XZ_FILTER_COUNT);
	fprintf(out, "\n");
}

int xz_own_decode(struct xzd_ctx **own, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
		  size_t *out_len, const char **why)
{
	if (*own == NULL && (*own = xzd_new()) == NULL) {
		*why = "out of memory for the xz decoder";
		return XZD_ERROR;
	}
	return xzd_decode(*own, src, len, dst, cap, out_len, why);
}

/* The decode-only codec's state is our decoder alone, made on the first block. */
static void *decode_only_state_new(const struct codec_opts *opts, uint32_t max_block)
{
	(void)opts;
	(void)max_block;
	struct xzd_ctx **slot = calloc(1, sizeof *slot);
	return slot;
}

static void decode_only_state_free(void *state)
{
	struct xzd_ctx **slot = state;
	if (slot == NULL)
		return;
	xzd_free(*slot);
	free(slot);
}

static ptrdiff_t decode_only_decompress(void *state, const uint8_t *src, size_t len,
					uint8_t *dst, size_t cap, const char **why)
{
	size_t out_len;
	int rc = xz_own_decode(state, src, len, dst, cap, &out_len, why);
	if (rc == XZD_OK)
		return (ptrdiff_t)out_len;
	if (rc == XZD_NOT_MINE)
		*why = "an xz stream with a BCJ filter, SHA-256 check or several blocks: this build "
		       "reads those only with liblzma (built without it)";
	return -1;
}

const struct codec codec_xz_decode_only = {
	.id = 4,
	.name = "xz",
	.supported = 0,
	.unsupported_why = "built without liblzma",
	.init_options = xz_init_options,
	.write_options = xz_write_options,
	.read_options = xz_read_options,
	.print_options = xz_print_options,
	.state_new = decode_only_state_new,
	.state_free = decode_only_state_free,
	.decompress = decode_only_decompress,
};
