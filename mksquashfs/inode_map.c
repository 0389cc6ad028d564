/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* inode_map.c — an open-addressing table of (device, inode) -> image inode, kept at most three
 * quarters full: it holds every scanned non-directory, so at a hundred million files each
 * halving of its room is gigabytes, and linear probing stays short at that load. */
#include "config.h"
#include "mksquashfs/inode_map.h"

#include <stdint.h>
#include <stdlib.h>

#include "common/util/sizes.h"

static uint64_t slot_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9E3779B97F4A7C15ull ^ (uint64_t)dev * 0xC2B2AE3D27D4EB4Full;
	return h ^ (h >> 29);
}

static struct inode_map_slot *slot_find(struct inode_map_slot *slots, size_t cap, dev_t dev,
					ino_t ino)
{
	size_t mask = cap - 1;
	for (size_t i = slot_hash(dev, ino) & mask;; i = (i + 1) & mask) {
		struct inode_map_slot *s = &slots[i];
		if (s->inode == NULL || (s->dev == dev && s->ino == ino))
			return s;
	}
}

struct tree_inode *inode_map_get(const struct inode_map *m, dev_t dev, ino_t ino)
{
	if (m->cap == 0)
		return NULL;
	return slot_find(m->slots, m->cap, dev, ino)->inode;
}

static int grow(struct inode_map *m, struct sq_error *err)
{
	size_t cap = m->cap ? m->cap * 2 : 256;
	struct inode_map_slot *slots = sq_alloc_array(cap, sizeof(*slots));
	if (slots == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < m->cap; i++)
		if (m->slots[i].inode != NULL)
			*slot_find(slots, cap, m->slots[i].dev, m->slots[i].ino) = m->slots[i];
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return 0;
}

int inode_map_put(struct inode_map *m, dev_t dev, ino_t ino, struct tree_inode *inode,
		  struct sq_error *err)
{
	if ((m->count + 1) * 4 > m->cap * 3 && grow(m, err) != 0)
		return -1;
	struct inode_map_slot *s = slot_find(m->slots, m->cap, dev, ino);
	if (s->inode == NULL)
		m->count++;
	s->dev = dev;
	s->ino = ino;
	s->inode = inode;
	return 0;
}

bool inode_map_full(const struct inode_map *m)
{
	return m->limit != 0 && m->count >= m->limit;
}

void inode_map_free(struct inode_map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
}
