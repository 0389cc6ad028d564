/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tree_test.c — the tree's compact storage: source paths rebuilt from (parent, name) records as
 * sq_path_join builds them, cut short like snprintf; entry names packed per directory and freed
 * right whether packed or added later; the same with inodes, entries and names in an arena that
 * spills to a temporary file; duplicate tables sized up front never grow, and stop at a limit. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/format.h"
#include "common/util/error.h"
#include "common/util/path.h"
#include "mksquashfs/dedup.h"
#include "mksquashfs/spill.h"
#include "mksquashfs/tree.h"
#include "tests/lib/check.h"

/* A file inode whose source is the record chain base/dirs.../leaf, built as the scan does. */
static struct tree_inode *chained(struct tree *t, const char *base, const char *mid,
				  const char *leaf, struct sq_error *err)
{
	char *rec = tree_source_add(t, NULL, base, strlen(base), err);
	if (rec != NULL && mid != NULL)
		rec = tree_source_add(t, rec, mid, strlen(mid), err);
	struct tree_inode *n = tree_inode_new(S_IFREG | 0644, err);
	if (rec == NULL || n == NULL)
		return n;
	n->source_path = tree_source_add(t, rec, leaf, strlen(leaf), err);
	n->flags |= TREE_SOURCE_CHAIN;
	return n;
}

static void test_source_paths(void)
{
	struct tree t = { 0 };
	struct sq_error err;
	sq_error_clear(&err);
	static const char *const cases[][3] = {
		{ "src", "sub", "file" }, { "src/", "sub", "file" }, { "/", "etc", "passwd" },
		{ "/", NULL, "top" },     { "a//b/", NULL, "c" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tree_inode *n = chained(&t, cases[i][0], cases[i][1], cases[i][2], &err);
		CHECK(n != NULL && n->source_path != NULL, "record %zu: %s", i, err.msg);
		if (n == NULL || n->source_path == NULL)
			continue;
		char *dir = cases[i][1] ? sq_path_join(cases[i][0], cases[i][1]) : strdup(cases[i][0]);
		char *want = sq_path_join(dir, cases[i][2]);
		char got[64];
		size_t len = tree_source_path(n, got, sizeof(got));
		CHECK(strcmp(got, want) == 0 && len == strlen(want), "rebuilt %s as %s", want, got);
		char small[5];
		len = tree_source_path(n, small, sizeof(small));
		CHECK(len == strlen(want) && strncmp(small, want, 4) == 0 && small[4] == '\0',
		      "cut short: %s of %s, length %zu", small, want, len);
		CHECK(tree_source_path(n, NULL, 0) == strlen(want), "length alone");
		const struct tree_source *d = tree_source_dir(n);
		CHECK(d != NULL && tree_source_record_path(d, got, sizeof(got)) == strlen(dir) &&
		      strcmp(got, dir) == 0, "directory record %s", dir);
		free(dir);
		free(want);
		tree_inode_free(n); /* the record stays with the tree's arena */
	}
	struct tree_inode *plain = tree_inode_new(S_IFREG | 0644, &err);
	char got[16] = "x";
	CHECK(plain != NULL && tree_source_path(plain, got, sizeof(got)) == 0 && got[0] == '\0' &&
	      tree_source_dir(plain) == NULL, "no source: empty");
	if (plain != NULL)
		tree_inode_free(plain);
	tree_free(&t);
	CHECK(t.arena == NULL, "arena freed with the tree");
}

static void test_packed_names(void)
{
	struct sq_error err;
	sq_error_clear(&err);
	struct tree t = { .root = tree_inode_new(S_IFDIR | 0755, &err) };
	CHECK(t.root != NULL, "root");
	if (t.root == NULL)
		return;
	char name[16];
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "n%02d", i);
		struct tree_inode *f = tree_inode_new(S_IFREG | 0644, &err);
		CHECK(f != NULL && tree_dir_add(t.root, name, strlen(name), f, &err) == 0, "add");
	}
	struct tree_dir *d = t.root->dir;
	CHECK(d->cap > d->count, "doubling left room (%u of %u)", d->count, d->cap);
	tree_dir_trim(NULL, t.root);
	CHECK(d->cap == d->count && d->names != NULL && d->names_len == 20 * 4, "trimmed, packed");
	/* A packed name removed, a name added after packing, then a lookup of each kind. */
	struct tree_entry *e = tree_dir_find(t.root, "n05", 3);
	CHECK(e != NULL, "packed name found");
	if (e != NULL) {
		struct tree_inode *gone = e->inode;
		tree_dir_remove(t.root, (uint32_t)(e - d->entries));
		tree_inode_free(gone);
	}
	struct tree_inode *late = tree_inode_new(S_IFREG | 0644, &err);
	CHECK(late != NULL && tree_dir_add(t.root, "later", 5, late, &err) == 0, "add after packing");
	tree_dir_trim(NULL, t.root); /* packs once: "later" stays on its own */
	CHECK(tree_dir_find(t.root, "later", 5) != NULL && tree_dir_find(t.root, "n05", 3) == NULL &&
	      tree_dir_find(t.root, "n19", 3) != NULL && d->count == 20, "lookups after changes");
	CHECK(tree_sort(&t, &err) == 0 && strcmp(d->entries[0].name, "later") == 0 &&
	      strcmp(d->entries[19].name, "n19") == 0, "sorted");
	tree_free(&t); /* under ASan: every name freed once, packed or not */
}

/* Everything in an arena that spills from its first chunk: records keep their addresses and
 * contents, an entry array grows out of the arena, and tree_free frees only the heap parts. */
static void test_spilled_arena(void)
{
	struct sq_error err;
	struct spill sp;
	CHECK(spill_init(&sp, 0, getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp"), "spill_init");
	struct tree t = { .spill = &sp };
	t.root = tree_inode_new_in(&t, S_IFDIR | 0755, &err);
	CHECK(t.root != NULL && (t.root->flags & TREE_IN_ARENA), "root in the arena: %s", err.msg);
	if (t.root == NULL)
		return;
	char name[16];
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "s%03d", 299 - i);
		struct tree_inode *f = tree_inode_new_in(&t, S_IFREG | 0644, &err);
		CHECK(f != NULL && f->file->fragment_index == SQFS_NO_FRAGMENT, "file inode");
		if (f != NULL)
			f->file->size = (uint64_t)i;
		CHECK(f != NULL && tree_dir_add(t.root, name, strlen(name), f, &err) == 0, "add");
	}
	struct tree_dir *d = t.root->dir;
	tree_dir_trim(&t, t.root);
	CHECK(d->in_arena == (TREE_DIR_ENTRIES_IN_ARENA | TREE_DIR_NAMES_IN_ARENA) &&
	      d->cap == d->count, "entries and names moved to the arena (%u)", d->in_arena);
	CHECK(sp.file_bytes >= SPILL_CHUNK && sp.fd >= 0, "spilled (%llu bytes)",
	      (unsigned long long)sp.file_bytes);
	struct tree_inode *late = tree_inode_new(S_IFREG | 0644, &err);
	CHECK(late != NULL && tree_dir_add(t.root, "late", 4, late, &err) == 0 &&
	      !(d->in_arena & TREE_DIR_ENTRIES_IN_ARENA), "the array grew out of the arena");
	struct tree_entry *e = tree_dir_find(t.root, "s123", 4);
	CHECK(e != NULL && e->inode->file->size == 299 - 123, "a spilled record read back");
	CHECK(tree_sort(&t, &err) == 0 && strcmp(d->entries[0].name, "late") == 0 &&
	      strcmp(d->entries[300].name, "s299") == 0, "sorted");
	tree_free(&t); /* under ASan: nothing of the arena freed as heap, the rest freed once */
	spill_close(&sp);
}

static void test_dedup_limit(void)
{
	struct dedup_table t = { .limit = 100 };
	static int items[300];
	for (int i = 0; i < 300; i++)
		CHECK(dedup_insert(&t, (uint64_t)i, 5, &items[i]) == 0, "insert past the limit");
	size_t cursor = 0;
	CHECK(t.count == 100 && dedup_next(&t, 99, 5, &cursor) == &items[99], "kept the first 100");
	cursor = 0;
	CHECK(dedup_next(&t, 100, 5, &cursor) == NULL, "dropped the 101st");
	dedup_free(&t);
}

static void test_dedup_reserve(void)
{
	struct dedup_table t = { 0 };
	static int items[3000];
	CHECK(dedup_reserve(&t, 3000) == 0 && t.cap >= 4000, "reserved %zu slots", t.cap);
	size_t cap = t.cap;
	for (int i = 0; i < 3000; i++)
		CHECK(dedup_insert(&t, (uint64_t)i, (uint64_t)i * 7, &items[i]) == 0, "insert");
	CHECK(t.cap == cap, "never grew (%zu -> %zu)", cap, t.cap);
	size_t cursor = 0;
	CHECK(dedup_next(&t, 1234, 1234 * 7, &cursor) == &items[1234], "found after reserve");
	CHECK(dedup_reserve(&t, 10) == 0 && t.cap == cap, "a smaller reserve keeps the table");
	dedup_free(&t);
}

int main(void)
{
	test_source_paths();
	test_packed_names();
	test_spilled_arena();
	test_dedup_reserve();
	test_dedup_limit();
	return check_exit("tree_test");
}
