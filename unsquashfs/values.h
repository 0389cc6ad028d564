/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* values.h — parsing option values: numbers, sizes, owners, times, memory percentages. */
#ifndef SQ_UNSQUASHFS_VALUES_H
#define SQ_UNSQUASHFS_VALUES_H

#include <stdint.h>

#include "common/util/error.h"

/* A whole decimal number >= min. 0 or -1. */
int unsq_parse_long(const char *s, long min, long *out);

/* -offset: bytes with an optional K, M or G suffix. 0 or -1. */
int unsq_parse_offset(const char *s, uint64_t *out);

/* A uid or gid: a number, or a user or group name looked up. 0 or -1. */
int unsq_parse_owner(const char *s, int is_group, uint32_t *out);

/* A time: seconds since the epoch as an unsigned 32-bit number, or any text date(1) -d
 * understands ("now", "last week"), converted by running date. 0, or -1 with err. */
int unsq_parse_time(const char *opt, const char *s, uint32_t *out, struct sq_error *err);

/* -mem SIZE (K/M/G, at least 2 Mbytes) and -mem-percent N (1-75 % of physical memory). */
int unsq_parse_mem(const char *opt, const char *s, uint64_t *out, struct sq_error *err);
int unsq_parse_mem_percent(const char *opt, const char *s, uint64_t *out, struct sq_error *err);

#endif
