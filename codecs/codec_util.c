/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* codec_util.c — the chores every backend's ops share, so that a backend file holds only what
 * makes its compressor different. */
#include "config.h"
#include "codecs/codec_util.h"
#include "codecs/codec_impl.h"

#include <string.h>

void codec_opts_load(const struct codec_opts *opts, void *o, size_t size)
{
	memcpy(o, opts->u.bytes, size);
}

void codec_opts_store(struct codec_opts *opts, const void *o, size_t size)
{
	/* Zeroing the tail keeps two equal option sets byte-for-byte equal in storage. */
	memset(opts, 0, sizeof *opts);
	memcpy(opts->u.bytes, o, size);
}

int codec_parse_ranged(const char *codec, int argc, char **argv, long min, long max,
		       long *value, char *err, size_t errlen)
{
	if (argc < 2) {
		snprintf(err, errlen, "%s: %s needs a value (%ld .. %ld)", codec, argv[0], min, max);
		return -1;
	}
	if (codec_parse_int(argv[1], min, max, value) != 0) {
		snprintf(err, errlen, "%s: %s '%s' is invalid: it should be %ld .. %ld", codec,
			 argv[0], argv[1], min, max);
		return -1;
	}
	return 2;
}

int codec_options_len(const char *codec, size_t len, size_t expected, char *err, size_t errlen)
{
	if (len >= expected)
		return 0;
	snprintf(err, errlen, "%s: compressor options block is %zu bytes, expected %zu", codec,
		 len, expected);
	return -1;
}
