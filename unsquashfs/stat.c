/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stat.c — the superblock report of unsquashfs -s, and -s and -mkfs-time of an image whose
 * compressor this build lacks. */
#include "config.h"
#include "unsquashfs/stat.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "common/util/endian.h"
#include "common/util/io.h"

static const char *un(int flag_set)
{
	return flag_set ? "un" : "";
}

/* The compressor's options block: a built-out compressor (no read_options) cannot parse it,
 * which is said in squashfs-tools' words; opts is NULL when the image has none. */
static void print_options(const struct sqfs_super *sb, const struct codec *codec, const struct codec_opts *opts)
{
	if ((sb->flags & SQFS_FLAG_COMPRESSOR_OPTIONS) && codec->read_options == NULL) {
		printf("\tCould not display compressor options, because %s compression is not supported\n",
		       codec->name);
	} else if (opts != NULL && codec->print_options != NULL) {
		fflush(stdout);
		codec->print_options(opts, stdout);
	}
}

static void print_stat(const struct sqfs_super *sb, const struct codec *codec, const struct codec_opts *opts,
		       const char *image_name, int utc, uint32_t xattr_ids)
{
	unsigned f = sb->flags;
	time_t t = (time_t)sb->mod_time;
	struct tm tm;
	char when[64];
	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);

	printf("Found a valid SQUASHFS 4:0 superblock on %s.\n", image_name);
	printf("Creation or last append time %s\n", when);
	printf("Filesystem size %" PRIu64 " bytes (%.2f Kbytes / %.2f Mbytes)\n", sb->bytes_used,
	       (double)sb->bytes_used / 1024.0, (double)sb->bytes_used / (1024.0 * 1024.0));
	printf("Compression %s\n", codec->name);
	print_options(sb, codec, opts);
	printf("Block size %" PRIu32 "\n", sb->block_size);
	printf("Filesystem is %sexportable via NFS\n", (f & SQFS_FLAG_EXPORTABLE) ? "" : "not ");
	printf("Inodes are %scompressed\n", un(f & SQFS_FLAG_UNCOMPRESSED_INODES));
	printf("Data is %scompressed\n", un(f & SQFS_FLAG_UNCOMPRESSED_DATA));
	/* squashfs-tools 4.5.1 never sets the ids flag and words this after the inodes flag. */
	printf("Uids/Gids (Id table) are %scompressed\n",
	       un(f & (SQFS_FLAG_UNCOMPRESSED_INODES | SQFS_FLAG_UNCOMPRESSED_IDS)));
	if (f & SQFS_FLAG_NO_FRAGMENTS) {
		printf("Fragments are not stored\n");
	} else {
		printf("Fragments are %scompressed\n", un(f & SQFS_FLAG_UNCOMPRESSED_FRAGMENTS));
		printf("Always-use-fragments option is %sspecified\n", (f & SQFS_FLAG_ALWAYS_FRAGMENTS) ? "" : "not ");
	}
	if (f & SQFS_FLAG_NO_XATTRS)
		printf("Xattrs are not stored\n");
	else
		printf("Xattrs are %scompressed\n", un(f & SQFS_FLAG_UNCOMPRESSED_XATTRS));
	printf("Duplicates are %sremoved\n", (f & SQFS_FLAG_DUPLICATES) ? "" : "not ");
	printf("Number of fragments %" PRIu32 "\n", sb->fragment_count);
	printf("Number of inodes %" PRIu32 "\n", sb->inode_count);
	printf("Number of ids %u\n", sb->id_count);
	if (!(f & SQFS_FLAG_NO_XATTRS))
		printf("Number of xattr ids %" PRIu32 "\n", xattr_ids);
}

void unsq_print_stat(const struct sqfs_image *img, const char *image_name, int utc, uint32_t xattr_ids)
{
	print_stat(&img->sb, img->codec, img->has_options_block ? &img->opts : NULL, image_name, utc, xattr_ids);
}

/* The count in the xattr id table's header (stored uncompressed), checked as the usual open
 * checks it; 0 when the image keeps no xattrs. */
static int xattr_id_count(int fd, uint64_t base, const struct sqfs_super *sb, uint32_t *count,
			  struct sq_error *err)
{
	uint8_t h[SQFS_XATTR_ID_TABLE_HEADER_SIZE];
	*count = 0;
	if ((sb->flags & SQFS_FLAG_NO_XATTRS) || sb->xattr_id_table == SQFS_NO_TABLE)
		return 0;
	if (sb->xattr_id_table > sb->bytes_used || sb->bytes_used - sb->xattr_id_table < sizeof(h) ||
	    sq_pread_full(fd, h, sizeof(h), base + sb->xattr_id_table) != (ssize_t)sizeof(h))
		return sq_fail(err, SQ_ERR_CORRUPT, "image is truncated: cannot read the xattr id table");
	uint64_t kv_start = get_le64(h);
	if (kv_start < SQFS_SUPER_SIZE || kv_start > sb->xattr_id_table)
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr id table: key/value table at %" PRIu64 " is outside the image",
			       kv_start);
	*count = get_le32(h + 8);
	return 0;
}

int unsq_stat_built_out(int fd, const struct unsq_options *o, struct sq_error *err)
{
	uint8_t raw[SQFS_SUPER_SIZE];
	struct sqfs_super sb;
	struct sq_error ignored;
	sq_error_clear(&ignored);
	/* Anything wrong with the superblock or the file's length: the usual open says what. */
	off_t end = lseek(fd, 0, SEEK_END);
	if (end < 0 || (uint64_t)end < o->offset ||
	    sq_pread_full(fd, raw, sizeof(raw), o->offset) != (ssize_t)sizeof(raw) ||
	    sqfs_super_decode(&sb, raw, &ignored) != 0 || sb.bytes_used > (uint64_t)end - o->offset)
		return 0;
	const struct codec *codec = codec_by_id(sb.compressor);
	if (codec == NULL || codec->decompress != NULL)
		return 0;
	if (o->mode == UNSQ_MKFS_TIME) {
		printf("%u\n", sb.mod_time);
		return 1;
	}
	uint32_t xattr_ids;
	if (xattr_id_count(fd, o->offset, &sb, &xattr_ids, err))
		return -1;
	print_stat(&sb, codec, NULL, o->image, o->utc, xattr_ids);
	return 1;
}
