/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* fs_read.c — opening an image as a whole, inode and path lookup, streaming file contents. */
#include "config.h"
#include "common/fs_read.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int finish_open(struct sqfs_fs *fs, struct sq_error *err)
{
	const struct sqfs_super *sb = &fs->img.sb;
	if (sqfs_decoder_init(&fs->dec, &fs->img, err))
		return -1;
	if (sqfs_tables_open(&fs->tables, &fs->dec, err)) {
		sqfs_decoder_free(&fs->dec);
		return -1;
	}
	fs->inodes = malloc(sizeof(*fs->inodes));
	fs->dirs = malloc(sizeof(*fs->dirs));
	fs->xattrs = NULL;
	if (fs->tables.xattr.count > 0)
		fs->xattrs = malloc(sizeof(*fs->xattrs));
	if (fs->inodes == NULL || fs->dirs == NULL || (fs->tables.xattr.count > 0 && fs->xattrs == NULL)) {
		sqfs_fs_close(fs);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory opening the image");
	}
	sqfs_meta_reader_init(fs->inodes, &fs->dec, sb->inode_table, fs->tables.inode_end, "inode table");
	sqfs_meta_reader_init(fs->dirs, &fs->dec, sb->directory_table, fs->tables.dir_end, "directory table");
	if (fs->xattrs != NULL)
		sqfs_xattr_reader_init(fs->xattrs, &fs->dec, &fs->tables);
	return 0;
}

int sqfs_fs_open_fd(struct sqfs_fs *fs, int fd, uint64_t base, struct sq_error *err)
{
	memset(fs, 0, sizeof(*fs));
	if (sqfs_image_open_fd(&fs->img, fd, base, err))
		return -1;
	return finish_open(fs, err);
}

int sqfs_fs_open_mem(struct sqfs_fs *fs, const uint8_t *mem, size_t len, struct sq_error *err)
{
	memset(fs, 0, sizeof(*fs));
	if (sqfs_image_open_mem(&fs->img, mem, len, err))
		return -1;
	return finish_open(fs, err);
}

void sqfs_fs_close(struct sqfs_fs *fs)
{
	free(fs->inodes);
	free(fs->dirs);
	free(fs->xattrs);
	fs->inodes = fs->dirs = fs->xattrs = NULL;
	sqfs_tables_close(&fs->tables);
	sqfs_decoder_free(&fs->dec);
}

int sqfs_fs_inode(struct sqfs_fs *fs, uint64_t ref, struct sqfs_inode *ino, struct sq_error *err)
{
	return sqfs_inode_read(fs->inodes, ref, fs->img.sb.block_size, fs->img.sb.inode_count, ino, err);
}

int sqfs_fs_root(struct sqfs_fs *fs, struct sqfs_inode *ino, struct sq_error *err)
{
	if (sqfs_fs_inode(fs, fs->img.sb.root_inode, ino, err))
		return -1;
	if (ino->type != SQFS_INODE_DIR) {
		sqfs_inode_free(ino);
		return sq_fail(err, SQ_ERR_CORRUPT, "the root inode is not a directory");
	}
	return 0;
}

int sqfs_fs_owner(const struct sqfs_fs *fs, const struct sqfs_inode *ino, uint32_t *uid, uint32_t *gid,
		  struct sq_error *err)
{
	if (sqfs_tables_id(&fs->tables, ino->uid_idx, uid, err) || sqfs_tables_id(&fs->tables, ino->gid_idx, gid, err))
		return -1;
	return 0;
}

int sqfs_fs_xattrs(struct sqfs_fs *fs, const struct sqfs_inode *ino, struct sqfs_xattr_list *out,
		   struct sq_error *err)
{
	out->items = NULL;
	out->count = 0;
	if (ino->xattr == SQFS_NO_XATTR)
		return 0;
	if (fs->xattrs == NULL)
		return sq_fail(err, SQ_ERR_CORRUPT, "inode %u has xattrs but the image has no xattr table", ino->number);
	return sqfs_xattr_read(&fs->tables, fs->xattrs, ino->xattr, out, err);
}

int sqfs_fs_lookup(struct sqfs_fs *fs, const char *path, struct sqfs_inode *ino, struct sq_error *err)
{
	if (sqfs_fs_root(fs, ino, err))
		return -1;
	const char *p = path;
	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			return 1;
		size_t len = strcspn(p, "/");
		if (ino->type != SQFS_INODE_DIR) {
			sqfs_inode_free(ino);
			return 0;
		}
		struct sqfs_dir_iter it;
		struct sqfs_dirent ent;
		if (sqfs_dir_open(&it, fs->dirs, ino, fs->img.sb.inode_count, err))
			return -1;
		int rc, found = 0;
		while ((rc = sqfs_dir_next(&it, &ent, err)) == 1) {
			if (ent.name_len == len && memcmp(ent.name, p, len) == 0) {
				found = 1;
				break;
			}
		}
		if (rc < 0)
			return -1;
		if (!found)
			return 0;
		if (sqfs_fs_inode(fs, ent.inode_ref, ino, err))
			return -1;
		if (ino->type != ent.type) {
			sq_fail(err, SQ_ERR_CORRUPT, "entry \"%s\" claims type %u but its inode has type %u", ent.name,
				ent.type, ino->type);
			sqfs_inode_free(ino);
			return -1;
		}
		p += len;
	}
}

int sqfs_file_reader_init(struct sqfs_file_reader *fr, struct sqfs_fs *fs, struct sqfs_decoder *dec,
			  struct sq_error *err)
{
	memset(fr, 0, sizeof(*fr));
	fr->fs = fs;
	fr->dec = dec;
	fr->block = malloc(fs->img.sb.block_size);
	fr->frag = malloc(fs->img.sb.block_size);
	if (fr->block == NULL || fr->frag == NULL) {
		sqfs_file_reader_free(fr);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for file data buffers");
	}
	return 0;
}

void sqfs_file_reader_free(struct sqfs_file_reader *fr)
{
	free(fr->block);
	free(fr->frag);
	fr->block = fr->frag = NULL;
}

int sqfs_fs_fragment(struct sqfs_fs *fs, const struct sqfs_inode *ino, uint64_t *start, uint32_t *word,
		     struct sq_error *err)
{
	*start = 0;
	*word = 0;
	if (ino->u.file.frag == SQFS_NO_FRAGMENT)
		return 0;
	return sqfs_tables_fragment(&fs->tables, ino->u.file.frag, start, word, err);
}

static int load_fragment(struct sqfs_file_reader *fr, uint64_t start, uint32_t word, struct sq_error *err)
{
	if (fr->frag_valid && fr->frag_start == start && fr->frag_word == word)
		return 0;
	fr->frag_valid = 0;
	uint32_t disk = word & SQFS_DATA_SIZE_MASK;
	if (word & ~(SQFS_DATA_SIZE_MASK | SQFS_DATA_UNCOMPRESSED))
		return sq_fail(err, SQ_ERR_CORRUPT, "fragment at %" PRIu64 ": bad size word 0x%08x", start, word);
	if (disk == 0)
		return sq_fail(err, SQ_ERR_CORRUPT, "fragment at %" PRIu64 " has size 0", start);
	if (sqfs_decoder_read_block(fr->dec, start, disk, !(word & SQFS_DATA_UNCOMPRESSED), fr->frag,
				    fr->fs->img.sb.block_size, &fr->frag_len, "fragment block", err))
		return -1;
	fr->frag_start = start;
	fr->frag_word = word;
	fr->frag_valid = 1;
	return 0;
}

int sqfs_file_reader_tail(struct sqfs_file_reader *fr, uint64_t frag_start, uint32_t frag_word,
			  uint32_t frag_offset, uint64_t len, struct sq_error *err)
{
	if (load_fragment(fr, frag_start, frag_word, err))
		return -1;
	if (frag_offset > fr->frag_len || len > fr->frag_len - frag_offset)
		return sq_fail(err, SQ_ERR_CORRUPT, "a file tail lies outside its fragment block at %" PRIu64,
			       frag_start);
	return 0;
}

int sqfs_file_read(struct sqfs_file_reader *fr, const struct sqfs_inode *ino, uint64_t frag_start,
		   uint32_t frag_word, sqfs_data_sink sink, void *arg, struct sq_error *err)
{
	const uint32_t bs = fr->fs->img.sb.block_size;
	const uint64_t size = ino->u.file.size;
	uint64_t pos = ino->u.file.blocks_start;
	uint64_t off = 0;
	struct sqfs_blocklist bl;
	sqfs_blocklist_start(&bl, fr->fs->inodes, ino);
	for (uint32_t i = 0; i < ino->u.file.nblocks; i++) {
		uint32_t word;
		if (sqfs_blocklist_next(&bl, &word, err))
			return -1;
		size_t want = size - off < bs ? (size_t)(size - off) : bs;
		if (word == 0) {
			if (sink(arg, off, NULL, want, err))
				return -1;
		} else {
			if (sqfs_decoder_read_data(fr->dec, pos, word, fr->block, want, "data block", err))
				return -1;
			if (sink(arg, off, fr->block, want, err))
				return -1;
			pos += word & SQFS_DATA_SIZE_MASK;
		}
		off += want;
	}
	if (off < size) {
		if (ino->u.file.frag == SQFS_NO_FRAGMENT)
			return sq_fail(err, SQ_ERR_CORRUPT, "inode %u: file data ends early", ino->number);
		uint64_t tail = size - off;
		if (sqfs_file_reader_tail(fr, frag_start, frag_word, ino->u.file.frag_offset, tail, err))
			return -1;
		if (sink(arg, off, fr->frag + ino->u.file.frag_offset, (size_t)tail, err))
			return -1;
	}
	return 0;
}
