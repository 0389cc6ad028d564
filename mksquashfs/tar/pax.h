/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/pax.h — what extension headers say about a member: POSIX pax records (path, linkpath,
 * size, uid, gid, uname, gname, mtime, SCHILY.xattr.*, LIBARCHIVE.xattr.*, GNU.sparse.*) and
 * GNU long names; and the sparse maps they carry. Pure parsing: no I/O, safe on any bytes. */
#ifndef SQ_MKSQUASHFS_TAR_PAX_H
#define SQ_MKSQUASHFS_TAR_PAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mksquashfs/tar/header.h"

/* A sparse file's data segments, in file order. */
struct sparse_map {
	struct tar_sparse_entry *e;
	size_t count, cap;
};

/* Append a segment; -1 when memory is short. */
int sparse_map_add(struct sparse_map *m, uint64_t offset, uint64_t length);
/* Segments ascending, not overlapping, inside realsize, their lengths adding up to stored (the
 * bytes the archive holds for them)? NULL, or a static reason. */
const char *sparse_map_check(const struct sparse_map *m, uint64_t realsize, uint64_t stored);
void sparse_map_free(struct sparse_map *m);

/* GNU sparse 1.0 keeps its map at the start of the member's data, as decimal numbers each
 * ended by a newline: the count, then offset and length pairs. Fed in pieces. */
struct sparse_text {
	uint64_t want;      /* numbers still to read: 1 + 2 * count once count is known */
	bool have_count;
	uint64_t value;     /* the number being read */
	unsigned digits;
	uint64_t pending;   /* an offset waiting for its length */
};
void sparse_text_init(struct sparse_text *t);
/* Consume bytes from buf; *used says how many. Returns 1 when the map is complete, 0 when it
 * needs more bytes, -1 with *why on malformed text or -2 when memory is short. */
int sparse_text_feed(struct sparse_text *t, struct sparse_map *m, const uint8_t *buf, size_t len,
		     size_t *used, const char **why);

struct tar_xattr {
	char *name;          /* full name: "user.foo" */
	uint8_t *value;
	size_t len;
};

/* Values from pax headers ('x' for the next member, 'g' for all that follow) and GNU long
 * names ('L', 'K'). Strings are owned; a field is in force when set. */
struct tar_ext {
	char *path, *linkpath, *uname, *gname;
	bool has_size, has_uid, has_gid, has_mtime;
	uint64_t size, uid, gid;
	int64_t mtime;                /* whole seconds, rounded down */
	struct tar_xattr *xattrs;
	size_t xattr_count;
	/* GNU sparse in pax: 0.0 (offset/numbytes records), 0.1 (map record), 1.0 (map in data) */
	bool sparse;                  /* any GNU.sparse record */
	bool sparse_v1;               /* major 1: the map is at the start of the data */
	bool has_realsize;
	uint64_t realsize;
	char *sparse_name;            /* the real path (the header's is made up) */
	struct sparse_map map;
	bool map_pending;             /* 0.0: an offset record waits for its numbytes */
	uint64_t map_offset;
};

void tar_ext_clear(struct tar_ext *e);

/* Parse a pax header's data (len bytes of "LEN key=value\n" records) into e, later records
 * overriding earlier ones. Returns 0, -1 with *why on a malformed record, -2 when memory is
 * short. */
int pax_parse(struct tar_ext *e, const uint8_t *data, size_t len, const char **why);

/* Decoders used by pax_parse, exposed for the unit tests. */
/* Decimal digits only, fitting in 64 bits. */
int pax_decimal(const char *s, size_t len, uint64_t *out);
/* "[-]seconds[.fraction]" rounded down to whole seconds. */
int pax_time(const char *s, size_t len, int64_t *out);
/* Standard base64 (padding optional); out needs len * 3 / 4 + 3 bytes. Returns the decoded
 * length, or -1 on a character outside the alphabet. */
long pax_base64(const char *s, size_t len, uint8_t *out);
/* %XX unescaping (LIBARCHIVE.xattr names); out needs len + 1 bytes. -1 on a bad escape. */
int pax_unescape(const char *s, size_t len, char *out);

#endif
