/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* file_list.c — collecting the finished tree's regular files in data order. */
#include "config.h"
#include "mksquashfs/file_list.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/path.h"
#include "common/util/sizes.h"

static int list_add(struct file_list *f, struct tree_inode *n, char *path, struct sq_error *err)
{
	if (f->count == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		struct tree_inode **grown = sq_realloc_array(f->files, cap, sizeof(*grown));
		if (grown == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		f->files = grown;
		if (path != NULL) {
			char **paths = sq_realloc_array(f->image_paths, cap, sizeof(*paths));
			if (paths == NULL)
				return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
			f->image_paths = paths;
		}
		f->cap = cap;
	}
	if (path != NULL)
		f->image_paths[f->count] = path;
	f->files[f->count++] = n;
	f->total_bytes += n->file->size;
	return 0;
}

/* inode_number belongs to the writer; it is borrowed here as a "listed" mark and reset after. */
static int collect(struct file_list *f, struct tree_inode *dir, const char *prefix,
		   bool with_paths, struct sq_error *err)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_entry *e = &dir->dir->entries[i];
		struct tree_inode *n = e->inode;
		bool listed = n->file != NULL && n->inode_number == 0 && !(n->flags & TREE_STORED);
		if (n->dir == NULL && !listed)
			continue;
		char *path = NULL;
		if (with_paths && (path = sq_path_join(prefix, e->name)) == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		int rc;
		if (n->dir != NULL) {
			rc = collect(f, n, path, with_paths, err);
			free(path);
		} else {
			n->inode_number = 1;
			rc = list_add(f, n, path, err);
			if (rc != 0)
				free(path);
		}
		if (rc != 0)
			return -1;
	}
	return 0;
}

int file_list_build(struct tree *tree, bool with_paths, struct file_list *files,
		    struct sq_error *err)
{
	memset(files, 0, sizeof(*files));
	int rc = collect(files, tree->root, "/", with_paths, err);
	for (size_t i = 0; i < files->count; i++)
		files->files[i]->inode_number = 0;
	if (rc != 0)
		file_list_free(files);
	return rc;
}

void file_list_free(struct file_list *files)
{
	if (files->image_paths != NULL)
		for (size_t i = 0; i < files->count; i++)
			free(files->image_paths[i]);
	free(files->image_paths);
	free(files->files);
	memset(files, 0, sizeof(*files));
}
