/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.c — argv to struct mksq_options: positional words, then each option looked up in the
 * concerns' tables (opt_def.h); -X options go to the chosen codec once -comp and -b are known. */
#include "config.h"
#include "mksquashfs/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "codecs/codec.h"
#include "common/util/sizes.h"
#include "mksquashfs/opt_def.h"
#include "mksquashfs/pseudo/pseudo.h"
#include "mksquashfs/sort.h"

static const struct opt_group *const all_groups[] = {
	&core_options,
	&append_options,
	&tree_options,
	&pseudo_options,
	&time_options,
	&xattr_options,
	&run_options,
	&help_options,
	&tar_options,
	NULL,
};

const struct opt_group *const *opt_groups(void)
{
	return all_groups;
}

const struct opt_def *opt_find(const char *name)
{
	for (size_t g = 0; all_groups[g] != NULL; g++)
		for (const struct opt_def *d = all_groups[g]->defs; d->name != NULL; d++)
			if (strcmp(d->name, name) == 0)
				return d;
	return NULL;
}

bool opt_for_tool(const struct opt_def *d, bool sqfstar)
{
	return d->tool == OPT_BOTH || d->tool == (sqfstar ? OPT_SQFSTAR_ONLY : OPT_MKSQUASHFS_ONLY);
}

const struct opt_def *opt_find_for(const char *name, bool sqfstar)
{
	for (size_t g = 0; all_groups[g] != NULL; g++)
		for (const struct opt_def *d = all_groups[g]->defs; d->name != NULL; d++)
			if (opt_for_tool(d, sqfstar) && strcmp(d->name, name) == 0)
				return d;
	return NULL;
}

const char *options_tool_name(const struct mksq_options *o)
{
	return o->tar.sqfstar ? "sqfstar" : "mksquashfs";
}

/* -comp and -b decide the codec's defaults, and squashfs-tools accepts -X options before
 * them, so find them first (in the option words argv[first..end)). */
static int prescan_codec(struct mksq_options *o, int first, int end, char **argv,
			 struct sq_error *err)
{
	const char *comp = NULL;
	for (int i = first; i < end; i++) {
		if (strcmp(argv[i], "-e") == 0)
			break;
		if (strcmp(argv[i], "-comp") == 0) {
			if (i + 1 >= end)
				return sq_fail(err, SQ_ERR_USAGE, "-comp missing compression type");
			comp = argv[++i];
			o->comp_given = true;
		} else if (strcmp(argv[i], "-b") == 0) {
			if (i + 1 >= end)
				return sq_fail(err, SQ_ERR_USAGE, "-b missing block size");
			o->block_size_given = true;
			if (options_parse_block_size(argv[++i], &o->image.block_size, err) != 0)
				return -1;
		}
	}
	if (comp == NULL) {
		o->image.codec = codec_default();
	} else {
		o->image.codec = codec_by_name(comp);
		if (o->image.codec == NULL) {
			char names[128];
			codec_list_names(names, sizeof(names));
			return sq_fail(err, SQ_ERR_USAGE,
				       "compressor \"%s\" is not supported: the compressors built in are %s",
				       comp, names);
		}
	}
	if (o->image.codec == NULL)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "no compressor was built in");
	if (!o->image.codec->supported)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "this mksquashfs was built without %s",
			       o->image.codec->name);
	o->image.codec->init_options(&o->image.codec_opts, o->image.block_size);
	return 0;
}

static void set_defaults(struct mksq_options *o)
{
	memset(o, 0, sizeof(*o));
	o->image.block_size = SQFS_DEFAULT_BLOCK_SIZE;
	o->image.duplicates = true;
	o->image.exportable = true;
	o->image.pad = true;
	o->progress = true;
}

/* Options that print something and exit instead of building: they may come alone
 * (`mksquashfs -help-comp xz`, `mksquashfs -fix img`), and win wherever they are. */
struct info_word {
	const char *name;
	enum options_action action;
	enum help_kind help;
	bool takes_value;
};

static const struct info_word info_words[] = {
	{ "-help", OPTIONS_HELP, HELP_SUMMARY, false },
	{ "-h", OPTIONS_HELP, HELP_SUMMARY, false },
	{ "--help", OPTIONS_HELP, HELP_SUMMARY, false },
	{ "-help-all", OPTIONS_HELP, HELP_ALL, false },
	{ "-ha", OPTIONS_HELP, HELP_ALL, false },
	{ "-help-option", OPTIONS_HELP, HELP_OPTION, true },
	{ "-ho", OPTIONS_HELP, HELP_OPTION, true },
	{ "-help-section", OPTIONS_HELP, HELP_SECTION, true },
	{ "-hs", OPTIONS_HELP, HELP_SECTION, true },
	{ "-help-comp", OPTIONS_HELP, HELP_COMP, true },
	{ "-Xhelp", OPTIONS_XHELP, HELP_COMP, false },
	{ "-version", OPTIONS_VERSION, HELP_SUMMARY, false },
	{ "--version", OPTIONS_VERSION, HELP_SUMMARY, false },
	{ "-mem-default", OPTIONS_MEM_DEFAULT, HELP_SUMMARY, false },
	{ "-fix", OPTIONS_FIX, HELP_SUMMARY, true },
};

/* -comp's word for -Xhelp (NULL: the default compressor). */
static const char *find_comp(int argc, char **argv)
{
	const char *comp = NULL;
	for (int i = 1; i + 1 < argc && strcmp(argv[i], "-e") != 0; i++)
		if (strcmp(argv[i], "-comp") == 0)
			comp = argv[++i];
	return comp;
}

/* Find the first print-and-exit option; -no-pager and -cols apply to it wherever they are.
 * Returns 1 when one was found (*action set), 0 when none, -1 on a missing value. */
static int prescan_info(struct mksq_options *o, int argc, char **argv, enum options_action *action,
			struct sq_error *err)
{
	const struct info_word *found = NULL;
	for (int i = 1; i < argc && strcmp(argv[i], "-e") != 0; i++) {
		if (strcmp(argv[i], "-no-pager") == 0) {
			o->help.no_pager = true;
			continue;
		}
		if (strcmp(argv[i], "-cols") == 0) {
			uint64_t cols;
			if (i + 1 >= argc || sq_parse_uint(argv[i + 1], 4096, &cols) != 0 || cols < 20)
				return sq_fail(err, SQ_ERR_USAGE,
					       "-cols missing or invalid width (20 .. 4096 columns)");
			o->help.cols = (unsigned)cols;
			i++;
			continue;
		}
		for (size_t k = 0; found == NULL && k < sizeof(info_words) / sizeof(info_words[0]); k++) {
			if (strcmp(argv[i], info_words[k].name) != 0)
				continue;
			found = &info_words[k];
			if (!found->takes_value)
				break;
			if (i + 1 >= argc)
				return sq_fail(err, SQ_ERR_USAGE, "%s missing its argument (see -help-option %s)",
					       argv[i], argv[i]);
			o->help.arg = argv[++i];
		}
	}
	if (found == NULL)
		return 0;
	*action = found->action;
	o->help.kind = found->help;
	if (found->action == OPTIONS_XHELP) {
		const struct codec *c = codec_by_name(find_comp(argc, argv));
		o->help.arg = c != NULL ? c->name : find_comp(argc, argv);
		if (o->help.arg == NULL)
			o->help.arg = codec_default()->name;
	}
	if (found->action == OPTIONS_FIX)
		o->run.fix_path = o->help.arg;
	return 1;
}

/* A positional word: anything not starting with '-', and "-" itself (no source, or standard
 * input, as squashfs-tools reads it). */
static bool is_positional(const char *arg)
{
	return arg[0] != '-' || arg[1] == '\0';
}

/* An -X option the chosen codec does not have: name the codecs that do. */
static int unknown_codec_option(const struct codec *chosen, const char *opt, struct sq_error *err)
{
	const struct codec *owners[8];
	size_t n = codec_option_owners(opt, chosen, owners, 8);
	if (n == 1)
		return sq_fail(err, SQ_ERR_USAGE, "%s is a%s %s option: add -comp %s", opt,
			       strchr("lx", owners[0]->name[0]) ? "n" : "", owners[0]->name,
			       owners[0]->name);
	const struct codec *gone = n == 0 ? codec_built_out_owner(opt) : NULL;
	if (gone != NULL)
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "%s is a%s %s option, and this mksquashfs was built without %s (%s)",
			       opt, strchr("lx", gone->name[0]) ? "n" : "", gone->name, gone->name,
			       gone->unsupported_why);
	if (n == 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s: unrecognised compressor option %s",
			       chosen->name, opt);
	char names[128] = "";
	size_t used = 0;
	for (size_t i = 0; i < n && i < 8; i++)
		used += (size_t)snprintf(names + used, used < sizeof(names) ? sizeof(names) - used : 0,
					 "%s%s", i ? ", " : "", owners[i]->name);
	return sq_fail(err, SQ_ERR_USAGE, "%s is not a%s %s option: the compressors with it are %s "
		       "(choose one with -comp)", opt, strchr("lx", chosen->name[0]) ? "n" : "",
		       chosen->name, names);
}

/* Hand a -X option (and its value words) to the codec. Returns the words used, or -1. */
static int codec_option(struct mksq_options *o, int argc, char **argv, struct sq_error *err)
{
	char msg[256] = "";
	int used = o->image.codec->parse_option(&o->image.codec_opts, argc, argv, msg, sizeof(msg));
	if (used < 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s", msg[0] ? msg : "bad compressor option value");
	if (used == 0)
		return unknown_codec_option(o->image.codec, argv[0], err);
	return used;
}

/* One option word at argv[i] (and its value). Returns the number of words taken, or -1. */
static int parse_one(struct mksq_options *o, int i, int argc, char **argv, struct sq_error *err)
{
	const char *arg = argv[i];
	const char *val = i + 1 < argc ? argv[i + 1] : NULL;
	if (strcmp(arg, "-e") == 0) {
		for (int k = i + 1; k < argc; k++)
			if (options_add_exclude(o, argv[k], err) != 0)
				return -1;
		return argc - i;
	}
	if (strcmp(arg, "-comp") == 0 || strcmp(arg, "-b") == 0)
		return 2; /* taken by prescan_codec */
	const struct opt_def *d = opt_find_for(arg, o->tar.sqfstar);
	if (d == NULL) {
		if (strncmp(arg, "-X", 2) == 0)
			return codec_option(o, argc - i, argv + i, err);
		return sq_fail(err, SQ_ERR_USAGE, "invalid option %s (see %s -help)", arg,
			       options_tool_name(o));
	}
	switch (d->kind) {
	case OPT_FLAG:
		*(bool *)((char *)o + d->offset) = d->value;
		return 1;
	case OPT_IGNORED:
		return 1;
	case OPT_CALL:
		return d->parse(o, arg, NULL, err) != 0 ? -1 : 1;
	case OPT_VALUE:
		return d->parse(o, arg, val, err) != 0 ? -1 : 2;
	}
	return sq_fail(err, SQ_ERR_USAGE, "invalid option %s", arg);
}

/* What the options imply for each other, and SOURCE_DATE_EPOCH. */
static int finish_options(struct mksq_options *o, const char *sde, uint32_t now,
			  struct sq_error *err)
{
	if (o->image.codec->finish_options != NULL) {
		char msg[256] = "";
		if (o->image.codec->finish_options(&o->image.codec_opts, o->image.block_size, msg,
						   sizeof(msg)) != 0)
			return sq_fail(err, SQ_ERR_USAGE, "%s", msg[0] ? msg : "bad compressor options");
	}
	for (size_t g = 0; all_groups[g] != NULL; g++)
		if (all_groups[g]->finish != NULL && all_groups[g]->finish(o, err) != 0)
			return -1;
	if (sde != NULL) {
		uint64_t v;
		if (o->time_option_set)
			return sq_fail(err, SQ_ERR_USAGE,
				       "SOURCE_DATE_EPOCH and command line options can't be used at the same time to set timestamp(s)");
		if (sq_parse_uint(sde, UINT32_MAX, &v) != 0)
			return sq_fail(err, SQ_ERR_USAGE,
				       "environment variable SOURCE_DATE_EPOCH has invalid time value \"%s\"",
				       sde);
		o->image.mkfs_time = (uint32_t)v;
		o->mkfs_time_set = true;
		o->clamp_set = true;
		o->clamp_time = (uint32_t)v;
	}
	if (!o->mkfs_time_set)
		o->image.mkfs_time = now;
	o->now = o->clamp_set && now > o->clamp_time ? o->clamp_time : now;
	return 0;
}

/* How many words the option at argv[i] takes, from the tables (and, for -X options, from any
 * codec that knows it), so sqfstar can tell an option's value from IMAGE. */
static int option_words(int i, int argc, char **argv)
{
	const struct opt_def *d = opt_find_for(argv[i], true);
	if (strcmp(argv[i], "-comp") == 0 || strcmp(argv[i], "-b") == 0 ||
	    (d != NULL && d->kind == OPT_VALUE))
		return 2;
	if (d != NULL || strncmp(argv[i], "-X", 2) != 0)
		return 1;
	const struct codec *const *all = codec_all();
	for (size_t k = 0; all[k] != NULL; k++) {
		if (!all[k]->supported)
			continue;
		struct codec_opts scratch;
		char msg[256];
		all[k]->init_options(&scratch, SQFS_DEFAULT_BLOCK_SIZE);
		int used = all[k]->parse_option(&scratch, argc - i, argv + i, msg, sizeof(msg));
		if (used != 0)
			return used > 0 ? used : (i + 1 < argc ? 2 : 1);
	}
	return 1;
}

/* sqfstar [OPTIONS] IMAGE [EXCLUDES]: the options end at the first word that is not an option
 * or an option's value; the words after IMAGE are exclude patterns. Returns IMAGE's index. */
static int sqfstar_layout(struct mksq_options *o, int argc, char **argv, struct sq_error *err)
{
	int i = 1;
	while (i < argc && !is_positional(argv[i]))
		i += option_words(i, argc, argv);
	if (i >= argc)
		return sq_fail(err, SQ_ERR_USAGE,
			       "usage: sqfstar [OPTIONS] IMAGE [EXCLUDES] < archive.tar (see sqfstar -help)");
	o->image_path = argv[i];
	for (int k = i + 1; k < argc; k++)
		if (options_add_exclude(o, argv[k], err) != 0)
			return -1;
	return i;
}

/* Is argv[0] sqfstar (the same program entered by another name)? */
static bool entered_as_sqfstar(const char *argv0)
{
	const char *base = strrchr(argv0, '/');
	base = base != NULL ? base + 1 : argv0;
	return strcmp(base, "sqfstar") == 0;
}

/* A tar archive as input makes a non-exportable image unless -exports says otherwise, as
 * squashfs-tools does; -exports and -no-exports later on the line still decide. */
static void tar_defaults(struct mksq_options *o, int first, int end, char **argv)
{
	for (int i = first; i < end && !o->tar.sqfstar; i++) {
		if (strcmp(argv[i], "-e") == 0)
			break;
		if (strcmp(argv[i], "-tar") == 0)
			o->tar.enabled = true;
	}
	if (o->tar.sqfstar)
		o->tar.enabled = true;
	if (o->tar.enabled)
		o->image.exportable = false;
}

int options_parse(struct mksq_options *o, int argc, char **argv, const char *sde, uint32_t now,
		  enum options_action *action, struct sq_error *err)
{
	set_defaults(o);
	*action = OPTIONS_RUN;
	o->tar.sqfstar = argc > 0 && entered_as_sqfstar(argv[0]);

	/* mksquashfs: sources and image come first, up to the first option word. */
	int first_opt = 1;
	while (!o->tar.sqfstar && first_opt < argc && is_positional(argv[first_opt]))
		first_opt++;
	int info = prescan_info(o, argc, argv, action, err);
	if (info != 0)
		return info < 0 ? -1 : 0;
	int end_opt = argc;
	if (o->tar.sqfstar) {
		end_opt = sqfstar_layout(o, argc, argv, err);
		if (end_opt < 0)
			return -1;
	} else {
		if (first_opt < 3)
			return sq_fail(err, SQ_ERR_USAGE,
				       "usage: mksquashfs SOURCE... IMAGE [OPTIONS] (see mksquashfs -help)");
		o->sources = argv + 1;
		o->source_count = first_opt - 2;
		o->image_path = argv[first_opt - 1];
	}
	tar_defaults(o, first_opt, end_opt, argv);

	if (prescan_codec(o, first_opt, end_opt, argv, err) != 0)
		return -1;
	for (int i = first_opt; i < end_opt;) {
		int used = parse_one(o, i, end_opt, argv, err);
		if (used < 0)
			return -1;
		i += used;
	}
	return finish_options(o, sde, now, err);
}

int options_add_exclude(struct mksq_options *o, const char *pattern, struct sq_error *err)
{
	char **grown = sq_realloc_array(o->excludes, (size_t)o->exclude_count + 1, sizeof(char *));
	if (grown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	o->excludes = grown;
	o->excludes[o->exclude_count] = strdup(pattern);
	if (o->excludes[o->exclude_count] == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	o->exclude_count++;
	return 0;
}

bool options_no_sources(const struct mksq_options *o)
{
	return o->source_count == 1 && strcmp(o->sources[0], "-") == 0;
}

void options_free(struct mksq_options *o)
{
	pseudo_set_free(o->pseudo);
	o->pseudo = NULL;
	sort_table_free(o->sort);
	o->sort = NULL;
	for (uint32_t i = 0; i < o->exclude_count; i++)
		free(o->excludes[i]);
	free(o->excludes);
	o->excludes = NULL;
	o->exclude_count = 0;
	options_xattr_free(o);
	options_run_free(o);
}
