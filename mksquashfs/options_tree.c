/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_tree.c — options that shape the tree and its layout rather than the compression: the
 * root's and every inode's owner and mode (-root-*, -force-*-mode, -uid-gid-offset), how sources
 * are walked (-no-hardlinks, -one-file-system[-x], -max-depth), -sort and -offset. */
#include "config.h"

#include <string.h>

#include "common/util/sizes.h"
#include "mksquashfs/opt_def.h"
#include "mksquashfs/options.h"
#include "mksquashfs/pseudo/pseudo.h"
#include "mksquashfs/sort.h"

static int opt_root_mode(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	o->attrs.root_mode_set = true;
	return mode_parse(name, v, &o->attrs.root_mode, err);
}

static int opt_file_mode(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	o->attrs.file_mode_set = true;
	return mode_parse(name, v, &o->attrs.file_mode, err);
}

static int opt_dir_mode(struct mksq_options *o, const char *name, const char *v,
			struct sq_error *err)
{
	o->attrs.dir_mode_set = true;
	return mode_parse(name, v, &o->attrs.dir_mode, err);
}

static int opt_root_uid(struct mksq_options *o, const char *name, const char *v,
			struct sq_error *err)
{
	o->attrs.root_uid_set = true;
	return options_parse_owner(name, v, false, &o->attrs.root_uid, err);
}

static int opt_root_gid(struct mksq_options *o, const char *name, const char *v,
			struct sq_error *err)
{
	o->attrs.root_gid_set = true;
	return options_parse_owner(name, v, true, &o->attrs.root_gid, err);
}

/* squashfs-tools 4.5.1 takes -root-time with SOURCE_DATE_EPOCH set (the time is clamped). */
static int opt_root_time(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	char why[160] = "";
	if (v == NULL || pseudo_parse_time(v, &o->attrs.root_time, why, sizeof(why)) != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing or invalid time \"%s\": %s", name,
			       v ? v : "", why[0] ? why : "seconds since the epoch or a date expected");
	o->attrs.root_time_set = true;
	return 0;
}

static int opt_uid_gid_offset(struct mksq_options *o, const char *name, const char *v,
			      struct sq_error *err)
{
	uint64_t n;
	if (v == NULL || sq_parse_uint(v, UINT32_MAX, &n) != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s \"%s\": a number from 0 to 4294967295 expected",
			       name, v ? v : "");
	o->attrs.uid_gid_offset = (uint32_t)n;
	return 0;
}

static int opt_max_depth(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	uint64_t n;
	if (v == NULL || sq_parse_uint(v, UINT32_MAX, &n) != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s \"%s\": a number of levels expected", name,
			       v ? v : "");
	o->walk.max_depth_set = true;
	o->walk.max_depth = (uint32_t)n;
	return 0;
}

static int opt_one_fs_x(struct mksq_options *o, const char *name, const char *v,
			struct sq_error *err)
{
	(void)name, (void)v, (void)err;
	o->walk.one_file_system = o->walk.one_file_system_x = true;
	return 0;
}

static int opt_offset(struct mksq_options *o, const char *name, const char *v,
		      struct sq_error *err)
{
	if (v == NULL || sq_parse_size(v, "KMG", &o->offset) != 0 || o->offset > INT64_MAX / 2)
		return sq_fail(err, SQ_ERR_USAGE, "%s \"%s\": a byte count expected (suffix K, M or "
			       "G allowed)", name, v ? v : "");
	return 0;
}

static int opt_sort(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing sort file", name);
	o->sort_path = v;
	return 0;
}

/* The sort file names source paths: read it once the sources are known. */
static int tree_finish(struct mksq_options *o, struct sq_error *err)
{
	if (o->sort_path == NULL)
		return 0;
	sort_table_free(o->sort);
	o->sort = NULL;
	return sort_table_read(o->sort_path, o->sources, options_no_sources(o) ? 0 : o->source_count,
			       o->quiet ? NULL : stderr, &o->sort, err);
}

static const struct opt_def tree_defs[] = {
	OPT_VALUE_DEF("-root-time", opt_root_time, SECTION_TIME,
		      "-root-time <time>\tset root directory time to <time>: seconds since the\n"
		      "\t\t\tepoch or a date string date(1) accepts"),
	OPT_VALUE_DEF("-root-mode", opt_root_mode, SECTION_PERMISSIONS,
		      "-root-mode <mode>\tset root directory permissions to <mode>, octal or\n"
		      "\t\t\tsymbolic (see -force-file-mode)"),
	OPT_VALUE_DEF("-root-uid", opt_root_uid, SECTION_PERMISSIONS,
		      "-root-uid <user>\tset root directory owner to <user> (uid or user name)"),
	OPT_VALUE_DEF("-root-gid", opt_root_gid, SECTION_PERMISSIONS,
		      "-root-gid <group>\tset root directory group to <group> (gid or group name)"),
	OPT_VALUE_DEF("-force-file-mode", opt_file_mode, SECTION_PERMISSIONS,
		      "-force-file-mode <mode>\tset all file (non-directory) permissions to <mode>.\n"
		      "\t\t\t<mode> is octal, or symbolic [ugoa]*[+-=][rwxXst]+ or\n"
		      "\t\t\t[ugoa]*[+-=][ugo], clauses separated by commas"),
	OPT_VALUE_DEF("-force-dir-mode", opt_dir_mode, SECTION_PERMISSIONS,
		      "-force-dir-mode <mode>\tset all directory permissions to <mode> (octal or\n"
		      "\t\t\tsymbolic)"),
	OPT_VALUE_DEF("-uid-gid-offset", opt_uid_gid_offset, SECTION_PERMISSIONS,
		      "-uid-gid-offset <value>\toffset all uid and gids by <value>"),
	OPT_FLAG_DEF("-no-hardlinks", walk.no_hardlinks, true, SECTION_BUILD,
		     "-no-hardlinks\t\tdo not hardlink files, instead store duplicates"),
	/* Directory walking: not sqfstar's (a tar archive has no file systems to walk). */
	OPT_VALUE_FOR(OPT_MKSQUASHFS_ONLY, "-max-depth", opt_max_depth, SECTION_FILTER,
		      "-max-depth <levels>\tdescend at most <levels> of directories when scanning\n"
		      "\t\t\tfilesystem"),
	OPT_FLAG_FOR(OPT_MKSQUASHFS_ONLY, "-one-file-system", walk.one_file_system, true,
		     SECTION_FILTER,
		     "-one-file-system\tdo not cross filesystem boundaries.  If a directory\n"
		     "\t\t\tcrosses the boundary, create an empty directory for\n"
		     "\t\t\teach mount point.  If a file crosses the boundary\n"
		     "\t\t\tignore it"),
	OPT_CALL_FOR(OPT_MKSQUASHFS_ONLY, "-one-file-system-x", opt_one_fs_x, SECTION_FILTER,
		     "-one-file-system-x\tdo not cross filesystem boundaries.  Like\n"
		     "\t\t\t-one-file-system except directories are also ignored\n"
		     "\t\t\tif they cross the boundary"),
	OPT_VALUE_FOR(OPT_MKSQUASHFS_ONLY, "-sort", opt_sort, SECTION_FILTER,
		      "-sort <sort-file>\tsort files according to priorities in <sort-file>.  One\n"
		      "\t\t\tfile or dir with priority per line.  Priority -32768 to\n"
		      "\t\t\t32767, default priority 0"),
	OPT_VALUE_DEF("-offset", opt_offset, SECTION_EXPERT,
		      "-offset <offset>\tskip <offset> bytes at the beginning of FILESYSTEM\n"
		      "\t\t\t(they are kept as they are).  Optionally a suffix of\n"
		      "\t\t\tK, M or G.  Default 0 bytes"),
	OPT_VALUE_DEF("-o", opt_offset, SECTION_EXPERT, "-o <offset>\t\tsynonym for -offset"),
	{ .name = NULL },
};

const struct opt_group tree_options = {
	.concern = "tree and layout",
	.defs = tree_defs,
	.finish = tree_finish,
};
