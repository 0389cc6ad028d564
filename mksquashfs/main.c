/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* main.c — mksquashfs (and sqfstar, the same program entered by that name: options.c reads
 * argv[0]): the command line to an action, and the only place that prints an error and picks the
 * exit status. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/util/error.h"
#include "mksquashfs/build.h"
#include "mksquashfs/options.h"
#include "mksquashfs/stream.h"

/* Scripts read the first line's "version X.Y" to decide which squashfs-tools options exist:
 * it names the squashfs-tools release whose command line this one accepts. */
static void print_version(const struct mksq_options *o)
{
	const char *tool = options_tool_name(o);
	printf("%s version %s (%s %s)\n", tool, SQ_COMPAT_VERSION, PACKAGE_NAME, PACKAGE_VERSION);
	printf("copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)\n\n");
	printf("Accepts the command line of squashfs-tools %s's %s and writes squashfs 4.0\n"
	       "filesystems; it is not squashfs-tools (see %s(1), VERSION).\n\n",
	       SQ_COMPAT_VERSION, tool, tool);
	printf("This program is free software; you can redistribute it and/or\n"
	       "modify it under the terms of the GNU General Public License\n"
	       "as published by the Free Software Foundation; either version 2,\n"
	       "or (at your option) any later version.\n");
}

int main(int argc, char **argv)
{
	struct mksq_options o;
	struct sq_error err;
	enum options_action action;
	sq_error_clear(&err);

	int rc = options_parse(&o, argc, argv, getenv("SOURCE_DATE_EPOCH"), (uint32_t)time(NULL),
			       &action, &err);
	if (rc == 0) {
		switch (action) {
		case OPTIONS_HELP:
		case OPTIONS_XHELP:
			rc = options_print_help(&o, &err);
			break;
		case OPTIONS_VERSION:
			print_version(&o);
			break;
		case OPTIONS_MEM_DEFAULT:
			printf("%llu\n", (unsigned long long)(mksq_mem_default_budget() >> 20));
			break;
		case OPTIONS_FIX:
			rc = stream_fix(o.run.fix_path, &err);
			break;
		case OPTIONS_RUN:
			rc = mksq_build(&o, &err);
			break;
		}
	}
	options_free(&o);
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", options_tool_name(&o), err.msg[0] ? err.msg : "failed");
		return 1;
	}
	return 0;
}
