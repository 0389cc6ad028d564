/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/reader.h — the tar reader's shared state, between the header loop (reader.c), the input
 * and spool (stream.c), path placement (place.c) and inode making (member.c). */
#ifndef SQ_MKSQUASHFS_TAR_READER_H
#define SQ_MKSQUASHFS_TAR_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "common/util/error.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/options.h"
#include "mksquashfs/scan.h"
#include "mksquashfs/tar/header.h"
#include "mksquashfs/tar/pax.h"
#include "mksquashfs/tree.h"

/* The archive as it arrives: a buffer over a file descriptor that may be a pipe (read once,
 * never seeked), with the archive offset of every byte for messages. */
struct tar_in {
	int fd;
	uint64_t offset;     /* archive offset of buf[pos] */
	uint8_t *buf;
	size_t pos, have;    /* unread bytes are buf[pos..have) */
	bool eof;
};

/* Regular files' bytes, copied out of the stream into an unlinked temporary file that the data
 * stage reads (content spans); holes of sparse members stay holes. */
struct tar_spool {
	int fd;
	uint64_t end;        /* where the next member's bytes go */
};

/* user or group name -> id, looked up once each. */
struct owner_cache {
	struct owner_name { char *name; bool found; uint32_t id; } *names;
	size_t count;
};

struct tar_reader {
	const struct mksq_options *o;
	const struct exclude_list *x;
	struct tree *tree;
	struct scan_stats *stats;
	FILE *warn;
	struct sq_error *err;
	struct tar_in in;
	struct tar_spool spool;
	struct tar_ext global;          /* 'g' headers: every member that follows */
	struct tar_ext local;           /* 'x', 'L', 'K': the next member */
	struct owner_cache users, groups;
	uint32_t dir_mode, dir_uid, dir_gid; /* directories the archive does not list */
	/* The directories the last member went into, the root first (place.c): archives list a
	 * directory's members together, so one the next member is not under is taken as complete
	 * and its arrays go to the arena, where they can spill. */
	struct tree_inode **open;
	uint32_t open_count;
	size_t open_cap;
	/* The member being read, for messages. */
	const char *entry;
	uint64_t entry_offset;
};

/* A member with its extension headers applied. */
struct tar_member {
	char type;                 /* typeflag after mapping: '0' regular, '1'..'6', 'S' sparse */
	const char *path, *link;   /* borrowed from the header or the extensions */
	const char *uname, *gname;
	uint32_t mode;
	uint64_t uid, gid;
	int64_t mtime;
	uint64_t size;             /* bytes of data in the archive */
	uint64_t realsize;         /* sparse: the file's size */
	uint64_t devmajor, devminor;
	bool sparse;
	bool sparse_map_in_data;   /* GNU sparse 1.0 */
	struct sparse_map *map;    /* sparse: its segments (the reader's) */
	struct sparse_map own_map; /* old GNU 'S' members: collected from the header blocks */
};

/* One-line error about the member being read: 'entry "NAME" at offset N: ...'. Returns -1. */
int tar_fail(struct tar_reader *r, enum sq_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tar_warn(struct tar_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* stream.c */
int tar_in_init(struct tar_in *in, int fd, struct sq_error *err);
void tar_in_free(struct tar_in *in);
/* Up to n bytes (n <= TAR_IN_BUF) made available at in->buf + in->pos: returns how many are
 * (fewer only at end of input), or -1 with err set. */
#define TAR_IN_BUF (1u << 20)
ssize_t tar_in_fill(struct tar_in *in, size_t n, struct sq_error *err);
void tar_in_consume(struct tar_in *in, size_t n);
/* Exactly n bytes into buf, else the archive is truncated (an error naming the entry). */
int tar_in_read(struct tar_reader *r, void *buf, size_t n);
/* Skip n bytes of the archive. */
int tar_in_skip(struct tar_reader *r, uint64_t n);
/* After the end-of-archive blocks: read what the writer still sends (record padding) so a
 * `tar c | sqfstar` pipeline does not see a broken pipe. */
void tar_in_drain(struct tar_reader *r);

int tar_spool_open(struct tar_spool *s, const char *image_path, struct sq_error *err);
/* Copy len bytes of the archive to the spool at offset at. */
int tar_spool_copy(struct tar_reader *r, uint64_t at, uint64_t len);
/* Room for a file of size bytes: its offset in the spool (sparse ones page aligned, so their
 * holes stay holes the data stage can find with SEEK_DATA). */
int tar_spool_reserve(struct tar_reader *r, uint64_t size, bool sparse, uint64_t *at);
/* Give the spool its final length (a last sparse member may end in a hole). */
int tar_spool_finish(struct tar_reader *r);

/* entry.c */
/* Place the member whose header was just read (extensions in r->local) in the tree, copying a
 * regular file's bytes to the spool and skipping any other data. */
int tar_process_member(struct tar_reader *r, const struct tar_header *h);
int tar_skip_padding(struct tar_reader *r, uint64_t size);

/* place.c */
/* Normalise the member's path in place into components (squashfs-tools' rules: leading "/",
 * "./" and "../" are dropped, "." or ".." elsewhere is refused, "//" is one '/'). Returns the
 * number of components (0: nothing left, the member is skipped with a warning), or -1. */
int tar_path_split(struct tar_reader *r, char *path, const char **parts, uint32_t max);
/* The member's directory (made-up directories created on the way), or NULL with err set. The
 * directories the previous member was in that are not on this path are trimmed (tree_dir_trim):
 * a directory given members again afterwards stays on the heap until the sort. */
struct tree_inode *tar_parent(struct tar_reader *r, const char *const *parts, uint32_t depth);
/* Is the path or any directory above it excluded? */
bool tar_excluded(struct tar_reader *r, const char *const *parts, uint32_t depth);
/* Look up an existing path (hard link targets); NULL when absent. */
struct tree_inode *tar_lookup(struct tar_reader *r, const char *const *parts, uint32_t depth);
#define TAR_MAX_DEPTH 4096u

/* member.c */
/* Make the inode of a non-hard-link member (its data not read yet), with owner, time, mode,
 * device numbers, symlink target and xattrs. NULL with err set. */
struct tree_inode *tar_member_inode(struct tar_reader *r, const struct tar_member *m);
/* A made-up directory (for paths the archive does not list, and the root). */
struct tree_inode *tar_made_up_dir(struct tar_reader *r, bool root);
void tar_owner_cache_free(struct owner_cache *c);

#endif
