/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/sparse.c — GNU sparse maps (old GNU 'S' headers, pax 0.0 / 0.1 records and the 1.0 map
 * at the start of the data): collecting and checking the segments. */
#include "config.h"
#include "mksquashfs/tar/pax.h"

#include <stdlib.h>

#include "common/util/sizes.h"

int sparse_map_add(struct sparse_map *m, uint64_t offset, uint64_t length)
{
	if (m->count == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		struct tar_sparse_entry *grown = sq_realloc_array(m->e, cap, sizeof(*grown));
		if (grown == NULL)
			return -1;
		m->e = grown;
		m->cap = cap;
	}
	m->e[m->count].offset = offset;
	m->e[m->count].length = length;
	m->count++;
	return 0;
}

const char *sparse_map_check(const struct sparse_map *m, uint64_t realsize, uint64_t stored)
{
	uint64_t next = 0, total = 0;
	for (size_t i = 0; i < m->count; i++) {
		uint64_t end;
		if (!sq_add_u64(m->e[i].offset, m->e[i].length, &end) || end > realsize)
			return "sparse map segment beyond the file's size";
		if (m->e[i].offset < next)
			return "sparse map segments out of order or overlapping";
		next = end;
		if (!sq_add_u64(total, m->e[i].length, &total))
			return "sparse map lengths overflow";
	}
	if (total != stored)
		return "sparse map does not add up to the member's stored data";
	return NULL;
}

void sparse_map_free(struct sparse_map *m)
{
	free(m->e);
	m->e = NULL;
	m->count = m->cap = 0;
}

void sparse_text_init(struct sparse_text *t)
{
	*t = (struct sparse_text){ .want = 1 };
}

/* One whole number of the map read: the count first, then offsets and lengths in turn. */
static int sparse_text_number(struct sparse_text *t, struct sparse_map *m, const char **why)
{
	uint64_t v = t->value;
	t->value = 0;
	t->digits = 0;
	t->want--;
	if (!t->have_count) {
		t->have_count = true;
		/* Each segment takes at least 4 bytes of text ("0\n0\n"): a count the rest of
		 * a 64-bit size could never hold is refused before it drives any loop. */
		if (v > UINT64_MAX / 4) {
			*why = "sparse map count too large";
			return -1;
		}
		t->want = 2 * v;
		return 0;
	}
	if (t->want % 2 == 1) {
		t->pending = v;
		return 0;
	}
	return sparse_map_add(m, t->pending, v) != 0 ? -2 : 0;
}

int sparse_text_feed(struct sparse_text *t, struct sparse_map *m, const uint8_t *buf, size_t len,
		     size_t *used, const char **why)
{
	size_t i = 0;
	for (; i < len && t->want > 0; i++) {
		uint8_t c = buf[i];
		if (c == '\n') {
			if (t->digits == 0) {
				*why = "empty number in sparse map";
				return -1;
			}
			int rc = sparse_text_number(t, m, why);
			if (rc != 0)
				return rc;
			continue;
		}
		if (c < '0' || c > '9' || t->digits >= 20 ||
		    !sq_mul_u64(t->value, 10, &t->value) ||
		    !sq_add_u64(t->value, (uint64_t)(c - '0'), &t->value)) {
			*why = "bad number in sparse map";
			return -1;
		}
		t->digits++;
	}
	*used = i;
	return t->want == 0 ? 1 : 0;
}
