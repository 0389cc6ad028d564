/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_more_test.c — the squashfs-tools 4.6/4.7 options: time forms, -xattrs-add value
 * encodings, the runtime options' ranges, print-and-exit options found anywhere, and their
 * one-line refusals. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "mksquashfs/options.h"
#include "tests/lib/check.h"

static struct mksq_options o;
static struct sq_error err;
static enum options_action action;

/* parse(words, sde): words separated by '|' (values may hold spaces). */
static int parse(const char *line, const char *sde)
{
	static char buf[70100];
	char *argv[64] = { "mksquashfs" };
	int argc = 1;
	options_free(&o);
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *rest = buf, *word; argc < 63 && (word = strsep(&rest, "|")) != NULL;)
		argv[argc++] = word;
	argv[argc] = NULL;
	sq_error_clear(&err);
	return options_parse(&o, argc, argv, sde, 4242, &action, &err);
}

/* line is refused with one line of message that holds fragment. */
static void refused(const char *line, const char *fragment)
{
	if (parse(line, NULL) != -1) {
		CHECK(false, "\"%s\" accepted", line);
		return;
	}
	CHECK(strstr(err.msg, fragment) != NULL && strchr(err.msg, '\n') == NULL,
	      "\"%s\": message \"%s\" lacks \"%s\" or is more than one line", line, err.msg,
	      fragment);
}

static void times(void)
{
	CHECK(parse("s|i|-no-compression", NULL) == 0 && o.image.uncompressed_inodes &&
		      o.image.uncompressed_data && o.image.uncompressed_fragments &&
		      o.image.uncompressed_xattrs && o.image.uncompressed_ids,
	      "-no-compression: %s", err.msg);
	CHECK(parse("s|i|-tailends", NULL) == 0 && o.image.always_fragments, "-tailends");
	CHECK(parse("s|i|-tailends|-no-tailends", NULL) == 0 && !o.image.always_fragments,
	      "-no-tailends");
	CHECK(parse("s|i|-mkfs-time|inode", NULL) == 0 && o.mkfs_time_inode && o.mkfs_time_set,
	      "-mkfs-time inode");
	CHECK(parse("s|i|-mkfs-time|1970-01-02 00:00:00 UTC", NULL) == 0 &&
		      o.image.mkfs_time == 86400 && !o.mkfs_time_inode,
	      "-mkfs-time with a date: %s (%u)", err.msg, o.image.mkfs_time);
	CHECK(parse("s|i|-inode-time|5", NULL) == 0 && o.all_time_set && o.all_time == 5,
	      "-inode-time 5");
	CHECK(parse("s|i|-inode-time|inode", NULL) == 0 && o.inode_time_inode && !o.all_time_set,
	      "-inode-time inode");
	CHECK(parse("s|i|-all-time|7|-fstime|8", NULL) == 0 && o.all_time == 7 &&
		      o.image.mkfs_time == 8, "-all-time, -fstime");
	CHECK(parse("s|i|-repro", NULL) == 0 && o.mkfs_time_inode, "-repro");
	CHECK(parse("s|i|-repro-time|1000", NULL) == 0 && o.image.mkfs_time == 1000 &&
		      o.all_time == 1000 && o.all_time_set, "-repro-time");
	refused("s|i|-repro-time|yesterday-ish nonsense", "-repro-time invalid time value");
	refused("s|i|-mkfs-time|4294967296", "out of range");
	refused("s|i|-mkfs-time|1900-01-01 UTC", "outside");
	refused("s|i|-mkfs-time", "missing");
	CHECK(parse("s|i|-repro", "5") == -1 && strstr(err.msg, "SOURCE_DATE_EPOCH"),
	      "-repro with SOURCE_DATE_EPOCH");
}

#ifdef HAVE_XATTR
static void xattr_value(const char *arg, const char *want, uint32_t want_len)
{
	char line[256];
	snprintf(line, sizeof(line), "s|i|-xattrs-add|%s", arg);
	int rc = parse(line, NULL);
	CHECK(rc == 0 && o.xattr.add_count == 1, "-xattrs-add %s: %s", arg, err.msg);
	if (rc != 0 || o.xattr.add_count != 1)
		return;
	CHECK(o.xattr.add[0].value_len == want_len &&
		      memcmp(o.xattr.add[0].value, want, want_len) == 0,
	      "-xattrs-add %s: value of %u bytes", arg, o.xattr.add[0].value_len);
}

static void xattrs(void)
{
	/* The 4.7 manual's equivalent spellings. */
	xattr_value("user.comment=hello world", "hello world", 11);
	xattr_value("user.comment=0saGVsbG8gd29ybGQ=", "hello world", 11);
	xattr_value("user.comment=0x68656c6c6f20776f726c64", "hello world", 11);
	xattr_value("user.comment=0thello world", "hello world", 11);
	xattr_value("user.comment=0thello\\000world", "hello\0world", 11);
	xattr_value("user.comment=0saGVsbG8Ad29ybGQ=", "hello\0world", 11);
	xattr_value("user.comment=0x68656c6c6f00776f726c64", "hello\0world", 11);
	xattr_value("user.comment=0b0x41", "0x41", 4);
	xattr_value("trusted.a=0", "0", 1);
	CHECK(parse("s|i|-xattrs-add|security.x=1|-xattrs-add|trusted.y=2", NULL) == 0 &&
		      o.xattr.add_count == 2 && o.xattr.add[0].type == SQFS_XATTR_SECURITY &&
		      strcmp(o.xattr.add[1].key, "y") == 0, "two -xattrs-add");
	refused("s|i|-xattrs-add|user.a", "no '='");
	refused("s|i|-xattrs-add|=x", "name is empty");
	refused("s|i|-xattrs-add|user.a=", "value is empty");
	refused("s|i|-xattrs-add|system.a=1", "must be user.*");
	refused("s|i|-xattrs-add|user.=1", "must be user.*");
	refused("s|i|-xattrs-add|user.a=0s", "empty after its prefix");
	refused("s|i|-xattrs-add|user.a=0x123", "odd number of hex digits");
	refused("s|i|-xattrs-add|user.a=0xzz", "not a hex digit");
	refused("s|i|-xattrs-add|user.a=0s!!!!", "not a base64 character");
	refused("s|i|-xattrs-add|user.a=0ta\\9", "three octal digits");
	refused("s|i|-xattrs-add|user.a=0ta\\400", "octal escape above");
	refused("s|i|-xattrs-add|user.a=1|-xattrs-add|user.a=2", "given twice");
	refused("s|i|-xattrs-exclude|(", "invalid regex");
	{
		static char big[70000];
		memcpy(big, "s|i|-xattrs-add|user.big=", 25);
		memset(big + 25, 'x', 65537);
		big[25 + 65537] = '\0';
		refused(big, "at most 65536");
	}
	refused("s|i|-xattrs-include", "missing regex");
	refused("s|i|-xattrs-add|user.a=1|-no-xattrs", "-no-xattrs should not be used");
	CHECK(parse("s|i|-no-xattrs|-xattrs-exclude|^user", NULL) == 0 && !o.image.no_xattrs &&
		      o.xattr.exclude != NULL, "-xattrs-exclude after -no-xattrs enables xattrs");
}
#endif

static void runtime(void)
{
	CHECK(parse("s|i|-throttle|50", NULL) == 0 && o.run.throttle == 50, "-throttle");
	CHECK(parse("s|i|-limit|80", NULL) == 0 && o.run.throttle == 20, "-limit");
	refused("s|i|-throttle|100", "-throttle");
	refused("s|i|-limit|0", "-limit");
	refused("s|i|-mem-percent|76", "-mem-percent");
	CHECK(parse("s|i|-mem-percent|10", NULL) == 0 && o.mem > 0, "-mem-percent 10");
	refused("s|i|-overcommit|101", "-overcommit");
	refused("s|i|-small-readers|0", "-small-readers");
	refused("s|i|-block-readers|1025", "-block-readers");
	refused("s|i|-read-queue|x", "-read-queue");
	CHECK(parse("s|i|-single-reader|-small-readers|8|-block-readers|2|-write-queue|64|"
		    "-fragment-queue|64|-not-reproducible|-reproducible|-no-pager|-cols|90",
		    NULL) == 0, "accepted tuning options: %s", err.msg);
	CHECK(parse("s|i|-percentage", NULL) == 0 && o.run.percentage && o.progress, "-percentage");
	CHECK(parse("s|i|-info-file|f", NULL) == 0 && strcmp(o.run.info_file, "f") == 0,
	      "-info-file");
	CHECK(parse("s|-|-stream", NULL) == 0 && o.run.stream && o.quiet && !o.progress &&
		      !o.image.duplicates, "-stream");
	refused("s|-|-stream|-info", "-info-file");
	refused("s|-|-stream|-percentage", "-percentage");
	CHECK(parse("s|i|-deref|keep|-deref-path|a/b|-deref-path|c", NULL) == 0 &&
		      o.run.deref == DEREF_KEEP && o.run.deref_path_count == 2, "-deref, -deref-path");
	CHECK(parse("s|i|-dereference", NULL) == 0 && o.run.deref == DEREF_DELETE, "-dereference");
	refused("s|i|-deref|maybe", "keep or delete");
	refused("s|i|-action|prune@name(x)", "actions are not supported");
	refused("s|i|-false-action-file|f", "actions are not supported");
#ifdef HAVE_LZMA
	CHECK(parse("s|i|-comp|lzma", NULL) == 0 && o.image.codec->id == 2, "-comp lzma");
#else
	refused("s|i|-comp|lzma", "built without");
#endif
}

static void print_and_exit(void)
{
	CHECK(parse("-help-option|^-x", NULL) == 0 && action == OPTIONS_HELP &&
		      o.help.kind == HELP_OPTION && strcmp(o.help.arg, "^-x") == 0, "-help-option");
	CHECK(parse("src|img|-b|64K|-hs|time", NULL) == 0 && action == OPTIONS_HELP &&
		      o.help.kind == HELP_SECTION, "-hs after a build's options");
	CHECK(parse("-ha|-no-pager|-cols|100", NULL) == 0 && o.help.kind == HELP_ALL &&
		      o.help.no_pager && o.help.cols == 100, "-ha -no-pager -cols");
	CHECK(parse("-comp|xz|-Xhelp", NULL) == 0 && action == OPTIONS_XHELP &&
		      strcmp(o.help.arg, "xz") == 0, "-Xhelp after -comp xz");
	CHECK(parse("--help", NULL) == 0 && action == OPTIONS_HELP && o.help.kind == HELP_SUMMARY,
	      "--help");
	CHECK(parse("--version", NULL) == 0 && action == OPTIONS_VERSION, "--version");
	CHECK(parse("-mem-default", NULL) == 0 && action == OPTIONS_MEM_DEFAULT, "-mem-default");
	CHECK(parse("-fix|img", NULL) == 0 && action == OPTIONS_FIX &&
		      strcmp(o.run.fix_path, "img") == 0, "-fix");
	refused("-help-section", "missing its argument");
	refused("-help|-cols|5", "-cols");
	/* -e takes the rest of the line: a help word after it is an exclude. */
	CHECK(parse("s|i|-e|-help", NULL) == 0 && action == OPTIONS_RUN && o.exclude_count == 1,
	      "-help after -e is an exclude");
}

int main(void)
{
	times();
#ifdef HAVE_XATTR
	xattrs();
#else
	refused("s|i|-xattrs-add|user.a=1", "unsupported in this build");
#endif
	runtime();
	print_and_exit();
	options_free(&o);
	return check_exit("options_more_test");
}
