/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* numset.c — open-addressing hash set of inode numbers with optional string values. */
#include "config.h"
#include "unsquashfs/numset.h"

#include <stdlib.h>

static size_t slot_of(uint32_t num, size_t cap)
{
	return (size_t)(num * 2654435761u) & (cap - 1);
}

static int grow(struct numset *s, struct sq_error *err)
{
	size_t ncap = s->cap ? s->cap * 2 : 64;
	uint32_t *nk = calloc(ncap, sizeof(uint32_t));
	char **nv = calloc(ncap, sizeof(char *));
	if (nk == NULL || nv == NULL) {
		free(nk);
		free(nv);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->cap; i++) {
		if (s->key[i] == 0)
			continue;
		size_t h = slot_of(s->key[i], ncap);
		while (nk[h] != 0)
			h = (h + 1) & (ncap - 1);
		nk[h] = s->key[i];
		nv[h] = s->value[i];
	}
	free(s->key);
	free(s->value);
	s->key = nk;
	s->value = nv;
	s->cap = ncap;
	return 0;
}

int numset_add(struct numset *s, uint32_t num, char *value, struct sq_error *err)
{
	if ((s->used + 1) * 2 > s->cap && grow(s, err)) {
		free(value);
		return -1;
	}
	size_t h = slot_of(num, s->cap);
	while (s->key[h] != 0) {
		if (s->key[h] == num) {
			free(value);
			return 0;
		}
		h = (h + 1) & (s->cap - 1);
	}
	s->key[h] = num;
	s->value[h] = value;
	s->used++;
	return 1;
}

const char *numset_get(const struct numset *s, uint32_t num, int *found)
{
	*found = 0;
	if (s->cap == 0)
		return NULL;
	size_t h = slot_of(num, s->cap);
	while (s->key[h] != 0) {
		if (s->key[h] == num) {
			*found = 1;
			return s->value[h];
		}
		h = (h + 1) & (s->cap - 1);
	}
	return NULL;
}

void numset_free(struct numset *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->value[i]);
	free(s->key);
	free(s->value);
	s->key = NULL;
	s->value = NULL;
	s->cap = s->used = 0;
}
