/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* file_list.c — collecting the finished tree's regular files in data order. */
#include "config.h"
#include "mksquashfs/file_list.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/path.h"
#include "common/util/sizes.h"

/* Pass one marks each file to list (hard links share an inode: marked once) and counts them. */
static size_t count_files(struct tree_inode *dir)
{
	size_t count = 0;
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *n = dir->dir->entries[i].inode;
		if (n->dir != NULL) {
			count += count_files(n);
		} else if (n->file != NULL && n->inode_number == 0 && !(n->flags & TREE_STORED)) {
			n->inode_number = 1;
			count++;
		}
	}
	return count;
}

/* inode_number belongs to the writer; it is borrowed here as a "to list" mark (set by
 * count_files) and cleared as each file is listed, so hard links are listed once. */
static int collect(struct file_list *f, struct tree_inode *dir, const char *prefix,
		   bool with_paths, struct sq_error *err)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_entry *e = &dir->dir->entries[i];
		struct tree_inode *n = e->inode;
		if (n->dir == NULL && n->inode_number != 1)
			continue;
		char *path = NULL;
		if (with_paths && (path = sq_path_join(prefix, e->name)) == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		if (n->dir != NULL) {
			int rc = collect(f, n, path, with_paths, err);
			free(path);
			if (rc != 0)
				return -1;
			continue;
		}
		n->inode_number = 0;
		if (path != NULL)
			f->image_paths[f->count] = path;
		f->files[f->count++] = n;
		f->total_bytes += n->file->size;
	}
	return 0;
}

/* Clear the marks of files not listed (a failure part way). */
static void unmark(struct tree_inode *dir)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *n = dir->dir->entries[i].inode;
		if (n->dir != NULL)
			unmark(n);
		else if (n->file != NULL)
			n->inode_number = 0;
	}
}

int file_list_build(struct tree *tree, bool with_paths, struct file_list *files,
		    struct sq_error *err)
{
	memset(files, 0, sizeof(*files));
	size_t count = count_files(tree->root);
	int rc = 0;
	if (count > 0) {
		files->files = tree_alloc(tree, count * sizeof(*files->files), err);
		files->files_in_arena = true;
		if (files->files == NULL)
			rc = -1;
	}
	if (rc == 0 && with_paths && count > 0 &&
	    (files->image_paths = sq_alloc_array(count, sizeof(char *))) == NULL)
		rc = sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	if (rc == 0)
		rc = collect(files, tree->root, "/", with_paths, err);
	if (rc != 0) {
		unmark(tree->root);
		file_list_free(files);
	}
	return rc;
}

void file_list_free(struct file_list *files)
{
	if (files->image_paths != NULL)
		for (size_t i = 0; i < files->count; i++)
			free(files->image_paths[i]);
	free(files->image_paths);
	if (!files->files_in_arena)
		free(files->files);
	memset(files, 0, sizeof(*files));
}
