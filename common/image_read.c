/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* image_read.c — opening an image, bounds-checked reads and decoding single blocks. */
#include "config.h"
#include "common/image_read.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util/endian.h"

static int read_options_block(struct sqfs_image *img, struct sq_error *err)
{
	const struct codec *c = img->codec;
	c->init_options(&img->opts, img->sb.block_size);
	img->has_options_block = 0;
	if (!(img->sb.flags & SQFS_FLAG_COMPRESSOR_OPTIONS))
		return 0;
	uint8_t hdr[2];
	if (sqfs_image_read(img, SQFS_SUPER_SIZE, hdr, 2, "compressor options block", err))
		return -1;
	uint16_t h = get_le16(hdr);
	size_t len = h & SQFS_META_SIZE_MASK;
	if (!(h & SQFS_META_UNCOMPRESSED) || len == 0 || len > CODEC_OPTIONS_MAX)
		return sq_fail(err, SQ_ERR_CORRUPT, "compressor options block: bad header 0x%04x", h);
	uint8_t buf[CODEC_OPTIONS_MAX];
	if (sqfs_image_read(img, SQFS_SUPER_SIZE + 2, buf, len, "compressor options block", err))
		return -1;
	char why[256] = "";
	if (c->read_options(&img->opts, buf, len, img->sb.block_size, why, sizeof(why)))
		return sq_fail(err, SQ_ERR_CORRUPT, "%s options block: %s", c->name, why);
	img->has_options_block = 1;
	return 0;
}

static int finish_open(struct sqfs_image *img, struct sq_error *err)
{
	uint8_t raw[SQFS_SUPER_SIZE];
	if (img->avail < SQFS_SUPER_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "image is truncated: %" PRIu64 " bytes, too short for a superblock",
			       img->avail);
	img->sb.bytes_used = SQFS_SUPER_SIZE; /* lets sqfs_image_read fetch the superblock itself */
	if (sqfs_image_read(img, 0, raw, sizeof(raw), "superblock", err))
		return -1;
	if (sqfs_super_decode(&img->sb, raw, err))
		return -1;
	if (img->sb.bytes_used > img->avail)
		return sq_fail(err, SQ_ERR_CORRUPT,
			       "image is truncated: the superblock says %" PRIu64 " bytes, %" PRIu64 " present",
			       img->sb.bytes_used, img->avail);
	img->codec = codec_by_id(img->sb.compressor);
	if (img->codec == NULL)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "unknown compressor id %u", img->sb.compressor);
	/* Both tools open images here (mksquashfs to append): the message names neither. */
	if (img->codec->decompress == NULL)
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "the image is compressed with %s, which this build cannot read (%s)",
			       img->codec->name,
			       img->codec->unsupported_why ? img->codec->unsupported_why : "not built in");
	return read_options_block(img, err);
}

int sqfs_image_open_fd(struct sqfs_image *img, int fd, uint64_t base, struct sq_error *err)
{
	memset(img, 0, sizeof(*img));
	img->fd = fd;
	img->base = base;
	struct stat st;
	if (fstat(fd, &st))
		return sq_fail_errno(err, "cannot stat the image");
	uint64_t size = 0;
	if (S_ISREG(st.st_mode)) {
		size = (uint64_t)st.st_size;
	} else {
		off_t end = lseek(fd, 0, SEEK_END);
		if (end < 0)
			return sq_fail_errno(err, "cannot find the size of the image");
		size = (uint64_t)end;
	}
	if (base > size)
		return sq_fail(err, SQ_ERR_CORRUPT, "offset %" PRIu64 " is past the end of the image (%" PRIu64 " bytes)",
			       base, size);
	img->avail = size - base;
	return finish_open(img, err);
}

int sqfs_image_open_mem(struct sqfs_image *img, const uint8_t *mem, size_t len, struct sq_error *err)
{
	memset(img, 0, sizeof(*img));
	img->fd = -1;
	img->mem = mem;
	img->avail = len;
	return finish_open(img, err);
}

int sqfs_image_read(const struct sqfs_image *img, uint64_t pos, void *buf, size_t len,
		    const char *what, struct sq_error *err)
{
	uint64_t limit = img->sb.bytes_used < img->avail ? img->sb.bytes_used : img->avail;
	if (pos > limit || len > limit - pos)
		return sq_fail(err, SQ_ERR_CORRUPT,
			       "%s at %" PRIu64 " (%zu bytes) is outside the image (%" PRIu64 " bytes): truncated or corrupt",
			       what, pos, len, limit);
	if (img->mem != NULL) {
		memcpy(buf, img->mem + pos, len);
		return 0;
	}
	uint8_t *p = buf;
	size_t done = 0;
	while (done < len) {
		ssize_t n = pread(img->fd, p + done, len - done, (off_t)(img->base + pos + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return sq_fail_errno(err, "cannot read %s at %" PRIu64, what, pos);
		}
		if (n == 0)
			return sq_fail(err, SQ_ERR_CORRUPT, "image is truncated: %s at %" PRIu64 " is missing",
				       what, pos);
		done += (size_t)n;
	}
	return 0;
}

int sqfs_decoder_init(struct sqfs_decoder *dec, const struct sqfs_image *img, struct sq_error *err)
{
	memset(dec, 0, sizeof(*dec));
	dec->img = img;
	dec->cbuf_cap = img->sb.block_size > SQFS_META_BLOCK_SIZE ? img->sb.block_size : SQFS_META_BLOCK_SIZE;
	dec->cbuf = malloc(dec->cbuf_cap);
	dec->state = img->codec->state_new(&img->opts, (uint32_t)dec->cbuf_cap);
	if (dec->cbuf == NULL || dec->state == NULL) {
		sqfs_decoder_free(dec);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the %s decoder", img->codec->name);
	}
	return 0;
}

void sqfs_decoder_free(struct sqfs_decoder *dec)
{
	if (dec->state != NULL)
		dec->img->codec->state_free(dec->state);
	free(dec->cbuf);
	dec->state = NULL;
	dec->cbuf = NULL;
}

int sqfs_decoder_read_block(struct sqfs_decoder *dec, uint64_t pos, uint32_t disk_size, int compressed,
			    uint8_t *out, size_t cap, size_t *out_len, const char *what,
			    struct sq_error *err)
{
	if (disk_size > dec->cbuf_cap || (!compressed && disk_size > cap))
		return sq_fail(err, SQ_ERR_CORRUPT, "%s at %" PRIu64 ": stored size %u is larger than a block",
			       what, pos, disk_size);
	if (!compressed) {
		if (sqfs_image_read(dec->img, pos, out, disk_size, what, err))
			return -1;
		*out_len = disk_size;
		return 0;
	}
	if (sqfs_image_read(dec->img, pos, dec->cbuf, disk_size, what, err))
		return -1;
	const char *why = "decompression failed";
	ptrdiff_t n = dec->img->codec->decompress(dec->state, dec->cbuf, disk_size, out, cap, &why);
	if (n < 0)
		return sq_fail(err, SQ_ERR_CODEC, "%s at %" PRIu64 " does not decompress (%s): %s", what, pos,
			       dec->img->codec->name, why ? why : "corrupt data");
	*out_len = (size_t)n;
	return 0;
}

int sqfs_decoder_read_data(struct sqfs_decoder *dec, uint64_t pos, uint32_t word, uint8_t *out,
			   size_t expect, const char *what, struct sq_error *err)
{
	uint32_t disk = word & SQFS_DATA_SIZE_MASK;
	if (word & ~(SQFS_DATA_SIZE_MASK | SQFS_DATA_UNCOMPRESSED))
		return sq_fail(err, SQ_ERR_CORRUPT, "%s at %" PRIu64 ": bad size word 0x%08x", what, pos, word);
	size_t got = 0;
	if (sqfs_decoder_read_block(dec, pos, disk, !(word & SQFS_DATA_UNCOMPRESSED), out,
				    dec->img->sb.block_size, &got, what, err))
		return -1;
	if (got != expect)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s at %" PRIu64 " decodes to %zu bytes, expected %zu", what, pos,
			       got, expect);
	return 0;
}
