/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* help.c — the help system of squashfs-tools 4.7 (-help, -help-all, -help-option REGEX,
 * -help-section NAME, -help-comp COMP and their short forms), printed from the option tables
 * (opt_def.h) section by section, wrapped to the output's width. */
#include "config.h"
#include "mksquashfs/options.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/codec.h"
#include "mksquashfs/help_out.h"
#include "mksquashfs/opt_def.h"
#include "mksquashfs/pseudo/pseudo.h"

static const struct {
	const char *name;
	const char *title;
} option_sections[SECTION_COUNT] = {
	[SECTION_COMPRESSION] = { "compression", "Filesystem compression options:" },
	[SECTION_BUILD] = { "build", "Filesystem build options:" },
	[SECTION_TIME] = { "time", "Filesystem time options:" },
	[SECTION_PERMISSIONS] = { "perms", "Filesystem permissions options:" },
	[SECTION_PSEUDO] = { "pseudo", "Filesystem pseudo options:" },
	[SECTION_FILTER] = { "filter", "Filesystem filter options:" },
	[SECTION_XATTR] = { "xattrs", "Filesystem extended attribute (xattrs) options:" },
	[SECTION_RUNTIME] = { "runtime", "Mksquashfs runtime options:" },
	[SECTION_APPEND] = { "append", "Filesystem append options:" },
	[SECTION_ACTIONS] = { "actions", "Filesystem actions options:" },
	[SECTION_TAR] = { "tar", "Tar file only options:" },
	[SECTION_EXPERT] = { "expert", "Expert options (these may make the filesystem unmountable):" },
	[SECTION_HELP] = { "help", "Help options:" },
	[SECTION_MISC] = { "misc", "Miscellaneous options:" },
};

/* Sections of prose after the option sections; print, when set, prints title and text. */
static const struct {
	const char *name;
	const char *title;
	const char *text;
	void (*print)(FILE *out);
} text_sections[] = {
	{ "pseudo-defs", "Pseudo file definition format:", NULL, pseudo_print_formats },
	{ "symbolic", "Symbolic mode specification:",
	  "A symbolic mode is [ugoa]*[+-=]PERMS, repeated with commas between: u, g, o and a\n"
	  "(all) choose the permission bits affected; + adds, - removes and = sets them;\n"
	  "PERMS is any of r, w, x, X (x for directories, or when some x bit is already set),\n"
	  "s (set-id) and t (sticky), or one of u, g, o to copy that class's bits.\n", NULL },
	{ "environment", "Environment:",
	  "SOURCE_DATE_EPOCH\tIf set, this is used as the filesystem creation timestamp.\n"
	  "\t\t\tAlso any file timestamps which are after SOURCE_DATE_EPOCH\n"
	  "\t\t\twill be clamped to SOURCE_DATE_EPOCH.  See\n"
	  "\t\t\thttps://reproducible-builds.org/docs/source-date-epoch/\n"
	  "PAGER\t\t\tIf set, the program used to display help text on a\n"
	  "\t\t\tterminal (empty: none).  The default is pager, less or more\n", NULL },
	{ "exit", "Exit status:",
	  "  0\tMksquashfs successfully generated a filesystem.\n"
	  "  1\tFatal errors occurred, Mksquashfs aborted and did not generate a filesystem.\n",
	  NULL },
	{ "extra", "See also (extra information elsewhere):",
	  "The mksquashfs(1) manual page of squashfs-toolkit, and its README.md, which lists\n"
	  "how this mksquashfs differs from squashfs-tools.\n", NULL },
};
#define TEXT_SECTION_COUNT (sizeof(text_sections) / sizeof(text_sections[0]))

const char *opt_section_title(enum opt_section s)
{
	return s < SECTION_COUNT ? option_sections[s].title : "";
}

static void print_compressor_list(FILE *out, const char *indent)
{
	const struct codec *const *all = codec_all();
	const struct codec *def = codec_default();
	for (size_t k = 0; all[k] != NULL; k++)
		fprintf(out, "%s%s%s%s%s\n", indent, all[k]->name, all[k] == def ? " (default)" : "",
			all[k]->id == 2 && all[k]->supported ? " (no kernel support)" : "",
			all[k]->supported ? "" : " (not built in)");
}

/* Number of leading tabs of a line. */
static size_t tabs_at(const char *p, const char *end)
{
	size_t n = 0;
	while (p + n < end && p[n] == '\t')
		n++;
	return n;
}

static void print_one_entry(const struct help_out *h, const char *help);

/* One option's help, which may hold several entries (a line starting with '-' begins the next:
 * "-pd <d mode uid gid> ...\n-pd <D time mode u g> ..."). */
static void print_entry(const struct help_out *h, const char *help)
{
	const char *next;
	while ((next = strstr(help, "\n-")) != NULL) {
		char *first = strndup(help, (size_t)(next - help));
		if (first == NULL)
			break;
		print_one_entry(h, first);
		free(first);
		help = next + 1;
	}
	print_one_entry(h, help);
}

/* One entry: the first line's head ("-name <arg>") and a paragraph made of its text and every
 * line indented three tabs; lines indented deeper are printed as they are (lists). */
static void print_one_entry(const struct help_out *h, const char *help)
{
	const char *end = help + strlen(help);
	const char *tab = strchr(help, '\t');
	const char *nl = strchr(help, '\n');
	if (nl == NULL)
		nl = end;
	if (tab == NULL || tab > nl)
		tab = nl;
	char *para = malloc(2 * (size_t)(end - help) + 1); /* joins may add a space per line */
	if (para == NULL) {
		fprintf(h->out, "%s\n", help);
		return;
	}
	size_t plen = 0;
	const char *head = help;
	size_t head_len = (size_t)(tab - help);
	const char *p = tab + tabs_at(tab, nl);
	for (;;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		/* Lines join with a space; a sentence's end keeps its two. */
		if (plen > 0)
			para[plen++] = ' ';
		if (plen > 1 && para[plen - 2] == '.' && eol > p)
			para[plen++] = ' ';
		memcpy(para + plen, p, (size_t)(eol - p));
		plen += (size_t)(eol - p);
		if (eol == end)
			break;
		p = eol + 1;
		size_t t = tabs_at(p, end);
		if (t <= 3 && strncmp(p + t, "%COMPRESSORS%", 13) != 0) {
			p += t;
			continue;
		}
		/* A list line (or the compressor list) ends the paragraph. */
		help_out_entry(h, head, head_len, para, plen);
		head_len = 0;
		plen = 0;
		const char *lend = memchr(p, '\n', (size_t)(end - p));
		if (lend == NULL)
			lend = end;
		if (strncmp(p + t, "%COMPRESSORS%", 13) == 0) {
			fprintf(h->out, "\t\t\tCompressors available:\n");
			print_compressor_list(h->out, "\t\t\t\t");
		}
		else
			fprintf(h->out, "%.*s\n", (int)(lend - p), p);
		if (lend == end) {
			free(para);
			return;
		}
		p = lend + 1 + tabs_at(lend + 1, end);
	}
	if (plen > 0 || head_len > 0)
		help_out_entry(h, head, head_len, para, plen);
	free(para);
}

/* Options of section s from every group, in group order; returns how many. */
static unsigned print_section_options(const struct help_out *h, enum opt_section s, bool title)
{
	const struct opt_group *const *groups = opt_groups();
	unsigned n = 0;
	for (size_t g = 0; groups[g] != NULL; g++) {
		for (const struct opt_def *d = groups[g]->defs; d->name != NULL; d++) {
			if (d->section != s || d->help == NULL || !opt_for_tool(d, h->sqfstar))
				continue;
			if (n++ == 0 && title)
				fprintf(h->out, "%s\n", h->sqfstar && s == SECTION_RUNTIME ?
					"Sqfstar runtime options:" : option_sections[s].title);
			print_entry(h, d->help);
		}
	}
	return n;
}

static void print_text_section(const struct help_out *h, size_t i)
{
	if (text_sections[i].print != NULL)
		text_sections[i].print(h->out);
	else
		fprintf(h->out, "%s\n%s\n", text_sections[i].title, text_sections[i].text);
}

static void print_codec_options(FILE *out, const struct codec *c)
{
	if (c->print_help != NULL)
		c->print_help(out);
	else
		fprintf(out, "\t  (no options)%s\n",
			c->id == 2 ? " (deprecated - no kernel support)" : "");
}

static void print_all_codec_options(FILE *out)
{
	const struct codec *const *all = codec_all();
	const struct codec *def = codec_default();
	fprintf(out, "Compressors available and compressor specific options:\n");
	for (size_t k = 0; all[k] != NULL; k++) {
		if (!all[k]->supported)
			continue;
		fprintf(out, "\t%s%s\n", all[k]->name, all[k] == def ? " (default)" : "");
		print_codec_options(out, all[k]);
	}
}

static void print_syntax(const struct help_out *h)
{
	if (h->sqfstar)
		fprintf(h->out, "SYNTAX:sqfstar [OPTIONS] FILESYSTEM [list of exclude dirs/files]\n"
				"(reads an uncompressed tar archive from standard input)\n\n");
	else
		fprintf(h->out, "SYNTAX: mksquashfs source1 source2 ...  FILESYSTEM [OPTIONS] "
				"[-e list of exclude dirs/files]\n\n");
}

static void print_section_list(FILE *out)
{
	fprintf(out, "\tSECTION NAME\t\tSECTION\n");
	for (int s = 0; s < SECTION_COUNT; s++)
		fprintf(out, "\t%-16s\t%s\n", option_sections[s].name, option_sections[s].title);
	for (size_t i = 0; i < TEXT_SECTION_COUNT; i++)
		fprintf(out, "\t%-16s\t%s\n", text_sections[i].name, text_sections[i].title);
}

/* Every option section (and, for -help-all, the prose sections). */
static void print_everything(const struct help_out *h, bool prose)
{
	for (int s = 0; s < SECTION_COUNT; s++)
		if (print_section_options(h, (enum opt_section)s, true) > 0)
			fputc('\n', h->out);
	print_all_codec_options(h->out);
	fputc('\n', h->out);
	/* -help keeps what squashfs-tools 4.5's -help had: the pseudo formats and the
	 * environment. */
	for (size_t i = 0; i < TEXT_SECTION_COUNT; i++) {
		if (!prose && strcmp(text_sections[i].name, "environment") != 0 &&
		    strcmp(text_sections[i].name, "pseudo-defs") != 0)
			continue;
		print_text_section(h, i);
	}
}

static void print_summary(const struct help_out *h)
{
	const char *tool = h->sqfstar ? "sqfstar" : "mksquashfs";
	print_syntax(h);
	fprintf(h->out, "Run\n  \"%s -help-option <regex>\" to get help on all options "
			"matching <regex>\n\nOr run\n  \"%s -help-section <section-name>\" "
			"to get help on these sections\n", tool, tool);
	print_section_list(h->out);
	fprintf(h->out, "\nOr run\n  \"%s -help-all\" to get help on all the sections\n\n", tool);
	/* Scripts grep -help for option and compressor names (squashfs-tools 4.5 printed them
	 * all here), so every option follows the summary. */
	print_everything(h, false);
}

static int compile(const char *what, const char *re_text, regex_t *re, struct sq_error *err)
{
	int rc = regcomp(re, re_text, REG_EXTENDED | REG_NOSUB);
	if (rc == 0)
		return 0;
	char why[256];
	regerror(rc, re, why, sizeof(why));
	return sq_fail(err, SQ_ERR_USAGE, "%s: invalid regex \"%s\": %s", what, re_text, why);
}

static int print_matching_options(const struct help_out *h, const char *re_text,
				  struct sq_error *err)
{
	regex_t re;
	if (compile("-help-option", re_text, &re, err) != 0)
		return -1;
	unsigned n = 0;
	const struct opt_group *const *groups = opt_groups();
	for (int s = 0; s < SECTION_COUNT; s++) {
		for (size_t g = 0; groups[g] != NULL; g++) {
			for (const struct opt_def *d = groups[g]->defs; d->name != NULL; d++) {
				if (d->section != (enum opt_section)s || d->help == NULL ||
				    !opt_for_tool(d, h->sqfstar))
					continue;
				size_t head = strcspn(d->help, "\t\n");
				char *copy = strndup(d->help, head);
				bool match = copy != NULL && regexec(&re, copy, 0, NULL, 0) == 0;
				free(copy);
				if (match) {
					print_entry(h, d->help);
					n++;
				}
			}
		}
	}
	regfree(&re);
	if (n == 0)
		return sq_fail(err, SQ_ERR_USAGE, "-help-option: no option matches \"%s\"", re_text);
	return 0;
}

/* Option sections first, then the text sections: k in [0, SECTION_COUNT + TEXT_SECTION_COUNT). */
static const char *any_section_name(size_t k)
{
	return k < SECTION_COUNT ? option_sections[k].name : text_sections[k - SECTION_COUNT].name;
}

static void print_any_section(const struct help_out *h, size_t k)
{
	if (k >= SECTION_COUNT)
		print_text_section(h, k - SECTION_COUNT);
	else if (print_section_options(h, (enum opt_section)k, true) == 0)
		fprintf(h->out, "%s\n(no options of this section in this mksquashfs%s)\n",
			option_sections[k].title,
			k == SECTION_ACTIONS ? ": actions are not supported" : "");
}

/* A section by exact name, "list", or every section whose name matches as a regex. */
static int print_sections(const struct help_out *h, const char *name, struct sq_error *err)
{
	if (strcmp(name, "list") == 0) {
		print_section_list(h->out);
		return 0;
	}
	const size_t total = SECTION_COUNT + TEXT_SECTION_COUNT;
	regex_t re;
	bool exact = false;
	for (size_t k = 0; k < total; k++)
		exact |= strcmp(any_section_name(k), name) == 0;
	if (!exact && compile("-help-section", name, &re, err) != 0)
		return -1;
	unsigned n = 0;
	for (size_t k = 0; k < total; k++) {
		const char *sn = any_section_name(k);
		if (exact ? strcmp(sn, name) != 0 : regexec(&re, sn, 0, NULL, 0) != 0)
			continue;
		if (n++ > 0)
			fputc('\n', h->out);
		print_any_section(h, k);
	}
	if (!exact)
		regfree(&re);
	if (n == 0)
		return sq_fail(err, SQ_ERR_USAGE,
			       "-help-section: no section matches \"%s\" (mksquashfs -help-section list "
			       "lists them)", name);
	return 0;
}

static int print_comp(const struct help_out *h, const char *name, struct sq_error *err)
{
	if (strcmp(name, "list") == 0) {
		print_compressor_list(h->out, "\t");
		return 0;
	}
	if (strcmp(name, "all") == 0) {
		print_all_codec_options(h->out);
		return 0;
	}
	const struct codec *c = codec_by_name(name);
	if (c == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "compressor \"%s\" is not supported (-help-comp list "
				 "lists them)", name);
	if (!c->supported)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "this mksquashfs was built without %s (%s)",
			       c->name, c->unsupported_why);
	fprintf(h->out, "mksquashfs: compressor \"%s\".  Options supported:\n", c->name);
	print_codec_options(h->out, c);
	return 0;
}

int options_print_help(const struct mksq_options *o, struct sq_error *err)
{
	struct help_out h;
	help_out_open(&h, o->help.cols, o->help.no_pager);
	h.sqfstar = o->tar.sqfstar;
	int rc = 0;
	switch (o->help.kind) {
	case HELP_SUMMARY:
		print_summary(&h);
		break;
	case HELP_ALL:
		print_syntax(&h);
		print_everything(&h, true);
		break;
	case HELP_OPTION:
		rc = print_matching_options(&h, o->help.arg, err);
		break;
	case HELP_SECTION:
		rc = print_sections(&h, o->help.arg, err);
		break;
	case HELP_COMP:
		rc = print_comp(&h, o->help.arg, err);
		break;
	}
	if (help_out_close(&h) != 0 && rc == 0)
		return sq_fail_errno(err, "cannot write to standard output");
	return rc;
}

/* Options that only shape the help text: they are read before anything else (options.c), and
 * in a build's command line they change nothing. */
static int opt_help_value(struct mksq_options *o, const char *name, const char *v,
			  struct sq_error *err)
{
	(void)o;
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing its argument", name);
	return 0;
}

static const struct opt_def help_defs[] = {
	OPT_IGNORED_DEF("-help", SECTION_HELP, "-help\t\t\tprint help summary information and every option to pager\n\t\t\t(or stdout if not a terminal)"),
	OPT_VALUE_DEF("-help-option", opt_help_value, SECTION_HELP, "-help-option <regex>\tprint the help information for options matching\n\t\t\t<regex> to pager (or stdout if not a terminal)"),
	OPT_VALUE_DEF("-help-section", opt_help_value, SECTION_HELP, "-help-section <section>\tprint the help information for section <section> to\n\t\t\tpager (or stdout if not a terminal).  If <section> does\n\t\t\tnot exactly match a section name, it is treated as a\n\t\t\tregular expression, and all section names that match are\n\t\t\tdisplayed.  Use \"list\" as section name to get a list of\n\t\t\tsections and their names"),
	OPT_VALUE_DEF("-help-comp", opt_help_value, SECTION_HELP, "-help-comp <comp>\tprint compressor options for compressor <comp>.  Use\n\t\t\t\"list\" to get a list of available compressors, and \"all\"\n\t\t\tto get the compressor options for all the compressors"),
	OPT_IGNORED_DEF("-help-all", SECTION_HELP, "-help-all\t\tprint help information for all Mksquashfs options and\n\t\t\tsections to pager (or stdout if not a terminal)"),
	OPT_IGNORED_DEF("-Xhelp", SECTION_HELP, "-Xhelp\t\t\tprint compressor options for selected compressor"),
	OPT_IGNORED_DEF("-h", SECTION_HELP, "-h\t\t\tshorthand alternative to -help"),
	OPT_VALUE_DEF("-ho", opt_help_value, SECTION_HELP, "-ho <regex>\t\tshorthand alternative to -help-option"),
	OPT_VALUE_DEF("-hs", opt_help_value, SECTION_HELP, "-hs <section>\t\tshorthand alternative to -help-section"),
	OPT_IGNORED_DEF("-ha", SECTION_HELP, "-ha\t\t\tshorthand alternative to -help-all"),
	OPT_IGNORED_DEF("-no-pager", SECTION_HELP, "-no-pager\t\tdo not use a pager to output help information"),
	OPT_VALUE_DEF("-cols", opt_help_value, SECTION_HELP, "-cols <width>\t\tuse <width> columns to output help information.  Useful\n\t\t\tif output is not to a terminal"),
	OPT_IGNORED_DEF("-version", SECTION_RUNTIME, "-version\t\tprint version, licence and copyright message"),
	OPT_END_DEF,
};

OPT_GROUP_DEF(help_options, "help", help_defs, NULL);
