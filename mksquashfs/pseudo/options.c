/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.c — the pseudo file options (-p, -pf, -pd, -pseudo-override) with squashfs-tools 4.7's
 * names and help lines; definitions are read here, so a bad one costs no image. */
#include "config.h"

#include <stdio.h>

#include "mksquashfs/opt_def.h"
#include "mksquashfs/options.h"
#include "mksquashfs/pseudo/pseudo.h"

static int need_set(struct mksq_options *o, struct sq_error *err)
{
	if (o->pseudo == NULL)
		o->pseudo = pseudo_set_new(err);
	return o->pseudo != NULL ? 0 : -1;
}

static int opt_p(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing pseudo file definition", name);
	return need_set(o, err) != 0 ? -1 : pseudo_add_definition(o->pseudo, v, err);
}

static int opt_pf(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing pseudo file name", name);
	return need_set(o, err) != 0 ? -1 : pseudo_add_file(o->pseudo, v, err);
}

static int opt_pd(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing \"d mode uid gid\" definition", name);
	return need_set(o, err) != 0 ? -1 : pseudo_set_default_dir(o->pseudo, v, err);
}

static int pseudo_finish(struct mksq_options *o, struct sq_error *err)
{
	/* "-" with -tar or -cpiostyle: standard input is the source. */
	if (options_no_sources(o) && o->pseudo == NULL && !o->tar.enabled && !o->tar.cpiostyle)
		return sq_fail(err, SQ_ERR_USAGE, "source is \"-\" but no pseudo definitions were "
			       "given (-p, -pf, -pd)");
	return 0;
}

void pseudo_print_formats(FILE *out)
{
	fputs("Pseudo file definition format:\n"
	      "\"filename d mode uid gid\"\t\tcreate a directory\n"
	      "\"filename m mode uid gid\"\t\tmodify filename\n"
	      "\"filename b mode uid gid major minor\"\tcreate a block device\n"
	      "\"filename c mode uid gid major minor\"\tcreate a character device\n"
	      "\"filename f mode uid gid command\"\tcreate file from stdout of command\n"
	      "\"filename s mode uid gid symlink\"\tcreate a symbolic link\n"
	      "\"filename i mode uid gid [s|f]\"\t\tcreate a socket (s) or FIFO (f)\n"
	      "\"filename x name=val\"\t\t\tcreate an extended attribute\n"
	      "\"filename h linkname\"\t\t\tcreate a hard-link to linkname, follows symlinks\n"
	      "\"filename l linkname\"\t\t\tcreate a hard-link to linkname\n"
	      "\"filename L pseudo_filename\"\t\tsame, but link to pseudo file\n"
	      "\"filename D time mode uid gid\"\t\tcreate a directory with timestamp time\n"
	      "\"filename M time mode uid gid\"\t\tmodify a file with timestamp time\n"
	      "\"filename B time mode uid gid major minor\"\n"
	      "\t\t\t\t\tcreate block device with timestamp time\n"
	      "\"filename C time mode uid gid major minor\"\n"
	      "\t\t\t\t\tcreate char device with timestamp time\n"
	      "\"filename F time mode uid gid command\"\tcreate file with timestamp time\n"
	      "\"filename S time mode uid gid symlink\"\tcreate symlink with timestamp time\n"
	      "\"filename I time mode uid gid [s|f]\"\tcreate socket/fifo with timestamp time\n"
	      "\"filename R time mode uid gid length offset [sparse]\"\n"
	      "\t\t\t\t\tregular file, data in the -pf file's data section\n\n",
	      out);
}

static const struct opt_def pseudo_defs[] = {
	OPT_VALUE_DEF("-p", opt_p, SECTION_PSEUDO,
		      "-p <pseudo-definition>\tadd pseudo file definition.  The definition should\n"
		      "\t\t\tbe quoted.  See section \"Pseudo file definition format\""),
	OPT_VALUE_DEF("-pd", opt_pd, SECTION_PSEUDO,
		      "-pd <d mode uid gid>\tspecify a default pseudo directory which will be used\n"
		      "\t\t\tin pseudo definitions if a directory in the pathname\n"
		      "\t\t\tdoes not exist.  The definition should be quoted\n"
		      "-pd <D time mode u g>\tas above, with a timestamp"),
	OPT_VALUE_DEF("-pseudo-dir", opt_pd, SECTION_MISC,
		      "-pseudo-dir\t\talternative name for -pd"),
	OPT_VALUE_DEF("-pf", opt_pf, SECTION_PSEUDO,
		      "-pf <pseudo-file>\tadd list of pseudo file definitions from <pseudo-file>,\n"
		      "\t\t\tuse - for stdin.  Pseudo file definitions should not be\n"
		      "\t\t\tquoted"),
	OPT_FLAG_DEF("-pseudo-override", attrs.pseudo_override, true, SECTION_PSEUDO,
		     "-pseudo-override\tmake pseudo file uids and gids override -all-root,\n"
		     "\t\t\t-force-uid and -force-gid options"),
	{ .name = NULL },
};

const struct opt_group pseudo_options = {
	.concern = "pseudo files",
	.defs = pseudo_defs,
	.finish = pseudo_finish,
};
