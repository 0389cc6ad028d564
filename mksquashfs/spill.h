/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* spill.h — where the tree's long-lived per-file records go once they pass their share of -mem:
 * MAP_SHARED mappings of an unlinked temporary file. The kernel can write such pages back and drop
 * them under memory pressure (anonymous pages it cannot: there may be no swap), so anonymous memory
 * stays bounded whatever the file count, and the records keep their addresses: nothing else in
 * the program has to know whether they spilled, and the image is the same either way. */
#ifndef SQ_MKSQUASHFS_SPILL_H
#define SQ_MKSQUASHFS_SPILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"

/* Mapped chunks are this large (or larger for one big record): few enough mappings for a
 * hundred million files (vm.max_map_count is 65530 by default), small enough to waste little. */
#define SPILL_CHUNK ((size_t)64 << 20)

struct spill {
	uint64_t anon_limit;  /* anonymous chunk bytes allowed before chunks come from the file */
	uint64_t anon_bytes;  /* anonymous chunk bytes handed out so far */
	uint64_t file_bytes;  /* bytes of the temporary file mapped so far */
	int fd;               /* the temporary file, -1 until the first spilled chunk */
	char *dir;            /* where the temporary file is made */
};

/* No spill until anonymous chunks pass anon_limit (UINT64_MAX: never); the temporary file goes
 * in dir (copied). false when memory is short. */
bool spill_init(struct spill *s, uint64_t anon_limit, const char *dir);
/* A zeroed chunk of len bytes: anonymous while under the limit (or when s is NULL), else mapped
 * from the temporary file (*mapped true). NULL with err set. */
void *spill_chunk(struct spill *s, size_t len, bool *mapped, struct sq_error *err);
/* Give back a chunk spill_chunk returned. */
void spill_chunk_free(void *chunk, size_t len, bool mapped);
/* Close the temporary file (its chunks must be freed first). */
void spill_close(struct spill *s);

/* A byte stream on its way to the image that must not wait in memory (the directory table, which
 * the image puts after the inode table, both written at once): appended to its own unlinked
 * temporary file in the spill's directory, read back once its place in the image is known. */
struct spool {
	const char *dir;  /* not owned */
	int fd;           /* -1 until the first byte */
	uint64_t len;
};

void spool_init(struct spool *p, const char *dir);
int spool_write(struct spool *p, const void *bytes, size_t len, struct sq_error *err);
/* len bytes from offset off (all of them, or -1 with err set). */
int spool_read(struct spool *p, void *buf, size_t len, uint64_t off, struct sq_error *err);
void spool_close(struct spool *p);

#endif
