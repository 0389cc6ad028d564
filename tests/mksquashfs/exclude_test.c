/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* exclude_test.c — exclusions: plain paths by identity, wildcards per path component,
 * "... " patterns at any depth, regular expressions, and the dedup table's lookups. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mksquashfs/dedup.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/hash.h"
#include "tests/lib/check.h"


/* Match "a/b/c" against the list. */
static bool match(const struct exclude_list *x, const char *path)
{
	char buf[256];
	const char *parts[16];
	uint32_t depth = 0;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *t = strtok(buf, "/"); t && depth < 16; t = strtok(NULL, "/"))
		parts[depth++] = t;
	return exclude_match(x, parts, depth, (dev_t)-1, (ino_t)-1);
}

static void test_wildcards(void)
{
	struct exclude_list x;
	struct sq_error err;
	sq_error_clear(&err);
	char *pats[] = { "*.o", "doc/*.txt", "... *.tmp", "./build", "+(a|b).c" };
	CHECK(exclude_init(&x, pats, 5, true, false, NULL, 0, &err) == 0, "init: %s", err.msg);
	CHECK(match(&x, "main.o"), "*.o at top");
	CHECK(!match(&x, "src/main.o"), "*.o is anchored at the root");
	CHECK(match(&x, "doc/readme.txt"), "doc/*.txt");
	CHECK(!match(&x, "doc"), "doc itself stays");
	CHECK(!match(&x, "doc/sub/readme.txt"), "* does not cross /");
	CHECK(match(&x, "x.tmp") && match(&x, "deep/down/x.tmp"), "... matches at any depth");
	CHECK(match(&x, "build"), "./ prefix dropped");
	CHECK(!match(&x, "builder"), "no prefix match");
	CHECK(match(&x, "a.c") && match(&x, "b.c") && !match(&x, "c.c"), "extended glob");
	CHECK(!match(&x, ".o"), "leading dot needs an explicit dot");
	exclude_free(&x);

	char *res[] = { "^ma.*\\.o$", "doc/.*txt" };
	CHECK(exclude_init(&x, res, 2, false, true, NULL, 0, &err) == 0, "regex init: %s", err.msg);
	CHECK(match(&x, "main.o") && !match(&x, "xmain.o") && match(&x, "doc/a.txt"), "regex");
	exclude_free(&x);
	char *bad[] = { "a(" };
	CHECK(exclude_init(&x, bad, 1, false, true, NULL, 0, &err) == -1 && strstr(err.msg, "a("),
	      "bad regex refused with its text: %s", err.msg);
	exclude_free(&x);
}

static void test_plain(void)
{
	char dir[] = "/tmp/exclude_test.XXXXXX";
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	char path[300];
	snprintf(path, sizeof(path), "%s/sub", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sub/f", dir);
	FILE *f = fopen(path, "w");
	if (f)
		fclose(f);
	struct stat st;
	stat(path, &st);
	char *src[] = { dir };
	char *pats[] = { "sub/f", "does/not/exist" };
	struct exclude_list x;
	struct sq_error err;
	sq_error_clear(&err);
	CHECK(exclude_init(&x, pats, 2, false, false, src, 1, &err) == 0, "plain init: %s", err.msg);
	CHECK(x.id_count == 1, "one identity found, the missing path ignored");
	const char *parts[] = { "renamed" };
	CHECK(exclude_match(&x, parts, 1, st.st_dev, st.st_ino), "matched by identity");
	CHECK(!exclude_match(&x, parts, 1, st.st_dev, st.st_ino + 1), "other inode kept");
	exclude_free(&x);
	char *abs[] = { path };
	CHECK(exclude_init(&x, abs, 1, false, false, src, 1, &err) == 0 && x.id_count == 1,
	      "absolute path");
	exclude_free(&x);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_dedup(void)
{
	struct dedup_table t = { 0 };
	static int items[5000];
	for (int i = 0; i < 5000; i++)
		CHECK(dedup_insert(&t, (uint64_t)(i % 7), (uint64_t)(i % 50), &items[i]) == 0, "insert");
	/* Key (3, 10): i % 7 == 3 and i % 50 == 10, in insertion order. */
	size_t cursor = 0;
	int *p, last = -1, found = 0;
	while ((p = dedup_next(&t, 3, 10, &cursor)) != NULL) {
		int i = (int)(p - items);
		CHECK(i % 7 == 3 && i % 50 == 10, "wrong key for %d", i);
		CHECK(i > last, "out of insertion order: %d after %d", i, last);
		last = i;
		found++;
	}
	int want = 0;
	for (int i = 0; i < 5000; i++)
		want += i % 7 == 3 && i % 50 == 10;
	CHECK(found == want && want > 0, "found %d of %d", found, want);
	cursor = 0;
	CHECK(dedup_next(&t, 99, 10, &cursor) == NULL, "absent key");
	dedup_free(&t);

	uint8_t a[100] = { 0 }, b[100] = { 0 };
	b[99] = 1;
	CHECK(sq_hash64(a, 100, 0) != sq_hash64(b, 100, 0), "hash sees the last byte");
	CHECK(sq_hash64(a, 100, 0) != sq_hash64(a, 99, 0), "hash sees the length");
	CHECK(sq_hash64(a, 100, 0) == sq_hash64(a, 100, 0), "hash is stable");
}

int main(void)
{
	test_wildcards();
	test_plain();
	test_dedup();
	return check_exit("exclude_test");
}
