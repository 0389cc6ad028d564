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

static void print_version(const struct mksq_options *o)
{
	printf("%s (%s) %s\n", options_tool_name(o), PACKAGE_NAME, PACKAGE_VERSION);
	printf("compatible with squashfs-tools 4.5.1 options; writes squashfs 4.0\n");
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
			options_print_help(stdout, &o);
			break;
		case OPTIONS_VERSION:
			print_version(&o);
			break;
		case OPTIONS_XHELP:
			if (o.image.codec->print_help != NULL)
				o.image.codec->print_help(stdout);
			else
				printf("%s has no compressor options\n", o.image.codec->name);
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
