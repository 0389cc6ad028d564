/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* codec_impl.h — internal to codecs/: the backends' ops tables and the -X value parsers they share. */
#ifndef SQ_CODECS_CODEC_IMPL_H
#define SQ_CODECS_CODEC_IMPL_H

#include "codecs/codec.h"

#include <stddef.h>
#include <stdint.h>

/* One ops table per backend; registry.c lists a stub in place of a built-out one. */
extern const struct codec codec_gzip;
extern const struct codec codec_xz;
extern const struct codec codec_lzma;
extern const struct codec codec_lzo;
extern const struct codec codec_lz4;
extern const struct codec codec_zstd;

/* A backend whose functions are named PREFIX_init_options .. PREFIX_decompress fills its ops
 * table with these (finish_options, when it has one, is named on its own line). */
#define CODEC_OPTION_FUNCS(p) \
	.init_options = p##_init_options, .parse_option = p##_parse_option, \
	.write_options = p##_write_options, .read_options = p##_read_options, \
	.print_options = p##_print_options, .print_help = p##_print_help
#define CODEC_BLOCK_FUNCS(p) \
	.state_new = p##_state_new, .state_free = p##_state_free, .compress = p##_compress, \
	.decompress = p##_decompress

/* The whole of text as a decimal integer in [min, max]; 0 on success, -1 otherwise (no partial
 * parses: "1x", "", " 5" and overflow are all rejected, unlike atoi). */
int codec_parse_int(const char *text, long min, long max, long *value);

/* Look up one comma-separated word of list in names[0..count): calls back with each word's index
 * so callers build bitmasks. Returns 0, or -1 when a word is empty or unknown; *bad then points
 * at the offending word (not NUL-terminated: *bad_len bytes). */
int codec_parse_list(const char *list, const char *const *names, unsigned count, uint32_t *mask,
		     const char **bad, size_t *bad_len);

/* Writes "name1, name2" of the bits set in mask to out (names in bit order). */
void codec_print_mask(FILE *out, uint32_t mask, const char *const *names, unsigned count);

#endif
