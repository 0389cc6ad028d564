/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* cat.c — matching cat names against the image a component at a time and streaming files. */
#include "config.h"
#include "unsquashfs/cat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unsquashfs/resolve.h"
#include "unsquashfs/select.h"
#include "unsquashfs/sink.h"

struct cat {
	struct sqfs_fs *fs;
	const struct unsq_options *o;
	struct unsq_select sel;
	struct sqfs_file_reader fr;
	int status;
	int found; /* the current name matched something */
};

static void report(struct cat *c, const char *path, const char *what)
{
	fflush(stdout);
	fprintf(stderr, "cat: /%s %s\n", path, what);
	c->status = 2;
}

static int cat_file(struct cat *c, const char *path, const struct sqfs_inode *ino, struct sq_error *err)
{
	if (ino->type == SQFS_INODE_DIR) {
		report(c, path, "is a directory");
		return 0;
	}
	if (ino->type != SQFS_INODE_FILE) {
		report(c, path, "is not a regular file");
		return 0;
	}
	uint64_t fs_start;
	uint32_t fs_word;
	if (sqfs_fs_fragment(c->fs, ino, &fs_start, &fs_word, err))
		return -1;
	int r = sqfs_file_read(&c->fr, ino, fs_start, fs_word, unsq_stream_sink, stdout, err);
	if (r && c->o->ignore_errors && !c->o->strict_errors && err->code == SQ_ERR_IO) {
		report(c, path, "could not be written");
		return 0;
	}
	return r;
}

static int match_dir(struct cat *c, const struct sqfs_inode *dir, const char *canon, const char *shown,
		     size_t comp, struct sq_error *err);

/* A matched entry at component comp: follow a link, then cat it or go on into it. */
static int matched(struct cat *c, const char *dir_canon, const char *shown, const struct sqfs_dirent *ent,
		   size_t comp, struct sq_error *err)
{
	const struct unsq_pattern *p = &c->sel.extract[0];
	int last = comp + 1 == p->ncomp;
	char *canon = NULL;
	struct sqfs_inode ino;
	int r;
	if (ent->type == SQFS_INODE_SYMLINK) {
		r = unsq_resolve(c->fs, dir_canon, ent->name, 1, NULL, NULL, &canon, &ino, err);
	} else {
		/* Not a link: the entry's own inode, without looking its name up again. */
		size_t dl = strlen(dir_canon);
		canon = malloc(dl + ent->name_len + 2);
		if (canon == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		snprintf(canon, dl + ent->name_len + 2, "%s%s%s", dir_canon, dl ? "/" : "", ent->name);
		r = sqfs_fs_inode(c->fs, ent->inode_ref, &ino, err) == 0 ? 1 : -1;
		if (r == 1 && ino.type != ent->type) {
			sqfs_inode_free(&ino);
			r = sq_fail(err, SQ_ERR_CORRUPT, "entry \"%s\" claims type %u but its inode has type %u", ent->name,
				    ent->type, ino.type);
		}
	}
	if (r < 0) {
		free(canon);
		return -1;
	}
	if (r == 0) {
		/* A link on the way that leads nowhere is reported only when the name ends there. */
		if (last) {
			c->found = 1;
			report(c, shown, "failed to resolve symbolic link");
		}
		return 0;
	}
	r = 0;
	if (last) {
		c->found = 1;
		r = cat_file(c, shown, &ino, err);
	} else if (ino.type == SQFS_INODE_DIR) {
		r = match_dir(c, &ino, canon, shown, comp + 1, err);
	}
	sqfs_inode_free(&ino);
	free(canon);
	return r;
}

static int match_dir(struct cat *c, const struct sqfs_inode *dir, const char *canon, const char *shown,
		     size_t comp, struct sq_error *err)
{
	const struct unsq_pattern *p = &c->sel.extract[0];
	struct sqfs_dir_iter it;
	struct sqfs_dirent ent;
	int more;
	if (sqfs_dir_open(&it, c->fs->dirs, dir, c->fs->img.sb.inode_count, err))
		return -1;
	size_t slen = strlen(shown);
	char *child = malloc(slen + SQFS_NAME_MAX + 2);
	if (child == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	while ((more = sqfs_dir_next(&it, &ent, err)) == 1) {
		if (!unsq_select_match(&c->sel, p, comp, ent.name))
			continue;
		snprintf(child, slen + SQFS_NAME_MAX + 2, "%s%s%s", shown, slen ? "/" : "", ent.name);
		if (matched(c, canon, child, &ent, comp, err)) {
			more = -1;
			break;
		}
	}
	free(child);
	return more < 0 ? -1 : 0;
}

static int cat_name(struct cat *c, const char *name, struct sq_error *err)
{
	char *const one[1] = {(char *)name};
	enum unsq_match how = c->o->regex ? UNSQ_MATCH_REGEX : c->o->no_wildcards ? UNSQ_MATCH_LITERAL : UNSQ_MATCH_GLOB;
	if (unsq_select_init(&c->sel, how, one, 1, NULL, 0, err))
		return -1;
	struct sqfs_inode root;
	int r = sqfs_fs_root(c->fs, &root, err);
	int have_root = r == 0;
	c->found = 0;
	if (r == 0 && c->sel.extract[0].ncomp == 0) {
		report(c, "", "is a directory");
		c->found = 1;
	} else if (r == 0) {
		r = match_dir(c, &root, "", "", 0, err);
	}
	if (r == 0 && !c->found) {
		fflush(stdout);
		fprintf(stderr, "cat: no matches for %s%s\n", name[0] == '/' ? "" : "/", name);
		c->status = 2;
	}
	if (have_root)
		sqfs_inode_free(&root);
	unsq_select_free(&c->sel);
	return r;
}

int unsq_cat(struct sqfs_fs *fs, const struct unsq_options *o, struct sq_error *err)
{
	struct cat c = {.fs = fs, .o = o};
	if (sqfs_file_reader_init(&c.fr, fs, &fs->dec, err))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < o->paths.count && rc == 0; i++)
		rc = cat_name(&c, o->paths.items[i], err);
	if (rc == 0 && fflush(stdout) != 0)
		rc = sq_fail_errno(err, "cannot write to standard output");
	sqfs_file_reader_free(&c.fr);
	return rc < 0 ? -1 : c.status;
}
