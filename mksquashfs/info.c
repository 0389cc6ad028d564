/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* info.c — the -info listing, printed once the tables are written (inode references are known
 * only then) in the order squashfs-tools 4.5.1 writes and prints entries. */
#include "config.h"
#include "mksquashfs/info.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct info_walk {
	FILE *out;
	uint8_t *seen;        /* by inode number: already listed */
	uint32_t seen_count;
	char *path;
	size_t cap;
};

static const char *type_word(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFLNK: return "symbolic link";
	case S_IFCHR: return "character device";
	case S_IFBLK: return "block device";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "unix domain socket";
	default: return "file";
	}
}

static void print_entry(struct info_walk *w, const struct tree_inode *n, bool link)
{
	if (S_ISREG(n->mode)) {
		fprintf(w->out, "file %s, uncompressed size %llu bytes %s\n", w->path,
			(unsigned long long)(n->file != NULL ? n->file->size : 0),
			link ? "LINK" : (n->flags & TREE_DUPLICATE) ? "DUPLICATE" : "");
		return;
	}
	fprintf(w->out, "%s %s inode 0x%llx%s\n", type_word(n->mode), w->path,
		(unsigned long long)n->inode_ref, link ? " LINK" : "");
}

static int walk(struct info_walk *w, const struct tree_inode *dir, size_t len)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		const struct tree_entry *e = &dir->dir->entries[i];
		size_t need = len + 1 + e->name_len + 1;
		if (need > w->cap) {
			char *grown = realloc(w->path, need * 2);
			if (grown == NULL)
				return -1;
			w->path = grown;
			w->cap = need * 2;
		}
		w->path[len] = '/';
		memcpy(w->path + len + 1, e->name, e->name_len);
		w->path[len + 1 + e->name_len] = '\0';
		const struct tree_inode *n = e->inode;
		if (n->dir != NULL) {
			if (walk(w, n, len + 1 + e->name_len) != 0)
				return -1;
		} else {
			uint32_t num = n->inode_number;
			bool link = num < w->seen_count && w->seen[num];
			if (num < w->seen_count)
				w->seen[num] = 1;
			print_entry(w, n, link);
		}
	}
	w->path[len] = '\0';
	fprintf(w->out, "directory %s inode 0x%llx\n", len == 0 ? "/" : w->path,
		(unsigned long long)dir->inode_ref);
	return 0;
}

int info_print(FILE *out, const struct tree *tree)
{
	if (tree->root == NULL)
		return 0;
	struct info_walk w = { .out = out, .seen_count = tree->inode_count + 1, .cap = 256 };
	w.seen = calloc(w.seen_count, 1);
	w.path = malloc(w.cap);
	int rc = -1;
	if (w.seen != NULL && w.path != NULL) {
		w.path[0] = '\0';
		rc = walk(&w, tree->root, 0);
	}
	free(w.seen);
	free(w.path);
	return rc;
}
