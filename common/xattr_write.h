/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xattr_write.h — the xattr key/value table and xattr id table: each distinct set of extended
 * attributes stored once, inodes referring to it by index. */
#ifndef SQ_COMMON_XATTR_WRITE_H
#define SQ_COMMON_XATTR_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/util/error.h"
#include "common/meta_write.h"

/* One attribute; the key is without its namespace prefix. */
struct sqfs_xattr_pair {
	uint16_t type;        /* SQFS_XATTR_USER, _TRUSTED or _SECURITY */
	uint16_t key_len;
	const char *key;
	uint32_t value_len;
	const uint8_t *value;
};

struct sqfs_xattr_writer;

/* NULL when out of memory. Blocks of both tables go through codec/state unless store_raw. */
struct sqfs_xattr_writer *sqfs_xattr_writer_new(const struct codec *codec, void *state,
						bool store_raw);
void sqfs_xattr_writer_free(struct sqfs_xattr_writer *w);

/* Store a set (pairs in the order given; callers sort them by type and key so that identical
 * sets compare equal) and return its index in the xattr id table in *index. An identical set
 * added before gets the same index. As squashfs-tools: values over 128 bytes are stored once on
 * their own and referred to out of line (their keys placed after the set's other keys); a value
 * of 8 bytes or more stored before is referred to out of line. Returns 0, or -1 with a message. */
int sqfs_xattr_writer_add(struct sqfs_xattr_writer *w, const struct sqfs_xattr_pair *pairs,
			  uint32_t count, uint32_t *index, struct sq_error *err);

/* Number of distinct sets stored (the xattr id count). */
uint32_t sqfs_xattr_writer_count(const struct sqfs_xattr_writer *w);

/* Lay out both tables for image offset pos: the key/value blocks, the id table blocks, the
 * 16-byte header and the id block locations. *bytes (malloc'd, caller frees) goes at pos, and
 * the superblock's xattr_id_table_start is pos + *table_offset. raw_len gets the uncompressed
 * key/value bytes (for the summary). */
int sqfs_xattr_writer_finish(struct sqfs_xattr_writer *w, uint64_t pos, uint8_t **bytes,
			     size_t *len, size_t *table_offset, uint64_t *raw_len,
			     struct sq_error *err);

#endif
