/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* write_tree.c — the tree walks of the table writer: numbering inodes, then emitting inodes and
 * directory listings bottom-up. */
#include "config.h"
#include "mksquashfs/write_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/dir_write.h"
#include "common/format.h"
#include "common/inode_write.h"

static int basic_type_of(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return SQFS_INODE_DIR;
	case S_IFREG:
		return SQFS_INODE_FILE;
	case S_IFLNK:
		return SQFS_INODE_SYMLINK;
	case S_IFBLK:
		return SQFS_INODE_BLKDEV;
	case S_IFCHR:
		return SQFS_INODE_CHRDEV;
	case S_IFIFO:
		return SQFS_INODE_FIFO;
	case S_IFSOCK:
		return SQFS_INODE_SOCKET;
	default:
		return 0;
	}
}

static const char *name_of(const struct tree_entry *e)
{
	return e->name != NULL ? e->name : "(null)";
}

static int check_entry(struct write_ctx *ctx, const struct tree_dir *dir, uint32_t i)
{
	const struct tree_entry *e = &dir->entries[i];
	if (e->name == NULL || e->name_len == 0 || e->name_len > SQFS_NAME_MAX ||
	    memchr(e->name, '/', e->name_len) != NULL ||
	    (e->name_len == 1 && e->name[0] == '.') ||
	    (e->name_len == 2 && e->name[0] == '.' && e->name[1] == '.'))
		return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED, "invalid file name \"%.*s\" in the image tree",
			       e->name ? (int)(e->name_len > 255 ? 255 : e->name_len) : 6, name_of(e));
	if (e->inode == NULL)
		return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED, "\"%s\" has no inode in the image tree",
			       name_of(e));
	if (basic_type_of(e->inode->mode) == 0)
		return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED, "\"%s\": unknown file type 0%o",
			       name_of(e), (unsigned)(e->inode->mode & S_IFMT));
	if (i > 0) {
		/* The kernel's lookup stops at the first name greater than the one sought, so an
		 * unsorted listing would hide files. */
		const struct tree_entry *p = &dir->entries[i - 1];
		uint32_t n = p->name_len < e->name_len ? p->name_len : e->name_len;
		int c = memcmp(p->name, e->name, n);
		if (c > 0 || (c == 0 && p->name_len >= e->name_len))
			return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED,
				       "directory entries not sorted (or duplicated) at \"%s\"",
				       name_of(e));
	}
	return 0;
}

static void count_kind(struct image_stats *st, uint32_t mode)
{
	uint32_t *const counts[] = {
		[SQFS_INODE_DIR] = &st->dir_count,	   [SQFS_INODE_FILE] = &st->file_count,
		[SQFS_INODE_SYMLINK] = &st->symlink_count, [SQFS_INODE_BLKDEV] = &st->blkdev_count,
		[SQFS_INODE_CHRDEV] = &st->chrdev_count,   [SQFS_INODE_FIFO] = &st->fifo_count,
		[SQFS_INODE_SOCKET] = &st->socket_count,
	};
	int type = basic_type_of(mode);
	/* What is none of the others is a socket, the one kind left. */
	if (type < SQFS_INODE_DIR || type > SQFS_INODE_FIFO)
		type = SQFS_INODE_SOCKET;
	(*counts[type])++;
}

static void clear_numbers(struct tree_inode *dir)
{
	dir->inode_number = 0;
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *ino = dir->dir->entries[i].inode;
		if (ino == NULL)
			continue;
		if ((ino->mode & S_IFMT) == S_IFDIR && ino->dir != NULL && ino->inode_number != 0)
			clear_numbers(ino);
		ino->inode_number = 0;
	}
}

static int take_number(struct write_ctx *ctx, struct tree_inode *ino)
{
	if (ctx->inode_count == 0xFFFFFFFEu)
		return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED, "too many inodes");
	ino->inode_number = ++ctx->inode_count;
	count_kind(ctx->stats, ino->mode);
	return 0;
}

/* squashfs-tools' order: each entry numbered as its directory is read, a subdirectory's contents
 * right after the subdirectory itself, the root last. */
static int number_dir(struct write_ctx *ctx, struct tree_inode *dir)
{
	uint32_t subdirs = 0;
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		if (check_entry(ctx, dir->dir, i) != 0)
			return -1;
		struct tree_inode *ino = dir->dir->entries[i].inode;
		bool is_dir = (ino->mode & S_IFMT) == S_IFDIR;
		if (ino->inode_number != 0) {
			if (is_dir)
				return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED,
					       "directory \"%s\" appears twice in the image tree",
					       name_of(&dir->dir->entries[i]));
			continue;
		}
		if (take_number(ctx, ino) != 0)
			return -1;
		if (is_dir) {
			if (ino->dir == NULL)
				return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED,
					       "directory \"%s\" has no listing in the image tree",
					       name_of(&dir->dir->entries[i]));
			subdirs++;
			if (number_dir(ctx, ino) != 0)
				return -1;
		}
	}
	dir->nlink = 2 + subdirs;
	return 0;
}

int write_number_tree(struct write_ctx *ctx)
{
	struct tree_inode *root = ctx->tree->root;
	if (root == NULL || (root->mode & S_IFMT) != S_IFDIR || root->dir == NULL)
		return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED, "the image tree has no root directory");
	/* Marks from a previous run (or uninitialised trees) must not look like numbers. Any
	 * non-zero value makes clear_numbers descend; the root is "seen" while clearing. */
	root->inode_number = 1;
	clear_numbers(root);
	root->inode_number = 0xFFFFFFFFu; /* the root, reached again, is a cycle */
	ctx->inode_count = 0;
	if (number_dir(ctx, root) != 0)
		return -1;
	if (take_number(ctx, root) != 0)
		return -1;
	ctx->tree->inode_count = ctx->inode_count;
	return 0;
}

static int xattr_index_of(struct write_ctx *ctx, struct tree_inode *ino, uint32_t *index)
{
	*index = SQFS_NO_XATTR;
	const struct xattr_set *set = ino->xattrs;
	if (ctx->xattrs == NULL || set == NULL || set->count == 0)
		return 0;
	struct sqfs_xattr_pair stack_pairs[16];
	struct sqfs_xattr_pair *pairs = stack_pairs;
	if (set->count > 16) {
		pairs = calloc(set->count, sizeof(*pairs));
		if (pairs == NULL)
			return sq_fail(ctx->err, SQ_ERR_NOMEM, "out of memory for xattrs");
	}
	for (uint32_t i = 0; i < set->count; i++) {
		const struct xattr_entry *x = &set->entries[i];
		pairs[i] = (struct sqfs_xattr_pair){ .type = x->type, .key_len = x->key_len,
						     .key = x->key, .value_len = x->value_len,
						     .value = x->value };
	}
	int rc = sqfs_xattr_writer_add(ctx->xattrs, pairs, set->count, index, ctx->err);
	if (pairs != stack_pairs)
		free(pairs);
	if (rc == 0)
		ino->xattrs->table_index = *index;
	return rc;
}

/* A file's block list must be what the kernel derives from its size: one word per full block,
 * plus the tail unless the tail is in a fragment. A mismatch would make every reader misplace
 * the data. */
static int check_file(struct write_ctx *ctx, const struct tree_inode *ino)
{
	const struct file_data *f = ino->file;
	char what[4096] = "a file";
	if (ino->source_path != NULL)
		tree_source_path(ino, what, sizeof(what));
	if (f == NULL)
		return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED, "%s: no data recorded for the image",
			       what);
	uint64_t bs = ctx->settings->block_size;
	uint64_t expect = f->fragment_index == SQFS_NO_FRAGMENT ? (f->size + bs - 1) / bs
								 : f->size / bs;
	if (expect != f->block_count || (f->block_count > 0 && f->block_sizes == NULL))
		return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED,
			       "%s: %u data blocks recorded for %llu bytes (%llu expected)", what,
			       (unsigned)f->block_count, (unsigned long long)f->size,
			       (unsigned long long)expect);
	return 0;
}

static int emit_inode(struct write_ctx *ctx, struct tree_inode *ino, struct sqfs_inode_w *in)
{
	in->type = (uint16_t)basic_type_of(ino->mode);
	in->mode = (uint16_t)(ino->mode & 07777);
	in->mtime = ino->mtime;
	in->inode_number = ino->inode_number;
	in->nlink = ino->nlink ? ino->nlink : 1;
	if (id_map_index(&ctx->ids, ino->uid, &in->uid_index, ctx->err) != 0 ||
	    id_map_index(&ctx->ids, ino->gid, &in->gid_index, ctx->err) != 0 ||
	    xattr_index_of(ctx, ino, &in->xattr_index) != 0)
		return -1;

	switch (in->type) {
	case SQFS_INODE_FILE: {
		if (check_file(ctx, ino) != 0)
			return -1;
		const struct file_data *f = ino->file;
		in->blocks_start = f->blocks_start;
		in->file_size = f->size;
		in->sparse_bytes = f->sparse_bytes;
		in->fragment_index = f->fragment_index;
		in->fragment_offset = f->fragment_index == SQFS_NO_FRAGMENT ? 0 : f->fragment_offset;
		in->block_count = f->block_count;
		in->block_sizes = f->block_sizes;
		break;
	}
	case SQFS_INODE_SYMLINK:
		if (ino->symlink_target == NULL && ino->symlink_len > 0)
			return sq_fail(ctx->err, SQ_ERR_UNSUPPORTED, "symlink without a target");
		in->target = ino->symlink_target;
		in->target_len = ino->symlink_len;
		break;
	case SQFS_INODE_BLKDEV:
	case SQFS_INODE_CHRDEV:
		in->rdev = sqfs_encode_dev(ino->rdev_major, ino->rdev_minor);
		break;
	default:
		break;
	}
	sqfs_inode_pick_kind(in);

	size_t size = sqfs_inode_encoded_size(in);
	if (size > ctx->scratch_cap) {
		uint8_t *p = realloc(ctx->scratch, size);
		if (p == NULL)
			return sq_fail(ctx->err, SQ_ERR_NOMEM, "out of memory for an inode");
		ctx->scratch = p;
		ctx->scratch_cap = size;
	}
	sqfs_inode_encode(in, ctx->scratch);
	uint64_t ref = sqfs_meta_writer_ref(ctx->inodes);
	if (sqfs_meta_writer_append(ctx->inodes, ctx->scratch, size, ctx->err) != 0)
		return -1;
	ino->inode_ref = ref;
	ctx->refs[ino->inode_number - 1] = ref;
	ctx->written[ino->inode_number - 1] = 1;
	return 0;
}

static int emit_dir(struct write_ctx *ctx, struct tree_inode *dir, uint32_t parent_number)
{
	const struct tree_dir *d = dir->dir;
	struct sqfs_dir_entry_w *entries = NULL;
	struct sqfs_dir_listing listing = { 0 };
	int rc = -1;

	for (uint32_t i = 0; i < d->count; i++) {
		struct tree_inode *ino = d->entries[i].inode;
		if ((ino->mode & S_IFMT) == S_IFDIR) {
			if (emit_dir(ctx, ino, dir->inode_number) != 0)
				return -1;
		} else if (!ctx->written[ino->inode_number - 1]) {
			struct sqfs_inode_w in = { 0 };
			if (emit_inode(ctx, ino, &in) != 0)
				return -1;
		}
	}

	if (d->count > 0) {
		entries = calloc(d->count, sizeof(*entries));
		if (entries == NULL)
			return sq_fail(ctx->err, SQ_ERR_NOMEM, "out of memory for a directory");
	}
	for (uint32_t i = 0; i < d->count; i++) {
		const struct tree_entry *e = &d->entries[i];
		entries[i] = (struct sqfs_dir_entry_w){
			.name = e->name,
			.name_len = e->name_len,
			.inode_ref = e->inode->inode_ref,
			.inode_number = e->inode->inode_number,
			.basic_type = (uint16_t)basic_type_of(e->inode->mode),
		};
	}
	if (sqfs_dir_write(ctx->dirs, entries, d->count, &listing, ctx->err) != 0)
		goto cleanup;

	struct sqfs_inode_w in = {
		.dir_block_start = listing.block_start,
		.dir_offset = listing.offset,
		.dir_size = listing.size,
		.dir_parent = parent_number,
		.dir_index_count = listing.index_count,
		.dir_index = listing.index,
		.dir_index_len = listing.index_len,
	};
	rc = emit_inode(ctx, dir, &in);
cleanup:
	free(listing.index);
	free(entries);
	return rc;
}

int write_emit_tree(struct write_ctx *ctx)
{
	/* squashfs-tools gives the root's parent the number after the last inode. */
	return emit_dir(ctx, ctx->tree->root, ctx->inode_count + 1);
}
