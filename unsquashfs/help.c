/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* help.c — the option and section texts of unsquashfs and sqfscat, wrapped to -cols. */
#include "config.h"
#include "unsquashfs/help.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "codecs/codec.h"

/* The squashfs-tools release whose command line and output we follow: scripts parse the
 * first line of -version for it. */
#define COMPAT_VERSION "4.7.5"

enum section {
	S_EXTRACT, S_PERM, S_INFO, S_XATTR, S_RUN, S_HELP, S_MISC, S_SYMBOLIC, S_ENV, S_EXIT, S_EXTRA, S_DECOMP,
	S_FILTER, /* sqfscat only */
	S_COUNT,
};

struct section_desc {
	const char *name, *title;
};

static const struct section_desc sections[S_COUNT] = {
	[S_EXTRACT] = {"extraction", "Filesystem extraction (filtering) options:"},
	[S_PERM] = {"permissions", "Filesystem permissions options:"},
	[S_INFO] = {"information", "Filesystem information and listing options:"},
	[S_XATTR] = {"xattrs", "Filesystem extended attribute (xattrs) options:"},
	[S_RUN] = {"runtime", "Runtime options:"},
	[S_HELP] = {"help", "Help options:"},
	[S_MISC] = {"misc", "Miscellaneous options:"},
	[S_SYMBOLIC] = {"symbolic", "Symbolic mode specification:"},
	[S_ENV] = {"environment", "Environment:"},
	[S_EXIT] = {"exit", "Exit status:"},
	[S_EXTRA] = {"extra", "See also (extra information elsewhere):"},
	[S_DECOMP] = {"decompressors", "Decompressors available:"},
	[S_FILTER] = {"filter", "Filter options:"},
};

static const enum section unsq_order[] = {S_EXTRACT, S_PERM, S_INFO, S_XATTR, S_RUN, S_HELP, S_MISC,
					  S_SYMBOLIC, S_ENV, S_EXIT, S_EXTRA, S_DECOMP};
static const enum section cat_order[] = {S_RUN, S_FILTER, S_HELP, S_ENV, S_EXIT, S_EXTRA, S_DECOMP};

/* An option's line: in which unsquashfs section, in which sqfscat section (S_COUNT: none). */
struct help_entry {
	enum section unsq, cat;
	const char *synopsis, *text;
};

/* A build configured --without-xattr writes none: -help says so where the default is named,
 * and that the options asking for xattrs are refused there. */
#ifdef HAVE_XATTR
#define XATTRS_HELP "extract xattrs (default)"
#else
#define XATTRS_HELP "extract xattrs (default; this build has no xattr support: it writes none and " \
		    "says so once, with exit status 2; -xattrs, -user-xattrs, -xattrs-include and " \
		    "-xattrs-exclude are refused)"
#endif

static const struct help_entry entries[] = {
	{S_EXTRACT, S_COUNT, "-d[est] <pathname>",
	 "extract to <pathname>, default \"squashfs-root\"; an existing directory is extracted into. Also the "
	 "prefix of listed names (-d \"\" lists them from \"/\")"},
	{S_EXTRACT, S_COUNT, "-max[-depth] <levels>", "descend at most <levels> of directories when extracting"},
	{S_EXTRACT, S_COUNT, "-excludes", "treat the pathnames after FILESYSTEM as exclude pathnames"},
	{S_EXTRACT, S_COUNT, "-ex[clude-list]",
	 "pathnames to exclude, ended by \";\": -exclude-list a/b \"c/*.o\" \\; (backslash the ; in most shells)"},
	{S_EXTRACT, S_COUNT, "-extract-file <file>", "<file> lists pathnames to extract, one per line"},
	{S_EXTRACT, S_COUNT, "-exclude-file <file>", "<file> lists pathnames to exclude, one per line"},
	{S_EXTRACT, S_COUNT, "-match", "fail when an extract or exclude pathname matches nothing"},
	{S_EXTRACT, S_COUNT, "-follow[-symlinks]",
	 "follow symbolic links in extract pathnames (inside the image): extract what they point to as well as "
	 "the links needed to reach it. Pathnames are then taken literally and may hold \".\" and \"..\""},
	{S_EXTRACT, S_COUNT, "-missing[-symlinks]", "as -follow-symlinks, but fail if a symbolic link cannot be resolved"},
	{S_EXTRACT, S_FILTER, "-no-wild[cards]", "do not use wildcard matching in extract and exclude pathnames"},
	{S_EXTRACT, S_FILTER, "-r[egex]",
	 "treat extract and exclude pathnames as POSIX extended regular expressions, one per component, rather "
	 "than shell wildcards"},
	{S_EXTRACT, S_COUNT, "-all[-time] <time>",
	 "give every extracted file the timestamp <time>: seconds since the epoch, or any date(1) string such as "
	 "\"now\" or \"last week\""},
	{S_EXTRACT, S_COUNT, "-cat", "write the files named after FILESYSTEM to standard output"},
	{S_EXTRACT, S_COUNT, "-f[orce]", "replace files that already exist in the destination"},
	{S_EXTRACT, S_COUNT, "-pf <file>",
	 "write a pseudo file that, with mksquashfs -pf, rebuilds the filesystem without root; - for standard "
	 "output"},
	{S_PERM, S_COUNT, "-force-uid <user>", "give every file and directory the owner <user>, a uid or a name (superuser only)"},
	{S_PERM, S_COUNT, "-force-gid <group>", "give every file and directory the group <group>, a gid or a name (superuser only)"},
	{S_PERM, S_COUNT, "-force-file-mode <mode>",
	 "set the permissions of every non-directory to <mode>, octal or symbolic (see section symbolic)"},
	{S_PERM, S_COUNT, "-force-dir-mode <mode>",
	 "set the permissions of every directory to <mode>, octal or symbolic (see section symbolic)"},
	{S_INFO, S_COUNT, "-s[tat]", "display the superblock information"},
	{S_INFO, S_COUNT, "-max[-depth] <levels>", "descend at most <levels> of directories when listing"},
	{S_INFO, S_COUNT, "-i[nfo]", "print files as they are extracted"},
	{S_INFO, S_COUNT, "-li[nfo]", "print files as they are extracted, with their attributes (like ls -l)"},
	{S_INFO, S_COUNT, "-l[s]", "list the filesystem, do not extract"},
	{S_INFO, S_COUNT, "-ll[s]", "list the filesystem with attributes (like ls -l), do not extract"},
	{S_INFO, S_COUNT, "-lln[umeric]", "as -lls, with numeric uids and gids"},
	{S_INFO, S_COUNT, "-lc", "list only files and empty directories, do not extract"},
	{S_INFO, S_COUNT, "-llc", "as -lc, with attributes (like ls -l)"},
	{S_INFO, S_COUNT, "-full[-precision]", "show times to the second in -linfo, -lls, -lln and -llc"},
	{S_INFO, S_COUNT, "-UTC", "show times in UTC rather than the local time zone"},
	{S_INFO, S_COUNT, "-mkfs-time", "print the superblock time, seconds since the epoch (1970-01-01)"},
	{S_XATTR, S_COUNT, "-no[-xattrs]", "do not extract xattrs"},
	{S_XATTR, S_COUNT, "-x[attrs]", XATTRS_HELP},
	{S_XATTR, S_COUNT, "-u[ser-xattrs]", "extract only user.* xattrs (implies -xattrs)"},
	{S_XATTR, S_COUNT, "-xattrs-exclude <regex>",
	 "leave out xattrs whose names match the POSIX extended <regex>, e.g. '^user.'"},
	{S_XATTR, S_COUNT, "-xattrs-include <regex>", "keep only xattrs whose names match the POSIX extended <regex>"},
	{S_RUN, S_RUN, "-v[ersion]", "print the version, licence and copyright, then exit"},
	{S_RUN, S_RUN, "-p[rocessors] <number>", "use <number> processors (default: all available)"},
	{S_RUN, S_COUNT, "-max-files <number>", "keep at most <number> output files open at once (default: the descriptor limit less 10)"},
	{S_RUN, S_RUN, "-mem <size>",
	 "memory for caches, with K, M or G (at least 2M); checked and accepted: this unsquashfs needs a few Mbytes per processor"},
	{S_RUN, S_RUN, "-mem-percent <percent>", "memory for caches as a percentage (1-75) of physical memory; as -mem"},
	{S_RUN, S_RUN, "-mem-default", "print the memory this unsquashfs uses for caches, in Mbytes, then exit"},
	{S_RUN, S_COUNT, "-q[uiet]", "no verbose output"},
	{S_RUN, S_COUNT, "-n[o-progress]", "do not display the progress bar"},
	{S_RUN, S_COUNT, "-percentage", "print percentages, one a line, instead of the progress bar (for dialog --gauge)"},
	{S_RUN, S_RUN, "-ig[nore-errors]", "treat errors writing output files as non-fatal"},
	{S_RUN, S_RUN, "-st[rict-errors]", "treat all errors as fatal"},
	{S_RUN, S_RUN, "-no-exit[-code]", "exit 0 (not 2) after non-fatal errors"},
	{S_MISC, S_RUN, "-o[ffset] <bytes>", "skip <bytes> at the start of FILESYSTEM; K, M or G suffixes allowed"},
	{S_RUN, S_RUN, "-da[ta-queue] <size>", "accepted for compatibility, ignored"},
	{S_RUN, S_RUN, "-fr[ag-queue] <size>", "accepted for compatibility, ignored"},
	{S_HELP, S_HELP, "-h[elp]", "print all of this help to standard output"},
	{S_HELP, S_HELP, "-help-option <regex>", "print the help of the options matching <regex>"},
	{S_HELP, S_HELP, "-help-section <section>",
	 "print the help of <section>, or of the sections whose names match it as a regular expression; "
	 "\"list\" lists the sections"},
	{S_HELP, S_HELP, "-help-all", "print all of this help"},
	{S_HELP, S_HELP, "-ho <regex>", "short for -help-option"},
	{S_HELP, S_HELP, "-hs <section>", "short for -help-section"},
	{S_HELP, S_HELP, "-ha", "short for -help-all"},
	{S_HELP, S_HELP, "-no-pager", "accepted: help is never paged"},
	{S_HELP, S_HELP, "-cols <width>", "wrap help text to <width> columns (default 80)"},
	{S_MISC, S_COUNT, "-fstime", "synonym for -mkfs-time"},
	{S_MISC, S_COUNT, "-e[f] <extract file>", "synonym for -extract-file"},
	{S_MISC, S_COUNT, "-exc[f] <exclude file>", "synonym for -exclude-file"},
	{S_MISC, S_COUNT, "-L", "synonym for -follow-symlinks"},
	{S_MISC, S_COUNT, "-pseudo-file <file>", "synonym for -pf"},
};

static const char *const text_symbolic[] = {
	"A symbolic mode is [ugoa]*[+-=]PERMS..., clauses separated by commas, as chmod(1): u, g, o and a say "
	"whose bits change (none means all); + adds, - removes and = sets; PERMS is any of r, w, x, X (execute "
	"for directories, or when some execute bit is already set), s (setuid/setgid) and t (sticky), or one of "
	"u, g and o to copy that class's bits. An octal mode such as 0755 sets the bits outright.",
	NULL,
};

static const char *const text_env[] = {
	"TZ\tthe time zone of listed times (see -UTC).", NULL,
};

static const char *const text_exit_unsq[] = {
	"0\tthe filesystem was listed or extracted.",
	"1\ta fatal error (corrupt filesystem, I/O error, bad option): unsquashfs stopped.",
	"2\tnon-fatal errors (no xattr support, a symbolic link or permission the output filesystem refused, not "
	"superuser): unsquashfs went on. See -ignore-errors, -strict-errors and -no-exit-code.",
	NULL,
};

static const char *const text_exit_cat[] = {
	"0\tthe files were written to standard output.",
	"1\ta fatal error (corrupt filesystem, I/O error, bad option): sqfscat stopped.",
	"2\tnon-fatal errors (a name that is not a regular file or matches nothing): sqfscat went on.",
	NULL,
};

static const char *const text_extra[] = {
	"The manual pages unsquashfs(1) and sqfscat(1), and squashfs-tools' USAGE-UNSQUASHFS and USAGE-SQFSCAT "
	"at https://github.com/plougher/squashfs-tools, whose options these are.",
	NULL,
};

static int width(const struct unsq_options *o)
{
	return o->help_cols > 0 ? o->help_cols : 80;
}

/* Print text from column `col` (the cursor is there), wrapping at words to `cols`, further
 * lines indented by `indent`. */
static void wrap(const char *text, int col, int indent, int cols)
{
	int avail = cols - indent > 20 ? cols - indent : 20;
	int at = col;
	while (*text) {
		size_t w = strcspn(text, " ");
		if (at > indent && at + 1 + (int)w > indent + avail) {
			printf("\n%*s", indent, "");
			at = indent;
		} else if (at > indent) {
			putchar(' ');
			at++;
		}
		printf("%.*s", (int)w, text);
		at += (int)w;
		text += w;
		while (*text == ' ')
			text++;
	}
	putchar('\n');
}

static void print_entry(const struct help_entry *e, int cols)
{
	int col = printf("  %s", e->synopsis);
	if (col > 25) {
		printf("\n%*s", 26, "");
		col = 26;
	} else {
		printf("%*s", 26 - col, "");
		col = 26;
	}
	wrap(e->text, col, 26, cols);
}

static void print_paragraphs(const char *const *lines, int cols)
{
	for (size_t i = 0; lines[i] != NULL; i++) {
		const char *tab = strchr(lines[i], '\t');
		if (tab != NULL) {
			int col = printf("  %.*s", (int)(tab - lines[i]), lines[i]);
			printf("%*s", 8 - col > 1 ? 8 - col : 1, "");
			wrap(tab + 1, 8, 8, cols);
		} else {
			printf("  ");
			wrap(lines[i], 2, 2, cols);
		}
	}
}

static void print_section(const struct unsq_options *o, enum section s)
{
	int cols = width(o);
	const char *title = sections[s].title;
	if (s == S_RUN && !o->sqfscat)
		title = "Unsquashfs runtime options:";
	printf("%s\n", title);
	if (s == S_SYMBOLIC)
		print_paragraphs(text_symbolic, cols);
	else if (s == S_ENV)
		print_paragraphs(text_env, cols);
	else if (s == S_EXIT)
		print_paragraphs(o->sqfscat ? text_exit_cat : text_exit_unsq, cols);
	else if (s == S_EXTRA)
		print_paragraphs(text_extra, cols);
	else if (s == S_DECOMP) {
		for (const struct codec *const *c = codec_all(); *c != NULL; c++)
			if ((*c)->decompress != NULL)
				printf("  %s\n", (*c)->name);
	}
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		if ((o->sqfscat ? entries[i].cat : entries[i].unsq) == s)
			print_entry(&entries[i], cols);
}

static void syntax(const struct unsq_options *o)
{
	if (o->sqfscat)
		printf("SYNTAX: sqfscat [OPTIONS] FILESYSTEM [list of files to cat to stdout]\n\n");
	else
		printf("SYNTAX: unsquashfs [OPTIONS] FILESYSTEM [files to extract or exclude (with -excludes) or "
		       "cat (with -cat )]\n\n");
}

static void order(const struct unsq_options *o, const enum section **list, size_t *n)
{
	*list = o->sqfscat ? cat_order : unsq_order;
	*n = o->sqfscat ? sizeof(cat_order) / sizeof(cat_order[0]) : sizeof(unsq_order) / sizeof(unsq_order[0]);
}

void unsq_help_all(const struct unsq_options *o)
{
	const enum section *list;
	size_t n;
	order(o, &list, &n);
	syntax(o);
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			putchar('\n');
		print_section(o, list[i]);
	}
}

int unsq_help_option(const struct unsq_options *o, const char *regex)
{
	regex_t re;
	if (regcomp(&re, regex, REG_EXTENDED | REG_NOSUB) != 0) {
		fprintf(stderr, "%s: -help-option: bad regular expression \"%s\"\n", unsq_prog(o), regex);
		return 1;
	}
	int found = 0;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		const struct help_entry *e = &entries[i];
		if ((o->sqfscat ? e->cat : e->unsq) == S_COUNT || regexec(&re, e->synopsis, 0, NULL, 0) != 0)
			continue;
		print_entry(e, width(o));
		found = 1;
	}
	regfree(&re);
	if (!found)
		fprintf(stderr, "%s: -help-option: no option matches \"%s\"\n", unsq_prog(o), regex);
	return found ? 0 : 1;
}

int unsq_help_section(const struct unsq_options *o, const char *name)
{
	const enum section *list;
	size_t n;
	order(o, &list, &n);
	if (strcmp(name, "list") == 0) {
		printf("SECTION NAME\t\tSECTION\n");
		for (size_t i = 0; i < n; i++)
			printf("%-24s%s\n", sections[list[i]].name, sections[list[i]].title);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(sections[list[i]].name, name) == 0) {
			print_section(o, list[i]);
			return 0;
		}
	regex_t re;
	if (regcomp(&re, name, REG_EXTENDED | REG_NOSUB) != 0) {
		fprintf(stderr, "%s: -help-section: bad regular expression \"%s\"\n", unsq_prog(o), name);
		return 1;
	}
	int found = 0;
	for (size_t i = 0; i < n; i++) {
		if (regexec(&re, sections[list[i]].name, 0, NULL, 0) != 0)
			continue;
		if (found++)
			putchar('\n');
		print_section(o, list[i]);
	}
	regfree(&re);
	if (!found)
		fprintf(stderr, "%s: -help-section: no section \"%s\" (-help-section list lists them)\n", unsq_prog(o),
			name);
	return found ? 0 : 1;
}

void unsq_print_version(const struct unsq_options *o)
{
	printf("%s version " COMPAT_VERSION " (%s %s)\n", unsq_prog(o), PACKAGE_NAME, PACKAGE_VERSION);
	printf("%s %s: reads what squashfs-tools " COMPAT_VERSION " %s reads, with its options.\n", PACKAGE_NAME,
	       PACKAGE_VERSION, unsq_prog(o));
	printf("Copyright (C) 2026 The squashfs-toolkit authors\n\n"
	       "This program is free software; you can redistribute it and/or modify it under the terms of\n"
	       "the GNU General Public License as published by the Free Software Foundation; either version 2,\n"
	       "or (at your option) any later version. It comes with NO WARRANTY.\n");
}
