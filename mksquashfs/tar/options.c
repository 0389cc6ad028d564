/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/options.c — the options of tar and cpio-style input (sqfstar, mksquashfs -tar,
 * -cpiostyle, -no-strip) with squashfs-tools' names, and their cross-checks. */
#include "config.h"
#include "mksquashfs/options.h"

#include <string.h>

#include "common/util/sizes.h"
#include "mksquashfs/opt_def.h"

static int opt_cpiostyle(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	(void)v, (void)err;
	o->tar.cpiostyle = true;
	o->tar.cpio_nul = strcmp(name, "-cpiostyle0") == 0;
	return 0;
}

static int opt_default_mode(struct mksq_options *o, const char *name, const char *v,
			    struct sq_error *err)
{
	unsigned long mode = 0;
	size_t len = v != NULL ? strlen(v) : 0;
	if (len == 0 || len > 5 || strspn(v, "01234567") != len)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing or invalid octal mode \"%s\"", name,
			       v ? v : "");
	for (size_t i = 0; i < len; i++)
		mode = mode * 8 + (unsigned long)(v[i] - '0');
	if (mode > 07777)
		return sq_fail(err, SQ_ERR_USAGE, "%s mode %s is more than 07777", name, v);
	o->tar.default_mode = (uint32_t)mode;
	o->tar.default_mode_set = true;
	return 0;
}

/* -default-uid and -default-gid: the owner of directories the archive does not list. */
static int opt_default_owner(struct mksq_options *o, const char *name, const char *v,
			     struct sq_error *err)
{
	bool group = strcmp(name, "-default-gid") == 0;
	*(group ? &o->tar.default_gid_set : &o->tar.default_uid_set) = true;
	return options_parse_owner(name, v, group,
				   group ? &o->tar.default_gid : &o->tar.default_uid, err);
}

static bool stdin_source(const struct mksq_options *o)
{
	return o->source_count == 1 && strcmp(o->sources[0], "-") == 0;
}

static int tar_finish(struct mksq_options *o, struct sq_error *err)
{
	struct tar_settings *t = &o->tar;
	if (t->sqfstar) {
		/* sqfstar's -force is mksquashfs's -noappend; excludes are always patterns. */
		o->noappend = t->force;
		o->wildcards = true;
		return 0;
	}
	if (t->enabled && t->cpiostyle)
		return sq_fail(err, SQ_ERR_USAGE, "-tar and -cpiostyle cannot be used together");
	if ((t->enabled || t->cpiostyle) && !stdin_source(o))
		return sq_fail(err, SQ_ERR_USAGE,
			       "%s reads standard input: give - as the only source",
			       t->enabled ? "-tar" : t->cpio_nul ? "-cpiostyle0" : "-cpiostyle");
	/* Plain excludes are looked up in the source directories, which an archive does not
	 * have: patterns are what can match its entries. */
	if (t->enabled)
		o->wildcards = true;
	return 0;
}

/* Sections apart, the order is -help's. */
static const struct opt_def tar_defs[] = {
	OPT_VALUE_DEF("-default-mode", opt_default_mode, SECTION_TAR,
		      "-default-mode <mode>\ttar files often do not store permissions for\n"
		      "\t\t\tintermediate directories.  This option sets the default\n"
		      "\t\t\tdirectory permissions to octal <mode>, rather than 0755.\n"
		      "\t\t\tThis also sets the root inode mode"),
	OPT_VALUE_DEF("-default-uid", opt_default_owner, SECTION_TAR,
		      "-default-uid <value>\ttar files often do not store uids for intermediate\n"
		      "\t\t\tdirectories.  This option sets the default directory\n"
		      "\t\t\towner to <value> (uid or user name), rather than the\n"
		      "\t\t\tuser running the program.  This also sets the root\n"
		      "\t\t\tinode uid"),
	OPT_VALUE_DEF("-default-gid", opt_default_owner, SECTION_TAR,
		      "-default-gid <value>\ttar files often do not store gids for intermediate\n"
		      "\t\t\tdirectories.  This option sets the default directory\n"
		      "\t\t\tgroup to <value> (gid or group name), rather than the\n"
		      "\t\t\tgroup of the user running the program.  This also sets\n"
		      "\t\t\tthe root inode gid"),
	OPT_FLAG_DEF("-ignore-zeros", tar.ignore_zeros, true, SECTION_TAR,
		     "-ignore-zeros\t\tallow tar files to be concatenated together.  Normally\n"
		     "\t\t\ttwo consecutive 512 byte blocks filled with zeros mean\n"
		     "\t\t\tEOF and reading stops there; this option skips them"),
	OPT_FLAG_DEF("-numeric-owner", tar.numeric_owner, true, SECTION_TAR,
		     "-numeric-owner\t\tuse the numeric uid and gid in the tar file rather than\n"
		     "\t\t\tthe user name or group name"),
	OPT_FLAG_FOR(OPT_MKSQUASHFS_ONLY, "-tar", tar.enabled, true, SECTION_BUILD,
		     "-tar\t\t\tread uncompressed tar file from standard in (stdin)"),
	OPT_FLAG_FOR(OPT_MKSQUASHFS_ONLY, "-no-strip", tar.no_strip, true, SECTION_BUILD,
		     "-no-strip\t\tact like tar, and do not strip leading directories\n"
		     "\t\t\tfrom source files"),
	OPT_FLAG_FOR(OPT_MKSQUASHFS_ONLY, "-tarstyle", tar.no_strip, true, SECTION_BUILD,
		     "-tarstyle\t\talternative name for -no-strip"),
	OPT_CALL_FOR(OPT_MKSQUASHFS_ONLY, "-cpiostyle", opt_cpiostyle, SECTION_BUILD,
		     "-cpiostyle\t\tact like cpio, and read file pathnames from standard in\n"
		     "\t\t\t(stdin), one per line"),
	OPT_CALL_FOR(OPT_MKSQUASHFS_ONLY, "-cpiostyle0", opt_cpiostyle, SECTION_BUILD,
		     "-cpiostyle0\t\tlike -cpiostyle, but filenames are null terminated.  Can\n"
		     "\t\t\tbe used with find -print0 action"),
	OPT_FLAG_FOR(OPT_SQFSTAR_ONLY, "-force", tar.force, true, SECTION_RUNTIME,
		     "-force\t\t\tforce Sqfstar to write to block device or file"),
	{ .name = NULL },
};

const struct opt_group tar_options = { .concern = "tar", .defs = tar_defs, .finish = tar_finish };
