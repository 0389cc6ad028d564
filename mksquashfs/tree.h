/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tree.h — the in-memory image tree: what scanning and the data stage build, what the table writer
 * turns into inodes and directories.
 *
 * Ownership of fields: scan fills names, metadata, hard links and xattrs; the data stage fills
 * `file`; the table writer (write.c) fills inode_number and inode_ref and computes directory
 * link counts.
 *
 * What image_finish checks and refuses (SQ_ERR_UNSUPPORTED, one-line message naming the entry):
 * names empty, over 256 bytes, with '/', "." or ".."; entries not strictly sorted; a directory
 * reached twice (cycle); an unknown S_IFMT; a regular file with file == NULL; a block list that
 * is not what readers derive from the size (size / block_size full blocks, plus one for the tail
 * unless fragment_index != SQFS_NO_FRAGMENT); more than 65535 distinct uids+gids. Numbering
 * follows squashfs-tools (entries in listing order, a subdirectory's contents right after it,
 * root last), so for the same tree and data layout the metadata is byte-identical to 4.5.1. */
#ifndef SQ_MKSQUASHFS_TREE_H
#define SQ_MKSQUASHFS_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One extended attribute in a squashfs namespace (the key is stored without its prefix). */
struct xattr_entry {
	uint16_t type;      /* SQFS_XATTR_USER, _TRUSTED or _SECURITY */
	uint16_t key_len;   /* bytes of key, without prefix */
	char *key;          /* NUL-terminated too, for convenience */
	uint32_t value_len;
	uint8_t *value;
};

/* An inode's full set of xattrs, sorted by (type, key). The writer stores identical sets once,
 * so scan need not share them, but may. */
struct xattr_set {
	uint32_t count;
	struct xattr_entry *entries;
	uint32_t table_index; /* writer's: index in the xattr id table */
};

/* Where a regular file's content went in the image (the data stage fills this). */
struct file_data {
	uint64_t size;            /* file size in bytes */
	uint64_t blocks_start;    /* image offset of the first stored block; 0 if no blocks */
	uint32_t *block_sizes;    /* size words as stored: SQFS_DATA_UNCOMPRESSED | size, or 0 for a
	                             sparse (all-zero, not stored) block */
	uint64_t sparse_bytes;    /* bytes covered by sparse blocks (extended inode "sparse" field) */
	uint32_t block_count;     /* entries in block_sizes: full blocks, plus the tail when it is
	                             not in a fragment */
	uint32_t fragment_index;  /* SQFS_NO_FRAGMENT when the file has no tail in a fragment */
	uint32_t fragment_offset; /* offset of the tail inside the uncompressed fragment block */
};

struct tree_inode;

/* A regular file's bytes held in an open file shared by many inodes (a spool of tar data or of a
 * command's output): length file->size at offset. The reader that made the file owns fd. */
struct content_span {
	int fd;
	uint64_t offset;
};

enum {
	TREE_STORED = 1u << 0,   /* file data already in the image (append): file_data complete,
	                            nothing for the data stage to read */
	TREE_EXISTING = 1u << 1, /* read from the image being appended to: kept as it was found
	                            (attribute options apply to new inodes only, as squashfs-tools) */
	TREE_PSEUDO = 1u << 2,   /* made or changed by a pseudo definition: -pseudo-override keeps
	                            its owner and mode from -all-root, -force-* */
	TREE_MADE_UP = 1u << 3,  /* not read from a source: a made-up root, a pseudo default directory,
	                            a directory a tar reader made for members below it (cleared when
	                            its own member comes). Its time is not a source time (-mkfs-time
	                            inode ignores it and gives it the latest source time) */
	TREE_DUPLICATE = 1u << 4, /* set by the data stage: the file's data is an earlier file's
	                             (-info prints DUPLICATE) */
	TREE_SOURCE_CHAIN = 1u << 5, /* source_path is the name of a struct tree_source in the
	                                tree's arena (tree_source_add): the whole path is rebuilt
	                                from its parents (tree_source_path); not freed with the inode */
	TREE_IN_ARENA = 1u << 6, /* the inode (with its file_data or tree_dir) is in the tree's arena
	                            (tree_inode_new_in): tree_inode_free frees what it owns, not it */
	TREE_SPAN_IN_ARENA = 1u << 7, /* span is in the tree's arena (tree_alloc): not freed with the
	                                 inode (a tar member's, 16 bytes a file off the heap) */
};

/* Which of a directory's arrays are in the tree's arena (tree_dir_trim): freed with the arena,
 * and copied out before they grow. */
enum {
	TREE_DIR_ENTRIES_IN_ARENA = 1u << 0,
	TREE_DIR_NAMES_IN_ARENA = 1u << 1,
};

/* A scanned entry's source, stored once per entry instead of as a whole path per file: its name
 * in the directory whose record is parent (NULL: name is the whole path). 100 million files
 * would otherwise keep several GB of repeated directory prefixes. */
struct tree_source {
	const struct tree_source *parent;
	char name[];  /* NUL-terminated */
};

/* Bump allocation for records that live as long as the tree (no per-object malloc overhead). */
struct tree_arena;

/* A name in a directory. Several entries may share one inode (hard links). */
struct tree_entry {
	char *name;         /* 1..255 bytes, no '/', not "." or ".." */
	uint32_t name_len;
	struct tree_inode *inode;
};

struct tree_dir {
	struct tree_entry *entries; /* sorted by name, bytewise (memcmp, shorter first on a tie),
	                               once tree_sort has run; readers add in any order */
	uint32_t count;
	uint32_t cap;
	struct tree_inode *parent;  /* the root's parent is the root */
	uint32_t *index;            /* name lookups in large directories (tree_dir_find): open
	                               addressing of entry index + 1; NULL until needed */
	uint32_t index_cap;
	uint32_t in_arena;          /* TREE_DIR_*_IN_ARENA (fills what was padding) */
	char *names;                /* the entries' names packed into one block by tree_dir_trim
	                               (names_len bytes); names added later are allocated one by
	                               one: tree_name_free tells them apart */
	size_t names_len;
};

/* Fields are ordered so that no padding is needed (96 bytes on 64-bit hosts): at millions of
 * files every 8 bytes here is megabytes. A regular file's file_data and a directory's tree_dir
 * share the inode's allocation (tree_inode_new). */
struct tree_inode {
	uint32_t mode;          /* st_mode: S_IFMT type bits and the 12 permission bits */
	uint32_t uid;           /* final owner (after -all-root / -force-uid) */
	uint32_t gid;
	uint32_t mtime;         /* final mtime (after -all-time / SOURCE_DATE_EPOCH clamping) */
	uint32_t rdev_major;    /* block/char devices */
	uint32_t rdev_minor;
	uint32_t nlink;         /* non-directories: number of entries naming this inode in the
	                           image; directories: computed by the writer (2 + subdirectories) */
	uint32_t symlink_len;
	char *symlink_target;   /* symlinks: target bytes, NUL-terminated */
	struct xattr_set *xattrs;  /* NULL when none */
	struct file_data *file;    /* regular files: filled by the data stage */
	struct tree_dir *dir;      /* directories */
	char *source_path;         /* where the content came from (error messages, reading);
	                              NULL for directories made up by merging several sources */
	struct content_span *span; /* regular files whose bytes are not at source_path: NULL
	                              reads source_path from its start */
	uint32_t flags;            /* TREE_* below */

	/* Filled by the table writer. */
	uint32_t inode_number;  /* 1..inode_count */
	uint64_t inode_ref;     /* (inode table block start << 16) | offset */
};

struct spill;

struct tree {
	struct tree_inode *root;   /* a directory */
	uint32_t inode_count;      /* distinct inodes, set by the writer */
	int *spool_fds;            /* files that content spans point into (tar spool, command
	                              output): open until tree_free */
	uint32_t spool_count;
	struct tree_arena *arena;  /* records that live as long as the tree: sources, the scan's
	                              inodes and directory arrays, the file list, the writer's
	                              references; freed by tree_free */
	struct spill *spill;       /* where the arena's chunks come from past their share of -mem
	                              (spill.h); NULL: always anonymous. Not owned */
};

struct sq_error;

/* ---- Building the tree (tree.c): shared by every reader (scan, pseudo, tar, append) ---- */

/* Empty tree (zeroed, or freed) for a reader to fill: its spill and its arena are kept, since the
 * caller set up the spill (-mem) and may have allocated records there already (an appended
 * image's inodes). */
void tree_begin(struct tree *tree);
/* A new inode of this st_mode type and permissions, nlink 1, with its dir (directories) or file
 * (regular files: no fragment yet) part allocated. NULL with err set when memory is short. */
struct tree_inode *tree_inode_new(uint32_t mode, struct sq_error *err);
/* The same in tree's arena (TREE_IN_ARENA): no malloc header, and spillable (spill.h); for the
 * readers that make most of the inodes. */
struct tree_inode *tree_inode_new_in(struct tree *tree, uint32_t mode, struct sq_error *err);
/* len zeroed bytes that live as long as tree (its arena: spilled past the share of -mem). NULL
 * with err set. */
void *tree_alloc(struct tree *tree, size_t len, struct sq_error *err);
/* Free an xattr set (NULL is fine). */
void tree_xattrs_free(struct xattr_set *s);
/* The squashfs namespace of a full xattr name: SQFS_XATTR_USER, _TRUSTED or _SECURITY with *key
 * past its prefix ("user.x": key "x"), or -1 for a name outside them (*key untouched). */
int tree_xattr_type(const char *name, const char **key);
/* Sort a set into the order the writer stores it: by type, then key. */
void tree_xattrs_sort(struct xattr_set *s);
/* Free one inode and what it owns (not the entries of a directory: see tree_free). */
void tree_inode_free(struct tree_inode *n);

/* Add name (len bytes, 1..255, no '/') -> child to a directory, in any order; a directory child
 * gets dir as its parent. Non-directories may be added under several names (hard links): the
 * caller counts nlink. */
int tree_dir_add(struct tree_inode *dir, const char *name, size_t len, struct tree_inode *child,
		 struct sq_error *err);
/* The entry named name in dir, or NULL. Fast in large directories. */
struct tree_entry *tree_dir_find(struct tree_inode *dir, const char *name, size_t len);
/* Give back the unused room of dir's entry array and pack its names into one block (a reader
 * calls it when a directory is complete: most directories hold far fewer entries than the
 * doubling left room for, and a name alone costs a malloc header and rounding). With a tree, the
 * array and the names move into its arena (spillable) and the name index is dropped (rebuilt
 * if a lookup comes); NULL keeps them on the heap. A directory that grows again afterwards
 * (tree_dir_add) gets its array back on the heap; its later names stay there one by one. */
void tree_dir_trim(struct tree *tree, struct tree_inode *dir);
/* Free a name of dir's entries (one of the packed block is freed with the block). */
void tree_name_free(const struct tree_dir *d, char *name);
/* Remove entry i of dir (its name is freed, the inode is not): for readers that replace an
 * entry. Entry order is not kept. */
void tree_dir_remove(struct tree_inode *dir, uint32_t i);

/* Sort every directory's entries by name (what the writer needs). Fails, naming the path, when
 * a directory holds one name twice. */
int tree_sort(struct tree *tree, struct sq_error *err);
/* The same, moving the arrays of directories not yet trimmed into the tree's arena
 * (tree_dir_trim): for trees whose names and entry arrays tree_free owns. */
int tree_sort_trim(struct tree *tree, struct sq_error *err);

/* Keep fd (a spool that spans point into) open for as long as the tree: tree_free closes it.
 * On failure fd is closed and err set. */
int tree_keep_fd(struct tree *tree, int fd, struct sq_error *err);

/* A source record named name (len bytes) under the record whose name parent is (a
 * TREE_SOURCE_CHAIN inode's source_path), or a whole path when parent is NULL. Returns the
 * record's name, to be an inode's source_path with TREE_SOURCE_CHAIN set; NULL with err set when
 * memory is short. */
char *tree_source_add(struct tree *tree, const char *parent, const char *name, size_t len,
		      struct sq_error *err);
/* The whole source path of n into buf (cap bytes, NUL-terminated, cut short when it does not
 * fit; "" when n has none). Returns the length of the whole path, as snprintf does. */
size_t tree_source_path(const struct tree_inode *n, char *buf, size_t cap);
/* The whole path of a source record, as tree_source_path. */
size_t tree_source_record_path(const struct tree_source *s, char *buf, size_t cap);
/* The record of the directory n's source was found in (compare pointers: equal for files of
 * one source directory), or NULL when n's source_path is a whole path. */
const struct tree_source *tree_source_dir(const struct tree_inode *n);

/* Free every inode, entry, name, xattr and block list of the tree (hard links counted by nlink),
 * and close its spool files. */
void tree_free(struct tree *tree);

#endif
