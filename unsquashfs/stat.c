/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stat.c — the superblock report of unsquashfs -s. */
#include "config.h"
#include "unsquashfs/stat.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

static const char *un(int flag_set)
{
	return flag_set ? "un" : "";
}

void unsq_print_stat(const struct sqfs_image *img, const char *image_name, int utc, uint32_t xattr_ids)
{
	const struct sqfs_super *sb = &img->sb;
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
	printf("Compression %s\n", img->codec->name);
	if (img->has_options_block && img->codec->print_options != NULL) {
		fflush(stdout);
		img->codec->print_options(&img->opts, stdout);
	}
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
