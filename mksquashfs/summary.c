/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* summary.c — sizes, ratios and counts after a successful build. */
#include "config.h"
#include "mksquashfs/summary.h"

#include <grp.h>
#include <pwd.h>
#include <stdlib.h>

#include "common/util/sizes.h"

struct id_set {
	uint32_t *ids;
	size_t count, cap;
};

static int id_add(struct id_set *s, uint32_t id)
{
	for (size_t i = 0; i < s->count; i++)
		if (s->ids[i] == id)
			return 0;
	uint32_t *grown = sq_grow(s->ids, &s->cap, s->count + 1, sizeof(*grown), 16);
	if (grown == NULL)
		return -1;
	s->ids = grown;
	s->ids[s->count++] = id;
	return 0;
}

/* Ids in first-seen order, walking the tree depth first (each directory before its entries). */
static int collect_ids(const struct tree_inode *n, struct id_set *uids, struct id_set *gids)
{
	if (id_add(uids, n->uid) != 0 || id_add(gids, n->gid) != 0)
		return -1;
	if (n->dir == NULL)
		return 0;
	for (uint32_t i = 0; i < n->dir->count; i++)
		if (collect_ids(n->dir->entries[i].inode, uids, gids) != 0)
			return -1;
	return 0;
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0.0;
}

static void print_table(FILE *out, const char *name, uint64_t stored, uint64_t raw)
{
	fprintf(out, "%s table size %llu bytes (%.2f Kbytes)\n", name, (unsigned long long)stored,
		(double)stored / 1024.0);
	fprintf(out, "\t%.2f%% of uncompressed %s table size (%llu bytes)\n", percent(stored, raw),
		name[0] == 'I' ? "inode" : name[0] == 'D' ? "directory" : "xattr",
		(unsigned long long)raw);
}

/* How the image keeps xattrs. A build configured --without-xattr reads none from the sources:
 * unless a tar archive or a pseudo definition stored some, it says "no xattrs", as
 * squashfs-tools built without xattrs does. */
static const char *xattrs_word(const struct image_settings *img, const struct image_stats *is)
{
#ifndef HAVE_XATTR
	if (is->xattr_table_bytes == 0)
		return "no";
#else
	(void)is;
#endif
	return img->no_xattrs ? "no" : img->uncompressed_xattrs ? "uncompressed" : "compressed";
}

int summary_print(FILE *out, const struct summary_input *in)
{
	const struct image_settings *img = in->image;
	const struct image_stats *is = in->image_stats;
	const struct data_stats *ds = in->data_stats;
	struct id_set uids = { 0 }, gids = { 0 };
	if (in->tree->root != NULL && collect_ids(in->tree->root, &uids, &gids) != 0) {
		free(uids.ids);
		free(gids.ids);
		return -1;
	}
	bool metadata_raw = img->uncompressed_inodes;
	fprintf(out, "\n%sSquashfs 4.0 filesystem, %s compressed, data block size %u\n",
		img->exportable ? "Exportable " : "", img->codec->name, img->block_size);
	fprintf(out, "\t%s data, %s metadata, %s fragments,\n",
		img->uncompressed_data ? "uncompressed" : "compressed",
		metadata_raw ? "uncompressed" : "compressed",
		img->no_fragments ? "no" : img->uncompressed_fragments ? "uncompressed" : "compressed");
	fprintf(out, "\t%s xattrs, %s ids\n", xattrs_word(img, is),
		img->uncompressed_ids || metadata_raw ? "uncompressed" : "compressed");
	fprintf(out, "\tduplicates are %sremoved\n", img->duplicates ? "" : "not ");

	uint64_t raw_total = ds->bytes_in + is->inode_table_raw + is->dir_table_raw +
			     is->xattr_table_raw + is->fragment_table_bytes + is->export_table_bytes +
			     is->id_table_bytes;
	fprintf(out, "Filesystem size %.2f Kbytes (%.2f Mbytes)\n", (double)is->bytes_used / 1024.0,
		(double)is->bytes_used / (1024.0 * 1024.0));
	fprintf(out, "\t%.2f%% of uncompressed filesystem size (%.2f Kbytes)\n",
		percent(is->bytes_used, raw_total), (double)raw_total / 1024.0);
	print_table(out, "Inode", is->inode_table_bytes, is->inode_table_raw);
	print_table(out, "Directory", is->dir_table_bytes, is->dir_table_raw);
	if (is->xattr_table_bytes > 0)
		print_table(out, "Xattr", is->xattr_table_bytes, is->xattr_table_raw);
	fprintf(out, "Number of duplicate files found %u\n", ds->duplicate_files);
	fprintf(out, "Number of inodes %u\n", is->inode_count);
	fprintf(out, "Number of files %u\n", is->file_count);
	fprintf(out, "Number of fragments %u\n", is->fragment_count);
	fprintf(out, "Number of symbolic links %u\n", is->symlink_count);
	fprintf(out, "Number of device nodes %u\n", is->blkdev_count + is->chrdev_count);
	fprintf(out, "Number of fifo nodes %u\n", is->fifo_count);
	fprintf(out, "Number of socket nodes %u\n", is->socket_count);
	fprintf(out, "Number of directories %u\n", is->dir_count);
	fprintf(out, "Number of hard-links %u\n", in->scan_stats->hard_links);
	fprintf(out, "Number of ids (unique uids + gids) %u\n", is->id_count);
	fprintf(out, "Number of uids %zu\n", uids.count);
	for (size_t i = 0; i < uids.count; i++) {
		struct passwd *p = getpwuid(uids.ids[i]);
		fprintf(out, "\t%s (%u)\n", p ? p->pw_name : "unknown", uids.ids[i]);
	}
	fprintf(out, "Number of gids %zu\n", gids.count);
	for (size_t i = 0; i < gids.count; i++) {
		struct group *g = getgrgid(gids.ids[i]);
		fprintf(out, "\t%s (%u)\n", g ? g->gr_name : "unknown", gids.ids[i]);
	}
	free(uids.ids);
	free(gids.ids);
	return 0;
}

void summary_print_skipped(FILE *out, const struct scan_stats *scan, const struct data_stats *data)
{
	if (scan->skipped == 0 && data->unreadable_files == 0 && data->changed_files == 0)
		return;
	fprintf(out, "mksquashfs: sources not stored as found: %u unreadable or vanished entries "
		     "left out, %u unreadable files stored empty, %u files changed while read\n",
		scan->skipped, data->unreadable_files, data->changed_files);
}
