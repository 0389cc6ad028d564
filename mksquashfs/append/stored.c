/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stored.c — decoding the blocks of files already in the image (append), for the data stage:
 * reading them like sources, comparing block runs by content, and seeding the dedup tables. */
#include "config.h"
#include "mksquashfs/append/stored.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/util/io.h"
#include "common/util/sizes.h"
#include "mksquashfs/append/stored_internal.h"
#include "mksquashfs/content.h"
#include "mksquashfs/hash.h"

static void ctx_free(const struct stored_data *s, struct stored_ctx *c)
{
	if (c->state != NULL)
		s->codec->state_free(c->state);
	free(c->cbuf);
	free(c->block);
	free(c->frag);
	free(c->other);
}

static int ctx_init(struct stored_data *s, struct stored_ctx *c)
{
	c->state = s->codec->state_new(&s->opts, s->bs);
	c->cbuf = malloc(s->bs);
	c->block = malloc(s->bs);
	c->frag = malloc(s->bs);
	c->other = malloc(s->bs);
	return c->state && c->cbuf && c->block && c->frag && c->other ? 0 : -1;
}

struct stored_data *stored_new(int fd, uint64_t base, const struct image_settings *img,
			       const struct fragment_entry *frags, uint32_t frag_count,
			       struct tree *tree, struct sq_error *err)
{
	struct stored_data *s = calloc(1, sizeof(*s));
	if (s == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	*s = (struct stored_data){ .fd = fd, .base = base, .codec = img->codec,
				   .opts = img->codec_opts, .bs = img->block_size,
				   .duplicates = img->duplicates, .no_fragments = img->no_fragments,
				   .always_fragments = img->always_fragments,
				   .frag_count = frag_count, .tree = tree };
	s->zeros = calloc(1, s->bs);
	s->frags = sq_alloc_array(frag_count ? frag_count : 1, sizeof(*frags));
	if (s->zeros == NULL || s->frags == NULL || ctx_init(s, &s->reader) != 0 ||
	    ctx_init(s, &s->writer) != 0) {
		stored_free(s);
		sq_fail(err, SQ_ERR_NOMEM, "out of memory for reading the image back");
		return NULL;
	}
	if (frag_count > 0)
		memcpy(s->frags, frags, (size_t)frag_count * sizeof(*frags));
	return s;
}

void stored_free(struct stored_data *s)
{
	if (s == NULL)
		return;
	ctx_free(s, &s->reader);
	ctx_free(s, &s->writer);
	free(s->frags);
	free(s->zeros);
	free(s);
}

/* Decode the block stored at image position pos with size word `word` into out, which then
 * holds exactly expect bytes. A sparse block (word 0) is zeros. */
static int decode(struct stored_data *s, struct stored_ctx *c, uint64_t pos, uint32_t word,
		  size_t expect, uint8_t *out, struct sq_error *err)
{
	uint32_t disk = word & SQFS_DATA_SIZE_MASK;
	if (word == 0) {
		memset(out, 0, expect);
		return 0;
	}
	if (disk > s->bs)
		return sq_fail(err, SQ_ERR_CORRUPT, "stored block at %llu is larger than a block",
			       (unsigned long long)pos);
	uint8_t *dst = (word & SQFS_DATA_UNCOMPRESSED) ? out : c->cbuf;
	ssize_t got = sq_pread_full(s->fd, dst, disk, s->base + pos);
	if (got != (ssize_t)disk)
		return got < 0 ? sq_fail_errno(err, "cannot read back the image at %llu",
					       (unsigned long long)pos)
			       : sq_fail(err, SQ_ERR_CORRUPT, "the image ends inside a block at %llu",
					 (unsigned long long)pos);
	size_t len = disk;
	if (!(word & SQFS_DATA_UNCOMPRESSED)) {
		const char *why = NULL;
		ptrdiff_t n = s->codec->decompress(c->state, c->cbuf, disk, out, s->bs, &why);
		if (n < 0)
			return sq_fail(err, SQ_ERR_CODEC, "block at %llu does not decompress: %s",
				       (unsigned long long)pos, why ? why : "corrupt data");
		len = (size_t)n;
	}
	if (len != expect)
		return sq_fail(err, SQ_ERR_CORRUPT, "block at %llu decodes to %zu bytes, not %zu",
			       (unsigned long long)pos, len, expect);
	return 0;
}

static int load_fragment(struct stored_data *s, struct stored_ctx *c, uint32_t index,
			 struct sq_error *err)
{
	if (c->frag_valid && c->frag_index == index)
		return 0;
	c->frag_valid = false;
	if (index >= s->frag_count)
		return sq_fail(err, SQ_ERR_CORRUPT, "fragment %u does not exist", (unsigned)index);
	const struct fragment_entry *e = &s->frags[index];
	uint32_t disk = e->size_word & SQFS_DATA_SIZE_MASK;
	uint8_t *dst = (e->size_word & SQFS_DATA_UNCOMPRESSED) ? c->frag : c->cbuf;
	if (disk == 0 || disk > s->bs || sq_pread_full(s->fd, dst, disk, s->base + e->start) !=
						 (ssize_t)disk)
		return sq_fail(err, SQ_ERR_CORRUPT, "cannot read fragment %u", (unsigned)index);
	c->frag_len = disk;
	if (!(e->size_word & SQFS_DATA_UNCOMPRESSED)) {
		const char *why = NULL;
		ptrdiff_t n = s->codec->decompress(c->state, c->cbuf, disk, c->frag, s->bs, &why);
		if (n < 0)
			return sq_fail(err, SQ_ERR_CODEC, "fragment %u does not decompress: %s",
				       (unsigned)index, why ? why : "corrupt data");
		c->frag_len = (size_t)n;
	}
	c->frag_index = index;
	c->frag_valid = true;
	return 0;
}

size_t stored_block_len(const struct stored_data *s, const struct file_data *f, uint32_t i)
{
	uint64_t done = (uint64_t)i * s->bs;
	uint64_t left = f->size > done ? f->size - done : 0;
	return left < s->bs ? (size_t)left : s->bs;
}

int stored_tail(struct stored_data *s, struct stored_ctx *c, const struct file_data *f,
		   const uint8_t **tail, size_t *len, struct sq_error *err)
{
	uint64_t in_blocks = (uint64_t)f->block_count * s->bs;
	*len = f->size > in_blocks ? (size_t)(f->size - in_blocks) : 0;
	if (load_fragment(s, c, f->fragment_index, err) != 0)
		return -1;
	if (f->fragment_offset > c->frag_len || *len > c->frag_len - f->fragment_offset)
		return sq_fail(err, SQ_ERR_CORRUPT, "a file tail lies outside fragment %u",
			       (unsigned)f->fragment_index);
	*tail = c->frag + f->fragment_offset;
	return 0;
}

int stored_block(struct stored_data *s, struct stored_ctx *c, const struct tree_inode *n,
			uint32_t i, struct sq_error *err)
{
	const struct file_data *f = n->file;
	if (c->cur != n || i < c->cur_index) {
		c->cur = n;
		c->cur_index = 0;
		c->cur_pos = f->blocks_start;
	}
	for (; c->cur_index < i; c->cur_index++)
		c->cur_pos += f->block_sizes[c->cur_index] & SQFS_DATA_SIZE_MASK;
	uint32_t word = f->block_sizes[i];
	if (c->block_valid && c->block_pos == c->cur_pos && c->block_word == word && word != 0)
		return 0;
	c->block_valid = false;
	if (decode(s, c, c->cur_pos, word, stored_block_len(s, f, i), c->block, err) != 0)
		return -1;
	c->block_pos = c->cur_pos;
	c->block_word = word;
	c->block_valid = word != 0;
	return 0;
}

int stored_open(struct stored_data *s, const struct tree_inode *n, struct content *c,
		struct sq_error *err)
{
	if (s == NULL || n->file == NULL)
		return sq_fail(err, SQ_ERR_IO, "internal error: no image to read a stored file from");
	c->fd = -1;
	c->base = 0;
	c->owned = false;
	c->stored = s;
	c->node = n;
	return 0;
}

ssize_t stored_pread(struct stored_data *s, const struct tree_inode *n, void *buf, size_t len,
		     uint64_t offset)
{
	const struct file_data *f = n->file;
	struct stored_ctx *c = &s->reader;
	struct sq_error err;
	uint8_t *out = buf;
	size_t done = 0;
	sq_error_clear(&err);
	if (offset >= f->size)
		return 0;
	if (len > f->size - offset)
		len = (size_t)(f->size - offset);
	while (done < len) {
		uint64_t at = offset + done;
		uint64_t index = at / s->bs;
		const uint8_t *src;
		size_t have, skip = (size_t)(at % s->bs);
		if (index < f->block_count) {
			if (stored_block(s, c, n, (uint32_t)index, &err) != 0)
				goto fail;
			src = c->block;
			have = stored_block_len(s, f, (uint32_t)index);
		} else {
			if (stored_tail(s, c, f, &src, &have, &err) != 0)
				goto fail;
		}
		if (skip >= have)
			goto fail;
		size_t n_copy = have - skip < len - done ? have - skip : len - done;
		memcpy(out + done, src + skip, n_copy);
		done += n_copy;
	}
	return (ssize_t)done;
fail:
	errno = EIO;
	return -1;
}

int stored_same_blocks(struct stored_data *s, const struct file_data *a,
		       const struct file_data *b, struct sq_error *err)
{
	struct stored_ctx *c = &s->writer;
	if (a->block_count != b->block_count)
		return 0;
	uint64_t pa = a->blocks_start, pb = b->blocks_start;
	for (uint32_t i = 0; i < a->block_count; i++) {
		size_t la = stored_block_len(s, a, i), lb = stored_block_len(s, b, i);
		if (la != lb || (a->block_sizes[i] == 0) != (b->block_sizes[i] == 0))
			return 0;
		if (decode(s, c, pa, a->block_sizes[i], la, c->block, err) != 0 ||
		    decode(s, c, pb, b->block_sizes[i], lb, c->other, err) != 0)
			return -1;
		if (memcmp(c->block, c->other, la) != 0)
			return 0;
		pa += a->block_sizes[i] & SQFS_DATA_SIZE_MASK;
		pb += b->block_sizes[i] & SQFS_DATA_SIZE_MASK;
	}
	c->block_valid = false;
	return 1;
}
