/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dedup.h — the table of files already stored, keyed by (size, content hash), that duplicate
 * detection looks candidates up in. Several files may share a key (a hash collision): lookups
 * walk every one, in insertion order. Size and hash are folded into one 64-bit key (16 bytes a
 * slot rather than 24: millions of small files each have one), so a candidate may, with the odds
 * of a 64-bit collision, have another size: callers confirm the size along with the bytes. */
#ifndef SQ_MKSQUASHFS_DEDUP_H
#define SQ_MKSQUASHFS_DEDUP_H

#include <stddef.h>
#include <stdint.h>

struct dedup_entry {
	uint64_t key;   /* size and hash folded */
	void *item;     /* NULL: empty slot */
};

struct dedup_table {
	struct dedup_entry *slots;
	size_t cap;     /* a power of two, or 0 */
	size_t count;
	size_t limit;   /* at most this many entries (their share of -mem), 0: no limit. Past it
	                   inserts are dropped: a later copy of what was dropped is stored again
	                   instead of found, which costs image size, never a wrong image */
};

/* 0, or -1 when memory is short (the table is unchanged). item must not be NULL. Dropped (0)
 * when the table holds limit entries. */
int dedup_insert(struct dedup_table *t, uint64_t size, uint64_t hash, void *item);

/* Room for count entries in all (at most limit), so that inserting them never grows the table (growing holds
 * the old and the new slots at once). 0, or -1 when memory is short (the table is unchanged). */
int dedup_reserve(struct dedup_table *t, size_t count);

/* Candidates for (size, hash), see above: start with *cursor = 0, call until NULL. */
void *dedup_next(const struct dedup_table *t, uint64_t size, uint64_t hash, size_t *cursor);

void dedup_free(struct dedup_table *t);

#endif
