/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* meta_read.c — metadata block decoding, its LRU cache and the block-crossing cursor. */
#include "config.h"
#include "common/meta_read.h"

#include <inttypes.h>
#include <string.h>

#include "common/util/endian.h"

void sqfs_meta_reader_init(struct sqfs_meta_reader *mr, struct sqfs_decoder *dec, uint64_t start,
			   uint64_t end, const char *what)
{
	mr->dec = dec;
	mr->start = start;
	mr->end = end;
	mr->what = what;
	mr->clock = 0;
	for (size_t i = 0; i < SQFS_META_CACHE_SLOTS; i++)
		mr->slot[i].pos = UINT64_MAX;
}

int sqfs_meta_locate(const struct sqfs_meta_reader *mr, uint64_t rel_block, uint32_t offset,
		     struct sqfs_meta_pos *pos, struct sq_error *err)
{
	if (rel_block >= mr->end - mr->start)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: block %" PRIu64 " is outside the table", mr->what,
			       rel_block);
	if (offset >= SQFS_META_BLOCK_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: offset %u is outside a metadata block", mr->what, offset);
	pos->block = mr->start + rel_block;
	pos->offset = offset;
	return 0;
}

int sqfs_meta_block(struct sqfs_meta_reader *mr, uint64_t block, const uint8_t **data, uint32_t *len,
		    uint64_t *next, struct sq_error *err)
{
	struct sqfs_meta_slot *victim = &mr->slot[0];
	for (size_t i = 0; i < SQFS_META_CACHE_SLOTS; i++) {
		struct sqfs_meta_slot *s = &mr->slot[i];
		if (s->pos == block) {
			s->used = ++mr->clock;
			*data = s->data;
			*len = s->len;
			*next = s->next;
			return 0;
		}
		if (s->pos == UINT64_MAX || s->used < victim->used)
			victim = s;
		if (victim->pos == UINT64_MAX)
			break;
	}
	if (block < mr->start || block >= mr->end || mr->end - block < SQFS_META_HEADER_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: metadata block at %" PRIu64 " is outside the table",
			       mr->what, block);
	uint8_t hdr[SQFS_META_HEADER_SIZE];
	if (sqfs_image_read(mr->dec->img, block, hdr, sizeof(hdr), mr->what, err))
		return -1;
	uint16_t h = get_le16(hdr);
	uint32_t disk = h & SQFS_META_SIZE_MASK;
	if (disk == 0 || disk > SQFS_META_BLOCK_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: metadata block at %" PRIu64 " has a bad size %u",
			       mr->what, block, disk);
	if (disk > mr->end - block - SQFS_META_HEADER_SIZE)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: metadata block at %" PRIu64 " runs past the table end",
			       mr->what, block);
	victim->pos = UINT64_MAX;
	size_t got = 0;
	if (sqfs_decoder_read_block(mr->dec, block + SQFS_META_HEADER_SIZE, disk, !(h & SQFS_META_UNCOMPRESSED),
				    victim->data, SQFS_META_BLOCK_SIZE, &got, mr->what, err))
		return -1;
	if (got == 0)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s: metadata block at %" PRIu64 " is empty", mr->what, block);
	victim->pos = block;
	victim->len = (uint32_t)got;
	victim->next = block + SQFS_META_HEADER_SIZE + disk;
	victim->used = ++mr->clock;
	*data = victim->data;
	*len = victim->len;
	*next = victim->next;
	return 0;
}

int sqfs_meta_read(struct sqfs_meta_reader *mr, struct sqfs_meta_pos *pos, void *out, size_t len,
		   struct sq_error *err)
{
	uint8_t *dst = out;
	while (len > 0) {
		const uint8_t *data;
		uint32_t blen;
		uint64_t next;
		if (sqfs_meta_block(mr, pos->block, &data, &blen, &next, err))
			return -1;
		if (pos->offset > blen)
			return sq_fail(err, SQ_ERR_CORRUPT, "%s: offset %u is past the end of the block at %" PRIu64,
				       mr->what, pos->offset, pos->block);
		size_t take = blen - pos->offset;
		if (take > len)
			take = len;
		memcpy(dst, data + pos->offset, take);
		dst += take;
		len -= take;
		pos->offset += (uint32_t)take;
		if (pos->offset == blen && len > 0) {
			pos->block = next;
			pos->offset = 0;
		}
	}
	return 0;
}
