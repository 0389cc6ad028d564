/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* internal.h — what the pseudo definition parser, the definition tree, the spool and the applier
 * share: one parsed definition, the tree of names they form, and the set that owns both. */
#ifndef SQ_MKSQUASHFS_PSEUDO_INTERNAL_H
#define SQ_MKSQUASHFS_PSEUDO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/pseudo/pseudo.h"
#include "mksquashfs/tree.h"

/* A file's data section (R definitions): bytes [base, base + size) of fd. */
struct pseudo_data {
	int fd;
	uint64_t base;
	uint64_t size;
	bool owned;          /* fd is closed with the set (not the spool's) */
};

/* Where a definition came from, for messages: "pseudo file NAME line N" or "-p "TEXT"". */
struct pseudo_where {
	const char *origin;  /* owned by the set */
	uint32_t line;       /* 0: a -p or -pd definition (origin holds its text) */
};

struct pseudo_def {
	char type;           /* d m b c f s i l h L x R: upper-case variants folded to lower case
	                        (R kept) with `timed` set */
	bool timed;
	uint32_t mtime, mode, uid, gid;
	uint32_t major, minor;
	char ipc;            /* i: 's' socket or 'f' fifo */
	char *arg;           /* f: command; s: target; l/h: host path (h: resolved) */
	struct pseudo_def *target;   /* L: the definition linked to */
	uint64_t length, offset;     /* R: bytes at offset of data's section */
	struct pseudo_data *data;
	struct xattr_entry xattr;    /* x */
	struct pseudo_where where;
	struct tree_inode *made;     /* the inode made for it, shared by L definitions */
	struct pseudo_def *next_xattr;
};

/* A name in the definition tree: a definition, xattrs, or only a directory on the way. */
struct pseudo_node {
	char *name;
	uint32_t name_len;
	char *path;                  /* from the root, for messages ("dev/console") */
	struct pseudo_node *parent;
	struct pseudo_def *def;      /* NULL: a directory on the way (or xattrs only) */
	struct pseudo_def *xattrs, *xattrs_last;
	struct pseudo_def *first;    /* the definition that first named it */
	struct pseudo_node **children;
	uint32_t count, cap;
};

struct pseudo_spool {
	int fd;                      /* -1 until the first use */
	uint64_t size;
};

struct pseudo_set {
	struct pseudo_node root;     /* "/" */
	struct pseudo_node **index;  /* (parent, name) -> node, open addressing */
	size_t index_cap, node_count;
	struct pseudo_def **defs;    /* every definition, for freeing */
	size_t def_count, def_cap;
	char **origins;
	size_t origin_count, origin_cap;
	struct pseudo_data **datas;
	size_t data_count, data_cap;
	struct pseudo_def *default_dir;  /* -pd */
	struct pseudo_spool spool;
	bool stdin_read;
};

/* ---- parse.c: one definition's text to a struct pseudo_def ---- */

/* Parse text (one logical line) into *def and the path's components (a NULL-terminated array
 * of malloc'd names in *parts; the root "/" gives none). data: the data section R definitions
 * refer to, NULL where R is not allowed. Messages start with where. */
int pseudo_parse(struct pseudo_set *set, const char *text, const struct pseudo_where *where,
		 struct pseudo_data *data, struct pseudo_def *def, char ***parts,
		 struct sq_error *err);
void pseudo_parts_free(char **parts);
/* Parse a -pd "d mode uid gid" / "D time mode uid gid". */
int pseudo_parse_dir(const char *text, const struct pseudo_where *where, struct pseudo_def *def,
		     struct sq_error *err);
/* "pseudo file F line N" or "-p \"...\"" into buf. */
const char *pseudo_where_text(const struct pseudo_where *w, char *buf, size_t len);
/* Fail with "WHERE: message". */
int pseudo_fail(struct sq_error *err, const struct pseudo_where *w, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- set.c: the definition tree ---- */

/* Add def (taking ownership) at the path parts; conflicts are errors naming both lines. */
int pseudo_set_add(struct pseudo_set *set, struct pseudo_def *def, char **parts,
		   struct sq_error *err);
/* The node at the path parts, or NULL. */
struct pseudo_node *pseudo_set_lookup(struct pseudo_set *set, char **parts);
/* Keep a string for the set's lifetime; NULL when memory is short. */
const char *pseudo_set_keep(struct pseudo_set *set, const char *s);
/* Keep a data section (taking ownership). */
int pseudo_set_keep_data(struct pseudo_set *set, struct pseudo_data *d, struct sq_error *err);
void pseudo_def_free(struct pseudo_def *def);

/* ---- spool.c: command output and piped data in one unlinked temporary file ---- */

/* Run "/bin/sh -c command" (standard input /dev/null, its own process group) and append its
 * output to the spool; *offset and *length say where it went. A non-zero exit or a signal is
 * an error; SIGINT/SIGTERM/SIGHUP while it runs stop it and fail. */
int pseudo_spool_command(struct pseudo_spool *sp, const char *command, uint64_t *offset,
			 uint64_t *length, char *why, size_t why_len);
/* Append everything left in f (a pipe: standard input) to the spool. */
int pseudo_spool_copy(struct pseudo_spool *sp, FILE *f, uint64_t *offset, uint64_t *length,
		      char *why, size_t why_len);
void pseudo_spool_close(struct pseudo_spool *sp);

#endif
