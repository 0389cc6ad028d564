/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* append.c — opening an existing image for appending: checks that refuse what cannot be appended
 * to, the fragment table and tree it contributes, the settings it imposes, and the steps that
 * bracket the writing (protect before the first byte changes, finish after the last). */
#include "config.h"
#include "mksquashfs/append/append.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fs_read.h"
#include "common/util/endian.h"
#include "common/util/io.h"
#include "common/util/sizes.h"
#include "common/util/xxhash64.h"
#include "mksquashfs/append/read_tree.h"
#include "mksquashfs/append/recovery.h"

/* Bytes after the filesystem (beyond its 4 KiB padding) that appending may overwrite and a
 * restore must put back; more than this is refused rather than held in memory. */
#define MAX_TRAILING (1u << 20)
#define FINGERPRINT_MAX (64u * 1024u)

static uint64_t round_up_4k(uint64_t v)
{
	return (v + SQFS_DEVBLK_SIZE - 1) & ~(uint64_t)(SQFS_DEVBLK_SIZE - 1);
}

/* Before the full reader: a file that is not a squashfs image at all gets squashfs-tools'
 * advice, and one whose magic an interrupted append cleared gets pointed at -recover. */
static int check_magic(struct append_image *a, struct sq_error *err)
{
	uint8_t sb[SQFS_SUPER_SIZE];
	ssize_t got = a->base <= a->file_len && a->file_len - a->base >= sizeof(sb)
			      ? sq_pread_full(a->fd, sb, sizeof(sb), a->base)
			      : 0;
	if (got < 0)
		return sq_fail_errno(err, "cannot read image %s", a->path);
	if ((size_t)got == sizeof(sb) && get_le32(sb) == SQFS_MAGIC) {
		memcpy(a->sb_raw, sb, sizeof(sb));
		return 0;
	}
	if ((size_t)got == sizeof(sb) && get_le32(sb) == 0 && get_le16(sb + 28) == 4 &&
	    get_le16(sb + 30) == 0)
		return sq_fail(err, SQ_ERR_CORRUPT,
			       "%s is a squashfs image whose append was interrupted: restore it with "
			       "-recover, or use -noappend to overwrite it", a->path);
	return sq_fail(err, SQ_ERR_USAGE,
		       "%s exists and is not a squashfs filesystem: will not overwrite it; use "
		       "-noappend to overwrite it", a->path);
}

static int read_fragments(struct append_image *a, struct sqfs_fs *fs, struct sq_error *err)
{
	a->frag_count = fs->tables.frag.count;
	if (a->frag_count == 0)
		return 0;
	a->frags = sq_alloc_array(a->frag_count, sizeof(*a->frags));
	if (a->frags == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for %u fragments",
			       (unsigned)a->frag_count);
	for (uint32_t i = 0; i < a->frag_count; i++) {
		uint64_t start;
		uint32_t word;
		if (sqfs_tables_fragment(&fs->tables, i, &start, &word, err) != 0)
			return -1;
		uint32_t size = word & SQFS_DATA_SIZE_MASK;
		if ((word & ~(SQFS_DATA_SIZE_MASK | SQFS_DATA_UNCOMPRESSED)) != 0 || size == 0 ||
		    size > a->sb.block_size || start < a->data_start || start > a->data_end ||
		    size > a->data_end - start)
			return sq_fail(err, SQ_ERR_CORRUPT,
				       "fragment %u (%u bytes at %llu) lies outside the data area",
				       (unsigned)i, (unsigned)size, (unsigned long long)start);
		a->frags[i].start = start;
		a->frags[i].size_word = word;
	}
	return 0;
}

/* What appending overwrites: from the old inode table to the end of the image, its padding and
 * whatever little follows it in a regular file; and a fingerprint of the data just before. */
static int save_tail(struct append_image *a, struct sq_error *err)
{
	uint64_t end = a->base + a->sb.bytes_used;
	uint64_t save_end = a->regular ? a->file_len : round_up_4k(end);
	if (save_end > a->file_len)
		save_end = a->file_len;
	if (a->regular && save_end > round_up_4k(end) && save_end - round_up_4k(end) > MAX_TRAILING)
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "%s has %llu bytes after its filesystem that appending would overwrite",
			       a->path, (unsigned long long)(save_end - end));
	uint64_t from = a->base + a->data_end;
	a->saved_len = (size_t)(save_end - from);
	a->saved = malloc(a->saved_len ? a->saved_len : 1);
	if (a->saved == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the tables of %s", a->path);
	ssize_t got = sq_pread_full(a->fd, a->saved, a->saved_len, from);
	if (got < 0 || (size_t)got != a->saved_len)
		return got < 0 ? sq_fail_errno(err, "cannot read image %s", a->path)
			       : sq_fail(err, SQ_ERR_CORRUPT, "image %s is truncated", a->path);

	uint64_t fp_from = a->data_end - a->data_start > FINGERPRINT_MAX
				   ? a->data_end - FINGERPRINT_MAX
				   : a->data_start;
	a->fingerprint_len = (uint32_t)(a->data_end - fp_from);
	uint8_t *buf = malloc(a->fingerprint_len ? a->fingerprint_len : 1);
	if (buf == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	got = sq_pread_full(a->fd, buf, a->fingerprint_len, a->base + fp_from);
	if (got == (ssize_t)a->fingerprint_len)
		a->fingerprint = sq_xxh64(buf, a->fingerprint_len, 0);
	free(buf);
	if (got != (ssize_t)a->fingerprint_len)
		return sq_fail_errno(err, "cannot read image %s", a->path);
	return 0;
}

static int read_image(struct append_image *a, struct sqfs_fs *fs, struct tree *tree,
		      struct sq_error *err)
{
	a->sb = fs->img.sb;
	a->codec = fs->img.codec;
	a->codec_opts = fs->img.opts;
	a->data_start = SQFS_SUPER_SIZE;
	if (fs->img.has_options_block) {
		uint8_t hdr[2];
		if (sqfs_image_read(&fs->img, SQFS_SUPER_SIZE, hdr, 2, "options block", err) != 0)
			return -1;
		a->data_start += 2 + (get_le16(hdr) & SQFS_META_SIZE_MASK);
	}
	a->data_end = a->sb.inode_table;
	if (a->data_end < a->data_start)
		return sq_fail(err, SQ_ERR_CORRUPT, "the inode table starts inside the superblock");
	if (read_fragments(a, fs, err) != 0)
		return -1;
	struct read_limits lim = { .data_start = a->data_start, .data_end = a->data_end,
				   .frag_count = a->frag_count };
	if (append_read_tree(fs, &lim, tree, &a->root, &a->inodes_read, &a->file_bytes, err) != 0)
		return -1;
	return save_tail(a, err);
}

int append_read(struct append_image *a, const char *path, int fd, uint64_t base,
		struct tree *tree, struct sq_error *err)
{
	memset(a, 0, sizeof(*a));
	a->path = path;
	a->fd = fd;
	a->base = base;
	struct stat st;
	if (fstat(fd, &st) != 0)
		return sq_fail_errno(err, "cannot stat image %s", path);
	a->regular = S_ISREG(st.st_mode);
	if (a->regular) {
		a->file_len = (uint64_t)st.st_size;
	} else {
		off_t end = lseek(fd, 0, SEEK_END);
		if (end < 0)
			return sq_fail_errno(err, "cannot find the size of %s", path);
		a->file_len = (uint64_t)end;
	}
	if (check_magic(a, err) != 0)
		return -1;
	struct sq_error e;
	struct sqfs_fs fs;
	sq_error_clear(&e);
	if (sqfs_fs_open_fd(&fs, fd, base, &e) != 0)
		return sq_fail(err, e.code, "cannot append to %s: %s", path, e.msg);
	int rc = read_image(a, &fs, tree, &e);
	sqfs_fs_close(&fs);
	if (rc != 0)
		return sq_fail(err, e.code, "cannot append to %s: %s", path, e.msg);
	return 0;
}

int append_settings(const struct append_image *a, const struct mksq_options *o,
		    struct image_settings *s, struct sq_error *err)
{
	if (!a->codec->supported)
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "%s is compressed with %s: this mksquashfs reads %s but cannot write it "
			       "(%s)", a->path, a->codec->name, a->codec->name,
			       a->codec->unsupported_why);
	if (o->comp_given && o->image.codec != a->codec)
		return sq_fail(err, SQ_ERR_USAGE,
			       "%s is compressed with %s: appending cannot change it to %s (use "
			       "-noappend to write a new image)", a->path, a->codec->name,
			       o->image.codec->name);
	if (o->block_size_given && o->image.block_size != a->sb.block_size)
		return sq_fail(err, SQ_ERR_USAGE,
			       "%s has %u-byte blocks: appending cannot change it to %u (use "
			       "-noappend to write a new image)", a->path, (unsigned)a->sb.block_size,
			       (unsigned)o->image.block_size);
	uint16_t f = a->sb.flags;
	*s = o->image;
	s->codec = a->codec;
	s->codec_opts = a->codec_opts;
	s->block_size = a->sb.block_size;
	s->uncompressed_inodes = f & SQFS_FLAG_UNCOMPRESSED_INODES;
	s->uncompressed_data = f & SQFS_FLAG_UNCOMPRESSED_DATA;
	s->uncompressed_fragments = f & SQFS_FLAG_UNCOMPRESSED_FRAGMENTS;
	s->uncompressed_xattrs = f & SQFS_FLAG_UNCOMPRESSED_XATTRS;
	s->uncompressed_ids = (f & SQFS_FLAG_UNCOMPRESSED_IDS) || s->uncompressed_inodes;
	s->no_fragments = f & SQFS_FLAG_NO_FRAGMENTS;
	s->always_fragments = f & SQFS_FLAG_ALWAYS_FRAGMENTS;
	s->duplicates = f & SQFS_FLAG_DUPLICATES;
	s->exportable = (f & SQFS_FLAG_EXPORTABLE) && a->sb.export_table != SQFS_NO_TABLE;
	/* As squashfs-tools: an image made with -no-xattrs gets none, others get the new files'
	 * whatever -no-xattrs or -xattrs says now. */
	s->no_xattrs = f & SQFS_FLAG_NO_XATTRS;
	return 0;
}

struct tree_inode *append_base(struct append_image *a, const char *root_becomes,
			       struct sq_error *err)
{
	struct tree_inode *old = a->root;
	if (root_becomes == NULL || old == NULL) {
		a->root = NULL;
		return old;
	}
	struct tree_inode *base = tree_inode_new(S_IFDIR | 0755, err);
	if (base == NULL)
		return NULL;
	if (tree_dir_add(base, root_becomes, strlen(root_becomes), old, err) != 0) {
		tree_inode_free(base);
		return NULL;
	}
	a->root = NULL;
	return base;
}

int append_protect(struct append_image *a, const struct mksq_options *o, struct image_out *out,
		   FILE *msg, struct sq_error *err)
{
	if (!o->append.no_recovery && recovery_write(a, o, &a->recovery_file, err) != 0)
		return -1;
	if (msg != NULL && a->recovery_file != NULL) {
		fprintf(msg, "Recovery file \"%s\" written\n", a->recovery_file);
		fprintf(msg, "If Mksquashfs aborts abnormally (i.e. power failure), run\n");
		fprintf(msg, "mksquashfs - %s -recover %s\nto restore filesystem\n\n", a->path,
			a->recovery_file);
		fflush(msg);
	}
	a->restore = (struct image_restore){
		.super_pos = a->base,
		.super = a->sb_raw,
		.saved_pos = a->base + a->data_end,
		.saved = a->saved,
		.saved_len = a->saved_len,
		.file_len = a->file_len,
		.truncate = a->regular,
		.recovery_file = a->recovery_file,
	};
	out->restore = &a->restore;
	/* A crash from here on leaves an image that does not mount rather than one whose tables
	 * are half overwritten (squashfs-tools does the same); -recover puts it back. */
	static const uint8_t no_magic[4];
	if (image_out_pwrite(out, no_magic, sizeof(no_magic), 0, err) != 0)
		return -1;
	if (fdatasync(out->fd) != 0 && errno != EINVAL && errno != EROFS)
		return sq_fail_errno(err, "cannot flush image %s", a->path);
	out->pos = a->data_end; /* image positions: out->base is the offset */
	return 0;
}

int append_finish(struct append_image *a, struct image_out *out, struct sq_error *err)
{
	if (!a->regular)
		return 0;
	struct stat st;
	if (fstat(out->fd, &st) != 0)
		return sq_fail_errno(err, "cannot stat image %s", a->path);
	if ((uint64_t)st.st_size > out->base + out->pos)
		return image_out_truncate(out, out->pos, err);
	return 0;
}

void append_forget_recovery(struct append_image *a)
{
	free(a->recovery_file);
	a->recovery_file = NULL;
	a->restore.recovery_file = NULL;
}

void append_free(struct append_image *a)
{
	struct tree t = { .root = a->root };
	tree_free(&t);
	a->root = NULL;
	free(a->saved);
	free(a->frags);
	free(a->recovery_file);
	a->saved = NULL;
	a->frags = NULL;
	a->recovery_file = NULL;
}
