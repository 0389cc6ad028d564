/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* registry.c — every squashfs compressor by id and name, with stubs for the ones built out. */
#include "config.h"
#include "codecs/codec_impl.h"
#include "codecs/xz_image.h"

#include <stdio.h>
#include <string.h>

/* A built-out codec keeps its id and name so users read why it is missing, not "unknown". */
#define CODEC_STUB(stub_id, stub_name, why) \
	{ .id = (stub_id), .name = (stub_name), .supported = 0, .unsupported_why = (why) }

#ifndef HAVE_ZLIB
static const struct codec codec_gzip_stub = CODEC_STUB(1, "gzip", "built without zlib");
#define GZIP_ENTRY (&codec_gzip_stub)
#else
#define GZIP_ENTRY (&codec_gzip)
#endif

/* squashfs-tools still lists lzma (liblzma's .lzma streams); the kernel never could read it. */
#ifndef HAVE_LZMA
static const struct codec codec_lzma_stub = CODEC_STUB(2, "lzma", "built without liblzma");
#define LZMA_ENTRY (&codec_lzma_stub)
#else
#define LZMA_ENTRY (&codec_lzma)
#endif

#ifndef HAVE_LZO
static const struct codec codec_lzo_stub = CODEC_STUB(3, "lzo", "built without lzo2");
#define LZO_ENTRY (&codec_lzo_stub)
#else
#define LZO_ENTRY (&codec_lzo)
#endif

/* Without liblzma, xz images are still read, by our own decoder; only writing them is missing. */
#ifndef HAVE_LZMA
#define XZ_ENTRY (&codec_xz_decode_only)
#else
#define XZ_ENTRY (&codec_xz)
#endif

#ifndef HAVE_LZ4
static const struct codec codec_lz4_stub = CODEC_STUB(5, "lz4", "built without liblz4");
#define LZ4_ENTRY (&codec_lz4_stub)
#else
#define LZ4_ENTRY (&codec_lz4)
#endif

static const struct codec *const all_codecs[] = {
	GZIP_ENTRY, LZMA_ENTRY, LZO_ENTRY, XZ_ENTRY, LZ4_ENTRY, &codec_zstd, NULL,
};

const struct codec *const *codec_all(void)
{
	return all_codecs;
}

const struct codec *codec_by_name(const char *name)
{
	if (name == NULL)
		return NULL;
	for (const struct codec *const *c = all_codecs; *c != NULL; c++)
		if (strcmp((*c)->name, name) == 0)
			return *c;
	return NULL;
}

const struct codec *codec_by_id(int id)
{
	for (const struct codec *const *c = all_codecs; *c != NULL; c++)
		if ((*c)->id == id)
			return *c;
	return NULL;
}

const struct codec *codec_default(void)
{
	return GZIP_ENTRY->supported ? GZIP_ENTRY : &codec_zstd;
}

size_t codec_option_owners(const char *option, const struct codec *except,
			   const struct codec **owners, size_t cap)
{
	size_t n = 0;
	for (const struct codec *const *c = all_codecs; *c != NULL; c++) {
		if (*c == except || !(*c)->supported || (*c)->parse_option == NULL)
			continue;
		struct codec_opts opts;
		char err[128];
		char *argv[2] = { (char *)option, NULL };
		(*c)->init_options(&opts, 131072);
		/* Used words, or -1 for a value missing or bad: either way the option is this
		 * codec's; 0 means it is not. */
		if ((*c)->parse_option(&opts, 1, argv, err, sizeof(err)) == 0)
			continue;
		if (n < cap)
			owners[n] = *c;
		n++;
	}
	return n;
}

/* The -X options that only one codec has, for the codecs a build may leave out: such a build
 * names the missing codec instead of calling the option unknown. */
static const struct {
	const char *option, *codec;
} own_options[] = {
	{ "-Xwindow-size", "gzip" }, { "-Xstrategy", "gzip" }, { "-Xzlib", "gzip" },
	{ "-Xalgorithm", "lzo" }, { "-Xliblzo2", "lzo" },
	{ "-Xbcj", "xz" }, { "-Xdict-size", "xz" },
	{ "-Xhc", "lz4" }, { "-Xacceleration", "lz4" },
};

const struct codec *codec_built_out_owner(const char *option)
{
	for (size_t i = 0; option != NULL && i < sizeof(own_options) / sizeof(own_options[0]); i++) {
		if (strcmp(own_options[i].option, option) != 0)
			continue;
		const struct codec *c = codec_by_name(own_options[i].codec);
		return c != NULL && !c->supported ? c : NULL;
	}
	return NULL;
}

size_t codec_list_names(char *buf, size_t cap)
{
	size_t used = 0;
	if (cap > 0)
		buf[0] = '\0';
	for (const struct codec *const *c = all_codecs; *c != NULL; c++) {
		if (!(*c)->supported)
			continue;
		int n = snprintf(buf + used, cap > used ? cap - used : 0, "%s%s", used ? ", " : "",
				 (*c)->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return used;
}
