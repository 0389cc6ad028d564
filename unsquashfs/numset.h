/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* numset.h — a set of inode numbers (open addressing), optionally with a string per number. */
#ifndef SQ_UNSQUASHFS_NUMSET_H
#define SQ_UNSQUASHFS_NUMSET_H

#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"

struct numset {
	uint32_t *key; /* 0 = empty slot (inode numbers start at 1) */
	char **value;  /* parallel to key */
	size_t cap;
	size_t used;
};

/* Insert num with an optional value (taken over: freed by numset_free). Returns 1 if inserted,
 * 0 if num was already there (value is then freed), -1 out of memory. */
int numset_add(struct numset *s, uint32_t num, char *value, struct sq_error *err);

/* The value stored for num, or NULL; *found tells presence. */
const char *numset_get(const struct numset *s, uint32_t num, int *found);

void numset_free(struct numset *s);

#endif
