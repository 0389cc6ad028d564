/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mem_limit.c — how much memory this process may use: the physical memory, or less when its
 * control group says so (a build job in a container with memory.max 2G on a 24 GiB host must
 * not take half the host as its default -mem, or the kernel kills it). */
#include "config.h"
#include "mksquashfs/mem_limit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
	return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* A limit file's number; "max" (v2) or anything unreadable is no limit (UINT64_MAX). */
static uint64_t read_limit(const char *path)
{
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return UINT64_MAX;
	char line[64];
	uint64_t v = UINT64_MAX;
	if (fgets(line, sizeof(line), f) != NULL && line[0] >= '0' && line[0] <= '9') {
		char *end;
		unsigned long long n = strtoull(line, &end, 10);
		if (*end == '\n' || *end == '\0')
			v = n;
	}
	fclose(f);
	return v;
}

/* The smallest of file's limits in the group at dir/path and every group above it (a parent's
 * limit bounds its children too). */
static uint64_t hierarchy_limit(const char *dir, const char *path, const char *file)
{
	uint64_t best = UINT64_MAX;
	size_t cap = strlen(dir) + strlen(path) + strlen(file) + 3;
	char *p = malloc(cap);
	char *cg = strdup(path);
	if (p == NULL || cg == NULL) {
		free(p);
		free(cg);
		return best;
	}
	for (;;) {
		snprintf(p, cap, "%s%s/%s", dir, cg, file);
		uint64_t v = read_limit(p);
		if (v < best)
			best = v;
		char *slash = strrchr(cg, '/');
		if (slash == NULL || (slash == cg && cg[1] == '\0'))
			break;
		slash[slash == cg] = '\0'; /* "/a/b" -> "/a" -> "/" */
	}
	free(p);
	free(cg);
	return best;
}

/* True when a /proc/self/cgroup line's controller list (v1) names the memory controller. */
static bool names_memory(const char *list, size_t len)
{
	while (len > 0) {
		const char *comma = memchr(list, ',', len);
		size_t n = comma != NULL ? (size_t)(comma - list) : len;
		if (n == 6 && memcmp(list, "memory", 6) == 0)
			return true;
		if (comma == NULL)
			break;
		len -= n + 1;
		list = comma + 1;
	}
	return false;
}

/* The limit /proc/self/cgroup's groups set: v2 memory.max under /sys/fs/cgroup (or its
 * /unified mount on a hybrid system), v1 memory.limit_in_bytes under /sys/fs/cgroup/memory. */
static uint64_t cgroup_limit(void)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (f == NULL)
		return UINT64_MAX;
	uint64_t best = UINT64_MAX, v;
	char line[4096];
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c2 == NULL || c2[1] != '/')
			continue;
		const char *path = c2 + 1;
		if (c2 == c1 + 1) {
			v = hierarchy_limit("/sys/fs/cgroup", path, "memory.max");
			if (v < best)
				best = v;
			v = hierarchy_limit("/sys/fs/cgroup/unified", path, "memory.max");
		} else if (names_memory(c1 + 1, (size_t)(c2 - c1 - 1))) {
			v = hierarchy_limit("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes");
		} else {
			continue;
		}
		if (v < best)
			best = v;
	}
	fclose(f);
	return best;
}

uint64_t mem_usable(void)
{
	uint64_t phys = physical_memory();
	uint64_t cg = cgroup_limit();
	/* v1 says "no limit" with a huge page-rounded number: a limit above the physical memory
	 * bounds nothing; one under 16 MiB is a misreading (nothing would run in it). */
	if (cg < ((uint64_t)16 << 20))
		cg = UINT64_MAX;
	if (phys == 0)
		return cg == UINT64_MAX ? 0 : cg;
	return cg < phys ? cg : phys;
}
