/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/header.c — tar header block decoding (field offsets from POSIX ustar and GNU tar's
 * documented "oldgnu" layout). */
#include "config.h"
#include "mksquashfs/tar/header.h"

#include <stdio.h>
#include <string.h>

/* Field offsets and lengths within the 512-byte header. */
enum {
	H_NAME = 0, H_NAME_LEN = 100,
	H_MODE = 100, H_UID = 108, H_GID = 116, H_ID_LEN = 8,
	H_SIZE = 124, H_SIZE_LEN = 12,
	H_MTIME = 136, H_MTIME_LEN = 12,
	H_CHKSUM = 148, H_CHKSUM_LEN = 8,
	H_TYPE = 156,
	H_LINK = 157, H_LINK_LEN = 100,
	H_MAGIC = 257,
	H_UNAME = 265, H_GNAME = 297, H_OWNER_LEN = 32,
	H_DEVMAJOR = 329, H_DEVMINOR = 337, H_DEV_LEN = 8,
	H_PREFIX = 345, H_PREFIX_LEN = 155,
	/* oldgnu: the prefix area */
	H_GNU_SPARSE = 386, H_GNU_ISEXT = 482, H_GNU_REALSIZE = 483,
	SPARSE_ENTRY_LEN = 24, SPARSE_FIELD_LEN = 12,
	/* extension block */
	X_ISEXT = 504,
};

/* GNU base-256: the first byte's top bit marks it, its next bit is the sign; the value is the
 * field's bits after the marker, big-endian two's complement. */
static int base256(const uint8_t *f, size_t len, int64_t *out)
{
	bool negative = (f[0] & 0x40) != 0;
	uint64_t v = negative ? ~(uint64_t)0 : 0;
	v = (v << 7) | (f[0] & 0x7f);
	for (size_t i = 1; i < len; i++) {
		/* Shifting 8 bits out must drop only copies of the sign, and the new top bit
		 * must still be the sign: else the value does not fit in 64 signed bits. */
		uint64_t top = v >> 55;
		if (top != (negative ? 0x1ff : 0))
			return -1;
		v = (v << 8) | f[i];
	}
	*out = (int64_t)v;
	return 0;
}

int tar_number(const uint8_t *f, size_t len, int64_t *out)
{
	if (len == 0)
		return -1;
	if (f[0] & 0x80)
		return base256(f, len, out);
	size_t i = 0;
	while (i < len && (f[i] == ' ' || f[i] == '\0'))
		i++;
	uint64_t v = 0;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v > (uint64_t)INT64_MAX >> 3)
			return -1;
		v = v << 3 | (uint64_t)(f[i] - '0');
	}
	/* What follows the digits may only be terminators; an all-blank field reads as 0, as
	 * GNU tar and libarchive take it. */
	for (; i < len; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return -1;
	*out = (int64_t)v;
	return 0;
}

int tar_unsigned(const uint8_t *f, size_t len, uint64_t *out)
{
	int64_t v;
	if (tar_number(f, len, &v) != 0 || v < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

bool tar_block_is_zero(const uint8_t *b)
{
	for (size_t i = 0; i < TAR_BLOCK; i++)
		if (b[i] != 0)
			return false;
	return true;
}

bool tar_checksum_ok(const uint8_t *b)
{
	int64_t stored;
	if (tar_number(b + H_CHKSUM, H_CHKSUM_LEN, &stored) != 0)
		return false;
	uint64_t usum = 0;
	int64_t ssum = 0;
	for (size_t i = 0; i < TAR_BLOCK; i++) {
		bool in_field = i >= H_CHKSUM && i < H_CHKSUM + H_CHKSUM_LEN;
		uint8_t c = in_field ? ' ' : b[i];
		usum += c;
		ssum += (int8_t)c;
	}
	return (int64_t)usum == stored || ssum == stored;
}

/* Copy a possibly unterminated fixed-size string field. */
static void copy_string(char *dst, const uint8_t *src, size_t len)
{
	size_t n = 0;
	while (n < len && src[n] != '\0')
		n++;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static int decode_sparse_entries(const uint8_t *at, unsigned max, struct tar_sparse_entry *out,
				 unsigned *n, const char **why)
{
	*n = 0;
	for (unsigned k = 0; k < max; k++) {
		const uint8_t *e = at + (size_t)k * SPARSE_ENTRY_LEN;
		if (e[0] == '\0' && e[SPARSE_FIELD_LEN] == '\0')
			break;
		if (tar_unsigned(e, SPARSE_FIELD_LEN, &out[k].offset) != 0 ||
		    tar_unsigned(e + SPARSE_FIELD_LEN, SPARSE_FIELD_LEN, &out[k].length) != 0) {
			*why = "bad GNU sparse map entry";
			return -1;
		}
		(*n)++;
	}
	return 0;
}

static int decode_ids(const uint8_t *b, struct tar_header *h, const char **why)
{
	uint64_t mode;
	if (tar_unsigned(b + H_MODE, H_ID_LEN, &mode) != 0) {
		*why = "bad mode field";
		return -1;
	}
	h->mode = (uint32_t)(mode & 07777);
	if (tar_unsigned(b + H_UID, H_ID_LEN, &h->uid) != 0) {
		*why = "bad uid field";
		return -1;
	}
	if (tar_unsigned(b + H_GID, H_ID_LEN, &h->gid) != 0) {
		*why = "bad gid field";
		return -1;
	}
	if (tar_unsigned(b + H_SIZE, H_SIZE_LEN, &h->size) != 0) {
		*why = "bad size field";
		return -1;
	}
	if (tar_number(b + H_MTIME, H_MTIME_LEN, &h->mtime) != 0) {
		*why = "bad mtime field";
		return -1;
	}
	return 0;
}

/* Device numbers matter only for devices: other writers leave the fields blank or garbage. */
static int decode_devices(const uint8_t *b, struct tar_header *h, const char **why)
{
	h->devmajor = h->devminor = 0;
	if (h->type != '3' && h->type != '4')
		return 0;
	if (tar_unsigned(b + H_DEVMAJOR, H_DEV_LEN, &h->devmajor) != 0 ||
	    tar_unsigned(b + H_DEVMINOR, H_DEV_LEN, &h->devminor) != 0) {
		*why = "bad device number field";
		return -1;
	}
	return 0;
}

int tar_header_decode(const uint8_t *b, struct tar_header *h, const char **why)
{
	memset(h, 0, sizeof(*h));
	if (memcmp(b + H_MAGIC, "ustar\0", 6) == 0)
		h->format = TAR_USTAR;
	else if (memcmp(b + H_MAGIC, "ustar  \0", 8) == 0)
		h->format = TAR_GNU;
	else
		h->format = TAR_V7;
	h->type = (char)b[H_TYPE];
	if (decode_ids(b, h, why) != 0 || decode_devices(b, h, why) != 0)
		return -1;
	char name[H_NAME_LEN + 1], prefix[H_PREFIX_LEN + 1];
	copy_string(name, b + H_NAME, H_NAME_LEN);
	prefix[0] = '\0';
	if (h->format == TAR_USTAR)
		copy_string(prefix, b + H_PREFIX, H_PREFIX_LEN);
	if (prefix[0] != '\0')
		snprintf(h->name, sizeof(h->name), "%s/%s", prefix, name);
	else
		memcpy(h->name, name, strlen(name) + 1);
	copy_string(h->linkname, b + H_LINK, H_LINK_LEN);
	if (h->format != TAR_V7) {
		copy_string(h->uname, b + H_UNAME, H_OWNER_LEN);
		copy_string(h->gname, b + H_GNAME, H_OWNER_LEN);
	}
	if (h->format == TAR_GNU && h->type == 'S') {
		if (decode_sparse_entries(b + H_GNU_SPARSE, TAR_GNU_SPARSE_IN_HEADER, h->sparse,
					  &h->sparse_count, why) != 0)
			return -1;
		h->sparse_extended = b[H_GNU_ISEXT] != 0;
		if (tar_unsigned(b + H_GNU_REALSIZE, SPARSE_FIELD_LEN, &h->realsize) != 0) {
			*why = "bad GNU sparse real size field";
			return -1;
		}
	}
	return 0;
}

int tar_sparse_ext_decode(const uint8_t *block, struct tar_sparse_entry *out, unsigned *n,
			  bool *more, const char **why)
{
	if (decode_sparse_entries(block, TAR_GNU_SPARSE_IN_EXT, out, n, why) != 0)
		return -1;
	*more = block[X_ISEXT] != 0;
	return 0;
}
