/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pseudo_test.c — the pseudo definition parser (names, quoting, every type's fields, errors with
 * their line), pseudo files (continuations, comments, R data sections), the symbolic mode parser,
 * and definitions applied to a tree through build_tree (hard links, spooled command output,
 * -pd, 1,000-deep nesting). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mksquashfs/build.h"
#include "mksquashfs/content.h"
#include "mksquashfs/mode.h"
#include "mksquashfs/options.h"
#include "mksquashfs/pseudo/internal.h"
#include "tests/lib/check.h"

static char tmp[256];

static struct pseudo_def *def_at(struct pseudo_set *set, const char *path)
{
	char buf[512];
	char *parts[64];
	size_t n = 0;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *t = strtok(buf, "/"); t && n < 63; t = strtok(NULL, "/"))
		parts[n++] = t;
	parts[n] = NULL;
	struct pseudo_node *node = pseudo_set_lookup(set, parts);
	return node ? node->def : NULL;
}

/* Each definition alone must fail with a message containing want. */
static void refused(const char *text, const char *want)
{
	struct sq_error err;
	sq_error_clear(&err);
	struct pseudo_set *set = pseudo_set_new(&err);
	int rc = pseudo_add_definition(set, text, &err);
	CHECK(rc == -1, "%s accepted", text);
	CHECK(strstr(err.msg, want) != NULL, "%s: \"%s\" lacks \"%s\"", text, err.msg, want);
	pseudo_set_free(set);
}

static void test_names_and_fields(void)
{
	struct sq_error err;
	sq_error_clear(&err);
	struct pseudo_set *set = pseudo_set_new(&err);
	const char *defs[] = {
		"a\\ b d 755 0 0", "\"c d\" d 700 1 2", "\"c d\"/e\\\"f s 0 0 0   to  target ",
		"//p1//p2/ d 711 root root", "p1 d 700 3 4", "dev d 755 0 0",
		"dev/blk b 660 0 6 8 1", "dev/chr C 1000 600 0 0 4095 1048575",
		"dev/fifo i 644 1 1 f", "dev/sock I 5 644 1 1 s", "cmd F 7 644 0 0 echo  hi",
		"link L dev/blk", "link2 L /link", "p1/m M \"1 jan 1980 UTC\" 600 5 5",
		"x x user.k=0x4142", "host l /etc/hostname", NULL,
	};
	for (size_t i = 0; defs[i] != NULL; i++)
		CHECK(pseudo_add_definition(set, defs[i], &err) == 0, "%s: %s", defs[i], err.msg);
	struct pseudo_def *d = def_at(set, "a b");
	CHECK(d && d->type == 'd' && d->mode == 0755 && !d->timed);
	d = def_at(set, "c d/e\"f");
	CHECK(d && d->type == 's' && strcmp(d->arg, "to  target ") == 0, "%s", d ? d->arg : "");
	d = def_at(set, "p1/p2");
	CHECK(d && d->mode == 0711 && d->uid == 0 && d->gid == 0);
	CHECK(def_at(set, "p1") && def_at(set, "p1")->uid == 3, "p1 defined after its child");
	d = def_at(set, "dev/chr");
	CHECK(d && d->type == 'c' && d->timed && d->mtime == 1000 && d->major == 4095 &&
	      d->minor == 1048575);
	d = def_at(set, "dev/sock");
	CHECK(d && d->type == 'i' && d->ipc == 's' && d->mtime == 5);
	d = def_at(set, "cmd");
	CHECK(d && d->type == 'f' && strcmp(d->arg, "echo  hi") == 0);
	d = def_at(set, "link2");
	CHECK(d && d->type == 'L' && d->target == def_at(set, "dev/blk"), "L of an L: its target");
	d = def_at(set, "p1/m");
	CHECK(d && d->type == 'm' && d->timed && d->mtime == 315532800, "date string: %u",
	      d ? d->mtime : 0);
	struct pseudo_node *xn = pseudo_set_lookup(set, (char *[]){ "x", NULL });
	CHECK(xn && xn->def == NULL && xn->xattrs && xn->xattrs->xattr.value_len == 2 &&
	      memcmp(xn->xattrs->xattr.value, "AB", 2) == 0 && strcmp(xn->xattrs->xattr.key, "k") == 0);
	d = def_at(set, "host");
	CHECK(d && d->type == 'l' && strcmp(d->arg, "/etc/hostname") == 0);
	pseudo_set_free(set);
}

static void test_errors(void)
{
	refused("x q 755 0 0", "unknown type \"q\"");
	refused("x", "missing type");
	refused("x d 8 0 0", "bad mode \"8\"");
	refused("x d 10000 0 0", "bad mode");
	refused("x d 755", "missing or too long uid");
	refused("x d 755 nosuchuser-zz 0", "unknown user");
	refused("x d 755 0 nosuchgroup-zz", "unknown group");
	refused("x c 600 0 0 1", "missing minor");
	refused("x b 600 0 0 4096 0", "bad major");
	refused("x d 755 0 0 more", "unexpected trailing characters \"more\"");
	refused("../x d 755 0 0", "\"..\" in the path");
	refused("a/./x d 755 0 0", "\".\" in the path");
	refused("x f 644 0 0", "missing command");
	refused("x s 644 0 0 ", "missing symlink target");
	refused("x L nothing", "not an earlier pseudo definition");
	refused("x R 0 644 0 0 1 0", "only allowed in a pseudo file");
	refused("/ c 600 0 0 1 1", "root / can only be a directory");
	refused("x x user.k", "expected name=value");
	refused("x x other.k=v", "user.*, trusted.* or security.*");
	refused("x x user.k=0xabc", "odd number of hex digits");
	refused("x x user.k=0t\\9", "three octal digits");
	refused("x D tomorrow-ish-zz 755 0 0", "bad time");
	refused("x D 4294967296 755 0 0", "after 2106");
	char longname[400];
	memset(longname, 'n', 300);
	strcpy(longname + 300, " d 755 0 0");
	refused(longname, "300 bytes long");

	struct sq_error err;
	sq_error_clear(&err);
	struct pseudo_set *set = pseudo_set_new(&err);
	CHECK(pseudo_add_definition(set, "d/x c 600 0 0 1 1", &err) == 0);
	CHECK(pseudo_add_definition(set, "d f 644 0 0 true", &err) == -1);
	CHECK(strstr(err.msg, "/d cannot be a file from a command") != NULL, "%s", err.msg);
	sq_error_clear(&err);
	CHECK(pseudo_add_definition(set, "d/x d 755 0 0", &err) == -1);
	CHECK(strstr(err.msg, "/d/x is defined twice (first -p \"d/x c") != NULL, "%s", err.msg);
	sq_error_clear(&err);
	CHECK(pseudo_add_definition(set, "d/x/y d 755 0 0", &err) == -1);
	CHECK(strstr(err.msg, "/d/x is a character device") != NULL, "%s", err.msg);
	CHECK(pseudo_add_definition(set, "d d 700 0 0", &err) == 0, "a directory on the way");
	CHECK(pseudo_set_default_dir(set, "q 755 0 0", &err) == -1);
	sq_error_clear(&err);
	CHECK(pseudo_set_default_dir(set, "D 10 755 0 0", &err) == 0, "%s", err.msg);
	pseudo_set_free(set);
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	if (f == NULL || fwrite(text, 1, len, f) != len) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

static void test_pseudo_file(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/defs", tmp);
	const char text[] = "# comment\n\n  # indented\r\n/ D 1 755 0 0\r\n"
			    "cmd f 644 0 0 echo one; \\\necho two\n"
			    "reg R 2 640 3 4 5 6\ndev c 600 0 0 10 \\\n 20\n"
			    "#\n# START OF DATA - DO NOT MODIFY\n#\nHello World\n";
	write_file(path, text, sizeof(text) - 1);
	struct sq_error err;
	sq_error_clear(&err);
	struct pseudo_set *set = pseudo_set_new(&err);
	CHECK(pseudo_add_file(set, path, &err) == 0, "%s", err.msg);
	struct pseudo_def *d = def_at(set, "cmd");
	CHECK(d && strcmp(d->arg, "echo one; echo two") == 0, "continued: %s", d ? d->arg : "");
	CHECK(d && d->where.line == 5, "line %u", d ? d->where.line : 0);
	d = def_at(set, "reg");
	CHECK(d && d->data && d->data->size == 12 && d->offset == 6 && d->length == 5);
	char got[6] = "";
	CHECK(d && d->data && pread(d->data->fd, got, 5, (off_t)(d->data->base + d->offset)) == 5 &&
	      memcmp(got, "World", 5) == 0, "R bytes: %.5s", got);
	d = def_at(set, "dev");
	CHECK(d && d->major == 10 && d->minor == 20 && d->where.line == 8);
	CHECK(set->root.def && set->root.def->mtime == 1);
	pseudo_set_free(set);

	const char bad[] = "ok d 755 0 0\n\n# x\nbad d 755 0 0 junk\n";
	write_file(path, bad, sizeof(bad) - 1);
	sq_error_clear(&err);
	set = pseudo_set_new(&err);
	CHECK(pseudo_add_file(set, path, &err) == -1);
	CHECK(strstr(err.msg, "defs line 4: unexpected trailing") != NULL, "%s", err.msg);
	pseudo_set_free(set);

	const char short_data[] = "a R 0 644 0 0 20 0\n#\n# START OF DATA - DO NOT MODIFY\n#\nab\n";
	write_file(path, short_data, sizeof(short_data) - 1);
	sq_error_clear(&err);
	set = pseudo_set_new(&err);
	CHECK(pseudo_add_file(set, path, &err) == -1);
	CHECK(strstr(err.msg, "line 1: bytes 0..20 are beyond the 3 bytes") != NULL, "%s", err.msg);
	pseudo_set_free(set);

	/* A 1 MiB comment line is read past; a 1 MiB name is refused naming its line. */
	size_t big = (1u << 20) + 64;
	char *huge = malloc(big);
	memset(huge, 'c', big);
	huge[0] = '#';
	huge[(1u << 20)] = '\n';
	memcpy(huge + (1u << 20) + 1, "z d 755 0 0\n", 12);
	write_file(path, huge, (1u << 20) + 13);
	sq_error_clear(&err);
	set = pseudo_set_new(&err);
	CHECK(pseudo_add_file(set, path, &err) == 0, "%s", err.msg);
	CHECK(def_at(set, "z") != NULL);
	pseudo_set_free(set);
	huge[0] = 'n';
	memcpy(huge + (1u << 20), " d 755 0 0\n", 11);
	write_file(path, huge, (1u << 20) + 11);
	sq_error_clear(&err);
	set = pseudo_set_new(&err);
	CHECK(pseudo_add_file(set, path, &err) == -1);
	CHECK(strstr(err.msg, "line 1: a name in") != NULL, "%s", err.msg);
	pseudo_set_free(set);
	free(huge);
}

static void test_modes(void)
{
	struct sq_error err;
	struct mode_spec m;
	struct {
		const char *spec;
		uint32_t mode, want;
	} cases[] = {
		{ "0640", S_IFREG | 0777, 0640 },
		{ "go-w,u+rw", S_IFREG | 0577, 0755 },
		{ "a+rX", S_IFREG | 0600, 0644 },
		{ "a+rX", S_IFREG | 0700, 0755 },
		{ "a+rX", S_IFDIR | 0700, 0755 },
		{ "u=rwx,g=rx,o=", S_IFREG | 0777, 0750 },
		{ "ug+s", S_IFREG | 0755, 06755 },
		{ "+t", S_IFDIR | 0777, 01777 },
		{ "o=u", S_IFREG | 0640, 0646 },
		{ "u-x+s", S_IFREG | 0755, 04655 },
		{ "=r", S_IFREG | 04777, 0444 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(mode_parse("-force-file-mode", cases[i].spec, &m, &err) == 0, "%s: %s",
		      cases[i].spec, err.msg);
		uint32_t got = mode_apply(&m, cases[i].mode);
		CHECK(got == cases[i].want, "%s on 0%o: 0%o, want 0%o", cases[i].spec,
		      cases[i].mode & 07777, got, cases[i].want);
	}
	const char *bad[] = { "", "8", "17777", "u", "u+q", "x+r", "u+r;", NULL };
	for (size_t i = 0; bad[i] != NULL; i++)
		CHECK(mode_parse("-root-mode", bad[i], &m, &err) == -1, "\"%s\" accepted", bad[i]);
}

struct built {
	struct mksq_options o;
	struct tree tree;
	struct file_list files;
	int rc;
	struct sq_error err;
};

/* mksquashfs - IMG, then the definitions given, through build_tree. */
static void build(struct built *b, const char *const *args, int n)
{
	char *argv[32] = { "mksquashfs", "-", "img" };
	int argc = 3;
	for (int i = 0; i < n && argc < 31; i++)
		argv[argc++] = (char *)args[i];
	memset(b, 0, sizeof(*b));
	sq_error_clear(&b->err);
	enum options_action action;
	b->rc = options_parse(&b->o, argc, argv, NULL, 5000, &action, &b->err);
	if (b->rc != 0)
		return;
	struct exclude_list x;
	struct scan_stats stats;
	b->rc = exclude_init(&x, NULL, 0, false, false, b->o.sources, b->o.source_count, &b->err);
	if (b->rc == 0)
		b->rc = build_tree(&b->o, &x, NULL, &b->tree, &b->files, &stats, NULL, NULL, &b->err);
	exclude_free(&x);
}

static void unbuild(struct built *b)
{
	tree_free(&b->tree);
	file_list_free(&b->files);
	options_free(&b->o);
}

static struct tree_inode *child(struct tree_inode *d, const char *name)
{
	struct tree_entry *e = d && d->dir ? tree_dir_find(d, name, strlen(name)) : NULL;
	return e ? e->inode : NULL;
}

static void test_apply(void)
{
	struct built b;
	const char *a1[] = { "-p", "/ d 711 1 2", "-p", "f f 640 3 3 printf abc",
			     "-p", "g L f", "-p", "c c 600 0 0 5 1", "-p", "h L /c",
			     "-p", "d/e/f D 77 700 0 0", "-pd", "D 66 755 9 9", "-all-root",
			     "-pseudo-override" };
	build(&b, a1, 16);
	CHECK(b.rc == 0, "%s", b.err.msg);
	if (b.rc == 0) {
		struct tree_inode *r = b.tree.root;
		CHECK((r->mode & 07777) == 0711 && r->uid == 1 && r->gid == 2, "root 0%o %u:%u",
		      r->mode & 07777, r->uid, r->gid);
		struct tree_inode *f = child(r, "f");
		CHECK(f && f == child(r, "g") && f->nlink == 2 && f->mtime == 5000 && f->uid == 3);
		CHECK(child(r, "c") && child(r, "c") == child(r, "h") && child(r, "c")->nlink == 2);
		struct content c;
		char got[4] = "";
		CHECK(f && f->file->size == 3 && content_open(f, &c, &b.err) == 0 &&
		      content_pread(&c, got, 3, 0) == 3 && memcmp(got, "abc", 3) == 0, "%.3s", got);
		if (f)
			content_close(&c);
		struct tree_inode *d = child(r, "d");
		CHECK(d && d->mtime == 66 && d->uid == 9 && (d->mode & 07777) == 0755, "-pd dir");
		CHECK(child(child(d, "e"), "f") && child(child(d, "e"), "f")->mtime == 77);
		CHECK(b.files.count == 1, "one file (hard links share it)");
	}
	unbuild(&b);

	const char *a2[] = { "-p", "/ d 755 0 0", "-p", "a/b c 600 0 0 1 1" };
	build(&b, a2, 4);
	CHECK(b.rc == -1 && strstr(b.err.msg, "/a does not exist") != NULL, "%s", b.err.msg);
	unbuild(&b);
	const char *a3[] = { "-p", "/ d 755 0 0", "-p", "x F 1 644 0 0 echo out; exit 4" };
	build(&b, a3, 4);
	CHECK(b.rc == -1 && strstr(b.err.msg, "exited with status 4") != NULL, "%s", b.err.msg);
	unbuild(&b);

	/* 1,000 definitions nested: built and freed without trouble. */
	char path[300];
	snprintf(path, sizeof(path), "%s/deep", tmp);
	FILE *fp = fopen(path, "w");
	char name[2100] = "a";
	fprintf(fp, "/ d 755 0 0\n");
	for (int i = 0; i < 1000; i++) {
		fprintf(fp, "%s d 755 0 0\n", name);
		strcat(name, "/a");
	}
	fclose(fp);
	const char *a4[] = { "-pf", path };
	build(&b, a4, 2);
	CHECK(b.rc == 0, "%s", b.err.msg);
	int depth = 0;
	for (struct tree_inode *n = b.tree.root; n && (n = child(n, "a")) != NULL;)
		depth++;
	CHECK(depth == 1000, "depth %d", depth);
	unbuild(&b);
}

int main(void)
{
	snprintf(tmp, sizeof(tmp), "%s/pseudo_test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	setenv("TZ", "UTC", 1);
	test_names_and_fields();
	test_errors();
	test_pseudo_file();
	test_modes();
	test_apply();
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmp);
	return check_exit("pseudo_test");
}
