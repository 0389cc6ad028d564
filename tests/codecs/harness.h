/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* harness.h — shared checks for the codec unit tests: round trips, hostile input, -X
 * parsing, and byte-for-byte comparison with images made by the reference squashfs-tools. */
#ifndef SQ_TESTS_CODECS_HARNESS_H
#define SQ_TESTS_CODECS_HARNESS_H

#include "codecs/codec.h"

#include <stddef.h>
#include <stdint.h>

#include "tests/lib/check.h"

/* 0 for formats with no end marker (raw LZ4): a truncated block may then decode to a shorter
 * prefix of the data, which the callers catch by the expected size; anything else fails. */
extern int harness_truncation_detectable;

/* Kinds of test data, from trivially compressible to incompressible. */
enum data_kind { DATA_ZEROS, DATA_TEXT, DATA_MIXED, DATA_CODE, DATA_RANDOM, DATA_KINDS };
void harness_fill(enum data_kind kind, uint8_t *buf, size_t len, uint64_t seed);

/* init_options, parse every word of args (space separated, may be ""), finish_options.
 * 0 on success, -1 with the codec's message in err. */
int harness_parse(const struct codec *c, struct codec_opts *opts, uint32_t block_size,
		  const char *args, char *err, size_t errlen);

/* Compress and decompress every data kind at several sizes up to block_size; compressible
 * kinds must shrink, random data must be reported as "store raw". */
void harness_roundtrip(const struct codec *c, const struct codec_opts *opts, uint32_t block_size);

/* Garbage, every truncation of a real block, a trailing byte, and bit flips: decompress must
 * fail (or, for garbage and flips, at worst succeed within bounds) with a message, never
 * crash. */
void harness_hostile(const struct codec *c, const struct codec_opts *opts, uint32_t block_size);

/* One option set checked against the reference: our options block equals that of an image
 * the reference mksquashfs made with the same -comp/-X/-b, reading that block back prints
 * what the reference unsquashfs -s prints, and we decode the reference's data block. Then a
 * round trip with our encoder. Reference parts skip (with a note) when the tools are absent. */
void harness_option_set(const struct codec *c, const char *args, uint32_t block_size);

/* option (e.g. gzip's -Xzlib) selects a library's encoder: not in the options block, round trips,
 * and its streams and the default's decode with either state. */
void harness_library_switch(const struct codec *c, const char *option);

/* args must be rejected with a message naming the codec; when ref_rejects, the reference
 * mksquashfs must refuse it too. */
void harness_rejected(const struct codec *c, const char *args, uint32_t block_size,
		      int ref_rejects);

/* read_options must refuse this payload. */
void harness_bad_block(const struct codec *c, const uint8_t *payload, size_t len,
		       uint32_t block_size);

/* Called first by each test's main: with "--reference" the run compares with the reference
 * squashfs-tools (exit 77 when they are absent); without it, it makes only its own checks. */
void harness_init(int argc, char **argv);
/* True in the reference part. */
int harness_have_reference(void);

/* Prints the tally; 0 when every check passed, 1 otherwise. */
int harness_exit_code(const char *name);

#endif
