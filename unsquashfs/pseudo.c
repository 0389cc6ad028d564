/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pseudo.c — pseudo file output: one walk writes the definitions, a second walk of the same
 * selection (the same order) writes the files' contents: nothing per file is held between. */
#include "config.h"
#include "unsquashfs/pseudo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unsquashfs/meter.h"
#include "unsquashfs/numset.h"
#include "unsquashfs/sink.h"
#include "unsquashfs/walk.h"

struct pseudo {
	struct sqfs_fs *fs;
	const struct unsq_options *o;
	FILE *out;
	struct numset links;  /* inode number -> escaped name of its first definition */
	uint64_t offset;      /* of the next file's data from the start of the data section */
	uint64_t blocks;      /* data blocks and tails of the R definitions, for the progress bar */
	struct unsq_meter meter;
	int status;           /* 2 once something was left out */
};

/* A pseudo file is read a line at a time (a backslash before the end of a line continues it):
 * a name holding a newline cannot be written. Such a node and what is below it are left out,
 * said once for the node, and the exit status becomes 2. 1 when path is left out. */
static int left_out(struct pseudo *ps, const char *path, const char *name)
{
	if (strchr(path, '\n') == NULL)
		return 0;
	if (name == NULL || strchr(name, '\n') != NULL) {
		fflush(stdout);
		fprintf(stderr, "unsquashfs: %s%s: a name with a newline cannot be written to a pseudo file: left out\n",
			*path ? "/" : "", path);
	}
	ps->status = 2;
	return 1;
}

/* Names are written with backslashes before quotes, backslashes and white space, and
 * without the leading slash; the root is "/". */
static char *escape_name(const char *path)
{
	while (*path == '/')
		path++;
	if (*path == '\0')
		return strdup("/");
	size_t n = 0;
	for (const char *p = path; *p; p++)
		n += (*p == '"' || *p == '\\' || isspace((unsigned char)*p)) ? 2 : 1;
	char *s = malloc(n + 1), *d = s;
	if (s == NULL)
		return NULL;
	for (const char *p = path; *p; p++) {
		if (*p == '"' || *p == '\\' || isspace((unsigned char)*p))
			*d++ = '\\';
		*d++ = *p;
	}
	*d = '\0';
	return s;
}

static int want_xattr(const struct unsq_options *o, const char *name)
{
	if (!o->xattrs || (o->user_xattrs && strncmp(name, "user.", 5) != 0))
		return 0;
	if (o->xattr_exclude != NULL && regexec(o->xattr_exclude, name, 0, NULL, 0) == 0)
		return 0;
	return o->xattr_include == NULL || regexec(o->xattr_include, name, 0, NULL, 0) == 0;
}

/* A value mksquashfs would read back as it is: printable, and not starting with one of the
 * encoding prefixes 0s, 0x, 0t. Anything else is written 0t-encoded, bytes as \ooo. */
static void print_value(FILE *out, const uint8_t *v, uint32_t len)
{
	int plain = !(len >= 2 && v[0] == '0' && (v[1] == 's' || v[1] == 'x' || v[1] == 't'));
	for (uint32_t i = 0; i < len && plain; i++)
		plain = v[i] >= 32 && v[i] <= 126;
	if (plain) {
		fwrite(v, 1, len, out);
		return;
	}
	fputs("0t", out);
	for (uint32_t i = 0; i < len; i++) {
		if (v[i] < 32 || v[i] > 126 || v[i] == '\\')
			fprintf(out, "\\%03o", v[i]);
		else
			fputc(v[i], out);
	}
}

static int print_xattrs(struct pseudo *ps, const char *name, const struct sqfs_inode *ino, struct sq_error *err)
{
	if (ino->xattr == SQFS_NO_XATTR || !ps->o->xattrs)
		return 0;
	struct sqfs_xattr_list list;
	if (sqfs_fs_xattrs(ps->fs, ino, &list, err))
		return -1;
	for (uint32_t i = 0; i < list.count; i++) {
		if (!want_xattr(ps->o, list.items[i].name))
			continue;
		fprintf(ps->out, "%s x %s=", name, list.items[i].name);
		print_value(ps->out, list.items[i].value, list.items[i].value_len);
		fputc('\n', ps->out);
	}
	sqfs_xattr_list_free(&list);
	return 0;
}

static uint64_t file_blocks(const struct sqfs_inode *ino)
{
	return (uint64_t)ino->u.file.nblocks + (ino->u.file.frag != SQFS_NO_FRAGMENT);
}

static const char type_letter[] = {'?', 'D', 'R', 'S', 'B', 'C', 'I', 'I'};

/* The definition of one node: its line, then its xattrs. */
static int define(struct pseudo *ps, const char *path, const struct sqfs_inode *ino, struct sq_error *err)
{
	char *name = escape_name(path);
	if (name == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	uint32_t uid, gid;
	if (sqfs_fs_owner(ps->fs, ino, &uid, &gid, err)) {
		free(name);
		return -1;
	}
	fprintf(ps->out, "%s %c %" PRIu32 " %o %" PRIu32 " %" PRIu32, name, type_letter[ino->type], ino->mtime,
		ino->mode & 07777u, uid, gid);
	int rc = 0;
	switch (ino->type) {
	case SQFS_INODE_FILE:
		fprintf(ps->out, " %" PRIu64 " %" PRIu64 " %d\n", ino->u.file.size, ps->offset, ino->u.file.sparse != 0);
		ps->offset += ino->u.file.size;
		ps->blocks += file_blocks(ino);
		break;
	case SQFS_INODE_SYMLINK:
		fprintf(ps->out, " %s\n", ino->u.symlink.target);
		break;
	case SQFS_INODE_BLKDEV:
	case SQFS_INODE_CHRDEV:
		fprintf(ps->out, " %u %u\n", sqfs_dev_major(ino->u.dev.rdev), sqfs_dev_minor(ino->u.dev.rdev));
		break;
	case SQFS_INODE_FIFO:
	case SQFS_INODE_SOCKET:
		fprintf(ps->out, " %c\n", ino->type == SQFS_INODE_SOCKET ? 's' : 'f');
		break;
	default:
		fputc('\n', ps->out);
		break;
	}
	if (rc == 0)
		rc = print_xattrs(ps, name, ino, err);
	if (rc == 0 && ino->type != SQFS_INODE_DIR && ino->nlink > 1) {
		if (numset_add(&ps->links, ino->number, name, err) < 0)
			return -1;
		return 0;
	}
	free(name);
	return rc;
}

static int ps_enter(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		    void **child, struct sq_error *err)
{
	(void)parent;
	*child = NULL;
	if (left_out(ctx, path, name))
		return 0;
	return define(ctx, path, ino, err);
}

static int ps_leaf(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		   struct sq_error *err)
{
	(void)parent;
	struct pseudo *ps = ctx;
	if (left_out(ps, path, name))
		return 0;
	int found = 0;
	const char *first = ino->nlink > 1 ? numset_get(&ps->links, ino->number, &found) : NULL;
	if (!found)
		return define(ps, path, ino, err);
	char *escaped = escape_name(path);
	if (escaped == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	fprintf(ps->out, "%s L %s\n", escaped, first);
	free(escaped);
	return 0;
}

/* The second walk: the contents of each regular file that got an R definition, in order. */
struct data_pass {
	struct pseudo *ps;
	struct sqfs_file_reader fr;
	struct numset seen; /* hard-linked inodes already written */
};

static int data_leaf(void *ctx, const char *path, const char *name, const struct sqfs_inode *ino, void *parent,
		     struct sq_error *err)
{
	(void)name, (void)parent;
	struct data_pass *d = ctx;
	if (ino->type != SQFS_INODE_FILE || strchr(path, '\n') != NULL)
		return 0;
	if (ino->nlink > 1) {
		int r = numset_add(&d->seen, ino->number, NULL, err);
		if (r <= 0)
			return r;
	}
	uint64_t start;
	uint32_t word;
	if (sqfs_fs_fragment(d->ps->fs, ino, &start, &word, err) ||
	    sqfs_file_read(&d->fr, ino, start, word, unsq_stream_sink, d->ps->out, err))
		return -1;
	unsq_meter_advance(&d->ps->meter, file_blocks(ino));
	return 0;
}

static int write_data(struct pseudo *ps, struct unsq_select *sel, struct sq_error *err)
{
	struct data_pass d = {.ps = ps};
	if (sqfs_file_reader_init(&d.fr, ps->fs, &ps->fs->dec, err))
		return -1;
	struct unsq_visitor v = {.ctx = &d, .leaf = data_leaf};
	struct unsq_walk_opts wo = {.sel = sel, .max_depth = ps->o->max_depth};
	int rc = unsq_walk(ps->fs, &wo, &v, err);
	numset_free(&d.seen);
	sqfs_file_reader_free(&d.fr);
	return rc;
}

static int generate(struct pseudo *ps, struct unsq_select *sel, struct sq_error *err)
{
	struct unsq_visitor v = {.ctx = ps, .enter_dir = ps_enter, .leaf = ps_leaf};
	struct unsq_walk_opts wo = {.sel = sel, .max_depth = ps->o->max_depth};
	if (unsq_walk(ps->fs, &wo, &v, err))
		return -1;
	fputs("#\n# START OF DATA - DO NOT MODIFY\n#\n", ps->out);
	/* A bar as the reference draws it, when the pseudo file is not standard output. */
	int bar = !ps->o->quiet && !ps->o->no_progress && ps->out != stdout;
	unsq_meter_start(&ps->meter, bar, ps->o->percentage && ps->out != stdout, ps->blocks);
	int rc = write_data(ps, sel, err);
	unsq_meter_finish(&ps->meter);
	if (rc)
		return -1;
	if (fflush(ps->out) != 0 || ferror(ps->out))
		return sq_fail_errno(err, "cannot write the pseudo file %s", ps->o->pseudo_file);
	return 0;
}

int unsq_pseudo(struct sqfs_fs *fs, const struct unsq_options *o, struct unsq_select *sel, struct sq_error *err)
{
	struct pseudo ps = {.fs = fs, .o = o};
	int to_stdout = strcmp(o->pseudo_file, "-") == 0;
	/* Only a regular file is removed after a failure: -pf /dev/null (or a pipe) stays. */
	bool regular = false;
	if (to_stdout) {
		ps.out = stdout;
	} else {
		int fd = open(o->pseudo_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		struct stat st;
		if (fd < 0 || (ps.out = fdopen(fd, "w")) == NULL) {
			if (fd >= 0)
				close(fd);
			return sq_fail_errno(err, "cannot create the pseudo file %s", o->pseudo_file);
		}
		regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	}
	int rc = generate(&ps, sel, err);
	if (!to_stdout) {
		if (fclose(ps.out) != 0 && rc == 0)
			rc = sq_fail_errno(err, "cannot write the pseudo file %s", o->pseudo_file);
		if (rc != 0 && regular)
			unlink(o->pseudo_file);
	}
	numset_free(&ps.links);
	return rc ? rc : ps.status;
}
