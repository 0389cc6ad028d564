/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* codec_util.h — internal to codecs/: the chores every backend's ops share (its options struct in
 * the caller's storage, numeric -X values, the options block's length). */
#ifndef SQ_CODECS_CODEC_UTIL_H
#define SQ_CODECS_CODEC_UTIL_H

#include "codecs/codec.h"

#include <stddef.h>
#include <stdint.h>

/* A backend's own options struct (size bytes) copied out of the caller's storage. */
void codec_opts_load(const struct codec_opts *opts, void *o, size_t size);

/* Makes the storage hold o (size bytes) and zeros after it. */
void codec_opts_store(struct codec_opts *opts, const void *o, size_t size);

/* A -X option that takes a decimal value in [min, max] (argv[0] the option, argv[1] the value):
 * 2 (the words used) with *value set, or -1 with "CODEC: -Xopt needs a value (min .. max)" or
 * "CODEC: -Xopt 'text' is invalid: it should be min .. max" in err. */
int codec_parse_ranged(const char *codec, int argc, char **argv, long min, long max,
		       long *value, char *err, size_t errlen);

/* 0 when an options block of len bytes holds the expected ones; else -1 with
 * "CODEC: compressor options block is len bytes, expected N" in err. */
int codec_options_len(const char *codec, size_t len, size_t expected, char *err, size_t errlen);

#endif
