/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_test.c — unsquashfs's command-line pieces without an image: the option tables,
 * chmod-style modes, and the pathname matchers of the selection. */
#include "config.h"

#include <string.h>

#include "tests/lib/check.h"
#include "unsquashfs/mode.h"
#include "unsquashfs/options.h"
#include "unsquashfs/select.h"

static unsigned mode_of(const char *spec, unsigned mode, int is_dir)
{
	struct sq_error err;
	sq_error_clear(&err);
	struct unsq_mode_spec *m = unsq_mode_parse(spec, &err);
	CHECK(m != NULL, "mode \"%s\" refused: %s", spec, err.msg);
	if (m == NULL)
		return 0xffff;
	unsigned r = unsq_mode_apply(m, mode, is_dir);
	unsq_mode_free(m);
	return r;
}

static void test_modes(void)
{
	CHECK(mode_of("0644", 0755, 0) == 0644);
	CHECK(mode_of("7777", 0, 0) == 07777);
	CHECK(mode_of("u+x", 0644, 0) == 0744);
	CHECK(mode_of("go-w", 0666, 0) == 0644);
	CHECK(mode_of("a=r", 0777, 0) == 0444);
	CHECK(mode_of("=rx", 0777, 1) == 0555);
	CHECK(mode_of("u=rwx,go=rx", 0, 1) == 0755);
	CHECK(mode_of("a+X", 0644, 0) == 0644, "X on a non-executable file");
	CHECK(mode_of("a+X", 0744, 0) == 0755, "X when some x is set");
	CHECK(mode_of("a+X", 0600, 1) == 0711, "X on a directory");
	CHECK(mode_of("u+s", 0755, 0) == 04755);
	CHECK(mode_of("g+s", 0755, 0) == 02755);
	CHECK(mode_of("+t", 0755, 1) == 01755);
	CHECK(mode_of("o=u", 0750, 0) == 0757, "copy user bits to other");
	CHECK(mode_of("g=u-w", 0700, 0) == 0750, "copy then remove");
	CHECK(mode_of("u-s", 06755, 0) == 02755);
	const char *bad[] = {"", "u", "u+z", "0789", "088", "u+r,", "x+r", "+rq", "077777", NULL};
	for (size_t i = 0; bad[i] != NULL; i++) {
		struct sq_error err;
		sq_error_clear(&err);
		struct unsq_mode_spec *m = unsq_mode_parse(bad[i], &err);
		CHECK(m == NULL && strstr(err.msg, bad[i]) != NULL, "mode \"%s\" accepted or not named", bad[i]);
		unsq_mode_free(m);
	}
}

static int parse(struct unsq_options *o, struct sq_error *err, char **argv)
{
	int argc = 0;
	while (argv[argc] != NULL)
		argc++;
	sq_error_clear(err);
	return unsq_options_parse(o, argc, argv, err);
}

static void test_options(void)
{
	struct unsq_options o;
	struct sq_error err;
	char *a1[] = {"unsquashfs", "-lln", "-d", "x", "-ex", "a", "b c", ";", "-excludes", "img", "p", "q", NULL};
	CHECK(parse(&o, &err, a1) == 0, "%s", err.msg);
	CHECK(o.mode == UNSQ_LIST && o.list_long && o.list_numeric && strcmp(o.dest, "x") == 0);
	CHECK(o.paths.count == 0 && o.exclude.count == 4, "%zu %zu", o.paths.count, o.exclude.count);
	CHECK(o.exclude.count == 4 && strcmp(o.exclude.items[1], "b c") == 0 && strcmp(o.exclude.items[3], "q") == 0);
	unsq_options_free(&o);

	char *a2[] = {"/usr/bin/sqfscat", "-o", "4K", "img", "f", NULL};
	CHECK(parse(&o, &err, a2) == 0, "%s", err.msg);
	CHECK(o.sqfscat && o.mode == UNSQ_CAT && o.offset == 4096 && o.paths.count == 1);
	unsq_options_free(&o);

	char *a3[] = {"sqfscat", "-ll", "img", "f", NULL};
	CHECK(parse(&o, &err, a3) == -1 && strstr(err.msg, "unknown option -ll") != NULL, "%s", err.msg);
	unsq_options_free(&o);

	char *a4[] = {"unsquashfs", "-pf", "-", "-follow", "-match", "-all-time", "7", "-full", "img", NULL};
	CHECK(parse(&o, &err, a4) == 0, "%s", err.msg);
	CHECK(o.mode == UNSQ_PSEUDO && strcmp(o.pseudo_file, "-") == 0 && o.follow == 1 && o.match &&
	      o.all_time_set && o.all_time == 7 && o.full_precision);
	unsq_options_free(&o);

	char *a5[] = {"unsquashfs", "--version", NULL};
	CHECK(parse(&o, &err, a5) == 0 && o.mode == UNSQ_VERSION, "--version alone");
	unsq_options_free(&o);

	char *a6[] = {"unsquashfs", "-help-section", "run", "-bogus", NULL};
	CHECK(parse(&o, &err, a6) == 0 && o.mode == UNSQ_HELP_SECTION && strcmp(o.help_arg, "run") == 0);
	unsq_options_free(&o);

	char *a7[] = {"unsquashfs", "-force-file-mode", "u+q", "img", NULL};
	CHECK(parse(&o, &err, a7) == -1 && strstr(err.msg, "-force-file-mode") != NULL, "%s", err.msg);
	unsq_options_free(&o);

	char *a8[] = {"unsquashfs", "-xattrs-include", "^user\\.", "-xattrs-exclude", "x$", "img", NULL};
	CHECK(parse(&o, &err, a8) == 0 && o.xattr_include != NULL && o.xattr_exclude != NULL, "%s", err.msg);
	unsq_options_free(&o);
}

static void test_select(void)
{
	struct unsq_select s;
	struct sq_error err;
	sq_error_clear(&err);
	char *ext[] = {"/a//b/./c*", "!(x).o", "/"};
	char *exc[] = {"... *.tmp", "d/e"};
	CHECK(unsq_select_init(&s, UNSQ_MATCH_GLOB, ext, 3, exc, 2, &err) == 0, "%s", err.msg);
	CHECK(s.all, "\"/\" selects everything");
	CHECK(s.extract[0].ncomp == 3 && strcmp(s.extract[0].comp[2], "c*") == 0);
	CHECK(unsq_select_match(&s, &s.extract[0], 2, "cat"));
	CHECK(!unsq_select_match(&s, &s.extract[0], 2, ".c"), "a leading dot needs an explicit dot");
	CHECK(unsq_select_match(&s, &s.extract[1], 0, "y.o"));
	CHECK(!unsq_select_match(&s, &s.extract[1], 0, "x.o"), "extended pattern !(x)");
	CHECK(!s.exclude[0].anchored && s.exclude[0].ncomp == 1 && s.exclude[1].anchored);
	CHECK(unsq_select_check(&s, &err) == -1 && strstr(err.msg, "/a//b/./c*") != NULL, "%s", err.msg);
	unsq_select_free(&s);

	char *re[] = {"^a$/b"};
	sq_error_clear(&err);
	CHECK(unsq_select_init(&s, UNSQ_MATCH_REGEX, re, 1, NULL, 0, &err) == 0, "%s", err.msg);
	CHECK(unsq_select_match(&s, &s.extract[0], 0, "a") && !unsq_select_match(&s, &s.extract[0], 0, "ab"));
	CHECK(unsq_select_match(&s, &s.extract[0], 1, "abc"), "unanchored regex matches inside a name");
	unsq_select_free(&s);

	char *badre[] = {"ok/a[b"};
	sq_error_clear(&err);
	CHECK(unsq_select_init(&s, UNSQ_MATCH_REGEX, badre, 1, NULL, 0, &err) == -1 && strstr(err.msg, "a[b") != NULL,
	      "%s", err.msg);

	char *lit[] = {"a*"};
	sq_error_clear(&err);
	CHECK(unsq_select_init(&s, UNSQ_MATCH_LITERAL, lit, 1, NULL, 0, &err) == 0);
	CHECK(unsq_select_match(&s, &s.extract[0], 0, "a*") && !unsq_select_match(&s, &s.extract[0], 0, "ab"));
	unsq_select_free(&s);
}

int main(void)
{
	test_modes();
	test_options();
	test_select();
	return check_exit("unsquashfs options_test");
}
