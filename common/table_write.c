/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* table_write.c — laying out a lookup table: its metadata blocks and their location list. */
#include "config.h"
#include "common/table_write.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/endian.h"
#include "common/meta_write.h"

int sqfs_table_build(struct sqfs_table_image *t, const uint8_t *entries, size_t entry_len,
		     const uint8_t *prefix, size_t prefix_len, uint64_t pos,
		     const struct codec *codec, void *state, bool store_raw, struct sq_error *err)
{
	int rc = -1;
	memset(t, 0, sizeof(*t));
	/* The block writer carries two 8 KiB buffers: too large for some thread stacks. */
	struct sqfs_meta_writer *w = malloc(sizeof(*w));
	if (w == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for a lookup table");
	sqfs_meta_writer_init(w, codec, state, store_raw);
	if (sqfs_meta_writer_append(w, entries, entry_len, err) != 0 ||
	    sqfs_meta_writer_flush(w, err) != 0)
		goto cleanup;

	size_t list_len = w->block_count * 8;
	size_t total = w->out_len + prefix_len + list_len;
	t->bytes = malloc(total ? total : 1);
	if (t->bytes == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory for a lookup table");
		goto cleanup;
	}
	if (w->out_len > 0)
		memcpy(t->bytes, w->out, w->out_len);
	if (prefix_len > 0)
		memcpy(t->bytes + w->out_len, prefix, prefix_len);
	uint8_t *list = t->bytes + w->out_len + prefix_len;
	for (size_t i = 0; i < w->block_count; i++)
		put_le64(list + 8 * i, pos + w->block_starts[i]);
	t->len = total;
	t->list_offset = w->out_len;
	rc = 0;
cleanup:
	sqfs_meta_writer_release(w);
	free(w);
	return rc;
}
