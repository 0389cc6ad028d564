/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mode.h — permission modes as -root-mode, -force-file-mode and -force-dir-mode take them: an
 * octal number, or a chmod-style symbolic list ("go-w,u+rw") applied to each inode's own mode. */
#ifndef SQ_MKSQUASHFS_MODE_H
#define SQ_MKSQUASHFS_MODE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/util/error.h"

#define MODE_MAX_CLAUSES 32

/* One "who op perms" step of a symbolic mode. */
struct mode_clause {
	uint8_t who;     /* bit 0 user, bit 1 group, bit 2 other; 0: as "a" */
	char op;         /* '+', '-' or '=' */
	uint16_t perms;  /* r w x s t as 04 02 01 (per class), 010 s, 020 t, 040 X */
	char copy;       /* 'u', 'g' or 'o': take the bits of that class instead; 0 otherwise */
};

struct mode_spec {
	bool octal;
	uint32_t value;  /* octal: the 12 permission bits */
	uint32_t count;
	struct mode_clause clauses[MODE_MAX_CLAUSES];
};

/* Parse an octal mode (at most 07777) or a symbolic one: [ugoa]*[+-=](PERMS|[ugo]) repeated,
 * clauses separated by commas, PERMS from rwxXst. 0, or -1 with a message naming opt. */
int mode_parse(const char *opt, const char *s, struct mode_spec *out, struct sq_error *err);

/* The 12 permission bits spec makes of mode (an st_mode with its type bits). */
uint32_t mode_apply(const struct mode_spec *spec, uint32_t mode);

#endif
