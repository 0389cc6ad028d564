/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/header.h — decoding one 512-byte tar header block (v7, POSIX ustar, GNU) with explicit
 * octal / base-256 field decoders. Pure functions: no I/O, safe on any bytes. */
#ifndef SQ_MKSQUASHFS_TAR_HEADER_H
#define SQ_MKSQUASHFS_TAR_HEADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TAR_BLOCK 512u

/* Old GNU sparse headers: 4 map entries in the header, 21 in each extension block. */
#define TAR_GNU_SPARSE_IN_HEADER 4u
#define TAR_GNU_SPARSE_IN_EXT 21u

enum tar_format {
	TAR_V7,      /* no magic */
	TAR_USTAR,   /* "ustar\0" "00": POSIX, with a 155-byte name prefix */
	TAR_GNU,     /* "ustar  \0": GNU; the prefix area holds times and the sparse map */
};

struct tar_sparse_entry {
	uint64_t offset;
	uint64_t length;
};

/* A header's fields as stored (names NUL-terminated; numbers decoded). */
struct tar_header {
	enum tar_format format;
	char type;                 /* typeflag; '\0' as in v7 archives */
	char name[257];            /* ustar: prefix "/" name */
	char linkname[101];
	char uname[33];
	char gname[33];
	uint32_t mode;             /* the 12 permission bits */
	uint64_t uid, gid;
	uint64_t size;             /* bytes of data following the header in the archive */
	int64_t mtime;             /* base-256 may be negative */
	uint64_t devmajor, devminor;
	/* GNU 'S' sparse members */
	uint64_t realsize;
	struct tar_sparse_entry sparse[TAR_GNU_SPARSE_IN_HEADER];
	unsigned sparse_count;     /* leading entries in use (an all-zero entry ends the list) */
	bool sparse_extended;      /* extension blocks follow */
};

/* A numeric field: octal digits (leading spaces or NULs, ended by space or NUL), or GNU
 * base-256 (first byte 0x80: positive, 0xff: negative two's complement). *out gets the value
 * as a signed 64-bit number. Returns 0, or -1 when the field is malformed or does not fit. */
int tar_number(const uint8_t *field, size_t len, int64_t *out);
/* The same for fields that may not be negative (sizes, ids, device numbers, offsets). */
int tar_unsigned(const uint8_t *field, size_t len, uint64_t *out);

/* Every byte zero: an end-of-archive block. */
bool tar_block_is_zero(const uint8_t *block);

/* The checksum field matches the sum of the header's bytes (the field counted as spaces),
 * summed as unsigned bytes or, as some old writers did, as signed ones. */
bool tar_checksum_ok(const uint8_t *block);

/* Decode a header whose checksum is good. Returns 0, or -1 with *why pointing at a static
 * reason (a numeric field that does not decode, names the field). */
int tar_header_decode(const uint8_t *block, struct tar_header *h, const char **why);

/* One old GNU sparse extension block: up to 21 entries into out (count in *n), *more set when
 * another extension block follows. -1 with *why on a malformed entry. */
int tar_sparse_ext_decode(const uint8_t *block, struct tar_sparse_entry *out, unsigned *n,
			  bool *more, const char **why);

#endif
