/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.h — unsquashfs command line: option names and meanings of squashfs-tools 4.5.1. */
#ifndef SQ_UNSQUASHFS_OPTIONS_H
#define SQ_UNSQUASHFS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "common/util/error.h"

enum unsq_mode {
	UNSQ_EXTRACT = 0,
	UNSQ_LIST,      /* -l, -ll, -lln, -lc, -llc */
	UNSQ_STAT,      /* -s */
	UNSQ_CAT,       /* -cat */
	UNSQ_MKFS_TIME, /* -mkfs-time */
	UNSQ_HELP,
	UNSQ_VERSION,
};

struct unsq_options {
	enum unsq_mode mode;
	int list_long;     /* -ll: permissions, owner, size, date */
	int list_numeric;  /* -lln: numeric owners */
	int list_concise;  /* -lc/-llc: only files and empty directories */
	int info;          /* -i: print each path while extracting; 2 for -li */
	int quiet;
	int no_progress;
	int xattrs;        /* 1 default, 0 -no-xattrs */
	int user_xattrs;   /* -u: only user.* */
	int force;
	int ignore_errors;
	int strict_errors;
	int no_exit_code;
	int utc;
	int no_wildcards;
	long processors;   /* 0 = all available */
	long max_depth;    /* -1 = unlimited */
	uint64_t offset;
	const char *dest;  /* default "squashfs-root" */
	const char *image;
	char **paths;      /* extract/list/cat names: argv tail plus -ef files (owned) */
	size_t npaths;
	char *paths_storage; /* chain of -ef lines (owned) */
};

/* Parse argv. 0 on success, -1 with SQ_ERR_USAGE (unknown option, missing value, bad number,
 * unreadable -ef file). */
int unsq_options_parse(struct unsq_options *o, int argc, char **argv, struct sq_error *err);
void unsq_options_free(struct unsq_options *o);

void unsq_print_help(void);

#endif
