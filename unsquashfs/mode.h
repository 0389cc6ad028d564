/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mode.h — octal and chmod-style symbolic modes (-force-file-mode, -force-dir-mode). */
#ifndef SQ_UNSQUASHFS_MODE_H
#define SQ_UNSQUASHFS_MODE_H

#include "common/util/error.h"

struct unsq_mode_spec;

/* Parse "0644" or a symbolic mode [ugoa]*([+-=]([rwxXst]*|[ugo]))+ with clauses separated by
 * commas. NULL with err naming the text when it is neither. */
struct unsq_mode_spec *unsq_mode_parse(const char *text, struct sq_error *err);
void unsq_mode_free(struct unsq_mode_spec *m);

/* The permission bits (07777) that spec gives a node whose mode is mode. */
unsigned unsq_mode_apply(const struct unsq_mode_spec *m, unsigned mode, int is_dir);

#endif
