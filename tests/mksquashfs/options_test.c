/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_test.c — the command line: defaults, sizes with suffixes, bad values refused with a
 * message, -X options handed to the codec in any position, SOURCE_DATE_EPOCH rules. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/format.h"
#include "common/util/sizes.h"
#include "mksquashfs/options.h"
#include "tests/lib/check.h"


static struct mksq_options o;
static struct sq_error err;
static enum options_action action;

/* parse("a b c", sde): split on spaces; returns options_parse's result. */
static int parse(const char *line, const char *sde)
{
	static char buf[1024];
	char *argv[64];
	int argc = 0;
	options_free(&o);
	snprintf(buf, sizeof(buf), "mksquashfs %s", line);
	for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	sq_error_clear(&err);
	return options_parse(&o, argc, argv, sde, 4242, &action, &err);
}

static void expect_fail(const char *line, const char *fragment)
{
	int rc = parse(line, NULL);
	CHECK(rc == -1, "\"%s\" accepted", line);
	CHECK(rc != -1 || strstr(err.msg, fragment) != NULL, "\"%s\": message \"%s\" lacks \"%s\"",
	      line, err.msg, fragment);
	CHECK(rc != -1 || strchr(err.msg, '\n') == NULL, "\"%s\": message not one line", line);
}

static void test_numbers(void)
{
	uint64_t v;
	CHECK(sq_parse_size("128K", "KM", &v) == 0 && v == 131072, "128K");
	CHECK(sq_parse_size("1m", "KM", &v) == 0 && v == 1048576, "1m");
	CHECK(sq_parse_size("4096", "KM", &v) == 0 && v == 4096, "4096");
	CHECK(sq_parse_size("2G", "KM", &v) != 0, "G not allowed for -b");
	CHECK(sq_parse_size("2G", "KMG", &v) == 0 && v == 2147483648ull, "2G");
	CHECK(sq_parse_size("", "KM", &v) != 0, "empty");
	CHECK(sq_parse_size("K", "KM", &v) != 0, "suffix alone");
	CHECK(sq_parse_size("12KB", "KM", &v) != 0, "trailing garbage");
	CHECK(sq_parse_size("99999999999999999999", "KM", &v) != 0, "overflow");
	CHECK(sq_parse_size("17179869184G", "KMG", &v) != 0, "suffix overflow");
	CHECK(sq_parse_uint("4294967295", UINT32_MAX, &v) == 0 && v == UINT32_MAX, "u32 max");
	CHECK(sq_parse_uint("4294967296", UINT32_MAX, &v) != 0, "u32 max + 1");
	CHECK(sq_parse_uint("-1", UINT32_MAX, &v) != 0, "negative");
}

static void test_flags_and_values(void)
{
	CHECK(parse("src img", NULL) == 0 && action == OPTIONS_RUN, "plain: %s", err.msg);
	CHECK(o.source_count == 1 && strcmp(o.sources[0], "src") == 0 &&
	      strcmp(o.image_path, "img") == 0, "sources and image");
	CHECK(o.image.block_size == SQFS_DEFAULT_BLOCK_SIZE && o.image.duplicates &&
	      o.image.exportable && o.image.pad && !o.image.no_fragments && o.progress,
	      "defaults");
	CHECK(o.image.codec == codec_default(), "default codec");
	CHECK(o.image.mkfs_time == 4242 && !o.clamp_set, "mkfs time defaults to now");

	CHECK(parse("a b c img -b 64K -noI -noD -noF -noX -no-fragments -no-duplicates "
		    "-no-exports -no-xattrs -nopad -all-root -no-sparse -keep-as-directory",
		    NULL) == 0, "flags: %s", err.msg);
	CHECK(o.source_count == 3 && strcmp(o.image_path, "img") == 0, "three sources");
	CHECK(o.image.block_size == 65536 && o.image.uncompressed_inodes &&
	      o.image.uncompressed_ids && o.image.uncompressed_data &&
	      o.image.uncompressed_fragments && o.image.uncompressed_xattrs &&
	      o.image.no_fragments && !o.image.duplicates && !o.image.exportable &&
	      o.image.no_xattrs && !o.image.pad && o.all_root && o.no_sparse &&
	      o.keep_as_directory, "every flag set");
	CHECK(parse("s i -noInodeCompression -noDataCompression -noFragmentCompression "
		    "-noXattrCompression -root-owned", NULL) == 0 && o.image.uncompressed_inodes &&
	      o.image.uncompressed_data && o.image.uncompressed_fragments &&
	      o.image.uncompressed_xattrs && o.all_root, "long forms");
	CHECK(parse("s i -b 4096", NULL) == 0 && o.image.block_size == 4096, "-b 4096");
	CHECK(parse("s i -b 1M", NULL) == 0 && o.image.block_size == 1048576, "-b 1M");
	expect_fail("s i -b 3000", "-b");
	expect_fail("s i -b 2M", "-b");
	expect_fail("s i -b 2048", "-b");
	expect_fail("s i -b", "-b");
	expect_fail("s i -b 96K", "-b");
	expect_fail("s i -bogus", "-bogus");
	expect_fail("s i -processors 0", "-processors");
	expect_fail("s i -processors x", "-processors");
	expect_fail("s i -all-time 4294967296", "-all-time");
	expect_fail("s i -mkfs-time", "-mkfs-time");
	expect_fail("s i -force-uid no-such-user-here", "-force-uid");
	expect_fail("s i -comp nosuch", "nosuch");
	expect_fail("s i -mem 0", "-mem");
	expect_fail("img", "usage");
	expect_fail("s i -ef /nonexistent/excludes", "/nonexistent/excludes");

	CHECK(parse("s i -processors 3 -mem 64M -force-uid 70000 -force-gid 0 -all-time 7 "
		    "-mkfs-time 9", NULL) == 0, "values: %s", err.msg);
	CHECK(o.processors == 3 && o.mem == 64u << 20 && o.force_uid_set && o.force_uid == 70000 &&
	      o.force_gid_set && o.force_gid == 0 && o.all_time_set && o.all_time == 7 &&
	      o.image.mkfs_time == 9, "values parsed");
	CHECK(parse("s i -force-uid root", NULL) == 0 && o.force_uid == 0, "user name");

	CHECK(parse("s i", "123") == 0 && o.image.mkfs_time == 123 && o.clamp_set &&
	      o.clamp_time == 123, "SOURCE_DATE_EPOCH");
	CHECK(parse("s i", "12x") == -1 && strstr(err.msg, "SOURCE_DATE_EPOCH"), "bad epoch");
	CHECK(parse("s i -all-time 5", "123") == -1 && strstr(err.msg, "SOURCE_DATE_EPOCH"),
	      "epoch with -all-time");
}

static void test_modes_and_codecs(void)
{
	CHECK(parse("s i -e a b/c -noD", NULL) == 0 && o.exclude_count == 3 &&
	      strcmp(o.excludes[2], "-noD") == 0 && !o.image.uncompressed_data,
	      "-e takes the rest");
	CHECK(parse("s i -info", NULL) == 0 && o.info && !o.progress, "-info hides the bar");
	CHECK(parse("s i -info -progress", NULL) == 0 && o.info && o.progress, "unless -progress");
	CHECK(parse("-help", NULL) == 0 && action == OPTIONS_HELP, "-help alone");
	CHECK(parse("s i -version", NULL) == 0 && action == OPTIONS_VERSION, "-version");
	CHECK(parse("s i -no-fragments -always-use-fragments", NULL) == 0 &&
	      o.image.no_fragments && !o.image.always_fragments, "no-fragments wins");

	const struct codec *gz = codec_by_name("gzip");
	if (gz != NULL && gz->supported) {
		CHECK(parse("s i -comp gzip -Xcompression-level 3", NULL) == 0, "-X after -comp: %s",
		      err.msg);
		CHECK(parse("s i -Xcompression-level 3 -comp gzip", NULL) == 0,
		      "-X before -comp: %s", err.msg);
		expect_fail("s i -comp gzip -Xcompression-level 30", "gzip");
		expect_fail("s i -comp gzip -Xnosuch", "-Xnosuch");
	}
	const struct codec *xz = codec_by_name("xz");
	if (xz != NULL && xz->supported) {
		CHECK(parse("s i -comp xz -Xdict-size 50% -b 64K", NULL) == 0, "xz dict: %s", err.msg);
		expect_fail("s i -comp xz -b 64K -Xdict-size 1M", "xz");
	}
	/* Helpful errors: the codec that owns an -X option, the compressors built in. */
	const struct codec *lz4 = codec_by_name("lz4");
	if (lz4 != NULL && lz4->supported && gz != NULL && gz->supported)
		expect_fail("s i -comp gzip -Xhc", "-Xhc is an lz4 option: add -comp lz4");
	if (xz != NULL && xz->supported)
		expect_fail("s i -comp zstd -Xbcj x86", "-Xbcj is an xz option: add -comp xz");
	expect_fail("s i -comp zstd -Xwindow-size 8", "-Xwindow-size");
	expect_fail("s i -comp nosuch", "the compressors built in are");
	CHECK(parse("s i -comp nosuch", NULL) == -1 && strstr(err.msg, "zstd") != NULL,
	      "the list names zstd: %s", err.msg);
}

int main(void)
{
	test_numbers();
	test_flags_and_values();
	test_modes_and_codecs();
	options_free(&o);
	return check_exit("options_test");
}
