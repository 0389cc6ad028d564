/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dedup.c — open addressing with linear probing; equal keys sit in probe order, which is
 * insertion order, so the first stored copy of a content is always found first. */
#include "config.h"
#include "mksquashfs/dedup.h"

#include <stdlib.h>

#include "common/util/sizes.h"

static uint64_t fold(uint64_t size, uint64_t hash)
{
	uint64_t h = hash ^ (size * 0x9E3779B97F4A7C15ull);
	return h ^ (h >> 31);
}

static size_t home_slot(const struct dedup_table *t, uint64_t key)
{
	return (size_t)key & (t->cap - 1);
}

/* Move the entries into a table of cap slots (a power of two, larger than the count). */
static int resize(struct dedup_table *t, size_t cap)
{
	struct dedup_entry *slots = sq_alloc_array(cap, sizeof(*slots));
	if (slots == NULL)
		return -1;
	struct dedup_entry *old = t->slots;
	size_t old_cap = t->cap;
	t->slots = slots;
	t->cap = cap;
	/* Re-inserting in old slot order could reorder equal keys that wrapped around the end;
	 * walk each old probe run from its start instead: find a slot whose predecessor is empty
	 * and go round once from there. */
	size_t start = 0;
	if (old_cap > 0) {
		while (start < old_cap && old[(start + old_cap - 1) % old_cap].item != NULL)
			start++;
		for (size_t k = 0; k < old_cap; k++) {
			struct dedup_entry *e = &old[(start + k) % old_cap];
			if (e->item == NULL)
				continue;
			size_t i = home_slot(t, e->key);
			while (t->slots[i].item != NULL)
				i = (i + 1) & (t->cap - 1);
			t->slots[i] = *e;
		}
	}
	free(old);
	return 0;
}

static int grow(struct dedup_table *t)
{
	return resize(t, t->cap ? t->cap * 2 : 1024);
}

int dedup_reserve(struct dedup_table *t, size_t count)
{
	size_t cap = t->cap ? t->cap : 1024;
	if (t->limit != 0 && count > t->limit)
		count = t->limit;
	while (count * 4 > cap * 3)
		cap *= 2;
	return cap > t->cap ? resize(t, cap) : 0;
}

int dedup_insert(struct dedup_table *t, uint64_t size, uint64_t hash, void *item)
{
	/* Up to three quarters full: probe runs stay short (equal keys are rare) and the table
	 * costs about 29 bytes per entry on average (16-byte slots, 3/8 to 3/4 full). */
	if (t->limit != 0 && t->count >= t->limit)
		return 0;
	if ((t->count + 1) * 4 > t->cap * 3 && grow(t) != 0)
		return -1;
	uint64_t key = fold(size, hash);
	size_t i = home_slot(t, key);
	while (t->slots[i].item != NULL)
		i = (i + 1) & (t->cap - 1);
	t->slots[i].key = key;
	t->slots[i].item = item;
	t->count++;
	return 0;
}

void *dedup_next(const struct dedup_table *t, uint64_t size, uint64_t hash, size_t *cursor)
{
	if (t->cap == 0)
		return NULL;
	/* *cursor counts probe steps taken from the home slot. */
	uint64_t key = fold(size, hash);
	size_t home = home_slot(t, key);
	for (size_t k = *cursor; k < t->cap; k++) {
		const struct dedup_entry *e = &t->slots[(home + k) & (t->cap - 1)];
		if (e->item == NULL)
			return NULL;
		if (e->key == key) {
			*cursor = k + 1;
			return e->item;
		}
	}
	return NULL;
}

void dedup_free(struct dedup_table *t)
{
	free(t->slots);
	t->slots = NULL;
	t->cap = t->count = 0;
}
