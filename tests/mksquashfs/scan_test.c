/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan_test.c — walking sources into the tree: one directory vs several sources (renamed
 * clashes), hard links counted over the image, owners and times after -all-root, -force-uid,
 * -all-time and SOURCE_DATE_EPOCH clamping, exclusions, symlinks and the file order. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "mksquashfs/options.h"
#include "mksquashfs/build.h"
#include "mksquashfs/scan.h"
#include "tests/lib/check.h"


static char dir[256];

static void make(const char *rel, const char *content)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		perror(path);
		exit(1);
	}
	fputs(content, f);
	fclose(f);
}

static void set_mtime(const char *rel, time_t t)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	struct timeval tv[2] = { { t, 0 }, { t, 0 } };
	lutimes(path, tv);
}

struct scanned {
	struct mksq_options o;
	struct tree tree;
	struct file_list files;
	struct scan_stats stats;
	int rc;
	struct sq_error err;
};

/* line: the arguments after "mksquashfs", space separated, with @ standing for dir. */
static void scan(struct scanned *s, const char *line, const char *sde)
{
	static char buf[2048];
	char *argv[64];
	int argc = 0;
	char expanded[2048] = "mksquashfs ";
	for (const char *p = line; *p; p++) {
		size_t n = strlen(expanded);
		if (*p == '@')
			snprintf(expanded + n, sizeof(expanded) - n, "%s", dir);
		else if (n + 1 < sizeof(expanded)) {
			expanded[n] = *p;
			expanded[n + 1] = '\0';
		}
	}
	snprintf(buf, sizeof(buf), "%s", expanded);
	for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	memset(s, 0, sizeof(*s));
	sq_error_clear(&s->err);
	enum options_action action;
	s->rc = options_parse(&s->o, argc, argv, sde, 5000, &action, &s->err);
	if (s->rc != 0)
		return;
	struct exclude_list x;
	s->rc = exclude_init(&x, s->o.excludes, s->o.exclude_count, s->o.wildcards, s->o.regex,
			     s->o.sources, s->o.source_count, &s->err);
	if (s->rc == 0)
		s->rc = build_tree(&s->o, &x, NULL, &s->tree, &s->files, &s->stats, NULL, NULL,
				   &s->err);
	exclude_free(&x);
}

static void done(struct scanned *s)
{
	tree_free(&s->tree);
	file_list_free(&s->files);
	options_free(&s->o);
}

static struct tree_inode *child(struct tree_inode *d, const char *name)
{
	if (d == NULL || d->dir == NULL)
		return NULL;
	for (uint32_t i = 0; i < d->dir->count; i++)
		if (strcmp(d->dir->entries[i].name, name) == 0)
			return d->dir->entries[i].inode;
	return NULL;
}

static void check_sorted(struct tree_inode *d)
{
	for (uint32_t i = 0; i + 1 < d->dir->count; i++)
		CHECK(strcmp(d->dir->entries[i].name, d->dir->entries[i + 1].name) < 0,
		      "%s before %s", d->dir->entries[i].name, d->dir->entries[i + 1].name);
	for (uint32_t i = 0; i < d->dir->count; i++)
		if (d->dir->entries[i].inode->dir != NULL)
			check_sorted(d->dir->entries[i].inode);
}

/* The source tree every part scans, in a fresh temporary directory. */
static int make_sources(void)
{
	snprintf(dir, sizeof(dir), "/tmp/scan_test.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	char path[512], path2[512];
	snprintf(path, sizeof(path), "%s/a", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a/sub", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/b", dir);
	mkdir(path, 0755);
	make("a/zz", "zz\n");
	make("a/file", "hello\n");
	make("a/sub/deep.o", "obj");
	make("b/file", "other\n");
	make("single", "single\n");
	snprintf(path, sizeof(path), "%s/a/file", dir);
	snprintf(path2, sizeof(path2), "%s/a/sub/link-to-file", dir);
	if (link(path, path2) != 0)
		perror("link");
	snprintf(path2, sizeof(path2), "%s/a/sym", dir);
	if (symlink("file", path2) != 0)
		perror("symlink");
	set_mtime("a/zz", 100);
	set_mtime("a/file", 9000);
	return 0;
}

static void scan_checks(void)
{
	struct scanned s;
	scan(&s, "@/a img", NULL);
	CHECK(s.rc == 0, "one dir: %s", s.err.msg);
	struct tree_inode *root = s.tree.root;
	CHECK(root && root->dir && root->dir->count == 4, "root holds the directory's 4 entries");
	check_sorted(root);
	struct tree_inode *f = child(root, "file"), *l = child(child(root, "sub"), "link-to-file");
	CHECK(f && f == l && f->nlink == 2 && s.stats.hard_links == 1, "hard link shares the inode");
	struct tree_inode *sym = child(root, "sym");
	CHECK(sym && S_ISLNK(sym->mode) && sym->symlink_len == 4 &&
	      strcmp(sym->symlink_target, "file") == 0, "symlink target");
	CHECK(s.files.count == 3 && s.files.total_bytes == 3 + 6 + 3, "three distinct files");
	/* Depth first in entry order: file, sub/deep.o, zz (sub/link-to-file is file again). */
	char p0[4096] = "", p1[4096] = "", p2[4096] = "";
	if (s.files.count == 3) {
		tree_source_path(s.files.files[0], p0, sizeof(p0));
		tree_source_path(s.files.files[1], p1, sizeof(p1));
		tree_source_path(s.files.files[2], p2, sizeof(p2));
	}
	CHECK(s.files.count == 3 && strstr(p0, "a/file") && strstr(p1, "sub/deep.o") &&
	      strstr(p2, "a/zz"), "file order and source paths rebuilt from their directories");
	CHECK(f && f->mtime == 9000 && (f->mode & 07777) == 0644, "mtime and mode kept");
	CHECK(child(root, "sub") && (child(root, "sub")->mode & 07777) == 0700 &&
	      child(root, "sub")->dir->parent == root, "subdirectory");
	done(&s);

	scan(&s, "@/a @/b @/single @/a img", NULL);
	CHECK(s.rc == 0, "several: %s", s.err.msg);
	root = s.tree.root;
	CHECK(root && root->dir->count == 4 && child(root, "a") && child(root, "b") &&
	      child(root, "single") && child(root, "a_1"), "made-up root with a renamed clash");
	CHECK(root && root->mode == (S_IFDIR | 0777) && root->mtime == 5000, "made-up root");
	CHECK(child(child(root, "a"), "file") != NULL && child(child(root, "a_1"), "file") ==
	      child(child(root, "a"), "file"), "the same directory twice shares its files");
	CHECK(child(root, "single") && child(root, "single")->file, "file source is an entry");
	done(&s);

	scan(&s, "@/single img", NULL);
	CHECK(s.rc == 0 && s.tree.root->dir->count == 1 && child(s.tree.root, "single"),
	      "a single file source goes in a made-up root");
	done(&s);
	scan(&s, "@/a img -keep-as-directory", NULL);
	CHECK(s.rc == 0 && s.tree.root->dir->count == 1 && child(s.tree.root, "a"),
	      "-keep-as-directory");
	done(&s);

	scan(&s, "@/a img -all-root -force-gid 77", NULL);
	f = child(s.tree.root, "file");
	CHECK(s.rc == 0 && f && f->uid == 0 && f->gid == 77 && s.tree.root->gid == 77,
	      "-all-root -force-gid");
	done(&s);
	scan(&s, "@/a img -force-uid 123456", NULL);
	f = child(s.tree.root, "file");
	CHECK(s.rc == 0 && f && f->uid == 123456, "-force-uid beyond 16 bits");
	done(&s);
	scan(&s, "@/a img -all-time 42", NULL);
	CHECK(s.rc == 0 && child(s.tree.root, "zz")->mtime == 42 && s.tree.root->mtime == 42,
	      "-all-time");
	done(&s);
	scan(&s, "@/a img", "1000");
	CHECK(s.rc == 0 && child(s.tree.root, "zz")->mtime == 100 &&
	      child(s.tree.root, "file")->mtime == 1000, "SOURCE_DATE_EPOCH clamps newer only");
	done(&s);

	scan(&s, "@/a img -e file sub", NULL);
	CHECK(s.rc == 0 && s.tree.root->dir->count == 2 && child(s.tree.root, "zz") &&
	      child(s.tree.root, "sym"), "plain excludes relative to the source");
	done(&s);
	make("excludes", "... *.o\nz?\n");
	scan(&s, "@/a img -wildcards -ef @/excludes", NULL);
	CHECK(s.rc == 0 && child(s.tree.root, "zz") == NULL &&
	      child(child(s.tree.root, "sub"), "deep.o") == NULL &&
	      child(child(s.tree.root, "sub"), "link-to-file") != NULL, "wildcard excludes");
	CHECK(s.rc == 0 && s.files.count == 1, "excluded files are not read");
	done(&s);

	scan(&s, "@/missing img", NULL);
	CHECK(s.rc != 0 && strstr(s.err.msg, "missing"), "missing source named: %s", s.err.msg);
	done(&s);

}

/* User xattrs read and sorted, and dropped by -no-xattrs (a build configured --without-xattr
 * reads none); 77 when the temporary directory's file system takes no user xattrs. */
static int xattr_checks(void)
{
	char path[512];
	struct scanned s;
	snprintf(path, sizeof(path), "%s/a/zz", dir);
	if (lsetxattr(path, "user.b", "2", 1, 0) == 0 && lsetxattr(path, "user.a", "", 0, 0) == 0) {
		scan(&s, "@/a img", NULL);
		struct tree_inode *z = child(s.tree.root, "zz");
#ifndef HAVE_XATTR
		CHECK(s.rc == 0 && z && z->xattrs == NULL, "no xattrs read by a --without-xattr build");
		done(&s);
		return 0;
#endif
		CHECK(s.rc == 0 && z && z->xattrs && z->xattrs->count == 2 &&
		      strcmp(z->xattrs->entries[0].key, "a") == 0 &&
		      z->xattrs->entries[0].value_len == 0 &&
		      z->xattrs->entries[1].key_len == 1 && z->xattrs->entries[1].value_len == 1 &&
		      z->xattrs->entries[1].value[0] == '2' &&
		      z->xattrs->entries[1].type == 0, "user xattrs read and sorted");
		done(&s);
		scan(&s, "@/a img -no-xattrs", NULL);
		CHECK(s.rc == 0 && child(s.tree.root, "zz")->xattrs == NULL, "-no-xattrs");
		done(&s);
		return 0;
	}
	fprintf(stderr, "SKIP: scan_test: %s takes no user xattrs\n", dir);
	return 77;

}

/* As a user who cannot read a directory; 77 when running as root (root reads everything). */
static int unprivileged_checks(void)
{
	char path[512];
	struct scanned s;
	if (geteuid() == 0) {
		fprintf(stderr, "SKIP: scan_test: running as root: an unreadable directory cannot be made\n");
		return 77;
	}
	{
		snprintf(path, sizeof(path), "%s/a/sub", dir);
		chmod(path, 0);
		/* As squashfs-tools: left out with a warning, or fatal with -exit-on-error. */
		scan(&s, "@/a img", NULL);
		CHECK(s.rc == 0 && child(s.tree.root, "sub") == NULL && s.stats.skipped == 1,
		      "unreadable directory not skipped: %s", s.err.msg);
		done(&s);
		scan(&s, "@/a img -exit-on-error", NULL);
		CHECK(s.rc != 0 && strstr(s.err.msg, "sub"), "unreadable directory with -exit-on-error: %s",
		      s.err.msg);
		done(&s);
		chmod(path, 0700);
	}

	return 0;
}

/* No argument: the scan checks any machine can make; --xattrs and --unprivileged: the parts that
 * need user xattrs or a non-root user (scan_parts.sh), each exiting 77 where it cannot run. */
int main(int argc, char **argv)
{
	if (make_sources() != 0)
		return 1;
	int part = 0;
	if (argc > 1 && strcmp(argv[1], "--xattrs") == 0)
		part = xattr_checks();
	else if (argc > 1 && strcmp(argv[1], "--unprivileged") == 0)
		part = unprivileged_checks();
	else
		scan_checks();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	if (part == 77 && check_failures == 0)
		return 77;
	return check_exit("scan_test");
}
