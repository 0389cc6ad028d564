/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan.c — reading the source directories into the image tree (metadata only; file content is
 * the data stage's). Directories are walked with openat/fstatat so depth is not bounded by
 * PATH_MAX for metadata; full paths are kept for files, whose content is read later. */
#include "config.h"
#include "mksquashfs/scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/path.h"
#include "common/util/sizes.h"
#include "mksquashfs/inode_map.h"
#include "mksquashfs/scan_xattr.h"

struct scan_ctx {
	const struct mksq_options *o;
	const struct exclude_list *x;
	struct scan_stats *stats;
	FILE *warn;
	struct progress *progress;
	struct sq_error *err;
	struct tree *tree;         /* whose arena holds the source records */
	struct inode_map *links;   /* host (dev, ino) -> inode: hard links */
	dev_t source_dev;          /* -one-file-system: the device of the source being walked */
	uint32_t level;            /* directory level being read: the root's contents are 1 */
	/* Image path of the directory being scanned, for pattern excludes. */
	const char **parts;
	uint32_t depth;
	size_t parts_cap;
	struct dir_id *open_dirs;
	uint32_t open_count;
	size_t open_cap;
	/* Appending with one source directory: the new root, which already holds the image's
	 * entries; its source entries whose names are taken get _1, _2, ... */
	struct tree_inode *merge_root;
	bool no_recurse;        /* -cpiostyle: a directory is added without its contents */
};

/* A directory being scanned: -dereference must not follow a link back into it. */
struct dir_id {
	dev_t dev;
	ino_t ino;
};

static int read_symlink(struct scan_ctx *c, int dirfd, const char *name, const char *path,
			const struct stat *st, struct tree_inode *n)
{
	size_t cap = (size_t)st->st_size + 1;
	if (cap < 64)
		cap = 64;
	for (;;) {
		char *buf = malloc(cap);
		if (buf == NULL)
			return sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
		ssize_t len = readlinkat(dirfd, name, buf, cap);
		if (len < 0) {
			/* It was a symlink a moment ago: it vanished or changed; the caller skips
			 * it, as squashfs-tools does. */
			free(buf);
			(void)path;
			return 1;
		}
		if ((size_t)len < cap) {
			buf[len] = '\0';
			n->symlink_target = buf;
			n->symlink_len = (uint32_t)len;
			return 0;
		}
		free(buf);
		cap *= 2;
	}
}

/* An inode with what lstat said of its type, permissions, owner and time (attribute options
 * such as -all-root are applied to the whole tree later). */
static struct tree_inode *new_inode(struct scan_ctx *c, const struct stat *st)
{
	struct tree_inode *n = tree_inode_new_in(c->tree, (uint32_t)st->st_mode, c->err);
	if (n == NULL)
		return NULL;
	n->uid = (uint32_t)st->st_uid;
	n->gid = (uint32_t)st->st_gid;
	int64_t t = (int64_t)st->st_mtime;
	n->mtime = t < 0 ? 0 : t > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)t;
	return n;
}

static int scan_dir(struct scan_ctx *c, int dirfd, const char *path, struct tree_inode *dir);

/* -max-depth: is the directory about to be entered (one level below c->level) read? */
static bool descend(const struct scan_ctx *c)
{
	return !c->o->walk.max_depth_set || c->level + 1 <= c->o->walk.max_depth;
}

/* -one-file-system: an entry on another device is left out, except a directory (a mount point)
 * which is kept empty unless -one-file-system-x. True when the entry is left out. */
static bool skip_other_fs(struct scan_ctx *c, const struct stat *st, const char *path,
			  bool *other_fs)
{
	if (!c->o->walk.one_file_system || st->st_dev == c->source_dev)
		return false;
	*other_fs = true;
	bool skip = !S_ISDIR(st->st_mode) || c->o->walk.one_file_system_x;
	if (c->warn != NULL)
		fprintf(c->warn, "%s is on a different filesystem, %s\n", path,
			skip ? "ignored" : "creating empty directory");
	return skip;
}

/* Record where n came from: name under the directory record from (path is then that
 * directory's path joined with name), or the whole path when from is NULL. */
static int set_source(struct scan_ctx *c, const char *from, const char *name, const char *path,
		      struct tree_inode *n)
{
	const char *s = from != NULL ? name : path;
	n->source_path = tree_source_add(c->tree, from, s, strlen(s), c->err);
	if (n->source_path == NULL)
		return -1;
	n->flags |= TREE_SOURCE_CHAIN;
	return 0;
}

/* Fill a freshly made inode from what lstat said about path (dirfd/name for *at calls; from:
 * the record of the directory path is name in, or NULL). 0, 1 when a symlink could not be
 * read, or -1 with err set. */
static int fill_inode(struct scan_ctx *c, int dirfd, const char *name, const char *path,
		      const char *from, const struct stat *st, struct tree_inode *n)
{
	switch (st->st_mode & S_IFMT) {
	case S_IFREG:
		if (set_source(c, from, name, path, n) != 0)
			return -1;
		n->file->size = (uint64_t)st->st_size;
		break;
	case S_IFLNK: {
		int rc = read_symlink(c, dirfd, name, path, st, n);
		if (rc != 0)
			return rc;
		break;
	}
	case S_IFBLK:
	case S_IFCHR:
		n->rdev_major = major(st->st_rdev);
		n->rdev_minor = minor(st->st_rdev);
		break;
	case S_IFDIR:
		if (set_source(c, from, name, path, n) != 0)
			return -1;
		break;
	case S_IFIFO:
	case S_IFSOCK:
		break;
	default:
		return sq_fail(c->err, SQ_ERR_UNSUPPORTED, "%s: unknown file type 0%o", path,
			       (unsigned)(st->st_mode & S_IFMT));
	}
	if (!c->o->image.no_xattrs &&
	    scan_read_xattrs(path, n, &c->o->xattr, &c->stats->xattrs_skipped, c->warn, c->err) != 0)
		return -1;
	return 0;
}

static int push_part(struct scan_ctx *c, const char *name)
{
	const char **grown = sq_grow(c->parts, &c->parts_cap, (size_t)c->depth + 1, sizeof(*grown), 32);
	if (grown == NULL)
		return sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
	c->parts = grown;
	c->parts[c->depth++] = name;
	return 0;
}

/* A source entry that cannot be read: squashfs-tools names it and goes on without it (exit
 * status 0) unless -exit-on-error. msg is its whole warning, without the "..., ignoring" tail. */
static int skip_unreadable(struct scan_ctx *c, const char *tail, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int skip_unreadable(struct scan_ctx *c, const char *tail, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->o->run.exit_on_error)
		return sq_fail(c->err, SQ_ERR_IO, "%s", msg);
	if (c->warn != NULL)
		fprintf(c->warn, "%s%s\n", msg, tail);
	c->stats->skipped++;
	return 0;
}

/* Should the symlink at the current image path be followed (-dereference, -deref,
 * -deref-path)? */
static bool want_deref(const struct scan_ctx *c)
{
	const struct run_options *r = &c->o->run;
	if (r->deref != DEREF_NONE)
		return true;
	for (uint32_t k = 0; k < r->deref_path_count; k++) {
		const char *want = r->deref_paths[k];
		while (*want == '/')
			want++;
		uint32_t i = 0;
		for (; i < c->depth; i++) {
			size_t len = strlen(c->parts[i]);
			if (strncmp(want, c->parts[i], len) != 0 ||
			    (want[len] != '/' && want[len] != '\0'))
				break;
			want += len;
			while (*want == '/')
				want++;
		}
		if (i == c->depth && *want == '\0')
			return true;
	}
	return false;
}

/* Is a directory with this (dev, ino) one of those being scanned (a link back up the tree)? */
static bool is_ancestor(const struct scan_ctx *c, const struct stat *st)
{
	for (uint32_t i = 0; i < c->open_count; i++)
		if (c->open_dirs[i].dev == st->st_dev && c->open_dirs[i].ino == st->st_ino)
			return true;
	return false;
}

/* A symlink to follow: *st becomes its target's, *real the target's path. Returns 1 to follow,
 * 0 to keep the link, -1 to leave the entry out (it cannot be followed and -deref keep was not
 * given), -2 on an error. */
static int follow_link(struct scan_ctx *c, int dirfd, const char *name, const char *path,
		       struct stat *st, char **real)
{
	struct stat target;
	bool ok = fstatat(dirfd, name, &target, 0) == 0 &&
		  !(S_ISDIR(target.st_mode) && is_ancestor(c, &target));
	if (ok) {
		*real = realpath(path, NULL);
		if (*real == NULL && errno == ENOMEM)
			return sq_fail(c->err, SQ_ERR_NOMEM, "out of memory"), -2;
		ok = *real != NULL;
	}
	if (!ok)
		return c->o->run.deref == DEREF_KEEP ? 0 : -1;
	*st = target;
	return 1;
}

/* Add a directory's inode and read it (unless -max-depth or -one-file-system stop there). One
 * that cannot be opened is left out whole, as squashfs-tools does. real: a followed link's
 * target. */
static int add_directory(struct scan_ctx *c, struct tree_inode *parent, int dirfd,
			 const char *name, const char *entry_name, const char *path, const char *from,
			 const struct stat *st, const char *real, bool other_fs)
{
	int fd = -1;
	if (!other_fs && descend(c) && !c->no_recurse) {
		fd = openat(dirfd, real != NULL ? real : name,
			    O_RDONLY | O_DIRECTORY | (real != NULL ? 0 : O_NOFOLLOW) | O_CLOEXEC);
		if (fd < 0)
			return skip_unreadable(c, ", skipping...", "Could not open %s", path);
	}
	struct tree_inode *n = new_inode(c, st);
	if (n == NULL || fill_inode(c, dirfd, name, path, from, st, n) != 0 ||
	    tree_dir_add(parent, entry_name, strlen(entry_name), n, c->err) != 0) {
		if (n != NULL)
			tree_inode_free(n);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (fd < 0)
		return 0;
	struct dir_id *grown = sq_grow(c->open_dirs, &c->open_cap, c->open_count + 1, sizeof(*grown),
				       32);
	if (grown == NULL) {
		close(fd);
		return sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
	}
	c->open_dirs = grown;
	c->open_dirs[c->open_count++] = (struct dir_id){ st->st_dev, st->st_ino };
	c->level++;
	int rc = scan_dir(c, fd, path, n);
	c->level--;
	c->open_count--;
	return rc;
}

/* A non-directory: a new inode, or one more name of an inode met before (hard link). */
static int add_other(struct scan_ctx *c, struct tree_inode *parent, int dirfd, const char *name,
		     const char *entry_name, const char *path, const char *from,
		     const struct stat *st)
{
	/* Every non-directory is recorded, not only those with st_nlink > 1: a source given
	 * twice reaches the same inode twice, and squashfs-tools stores that as a hard link. Past
	 * the map's share of -mem only those with st_nlink > 1 are (inode_map.h). */
	bool linkable = !c->o->walk.no_hardlinks;
	if (linkable) {
		struct tree_inode *seen = inode_map_get(c->links, st->st_dev, st->st_ino);
		if (seen != NULL) {
			seen->nlink++;
			c->stats->hard_links++;
			return tree_dir_add(parent, entry_name, strlen(entry_name), seen, c->err);
		}
	}
	struct tree_inode *n = new_inode(c, st);
	if (n == NULL)
		return -1;
	int filled = fill_inode(c, dirfd, name, path, from, st, n);
	if (filled > 0) {
		tree_inode_free(n);
		return skip_unreadable(c, ", ignoring", "Failed to read symlink %s", path);
	}
	if (filled != 0 || tree_dir_add(parent, entry_name, strlen(entry_name), n, c->err) != 0) {
		tree_inode_free(n);
		return -1;
	}
	if (linkable && (st->st_nlink > 1 || !inode_map_full(c->links)) &&
	    inode_map_put(c->links, st->st_dev, st->st_ino, n, c->err) != 0)
		return -1;
	return 0;
}

/* Add the entry `name` (found in dirfd, full path `path`) to parent unless excluded, reusing the
 * inode of an earlier hard link. `entry_name` is the name in the image (differs for renamed
 * sources); from: the source record of the directory read (path is it joined with name), or
 * NULL. */
static int scan_entry(struct scan_ctx *c, struct tree_inode *parent, int dirfd, const char *name,
		      const char *entry_name, const char *path, const char *from)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return skip_unreadable(c, ", ignoring", "Cannot stat dir/file %s because %s", path,
				       strerror(errno));
	if (push_part(c, entry_name) != 0)
		return -1;
	if (c->progress != NULL)
		progress_found(c->progress, 1);
	int rc = 0;
	char *real = NULL;
	bool other_fs = false;
	if (exclude_match(c->x, c->parts, c->depth, st.st_dev, st.st_ino) ||
	    skip_other_fs(c, &st, path, &other_fs))
		goto out;
	if (S_ISLNK(st.st_mode) && want_deref(c)) {
		int follow = follow_link(c, dirfd, name, path, &st, &real);
		if (follow < 0) {
			rc = follow == -2 ? -1 : 0;
			goto out;
		}
		if (follow > 0) {
			path = real;
			from = NULL;
		}
		/* What the link leads to may itself be excluded (the image being written). */
		if (follow > 0 && (exclude_match(c->x, c->parts, c->depth, st.st_dev, st.st_ino) ||
				   skip_other_fs(c, &st, path, &other_fs)))
			goto out;
	}
	if (S_ISDIR(st.st_mode))
		rc = add_directory(c, parent, dirfd, name, entry_name, path, from, &st, real, other_fs);
	else
		rc = add_other(c, parent, dirfd, name, entry_name, path, from, &st);
out:
	free(real);
	c->depth--;
	return rc;
}

/* name_k for the first k from 1 whose name is neither in dir nor in taken (squashfs-tools'
 * renaming of a source name that is already used), announced as squashfs-tools does. */
static char *free_name(struct scan_ctx *c, struct tree_inode *dir, struct tree_inode *taken,
		       const char *name)
{
	size_t len = strlen(name) + 16;
	char *prev = strdup(name);
	for (unsigned k = 1; prev != NULL; k++) {
		char *cand = malloc(len);
		if (cand == NULL)
			break;
		snprintf(cand, len, "%s_%u", name, k);
		if (c->warn != NULL)
			fprintf(c->warn, "Source directory entry %s already used! - trying %s\n", prev,
				cand);
		free(prev);
		if (tree_dir_find(dir, cand, strlen(cand)) == NULL &&
		    tree_dir_find(taken, cand, strlen(cand)) == NULL) {
			if (strlen(cand) > 255) {
				sq_fail(c->err, SQ_ERR_USAGE, "no free name for %s (too long)", name);
				free(cand);
				return NULL;
			}
			return cand;
		}
		prev = cand;
	}
	sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
	return NULL;
}

/* The names the source directory's entries take in a root that already holds the image's: the
 * free ones first, so that renaming a taken name never steals a name a later entry has. */
static int merge_names(struct scan_ctx *c, struct tree_inode *dir, char **names, size_t count,
		       char ***out)
{
	char **final = calloc(count, sizeof(*final));
	struct tree_inode *taken = tree_inode_new(S_IFDIR | 0755, c->err);
	int rc = final != NULL && taken != NULL ? 0 : sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < count && rc == 0; i++) {
		if (tree_dir_find(dir, names[i], strlen(names[i])) != NULL)
			continue;
		final[i] = names[i];
		rc = tree_dir_add(taken, names[i], strlen(names[i]), dir, c->err);
	}
	for (size_t i = 0; i < count && rc == 0; i++) {
		if (final[i] != NULL)
			continue;
		final[i] = free_name(c, dir, taken, names[i]);
		rc = final[i] == NULL ? -1 : tree_dir_add(taken, final[i], strlen(final[i]), dir, c->err);
	}
	if (taken != NULL) {
		for (uint32_t i = 0; i < taken->dir->count; i++)
			tree_name_free(taken->dir, taken->dir->entries[i].name);
		tree_inode_free(taken);
	}
	if (rc != 0 && final != NULL) {
		for (size_t i = 0; i < count; i++)
			if (final[i] != names[i])
				free(final[i]);
		free(final);
		return -1;
	}
	*out = final;
	return rc;
}

/* Read the directory open on fd (closed here) into dir. */
static int scan_dir(struct scan_ctx *c, int fd, const char *path, struct tree_inode *dir)
{
	DIR *d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return sq_fail_errno(c->err, "cannot read directory %s", path);
	}
	/* Names are gathered and sorted first so the walk, and with it the order file data is
	 * written in, does not depend on readdir's order. */
	char **names = NULL, **entry_names = NULL;
	size_t count = 0, cap = 0;
	/* path is the directory's own source path (its inode was filled from it). */
	const char *from = dir->flags & TREE_SOURCE_CHAIN ? dir->source_path : NULL;
	int rc = 0;
	struct dirent *de;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (count == cap) {
			cap = cap ? cap * 2 : 32;
			char **grown = sq_realloc_array(names, cap, sizeof(*grown));
			if (grown == NULL) {
				rc = sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
				goto done;
			}
			names = grown;
		}
		names[count] = strdup(de->d_name);
		if (names[count] == NULL) {
			rc = sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
			goto done;
		}
		count++;
		errno = 0;
	}
	if (errno != 0) {
		rc = sq_fail_errno(c->err, "cannot read directory %s", path);
		goto done;
	}
	entry_names = names;
	if (dir == c->merge_root && count > 0 &&
	    (rc = merge_names(c, dir, names, count, &entry_names)) != 0)
		goto done;
	for (size_t i = 0; i < count && rc == 0; i++) {
		char *child = sq_path_join(path, names[i]);
		if (child == NULL) {
			rc = sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
			break;
		}
		rc = scan_entry(c, dir, dirfd(d), names[i], entry_names[i], child, from);
		free(child);
	}
done:
	tree_dir_trim(c->tree, dir);
	for (size_t i = 0; i < count; i++) {
		if (entry_names != NULL && entry_names != names && entry_names[i] != names[i])
			free(entry_names[i]);
		free(names[i]);
	}
	if (entry_names != names)
		free(entry_names);
	free(names);
	closedir(d);
	return rc;
}

/* The name a source gets in a made-up root: its last path component. */
static char *source_name(const char *src)
{
	size_t len = strlen(src);
	while (len > 1 && src[len - 1] == '/')
		len--;
	size_t start = len;
	while (start > 0 && src[start - 1] != '/')
		start--;
	char *name = strndup(src + start, len - start);
	if (name != NULL && (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
			     strcmp(name, "/") == 0 || name[0] == '\0')) {
		free(name);
		char *real = realpath(src, NULL);
		if (real == NULL)
			return NULL;
		const char *slash = strrchr(real, '/');
		name = strdup(slash && slash[1] ? slash + 1 : "root");
		free(real);
	}
	return name;
}

/* The parent of a source path, for fstatat: "a/b" -> ("a", "b"). */
static int open_parent(const char *src, char **leaf, struct sq_error *err)
{
	char *copy = strdup(src);
	if (copy == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	size_t len = strlen(copy);
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	char *slash = strrchr(copy, '/');
	int fd;
	if (slash == NULL) {
		fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		*leaf = copy;
	} else {
		*leaf = strdup(slash + 1);
		if (slash == copy)
			slash[1] = '\0';
		else
			*slash = '\0';
		fd = open(copy, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		free(copy);
		if (*leaf == NULL) {
			if (fd >= 0)
				close(fd);
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		}
	}
	if (fd < 0) {
		sq_fail_errno(err, "cannot open the directory holding source %s", src);
		free(*leaf);
		*leaf = NULL;
	}
	return fd;
}

static int scan_made_up_root(struct scan_ctx *c, struct tree_inode *root)
{
	for (int i = 0; i < c->o->source_count; i++) {
		const char *src = c->o->sources[i];
		struct stat st;
		if (lstat(src, &st) != 0)
			return sq_fail_errno(c->err, "cannot stat source %s", src);
		char *base = source_name(src);
		if (base == NULL)
			return sq_fail(c->err, SQ_ERR_NOMEM, "cannot name source %s", src);
		char *name = strdup(base);
		for (unsigned k = 1; name != NULL && tree_dir_find(root, name, strlen(name)) != NULL; k++) {
			size_t len = strlen(base) + 16;
			free(name);
			name = malloc(len);
			if (name != NULL)
				snprintf(name, len, "%s_%u", base, k);
			if (name != NULL && c->warn != NULL)
				fprintf(c->warn, "Source directory entry %s already used! - trying %s\n",
					base, name);
		}
		free(base);
		if (name == NULL)
			return sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
		if (strlen(name) > 255) {
			free(name);
			return sq_fail(c->err, SQ_ERR_USAGE, "source name too long: %s", src);
		}
		char *leaf = NULL;
		int pfd = open_parent(src, &leaf, c->err);
		if (pfd < 0) {
			free(name);
			return -1;
		}
		/* "/" has no parent to stat it from. */
		int rc;
		if (strcmp(leaf, "/") == 0 || leaf[0] == '\0') {
			close(pfd);
			pfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			free(leaf);
			leaf = strdup(".");
			if (pfd < 0 || leaf == NULL) {
				free(name);
				free(leaf);
				if (pfd >= 0)
					close(pfd);
				return sq_fail_errno(c->err, "cannot open /");
			}
		}
		/* -one-file-system: each source starts on its own device. */
		c->source_dev = st.st_dev;
		rc = scan_entry(c, root, pfd, leaf, name, src, NULL);
		close(pfd);
		free(leaf);
		free(name);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* Entries the hard-link map holds whatever their link count: its share of -mem at about 96
 * bytes an entry (24-byte slots at most 3/4 full, the old and new slots while it doubles). */
static size_t link_limit(const struct mksq_options *o)
{
	uint64_t n = mksq_mem_budget(o) / MKSQ_MEM_TABLE_SHARE / 96;
	return n > 0 ? (size_t)n : 1;
}

/* The one way out of a scan: its own hard-link map and path stack freed, the tree on failure. */
static int scan_end(struct scan_ctx *c, struct inode_map *own, struct tree *tree, int rc)
{
	inode_map_free(own);
	free(c->parts);
	free(c->open_dirs);
	if (rc != 0)
		tree_free(tree);
	return rc;
}

/* Move the entries of base (the image being appended to) into the new root and free base.
 * On failure what was not moved is freed with base. */
static int merge_base(struct scan_ctx *c, struct tree_inode *root, struct tree_inode *base)
{
	struct tree_dir *d = base->dir;
	uint32_t i = 0;
	int rc = 0;
	for (; i < d->count; i++)
		if ((rc = tree_dir_add(root, d->entries[i].name, d->entries[i].name_len,
				       d->entries[i].inode, c->err)) != 0)
			break;
	for (uint32_t k = 0; k < i; k++)
		tree_name_free(d, d->entries[k].name);
	memmove(d->entries, d->entries + i, (size_t)(d->count - i) * sizeof(*d->entries));
	d->count -= i;
	struct tree rest = { .root = base };
	tree_free(&rest);
	return rc;
}

int scan_merge_base(struct tree_inode *root, struct tree_inode *base, struct sq_error *err)
{
	struct tree_dir *d = base->dir;
	for (uint32_t i = 0; i < d->count; i++) {
		struct tree_entry *e = tree_dir_find(root, d->entries[i].name, d->entries[i].name_len);
		if (e == NULL)
			continue;
		struct tree_inode *n = e->inode;
		tree_dir_remove(root, (uint32_t)(e - root->dir->entries));
		if (n->dir != NULL) {
			struct tree gone = { .root = n };
			tree_free(&gone);
		} else if (n->nlink <= 1) {
			tree_inode_free(n);
		} else {
			n->nlink--;
		}
	}
	struct scan_ctx c = { .err = err };
	return merge_base(&c, root, base);
}

int scan_sources(const struct mksq_options *o, const struct exclude_list *x,
		 struct tree_inode *base, struct tree *tree, struct scan_stats *stats,
		 struct inode_map *links, FILE *warn, struct progress *progress,
		 struct sq_error *err)
{
	struct inode_map own = { 0 };
	struct scan_ctx c = { .o = o, .x = x, .stats = stats, .warn = warn, .err = err,
			      .progress = progress, .links = links != NULL ? links : &own,
			      .level = 1, .tree = tree };
	c.links->limit = link_limit(o);
	tree_begin(tree);
	memset(stats, 0, sizeof(*stats));
	int rc = -1;

	struct stat st;
	if (o->source_count < 1) {
		sq_fail(err, SQ_ERR_USAGE, "no source given");
		goto out;
	}
	for (int i = 0; i < o->source_count; i++)
		if (lstat(o->sources[i], &st) != 0) {
			sq_fail_errno(err, "cannot stat source %s", o->sources[i]);
			goto out;
		}

	struct tree_inode *root = NULL;
	bool one_dir = o->source_count == 1 && !o->keep_as_directory &&
		       stat(o->sources[0], &st) == 0 && S_ISDIR(st.st_mode);
	if (!one_dir) {
		memset(&st, 0, sizeof(st));
		st.st_mode = S_IFDIR | 0777;
		st.st_uid = getuid();
		st.st_gid = getgid();
		st.st_mtime = (time_t)o->now;
	}
	root = new_inode(&c, &st);
	if (root == NULL)
		goto out;
	if (!one_dir)
		root->flags |= TREE_MADE_UP;
	tree->root = root;
	if (one_dir && fill_inode(&c, AT_FDCWD, o->sources[0], o->sources[0], NULL, &st, root) != 0)
		goto out;
	c.source_dev = st.st_dev;
	if (base != NULL) {
		struct tree_inode *b = base;
		base = NULL;
		if (merge_base(&c, root, b) != 0)
			goto out;
		c.merge_root = root;
	}
	/* -max-depth 0: the root is kept, empty. */
	if (o->walk.max_depth_set && o->walk.max_depth == 0) {
		rc = 0;
		goto out;
	}
	if (one_dir) {
		int fd = open(o->sources[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			sq_fail_errno(err, "cannot open directory %s", o->sources[0]);
			goto out;
		}
		c.open_dirs = malloc(sizeof(*c.open_dirs));
		if (c.open_dirs == NULL) {
			close(fd);
			sq_fail(err, SQ_ERR_NOMEM, "out of memory");
			goto out;
		}
		c.open_dirs[0] = (struct dir_id){ st.st_dev, st.st_ino };
		c.open_count = c.open_cap = 1;
		if (scan_dir(&c, fd, o->sources[0], root) != 0)
			goto out;
	} else if (scan_made_up_root(&c, root) != 0) {
		goto out;
	}
	rc = 0;
out:
	if (base != NULL) {
		struct tree unused = { .root = base };
		tree_free(&unused);
	}
	return scan_end(&c, &own, tree, rc);
}

/* ---- Sources at their whole path: -no-strip / -tarstyle (recursed) and -cpiostyle ---- */

/* The components a source path keeps in the image: leading "/" and "./" dropped, "//" one '/',
 * "." or ".." elsewhere refused (as squashfs-tools). Returns their count, or -1. */
static int path_parts(struct scan_ctx *c, char *path, const char *given, char **parts,
		      uint32_t max)
{
	uint32_t n = 0;
	char *save = NULL;
	for (char *p = strtok_r(path, "/", &save); p != NULL; p = strtok_r(NULL, "/", &save)) {
		if (strcmp(p, ".") == 0 && n == 0)
			continue;
		if (strcmp(p, ".") == 0 || strcmp(p, "..") == 0)
			return sq_fail(c->err, SQ_ERR_UNSAFE,
				       "source path %s has a \".\" or \"..\" component", given);
		if (strlen(p) > 255 || n == max)
			return sq_fail(c->err, SQ_ERR_UNSUPPORTED, "source path %s is too long", given);
		parts[n++] = p;
	}
	return (int)n;
}

/* The directory on the way to a source, from the file system (its metadata and xattrs). */
static struct tree_inode *path_dir(struct scan_ctx *c, struct tree_inode *at, const char *name,
				   const char *prefix)
{
	struct tree_entry *e = tree_dir_find(at, name, strlen(name));
	if (e != NULL) {
		if (e->inode->dir == NULL) {
			sq_fail(c->err, SQ_ERR_USAGE, "%s is on a source's path but not a directory",
				prefix);
			return NULL;
		}
		return e->inode;
	}
	struct stat st;
	if (lstat(prefix, &st) != 0) {
		sq_fail_errno(c->err, "cannot stat %s", prefix);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		sq_fail(c->err, SQ_ERR_USAGE, "%s is on a source's path but not a directory", prefix);
		return NULL;
	}
	struct tree_inode *d = new_inode(c, &st);
	if (d == NULL)
		return NULL;
	if (fill_inode(c, AT_FDCWD, prefix, prefix, NULL, &st, d) != 0 ||
	    tree_dir_add(at, name, strlen(name), d, c->err) != 0) {
		tree_inode_free(d);
		return NULL;
	}
	return d;
}

static int add_whole_path(struct scan_ctx *c, struct tree_inode *root, const char *given)
{
	size_t len = strlen(given);
	char *copy = strdup(given), *prefix = malloc(len + 2), *parts[512];
	int rc = -1;
	if (copy == NULL || prefix == NULL) {
		sq_fail(c->err, SQ_ERR_NOMEM, "out of memory");
		goto out;
	}
	int n = path_parts(c, copy, given, parts, 512);
	if (n <= 0) {
		rc = n; /* "." or "/": the root itself */
		goto out;
	}
	/* prefix: the file system path of each directory on the way, as given ("/a", "a"). */
	size_t at = 0;
	if (given[0] == '/')
		prefix[at++] = '/';
	prefix[at] = '\0';
	struct tree_inode *dir = root;
	uint32_t pushed = 0;
	for (int i = 0; i + 1 < n; i++) {
		at += (size_t)snprintf(prefix + at, len + 2 - at, "%s/", parts[i]);
		prefix[at - 1] = '\0';
		dir = path_dir(c, dir, parts[i], prefix);
		prefix[at - 1] = '/';
		if (dir == NULL || push_part(c, parts[i]) != 0)
			goto pop;
		pushed++;
	}
	const char *leaf = parts[n - 1];
	struct tree_entry *old = tree_dir_find(dir, leaf, strlen(leaf));
	if (old != NULL) {
		/* Listed again, or already added as a directory on another source's path. */
		rc = 0;
		goto pop;
	}
	if (at == 0)
		strcpy(prefix, ".");
	int dfd = open(prefix, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		sq_fail_errno(c->err, "cannot open directory %s", prefix);
		goto pop;
	}
	rc = scan_entry(c, dir, dfd, leaf, leaf, given, NULL);
	close(dfd);
pop:
	c->depth -= pushed;
out:
	free(copy);
	free(prefix);
	return rc;
}

int scan_paths(const struct mksq_options *o, const struct exclude_list *x, struct tree *tree,
	       struct scan_stats *stats, FILE *warn, bool recurse, scan_path_fn next, void *ctx,
	       struct sq_error *err)
{
	struct inode_map own = { 0 };
	struct scan_ctx c = { .o = o, .x = x, .stats = stats, .warn = warn, .err = err,
			      .links = &own, .level = 1, .no_recurse = !recurse, .tree = tree };
	own.limit = link_limit(o);
	tree_begin(tree);
	memset(stats, 0, sizeof(*stats));
	int rc = -1;
	const char *path = NULL;
	int got = next(ctx, &path, err);
	/* The root is the directory the paths start from: "/" for absolute ones, else ".". */
	const char *base = got == 1 && path[0] == '/' ? "/" : ".";
	struct stat st;
	if (got < 0)
		goto out;
	if (lstat(base, &st) != 0) {
		sq_fail_errno(err, "cannot stat %s", base);
		goto out;
	}
	c.source_dev = st.st_dev;
	tree->root = new_inode(&c, &st);
	if (tree->root == NULL || fill_inode(&c, AT_FDCWD, base, base, NULL, &st, tree->root) != 0)
		goto out;
	for (; got == 1; got = next(ctx, &path, err))
		if (add_whole_path(&c, tree->root, path) != 0)
			goto out;
	rc = got;
out:
	return scan_end(&c, &own, tree, rc);
}
