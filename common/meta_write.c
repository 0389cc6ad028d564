/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* meta_write.c — cutting a table's byte stream into 8 KiB metadata blocks, compressed when that
 * makes them smaller. */
#include "config.h"
#include "common/meta_write.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/endian.h"
#include "common/util/sizes.h"

void sqfs_meta_writer_init(struct sqfs_meta_writer *w, const struct codec *codec, void *state,
			   bool store_raw)
{
	memset(w, 0, sizeof(*w));
	w->codec = codec;
	w->state = state;
	w->store_raw = store_raw || codec == NULL || codec->compress == NULL || state == NULL;
}

void sqfs_meta_writer_set_sink(struct sqfs_meta_writer *w, sqfs_meta_sink sink, void *arg,
			       size_t hold)
{
	w->sink = sink;
	w->sink_arg = arg;
	w->sink_at = hold;
}

/* What is held goes to the sink; the buffer is kept for the next blocks. */
static int hand_over(struct sqfs_meta_writer *w, struct sq_error *err)
{
	size_t held = w->out_len - w->out_base;
	if (w->sink == NULL || held == 0)
		return 0;
	if (w->sink(w->sink_arg, w->out, held, err) != 0)
		return -1;
	w->out_base = w->out_len;
	return 0;
}

static int reserve_out(struct sqfs_meta_writer *w, size_t extra, struct sq_error *err)
{
	size_t held = w->out_len - w->out_base;
	if (w->out_cap - held >= extra)
		return 0;
	uint8_t *p = sq_grow(w->out, &w->out_cap, held + extra, 1, 16384);
	if (p == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for a metadata table");
	w->out = p;
	return 0;
}

static int emit_block(struct sqfs_meta_writer *w, struct sq_error *err)
{
	const uint8_t *payload = w->block;
	size_t stored = w->fill;
	uint16_t header = (uint16_t)(w->fill | SQFS_META_UNCOMPRESSED);

	if (!w->store_raw) {
		ptrdiff_t n = w->codec->compress(w->state, w->block, w->fill, w->scratch,
						 sizeof(w->scratch));
		if (n < 0)
			return sq_fail(err, SQ_ERR_CODEC, "%s: cannot compress a metadata block",
				       w->codec->name);
		/* The header has 15 bits of size: a "compressed" block that is not smaller is
		 * stored as it is, which is also what keeps every block readable. */
		if (n > 0 && (size_t)n < w->fill) {
			payload = w->scratch;
			stored = (size_t)n;
			header = (uint16_t)n;
		}
	}
	if (w->block_count == w->block_cap) {
		size_t cap = w->block_cap ? w->block_cap * 2 : 64;
		uint64_t *p = realloc(w->block_starts, cap * sizeof(*p));
		if (p == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for a metadata table");
		w->block_starts = p;
		w->block_cap = cap;
	}
	if (reserve_out(w, SQFS_META_HEADER_SIZE + stored, err) != 0)
		return -1;
	uint8_t *at = w->out + (w->out_len - w->out_base);
	w->block_starts[w->block_count++] = w->out_len;
	put_le16(at, header);
	memcpy(at + SQFS_META_HEADER_SIZE, payload, stored);
	w->out_len += SQFS_META_HEADER_SIZE + stored;
	w->fill = 0;
	if (w->sink != NULL && w->out_len - w->out_base >= w->sink_at)
		return hand_over(w, err);
	return 0;
}

int sqfs_meta_writer_append(struct sqfs_meta_writer *w, const void *data, size_t len,
			    struct sq_error *err)
{
	const uint8_t *p = data;
	while (len > 0) {
		size_t room = SQFS_META_BLOCK_SIZE - w->fill;
		size_t n = len < room ? len : room;
		memcpy(w->block + w->fill, p, n);
		w->fill += n;
		w->raw_len += n;
		p += n;
		len -= n;
		if (w->fill == SQFS_META_BLOCK_SIZE && emit_block(w, err) != 0)
			return -1;
	}
	return 0;
}

uint64_t sqfs_meta_writer_block_of(const struct sqfs_meta_writer *w, uint64_t raw_pos)
{
	uint64_t index = raw_pos / SQFS_META_BLOCK_SIZE;
	if (index < w->block_count)
		return w->block_starts[index];
	return w->out_len;
}

int sqfs_meta_writer_flush(struct sqfs_meta_writer *w, struct sq_error *err)
{
	if (w->fill > 0 && emit_block(w, err) != 0)
		return -1;
	return hand_over(w, err);
}

void sqfs_meta_writer_release(struct sqfs_meta_writer *w)
{
	free(w->out);
	free(w->block_starts);
	w->out = NULL;
	w->block_starts = NULL;
	w->out_len = w->out_cap = w->out_base = 0;
	w->sink = NULL;
	w->sink_arg = NULL;
	w->block_count = w->block_cap = 0;
	w->fill = 0;
	w->raw_len = 0;
}
