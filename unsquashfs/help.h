/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* help.h — the -help texts of unsquashfs and sqfscat, whole, by section or by option. */
#ifndef SQ_UNSQUASHFS_HELP_H
#define SQ_UNSQUASHFS_HELP_H

#include "unsquashfs/options.h"

/* Print every section to stdout (-help, -help-all, --help). */
void unsq_help_all(const struct unsq_options *o);

/* -help-option REGEX: the options whose synopsis matches. 0, or 1 with a message on stderr
 * (bad expression, nothing matched). */
int unsq_help_option(const struct unsq_options *o, const char *regex);

/* -help-section NAME: the section named, "list" for the list of names, else the sections
 * whose names match NAME as a regular expression. 0, or 1 with a message on stderr. */
int unsq_help_section(const struct unsq_options *o, const char *name);

/* -version: first line "unsquashfs version 4.7.5 (squashfs-toolkit X)". */
void unsq_print_version(const struct unsq_options *o);

#endif
