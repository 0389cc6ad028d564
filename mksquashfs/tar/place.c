/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/place.c — where a member goes in the tree: its path made safe (as squashfs-tools does:
 * leading "/", "./" and "../" dropped, "." and ".." elsewhere refused), excludes, and the
 * directories on the way, made up when the archive does not list them first; directories the
 * archive has moved on from are trimmed into the arena as it goes. */
#include "config.h"
#include "mksquashfs/tar/reader.h"

#include <string.h>
#include <sys/stat.h>

#include "common/util/sizes.h"

/* What the tree takes (tree.h) and Linux allows in one name. */
#define TAR_NAME_MAX 255u

static bool is_dot(const char *p, size_t len)
{
	return (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.');
}

int tar_path_split(struct tar_reader *r, char *path, const char **parts, uint32_t max)
{
	uint32_t n = 0;
	bool leading = true;
	char *p = path;
	while (*p != '\0') {
		char *end = strchr(p, '/');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (end != NULL)
			*end = '\0';
		if (len == 0 || (leading && is_dot(p, len))) {
			/* "//", a leading "/", "./" or "../": dropped */
		} else if (is_dot(p, len)) {
			return tar_fail(r, SQ_ERR_UNSAFE,
					"a path with a \".\" or \"..\" component is refused");
		} else {
			leading = false;
			if (len > TAR_NAME_MAX)
				return tar_fail(r, SQ_ERR_UNSUPPORTED,
						"a name in the path is longer than %u bytes",
						TAR_NAME_MAX);
			if (n == max)
				return tar_fail(r, SQ_ERR_UNSUPPORTED,
						"path deeper than %u directories", max);
			parts[n++] = p;
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	return (int)n;
}

bool tar_excluded(struct tar_reader *r, const char *const *parts, uint32_t depth)
{
	if (r->x == NULL || r->x->pattern_count == 0)
		return false;
	for (uint32_t d = 1; d <= depth; d++)
		if (exclude_match(r->x, parts, d, 0, 0))
			return true;
	return false;
}

struct tree_inode *tar_lookup(struct tar_reader *r, const char *const *parts, uint32_t depth)
{
	struct tree_inode *at = r->tree->root;
	for (uint32_t i = 0; i < depth; i++) {
		if (at->dir == NULL)
			return NULL;
		struct tree_entry *e = tree_dir_find(at, parts[i], strlen(parts[i]));
		if (e == NULL)
			return NULL;
		at = e->inode;
	}
	return at;
}

/* Trim the open directories from level `from` down (the deepest first). */
static void close_from(struct tar_reader *r, uint32_t from)
{
	while (r->open_count > from) {
		struct tree_inode *d = r->open[--r->open_count];
		/* Packed names mean it was closed before and has had members since: closing it
		 * each time would copy its array back and forth, quadratic in an archive that
		 * alternates between two large directories. Left to the sort. */
		if (d->dir->names == NULL || (d->dir->in_arena & TREE_DIR_ENTRIES_IN_ARENA))
			tree_dir_trim(r->tree, d);
	}
}

/* d is the open directory at this level (the root is level 0): the ones below it that the
 * last member was in and d is not are complete. */
static int open_at(struct tar_reader *r, uint32_t level, struct tree_inode *d)
{
	if (level < r->open_count && r->open[level] == d)
		return 0;
	close_from(r, level);
	struct tree_inode **grown =
		sq_grow(r->open, &r->open_cap, (size_t)level + 1, sizeof(*grown), 16);
	if (grown == NULL)
		return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	r->open = grown;
	r->open[r->open_count++] = d;
	return 0;
}

struct tree_inode *tar_parent(struct tar_reader *r, const char *const *parts, uint32_t depth)
{
	struct tree_inode *at = r->tree->root;
	if (open_at(r, 0, at) != 0)
		return NULL;
	for (uint32_t i = 0; i + 1 < depth; i++) {
		size_t len = strlen(parts[i]);
		struct tree_entry *e = tree_dir_find(at, parts[i], len);
		if (e != NULL) {
			if (e->inode->dir == NULL) {
				tar_fail(r, SQ_ERR_CORRUPT, "\"%s\" on its path is not a directory",
					 parts[i]);
				return NULL;
			}
			at = e->inode;
		} else {
			struct tree_inode *d = tar_made_up_dir(r, false);
			if (d == NULL)
				return NULL;
			if (tree_dir_add(at, parts[i], len, d, r->err) != 0) {
				tree_inode_free(d);
				return NULL;
			}
			at = d;
		}
		if (open_at(r, i + 1, at) != 0)
			return NULL;
	}
	close_from(r, depth);
	return at;
}
