/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* help.c — the -help text, printed from the option tables (opt_def.h) section by section, as
 * squashfs-tools groups them, with the compressors this build has. */
#include "config.h"
#include "mksquashfs/options.h"

#include <string.h>

#include "codecs/codec.h"
#include "mksquashfs/opt_def.h"
#include "mksquashfs/pseudo/pseudo.h"

static const char *const section_titles[SECTION_COUNT] = {
	[SECTION_COMPRESSION] = "Filesystem compression options:",
	[SECTION_BUILD] = "Filesystem build options:",
	[SECTION_TIME] = "Filesystem time options:",
	[SECTION_PERMISSIONS] = "Filesystem permissions options:",
	[SECTION_PSEUDO] = "Filesystem pseudo options:",
	[SECTION_FILTER] = "Filesystem filter options:",
	[SECTION_XATTR] = "Filesystem extended attribute (xattrs) options:",
	[SECTION_APPEND] = "Filesystem append options:",
	[SECTION_TAR] = "Tar file only options:",
	[SECTION_EXPERT] = "Expert options (these may make the filesystem unmountable):",
	[SECTION_RUNTIME] = "Mksquashfs runtime options:",
	[SECTION_MISC] = "Miscellaneous options:",
};

const char *opt_section_title(enum opt_section s)
{
	return s < SECTION_COUNT ? section_titles[s] : "";
}

static void print_compressor_list(FILE *out)
{
	const struct codec *const *all = codec_all();
	const struct codec *def = codec_default();
	fprintf(out, "\t\t\tCompressors available:\n");
	for (size_t k = 0; all[k] != NULL; k++)
		fprintf(out, "\t\t\t\t%s%s%s\n", all[k]->name, all[k] == def ? " (default)" : "",
			all[k]->supported ? "" : " (not built in)");
}

void options_print_option_help(FILE *out, const struct opt_def *d)
{
	const char *marker = "%COMPRESSORS%";
	const char *at = strstr(d->help, marker);
	if (at == NULL) {
		fprintf(out, "%s\n", d->help);
		return;
	}
	fprintf(out, "%.*s", (int)(at - d->help), d->help);
	print_compressor_list(out);
	if (at[strlen(marker)] != '\0')
		fprintf(out, "%s\n", at + strlen(marker) + 1);
}

/* Print one section's options (those the tool takes) from every group; nothing when it has
 * none. */
void options_print_section(FILE *out, enum opt_section s, bool sqfstar)
{
	const struct opt_group *const *groups = opt_groups();
	bool any = false;
	for (size_t g = 0; groups[g] != NULL; g++) {
		for (const struct opt_def *d = groups[g]->defs; d->name != NULL; d++) {
			if (d->section != s || d->help == NULL || !opt_for_tool(d, sqfstar))
				continue;
			if (!any)
				fprintf(out, "%s\n", sqfstar && s == SECTION_RUNTIME ?
					"Sqfstar runtime options:" : section_titles[s]);
			any = true;
			options_print_option_help(out, d);
		}
	}
	if (any)
		fputc('\n', out);
}

static void print_compressor_options(FILE *out)
{
	const struct codec *const *all = codec_all();
	const struct codec *def = codec_default();
	fprintf(out, "Compressors available and compressor specific options:\n");
	for (size_t k = 0; all[k] != NULL; k++) {
		if (!all[k]->supported)
			continue;
		fprintf(out, "\t%s%s\n", all[k]->name, all[k] == def ? " (default)" : "");
		if (all[k]->print_help != NULL)
			all[k]->print_help(out);
		else
			fprintf(out, "\t  (no options)\n");
	}
}

void options_print_help(FILE *out, const struct mksq_options *o)
{
	if (o->tar.sqfstar)
		fprintf(out, "SYNTAX:sqfstar [OPTIONS] FILESYSTEM [list of exclude dirs/files]\n"
			     "(reads an uncompressed tar archive from standard input)\n\n");
	else
		fprintf(out, "SYNTAX:mksquashfs source1 source2 ...  FILESYSTEM [OPTIONS] "
			     "[-e list of exclude dirs/files]\n\n");
	for (int s = 0; s < SECTION_COUNT; s++)
		options_print_section(out, (enum opt_section)s, o->tar.sqfstar);
	pseudo_print_formats(out);
	print_compressor_options(out);
	fprintf(out, "\nEnvironment:\n"
		     "SOURCE_DATE_EPOCH\tif set, this is used as the filesystem creation\n"
		     "\t\t\ttimestamp, and any file timestamps after it are\n"
		     "\t\t\tclamped to it\n");
}
