/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* write_ids.c — collecting the distinct uids/gids for the id table. */
#include "config.h"
#include "mksquashfs/write_internal.h"

#include <stdlib.h>

#include "common/format.h"

static uint32_t id_hash(uint32_t id)
{
	return id * 0x9E3779B1u;
}

static int grow(struct id_map *m, struct sq_error *err)
{
	uint32_t cap = m->slot_cap ? m->slot_cap * 2 : 64;
	uint32_t *slots = calloc(cap, sizeof(*slots));
	uint32_t *ids = realloc(m->ids, (cap / 2) * sizeof(*ids));
	if (slots == NULL || ids == NULL) {
		free(slots);
		if (ids != NULL)
			m->ids = ids;
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the id table");
	}
	m->ids = ids;
	for (uint32_t i = 0; i < m->count; i++) {
		uint32_t s = id_hash(m->ids[i]) & (cap - 1);
		while (slots[s] != 0)
			s = (s + 1) & (cap - 1);
		slots[s] = i + 1;
	}
	free(m->slots);
	m->slots = slots;
	m->slot_cap = cap;
	return 0;
}

int id_map_index(struct id_map *m, uint32_t id, uint16_t *index, struct sq_error *err)
{
	if ((m->count + 1) * 2 > m->slot_cap && grow(m, err) != 0)
		return -1;
	uint32_t s = id_hash(id) & (m->slot_cap - 1);
	while (m->slots[s] != 0) {
		uint32_t i = m->slots[s] - 1;
		if (m->ids[i] == id) {
			*index = (uint16_t)i;
			return 0;
		}
		s = (s + 1) & (m->slot_cap - 1);
	}
	/* The superblock's id count is 16 bits: 65536 would be stored as 0, which the kernel
	 * refuses to mount. */
	if (m->count == SQFS_MAX_IDS - 1)
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "more than %u distinct uids and gids: squashfs cannot store them",
			       SQFS_MAX_IDS - 1);
	m->ids[m->count] = id;
	m->slots[s] = m->count + 1;
	*index = (uint16_t)m->count;
	m->count++;
	return 0;
}

void id_map_free(struct id_map *m)
{
	free(m->ids);
	free(m->slots);
	m->ids = m->slots = NULL;
	m->count = m->slot_cap = 0;
}
