/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mem_limit.h — the memory this process may use, for -mem's default and -mem-percent. */
#ifndef SQ_MKSQUASHFS_MEM_LIMIT_H
#define SQ_MKSQUASHFS_MEM_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

/* The smaller of the physical memory and the memory limit of this process's control group (and
 * of the groups above it): cgroup v2 memory.max, v1 memory.limit_in_bytes; "max" or a value at
 * or above the physical memory is no limit. 0 when neither is known. */
uint64_t mem_usable(void);

#endif
