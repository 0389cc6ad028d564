/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* write_internal.h — state shared by the table writer's files (write.c, write_tree.c,
 * write_ids.c); not part of the contract with the front. */
#ifndef SQ_MKSQUASHFS_WRITE_INTERNAL_H
#define SQ_MKSQUASHFS_WRITE_INTERNAL_H

#include <stdint.h>

#include "common/util/error.h"
#include "common/meta_write.h"
#include "common/xattr_write.h"
#include "mksquashfs/image.h"
#include "mksquashfs/spill.h"
#include "mksquashfs/tree.h"

/* Distinct uids/gids in order of first use; inodes store the index. */
struct id_map {
	uint32_t *ids;      /* by index */
	uint32_t count;
	uint32_t *slots;    /* open addressing: index + 1, 0 = empty */
	uint32_t slot_cap;  /* a power of two, kept at most half full */
};

int id_map_index(struct id_map *m, uint32_t id, uint16_t *index, struct sq_error *err);
void id_map_free(struct id_map *m);

struct write_ctx {
	const struct image_settings *settings;
	struct tree *tree;
	struct image_stats *stats;
	struct sq_error *err;

	struct sqfs_meta_writer *inodes; /* streamed into the image as its blocks fill */
	struct sqfs_meta_writer *dirs;   /* past a share of -mem, into dir_spool */
	struct spool dir_spool;
	struct sqfs_xattr_writer *xattrs; /* NULL with -no-xattrs */
	struct id_map ids;

	uint32_t inode_count;
	uint64_t *refs;     /* inode reference by inode number - 1 (the export table) */
	uint8_t *written;   /* by inode number - 1 */
	uint8_t *scratch;   /* one encoded inode */
	size_t scratch_cap;
};

/* Number every inode 1..N in squashfs-tools' order (root last), compute directory link counts
 * and the per-kind counts, and check the tree's shape. */
int write_number_tree(struct write_ctx *ctx);

/* Write every inode and directory listing into ctx->inodes / ctx->dirs, children before their
 * directory, so each listing can name its children's references. */
int write_emit_tree(struct write_ctx *ctx);

#endif
