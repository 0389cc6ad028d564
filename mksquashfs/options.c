/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.c — argv to struct mksq_options, with squashfs-tools 4.5.1's option names, defaults
 * and value checks; -X options go to the chosen codec once -comp and -b are known. */
#include "config.h"
#include "mksquashfs/options.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/util/io.h"
#include "common/util/sizes.h"

/* Flags that take no value: name -> which bool, and the value it gets. */
struct flag_option {
	const char *name;
	size_t offset; /* of a bool inside struct mksq_options */
	bool value;
};

#define OPT_FLAG(n, field, v) { n, offsetof(struct mksq_options, field), v }

static const struct flag_option flag_options[] = {
	OPT_FLAG("-noI", image.uncompressed_inodes, true),
	OPT_FLAG("-noInodeCompression", image.uncompressed_inodes, true),
	OPT_FLAG("-noId", image.uncompressed_ids, true),
	OPT_FLAG("-noIdTableCompression", image.uncompressed_ids, true),
	OPT_FLAG("-noD", image.uncompressed_data, true),
	OPT_FLAG("-noDataCompression", image.uncompressed_data, true),
	OPT_FLAG("-noF", image.uncompressed_fragments, true),
	OPT_FLAG("-noFragmentCompression", image.uncompressed_fragments, true),
	OPT_FLAG("-noX", image.uncompressed_xattrs, true),
	OPT_FLAG("-noXattrCompression", image.uncompressed_xattrs, true),
	OPT_FLAG("-no-fragments", image.no_fragments, true),
	OPT_FLAG("-always-use-fragments", image.always_fragments, true),
	OPT_FLAG("-no-duplicates", image.duplicates, false),
	OPT_FLAG("-no-exports", image.exportable, false),
	OPT_FLAG("-exports", image.exportable, true),
	OPT_FLAG("-no-xattrs", image.no_xattrs, true),
	OPT_FLAG("-xattrs", image.no_xattrs, false),
	OPT_FLAG("-nopad", image.pad, false),
	OPT_FLAG("-no-sparse", no_sparse, true),
	OPT_FLAG("-all-root", all_root, true),
	OPT_FLAG("-root-owned", all_root, true),
	OPT_FLAG("-noappend", noappend, true),
	OPT_FLAG("-keep-as-directory", keep_as_directory, true),
	OPT_FLAG("-quiet", quiet, true),
	OPT_FLAG("-no-progress", progress, false),
	OPT_FLAG("-progress", progress, true),
	OPT_FLAG("-info", info, true),
	OPT_FLAG("-wildcards", wildcards, true),
	OPT_FLAG("-regex", regex, true),
};

/* Accepted for compatibility; they change nothing in what we build. */
static const char *const ignored_flags[] = {
	"-reproducible", "-no-recovery", "-exit-on-error", "-no-tailends", NULL,
};

static int parse_time(const char *opt, const char *s, uint32_t *out, struct sq_error *err)
{
	uint64_t v;
	if (s == NULL || sq_parse_uint(s, UINT32_MAX, &v) != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing or invalid time value", opt);
	*out = (uint32_t)v;
	return 0;
}

static int parse_owner(const char *opt, const char *s, bool is_group, uint32_t *out,
		       struct sq_error *err)
{
	uint64_t v;
	if (s == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing uid or user name", opt);
	if (sq_parse_uint(s, UINT32_MAX, &v) == 0) {
		*out = (uint32_t)v;
		return 0;
	}
	if (is_group) {
		struct group *g = getgrnam(s);
		if (g != NULL) {
			*out = (uint32_t)g->gr_gid;
			return 0;
		}
		return sq_fail(err, SQ_ERR_USAGE, "%s invalid gid or unknown group \"%s\"", opt, s);
	}
	struct passwd *p = getpwnam(s);
	if (p != NULL) {
		*out = (uint32_t)p->pw_uid;
		return 0;
	}
	return sq_fail(err, SQ_ERR_USAGE, "%s invalid uid or unknown user \"%s\"", opt, s);
}

static int parse_block_size(const char *s, uint32_t *out, struct sq_error *err)
{
	uint64_t v;
	if (s == NULL || sq_parse_size(s, "KM", &v) != 0 || v < (1u << SQFS_MIN_BLOCK_LOG) ||
	    v > (1u << SQFS_MAX_BLOCK_LOG) || (v & (v - 1)) != 0)
		return sq_fail(err, SQ_ERR_USAGE,
			       "-b block size \"%s\" not power of two or not between 4096 and 1Mbyte",
			       s ? s : "");
	*out = (uint32_t)v;
	return 0;
}

static int add_exclude(struct mksq_options *o, const char *pattern, struct sq_error *err)
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

/* -ef: one exclude per line. */
static int exclude_line(void *ctx, const char *line, size_t len, struct sq_error *err)
{
	(void)len;
	return add_exclude(ctx, line, err);
}

static int read_exclude_file(struct mksq_options *o, const char *path, struct sq_error *err)
{
	return sq_for_each_line(path, "exclude file", exclude_line, o, err);
}

/* -comp and -b decide the codec's defaults, and squashfs-tools accepts -X options before
 * them, so find them first. */
static int prescan_codec(struct mksq_options *o, int first, int argc, char **argv,
			 struct sq_error *err)
{
	const char *comp = NULL;
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "-e") == 0)
			break;
		if (strcmp(argv[i], "-comp") == 0) {
			if (i + 1 >= argc)
				return sq_fail(err, SQ_ERR_USAGE, "-comp missing compression type");
			comp = argv[++i];
		} else if (strcmp(argv[i], "-b") == 0) {
			if (i + 1 >= argc)
				return sq_fail(err, SQ_ERR_USAGE, "-b missing block size");
			if (parse_block_size(argv[++i], &o->image.block_size, err) != 0)
				return -1;
		}
	}
	if (comp == NULL) {
		o->image.codec = codec_default();
	} else {
		o->image.codec = codec_by_name(comp);
		if (o->image.codec == NULL)
			return sq_fail(err, SQ_ERR_USAGE, "compressor \"%s\" is not supported", comp);
	}
	if (o->image.codec == NULL)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "no compressor was built in");
	if (!o->image.codec->supported)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "this mksquashfs was built without %s",
			       o->image.codec->name);
	o->image.codec->init_options(&o->image.codec_opts, o->image.block_size);
	return 0;
}

static bool set_flag(struct mksq_options *o, const char *arg)
{
	for (size_t i = 0; i < sizeof(flag_options) / sizeof(flag_options[0]); i++) {
		if (strcmp(arg, flag_options[i].name) == 0) {
			*(bool *)((char *)o + flag_options[i].offset) = flag_options[i].value;
			return true;
		}
	}
	for (size_t i = 0; ignored_flags[i] != NULL; i++)
		if (strcmp(arg, ignored_flags[i]) == 0)
			return true;
	return false;
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

/* A whole-word option of the -help/-version kind may come alone: `mksquashfs -help`. */
static bool is_info_action(const char *arg, enum options_action *action)
{
	if (strcmp(arg, "-help") == 0 || strcmp(arg, "-h") == 0)
		*action = OPTIONS_HELP;
	else if (strcmp(arg, "-version") == 0)
		*action = OPTIONS_VERSION;
	else
		return false;
	return true;
}

int options_parse(struct mksq_options *o, int argc, char **argv, const char *sde, uint32_t now,
		  enum options_action *action, struct sq_error *err)
{
	set_defaults(o);
	*action = OPTIONS_RUN;

	/* Sources and image come first, up to the first word starting with '-'. */
	int first_opt = 1;
	while (first_opt < argc && argv[first_opt][0] != '-')
		first_opt++;
	for (int i = first_opt; i < argc; i++) {
		if (strcmp(argv[i], "-e") == 0)
			break;
		if (is_info_action(argv[i], action))
			return 0;
	}
	if (first_opt < 3)
		return sq_fail(err, SQ_ERR_USAGE,
			       "usage: mksquashfs SOURCE... IMAGE [OPTIONS] (see mksquashfs -help)");
	o->sources = argv + 1;
	o->source_count = first_opt - 2;
	o->image_path = argv[first_opt - 1];

	if (prescan_codec(o, first_opt, argc, argv, err) != 0)
		return -1;

	bool time_option = false, progress_forced = false;
	for (int i = first_opt; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(arg, "-progress") == 0)
			progress_forced = true;
		if (set_flag(o, arg))
			continue;
		if (strcmp(arg, "-comp") == 0 || strcmp(arg, "-b") == 0) {
			i++; /* taken by prescan_codec */
		} else if (strcmp(arg, "-Xhelp") == 0) {
			*action = OPTIONS_XHELP;
			return 0;
		} else if (strcmp(arg, "-mkfs-time") == 0 || strcmp(arg, "-fstime") == 0) {
			if (parse_time(arg, val, &o->image.mkfs_time, err) != 0)
				return -1;
			o->mkfs_time_set = true;
			time_option = true;
			i++;
		} else if (strcmp(arg, "-all-time") == 0) {
			if (parse_time(arg, val, &o->all_time, err) != 0)
				return -1;
			o->all_time_set = true;
			time_option = true;
			i++;
		} else if (strcmp(arg, "-force-uid") == 0) {
			if (parse_owner(arg, val, false, &o->force_uid, err) != 0)
				return -1;
			o->force_uid_set = true;
			i++;
		} else if (strcmp(arg, "-force-gid") == 0) {
			if (parse_owner(arg, val, true, &o->force_gid, err) != 0)
				return -1;
			o->force_gid_set = true;
			i++;
		} else if (strcmp(arg, "-processors") == 0) {
			uint64_t v;
			if (val == NULL || sq_parse_uint(val, 4096, &v) != 0 || v < 1)
				return sq_fail(err, SQ_ERR_USAGE, "-processors \"%s\" should be 1 or larger (and at most 4096)",
						  val ? val : "");
			o->processors = (unsigned)v;
			i++;
		} else if (strcmp(arg, "-mem") == 0) {
			uint64_t v;
			if (val == NULL || sq_parse_size(val, "KMG", &v) != 0 || v == 0)
				return sq_fail(err, SQ_ERR_USAGE, "-mem \"%s\" missing or invalid memory size",
						  val ? val : "");
			o->mem = v;
			i++;
		} else if (strcmp(arg, "-ef") == 0) {
			if (val == NULL)
				return sq_fail(err, SQ_ERR_USAGE, "-ef missing filename");
			if (read_exclude_file(o, val, err) != 0)
				return -1;
			i++;
		} else if (strcmp(arg, "-e") == 0) {
			for (i++; i < argc; i++)
				if (add_exclude(o, argv[i], err) != 0)
					return -1;
		} else if (strncmp(arg, "-X", 2) == 0) {
			char msg[256] = "";
			int used = o->image.codec->parse_option(&o->image.codec_opts, argc - i, argv + i,
							      msg, sizeof(msg));
			if (used < 0)
				return sq_fail(err, SQ_ERR_USAGE, "%s",
					       msg[0] ? msg : "bad compressor option value");
			if (used == 0)
				return sq_fail(err, SQ_ERR_USAGE,
					       "%s: unrecognised compressor option %s",
					       o->image.codec->name, arg);
			i += used - 1;
		} else {
			return sq_fail(err, SQ_ERR_USAGE, "invalid option %s (see mksquashfs -help)", arg);
		}
	}

	if (o->image.codec->finish_options != NULL) {
		char msg[256] = "";
		if (o->image.codec->finish_options(&o->image.codec_opts, o->image.block_size, msg,
						   sizeof(msg)) != 0)
			return sq_fail(err, SQ_ERR_USAGE, "%s",
				       msg[0] ? msg : "bad compressor options");
	}
	/* As squashfs-tools: -info lines and the bar would interleave, so -info turns the bar off
	 * unless -progress asks for it. */
	if (o->info && !progress_forced)
		o->progress = false;
	if (o->image.no_fragments && o->image.always_fragments)
		o->image.always_fragments = false;
	if (o->image.uncompressed_inodes)
		o->image.uncompressed_ids = true;

	if (sde != NULL) {
		uint64_t v;
		if (time_option)
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
	return 0;
}

void options_free(struct mksq_options *o)
{
	for (uint32_t i = 0; i < o->exclude_count; i++)
		free(o->excludes[i]);
	free(o->excludes);
	o->excludes = NULL;
	o->exclude_count = 0;
}
