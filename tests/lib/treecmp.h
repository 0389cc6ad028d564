/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* treecmp.h — a walked tree (every entry's lstat, sorted by path) as treecmp compares it. */
#ifndef SQ_TESTS_TREECMP_H
#define SQ_TESTS_TREECMP_H

#include <stddef.h>
#include <sys/stat.h>

struct tc_entry {
	char *path;      /* relative to the tree's top; "" is the top itself */
	struct stat st;
	size_t link_rep; /* index of the first (by path) entry sharing this inode */
};

struct tc_tree {
	const char *top;
	struct tc_entry *ent;
	size_t n, cap;
};

/* Walk top without following symlinks; entries sorted by path, link_rep filled in.
 * Returns 0, or -1 after printing "treecmp: path: reason" to stderr. */
int tc_walk(struct tc_tree *tree, const char *top);
void tc_tree_free(struct tc_tree *tree);

/* Print a path with control and non-ASCII bytes escaped, so one difference stays one line. */
void tc_print_path(const char *path);

#endif
