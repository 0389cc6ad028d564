/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.h — unsquashfs and sqfscat command lines: the option names and meanings of
 * squashfs-tools 4.5.1 and the later ones of 4.6/4.7. */
#ifndef SQ_UNSQUASHFS_OPTIONS_H
#define SQ_UNSQUASHFS_OPTIONS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"
#include "unsquashfs/mode.h"

enum unsq_mode {
	UNSQ_EXTRACT = 0,
	UNSQ_LIST,        /* -l, -ll, -lln, -lc, -llc */
	UNSQ_STAT,        /* -s */
	UNSQ_CAT,         /* -cat, and sqfscat */
	UNSQ_MKFS_TIME,   /* -mkfs-time */
	UNSQ_PSEUDO,      /* -pf FILE */
	UNSQ_HELP,        /* -h, -help, --help, -help-all */
	UNSQ_HELP_OPTION, /* -help-option REGEX */
	UNSQ_HELP_SECTION,/* -help-section NAME */
	UNSQ_VERSION,     /* -v, -version, --version */
	UNSQ_MEM_DEFAULT, /* -mem-default */
};

/* A string list whose strings may be owned (lines of -ef/-excf files) or borrowed (argv). */
struct unsq_strings {
	char **items;
	size_t count;
};

struct unsq_options {
	enum unsq_mode mode;
	int sqfscat;       /* entered as sqfscat: the sqfscat options, cat mode */
	int list_long;     /* -ll: permissions, owner, size, date */
	int list_numeric;  /* -lln: numeric owners */
	int list_concise;  /* -lc/-llc: only files and empty directories */
	int full_precision;/* -full-precision: seconds in -ll/-li times */
	int info;          /* -i: print each path while extracting; 2 for -li */
	int quiet;
	int no_progress;
	int percentage;    /* -percentage: percentages, one a line, instead of the bar */
	int xattrs;        /* 1 default, 0 -no-xattrs */
	int user_xattrs;   /* -u: only user.* */
	int force;
	int ignore_errors;
	int strict_errors;
	int no_exit_code;
	int utc;
	int no_wildcards;
	int regex;         /* -regex */
	int excludes;      /* -excludes: the pathnames after the image exclude */
	int follow;        /* 1 -follow-symlinks/-L, 2 -missing-symlinks */
	int match;         /* -match */
	long processors;   /* 0 = all available */
	long max_depth;    /* -1 = unlimited */
	long max_files;    /* 0 = as many as the descriptor limit allows */
	uint64_t mem;      /* -mem / -mem-percent in bytes; 0 = default */
	uint64_t offset;
	int all_time_set;  /* -all-time */
	uint32_t all_time;
	int force_uid_set, force_gid_set;
	uint32_t force_uid, force_gid;
	struct unsq_mode_spec *force_file_mode, *force_dir_mode;
	regex_t *xattr_include, *xattr_exclude; /* -xattrs-include / -xattrs-exclude */
	int help_cols;     /* -cols; 0 = 80 */
	int no_pager;      /* -no-pager: accepted; help is never paged */
	const char *help_arg; /* -help-option regex / -help-section name */
	const char *dest;  /* default "squashfs-root" */
	const char *pseudo_file; /* -pf: "-" is standard output */
	const char *image;
	struct unsq_strings paths;    /* extract/list/cat names: argv tail plus -ef files */
	struct unsq_strings exclude;  /* -ex lists, -excf files, and the argv tail under -excludes */
	char *storage; /* chain of -ef/-excf lines (owned) */
};

/* Parse argv (argv[0] decides between unsquashfs and sqfscat). 0 on success, -1 with
 * SQ_ERR_USAGE naming the option (unknown option, missing value, bad number, unreadable list
 * file, bad regular expression or mode). */
int unsq_options_parse(struct unsq_options *o, int argc, char **argv, struct sq_error *err);
void unsq_options_free(struct unsq_options *o);

/* The program's name for messages: "unsquashfs" or "sqfscat". */
const char *unsq_prog(const struct unsq_options *o);

#endif
