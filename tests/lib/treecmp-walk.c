/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* treecmp-walk.c — collects a tree's entries (lstat only) and its hard-link groups for treecmp. */
#include "config.h"

#include "tests/lib/treecmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void tc_print_path(const char *path)
{
	if (*path == '\0') {
		fputs("/", stdout);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)path; *p != '\0'; p++) {
		if (*p < 0x20 || *p >= 0x7f || *p == '\\')
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
}

static int add_entry(struct tc_tree *tree, const char *path, const struct stat *st)
{
	if (tree->n == tree->cap) {
		size_t cap = tree->cap ? tree->cap * 2 : 1024;
		struct tc_entry *grown = realloc(tree->ent, cap * sizeof(*grown));

		if (grown == NULL)
			goto nomem;
		tree->ent = grown;
		tree->cap = cap;
	}
	tree->ent[tree->n].path = strdup(path);
	if (tree->ent[tree->n].path == NULL)
		goto nomem;
	tree->ent[tree->n].st = *st;
	tree->n++;
	return 0;
nomem:
	fprintf(stderr, "treecmp: %s: out of memory\n", tree->top);
	return -1;
}

/* dirfd is open on the directory whose relative path is path (len bytes in a buffer of cap). */
static int walk_dir(struct tc_tree *tree, int dirfd, char *path, size_t len, size_t cap)
{
	DIR *dir = fdopendir(dirfd);
	struct dirent *de;
	int ret = 0;

	if (dir == NULL) {
		fprintf(stderr, "treecmp: %s/%s: opendir: %s\n", tree->top, path, strerror(errno));
		close(dirfd);
		return -1;
	}
	while (ret == 0 && (errno = 0, de = readdir(dir)) != NULL) {
		size_t n = strlen(de->d_name), sub = len ? len + 1 : 0;
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (sub + n + 1 > cap) {
			fprintf(stderr, "treecmp: %s/%s/%s: path too long\n", tree->top, path, de->d_name);
			ret = -1;
			break;
		}
		if (len)
			path[len] = '/';
		memcpy(path + sub, de->d_name, n + 1);
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			fprintf(stderr, "treecmp: %s/%s: lstat: %s\n", tree->top, path, strerror(errno));
			ret = -1;
		} else {
			ret = add_entry(tree, path, &st);
		}
		if (ret == 0 && S_ISDIR(st.st_mode)) {
			int fd = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (fd < 0) {
				fprintf(stderr, "treecmp: %s/%s: open: %s\n", tree->top, path, strerror(errno));
				ret = -1;
			} else {
				ret = walk_dir(tree, fd, path, sub + n, cap);
			}
		}
		path[len] = '\0';
	}
	if (ret == 0 && errno != 0) {
		fprintf(stderr, "treecmp: %s/%s: readdir: %s\n", tree->top, path, strerror(errno));
		ret = -1;
	}
	closedir(dir);
	return ret;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct tc_entry *)a)->path, ((const struct tc_entry *)b)->path);
}

/* Inode identity plus path index (entries are path-sorted, so the lowest index is the group's
 * first path); a copy of the keys keeps qsort's comparator free of outside state. */
struct inode_key {
	dev_t dev;
	ino_t ino;
	size_t idx;
};

static int by_inode(const void *a, const void *b)
{
	const struct inode_key *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int group_links(struct tc_tree *tree)
{
	struct inode_key *keys = malloc((tree->n ? tree->n : 1) * sizeof(*keys));

	if (keys == NULL) {
		fprintf(stderr, "treecmp: %s: out of memory\n", tree->top);
		return -1;
	}
	for (size_t i = 0; i < tree->n; i++) {
		keys[i].dev = tree->ent[i].st.st_dev;
		keys[i].ino = tree->ent[i].st.st_ino;
		keys[i].idx = i;
	}
	qsort(keys, tree->n, sizeof(*keys), by_inode);
	for (size_t i = 0; i < tree->n;) {
		size_t j = i;

		while (j < tree->n && keys[j].ino == keys[i].ino && keys[j].dev == keys[i].dev)
			tree->ent[keys[j++].idx].link_rep = keys[i].idx;
		i = j;
	}
	free(keys);
	return 0;
}

int tc_walk(struct tc_tree *tree, const char *top)
{
	char *path = NULL;
	struct stat st;
	int fd, ret = -1;

	memset(tree, 0, sizeof(*tree));
	tree->top = top;
	enum { CAP = 65536 };
	path = malloc(CAP);
	if (path == NULL) {
		fprintf(stderr, "treecmp: %s: out of memory\n", top);
		goto out;
	}
	path[0] = '\0';
	if (lstat(top, &st) != 0) {
		fprintf(stderr, "treecmp: %s: %s\n", top, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "treecmp: %s: not a directory\n", top);
		goto out;
	}
	if (add_entry(tree, "", &st) != 0)
		goto out;
	fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "treecmp: %s: open: %s\n", top, strerror(errno));
		goto out;
	}
	if (walk_dir(tree, fd, path, 0, CAP) != 0)
		goto out;
	qsort(tree->ent, tree->n, sizeof(*tree->ent), by_path);
	ret = group_links(tree);
out:
	free(path);
	return ret;
}

void tc_tree_free(struct tc_tree *tree)
{
	for (size_t i = 0; i < tree->n; i++)
		free(tree->ent[i].path);
	free(tree->ent);
	memset(tree, 0, sizeof(*tree));
}
