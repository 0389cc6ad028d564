/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_append.c — the append and recovery options (squashfs-tools names): -noappend,
 * -root-becomes, -recover, -recovery-path, -no-recovery. */
#include "config.h"
#include "mksquashfs/options.h"

#include <stdbool.h>
#include <string.h>

#include "mksquashfs/opt_def.h"

/* squashfs-tools takes any word and can write a name holding '/' that no reader accepts;
 * the name must be one a directory entry can carry. */
static int opt_root_becomes(struct mksq_options *o, const char *name, const char *v,
			    struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s: missing name", name);
	size_t len = strlen(v);
	if (len == 0 || len > 255 || strchr(v, '/') != NULL || strcmp(v, ".") == 0 ||
	    strcmp(v, "..") == 0)
		return sq_fail(err, SQ_ERR_USAGE,
			       "%s: \"%s\" is not a file name (1 to 255 bytes, no '/', not . or ..)",
			       name, v);
	o->append.root_becomes = v;
	return 0;
}

/* -recover FILE and -recovery-path DIR: a path that must not be empty. */
static int opt_recovery_file(struct mksq_options *o, const char *name, const char *v,
			     struct sq_error *err)
{
	bool is_dir = strcmp(name, "-recovery-path") == 0;
	if (v == NULL || v[0] == '\0')
		return sq_fail(err, SQ_ERR_USAGE, "%s: missing %s", name,
			       is_dir ? "directory" : "recovery file");
	*(is_dir ? &o->append.recovery_path : &o->append.recover) = v;
	return 0;
}

/* The reference's -help wording. */
static const char help_noappend[] =
	"-noappend\t\tdo not append to existing filesystem: overwrite it";
static const char help_root_becomes[] =
	"-root-becomes <name>\twhen appending source files/directories, make the\n"
	"\t\t\toriginal root become a subdirectory in the new root\n"
	"\t\t\tcalled <name>, rather than adding the new source items\n"
	"\t\t\tto the original root";
static const char help_recover[] =
	"-recover <name>\t\trecover filesystem data using recovery file <name>";
static const char help_no_recovery[] = "-no-recovery\t\tdon't generate a recovery file";
static const char help_recovery_path[] =
	"-recovery-path <name>\tuse <name> as the directory to store the recovery file";

/* None of them is sqfstar's: it writes a new image or nothing. */
#define APPEND_FLAG(n, field, h) OPT_FLAG_FOR(OPT_MKSQUASHFS_ONLY, n, field, true, SECTION_APPEND, h)
#define APPEND_VALUE(n, fn, h) OPT_VALUE_FOR(OPT_MKSQUASHFS_ONLY, n, fn, SECTION_APPEND, h)

static const struct opt_def append_defs[] = {
	APPEND_FLAG("-noappend", noappend, help_noappend),
	APPEND_VALUE("-root-becomes", opt_root_becomes, help_root_becomes),
	APPEND_VALUE("-recover", opt_recovery_file, help_recover),
	APPEND_FLAG("-no-recovery", append.no_recovery, help_no_recovery),
	APPEND_VALUE("-recovery-path", opt_recovery_file, help_recovery_path),
	{ .name = NULL },
};

const struct opt_group append_options = { .concern = "append", .defs = append_defs };
