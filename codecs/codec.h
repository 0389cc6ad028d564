/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* codec.h — the one interface every squashfs compressor plugs into (one ops table per codec).
 *
 * Codecs know nothing of squashfs beyond this: an id, a name, their -X options, the bytes of
 * their options block, and compress/decompress of one independent block. Adding a compressor
 * means one file that defines a `struct codec` and one line in registry.c. */
#ifndef SQ_CODECS_CODEC_H
#define SQ_CODECS_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Largest options block payload any codec writes (lz4/xz/lzo: 8 bytes; gzip: 8; zstd: 4). */
#define CODEC_OPTIONS_MAX 64u
/* Size of the per-codec options storage the caller provides (see opts_size <= this). */
#define CODEC_OPTS_STORAGE 64u

/* Options storage owned by the caller; each codec interprets it as its own struct
 * (checked at compile time in the codec's file to fit). Aligned for any scalar. */
struct codec_opts {
	union {
		uint8_t bytes[CODEC_OPTS_STORAGE];
		uint64_t align_u64;
		double align_double;
	} u;
};

struct codec {
	int id;           /* squashfs compressor id: 1 gzip .. 6 zstd */
	const char *name; /* as given to -comp */
	int supported;    /* 0 when configured --without-NAME: users read "built without NAME" */
	/* When supported == 0: why, for messages such as "compressor xz: not supported by this
	 * build (built without liblzma)". Such a codec writes nothing: parse_option,
	 * finish_options, print_help and compress are NULL. It may still read images (xz, by our
	 * own decoder): then decompress, state_*, init/read/write/print_options are set; else
	 * every function pointer is NULL. */
	const char *unsupported_why;

	/* Fill *opts with the defaults for a block size. Called before any parse_option. */
	void (*init_options)(struct codec_opts *opts, uint32_t block_size);

	/* Try one -X option. argv[0] is the option (e.g. "-Xcompression-level"), argv[1..] follow.
	 * Returns the number of argv words used (>= 1), 0 if the option is not this codec's,
	 * or -1 with a one-line message in err on a bad value. Messages start with the codec's
	 * name ("gzip: -Xwindow-size ...") and carry no tool prefix. */
	int (*parse_option)(struct codec_opts *opts, int argc, char **argv, char *err, size_t errlen);

	/* Check the options against the final block size once all are parsed (e.g. xz dictionary,
	 * lzo level without lzo1x_999). Must be called before write_options/state_new when it is
	 * not NULL. 0 on success, -1 with a message. */
	int (*finish_options)(struct codec_opts *opts, uint32_t block_size, char *err, size_t errlen);

	/* The options block payload exactly as squashfs-tools writes it, little-endian. Returns its
	 * length, or 0 when no options block is to be written (the defaults). buf has
	 * CODEC_OPTIONS_MAX bytes. */
	size_t (*write_options)(const struct codec_opts *opts, uint8_t *buf);

	/* Parse an options block payload read from an image (len bytes, already bounds-checked by
	 * the caller). 0 on success, -1 with a message on a malformed or out-of-range block. */
	int (*read_options)(struct codec_opts *opts, const uint8_t *buf, size_t len,
			    uint32_t block_size, char *err, size_t errlen);

	/* unsquashfs -s: print the options in squashfs-tools' words, one tab-indented line each,
	 * for the lines after "Compression NAME". Prints nothing for options that write no block
	 * (as the reference) unless they were read from an image's block. May be NULL. */
	void (*print_options)(const struct codec_opts *opts, FILE *out);

	/* mksquashfs -help / -Xhelp: the lines that follow the "\tNAME" line of the reference's
	 * per-compressor section ("\t  -Xopt ..." and their explanations). May be NULL. */
	void (*print_help)(FILE *out);

	/* Per-thread state sized for blocks up to max_block bytes (data blocks are <= block size,
	 * metadata blocks 8 KiB). NULL on allocation failure. Never shared between threads.
	 * The compressing and decompressing halves are each allocated once, on their first use,
	 * so a reader does not pay for an encoder; no allocation happens per block after that
	 * (a failure of that first allocation returns -1 from compress/decompress). */
	void *(*state_new)(const struct codec_opts *opts, uint32_t max_block);
	void (*state_free)(void *state);

	/* Compress src[0..len) into dst (cap bytes, cap >= len), 0 < len <= max_block. Returns the
	 * compressed size when it is smaller than len, 0 when the block should be stored raw (not
	 * smaller, or did not fit), or -1 on an internal error. Deterministic. */
	ptrdiff_t (*compress)(void *state, const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

	/* Decompress src[0..len) into dst (cap bytes: the most the block may expand to). Returns the
	 * decompressed size, or -1 with *why set to a static message. Safe on hostile input: never
	 * reads or writes out of bounds; trailing bytes after the stream are an error. */
	ptrdiff_t (*decompress)(void *state, const uint8_t *src, size_t len, uint8_t *dst, size_t cap,
				const char **why);
};

/* Registry (registry.c): every codec, supported or not, in id order (lzma, id 2, is built with
 * liblzma like xz; the kernel cannot mount its images). NULL when unknown. */
const struct codec *codec_by_name(const char *name);
const struct codec *codec_by_id(int id);
/* NULL-terminated list for -help and listings. */
const struct codec *const *codec_all(void);
/* The built-in codecs (other than except) whose -X options include this one, for a message such
 * as "-Xhc is an lz4 option: add -comp lz4": up to cap of them into owners; returns how many
 * there are. */
size_t codec_option_owners(const char *option, const struct codec *except,
			   const struct codec **owners, size_t cap);
/* The codec left out of this build (configure --without-NAME) that owns this -X option, for
 * "-Xhc is an lz4 option, and this mksquashfs was built without lz4"; NULL when none. */
const struct codec *codec_built_out_owner(const char *option);
/* "gzip, lzo, xz, lz4, zstd": the codecs built in, into buf (cap bytes, truncated to fit).
 * Returns the length the whole list needs. */
size_t codec_list_names(char *buf, size_t cap);
/* The default for -comp when none is given (gzip, as squashfs-tools; zstd if built without zlib). */
const struct codec *codec_default(void);

#endif
