/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_run.c — how mksquashfs runs (squashfs-tools 4.5-4.7 runtime, queue, reader, stream and
 * symlink options). Options that tune parts squashfs-tools has and this pipeline does not (its
 * queues and reader thread pools) are checked and accepted, and -help says what they do here. */
#include "config.h"
#include "mksquashfs/options.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util/sizes.h"
#include "mksquashfs/mem_limit.h"
#include "mksquashfs/opt_def.h"

/* A whole number in [min, max] for option name, or a one-line message. */
static int number(const char *name, const char *v, uint64_t min, uint64_t max, uint64_t *out,
		  struct sq_error *err)
{
	if (v == NULL || sq_parse_uint(v, max, out) != 0 || *out < min)
		return sq_fail(err, SQ_ERR_USAGE, "%s \"%s\" missing or invalid: it should be %llu .. %llu",
			       name, v ? v : "", (unsigned long long)min, (unsigned long long)max);
	return 0;
}

/* The numeric runtime options, by name: the range squashfs-tools accepts and where the value goes
 * (-limit N is stored as -throttle 100-N). -small-readers, -block-readers and 4.5.1's queue sizes
 * are only checked: this pipeline's single reader and ring have no use for them. */
static int opt_run_number(struct mksq_options *o, const char *name, const char *v,
			  struct sq_error *err)
{
	static const struct {
		const char *name;
		uint64_t min, max;
	} ranges[] = {
		{ "-throttle", 0, 99 },		{ "-limit", 1, 100 },
		{ "-overcommit", 0, 100 },	{ "-small-readers", 1, 1024 },
		{ "-block-readers", 1, 1024 },	{ "-read-queue", 1, 1u << 20 },
		{ "-write-queue", 1, 1u << 20 }, { "-fragment-queue", 1, 1u << 20 },
	};
	size_t i = 0;
	while (i + 1 < sizeof(ranges) / sizeof(ranges[0]) && strcmp(ranges[i].name, name) != 0)
		i++;
	uint64_t n;
	if (number(name, v, ranges[i].min, ranges[i].max, &n, err) != 0)
		return -1;
	if (strcmp(name, "-throttle") == 0)
		o->run.throttle = (unsigned)n;
	else if (strcmp(name, "-limit") == 0)
		o->run.throttle = (unsigned)(100 - n);
	else if (strcmp(name, "-overcommit") == 0)
		o->run.overcommit = (unsigned)n;
	return 0;
}

static int opt_info_file(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	if (v == NULL || v[0] == '\0')
		return sq_fail(err, SQ_ERR_USAGE, "%s missing filename", name);
	o->run.info_file = v;
	return 0;
}

static int opt_mem_percent(struct mksq_options *o, const char *name, const char *v,
			   struct sq_error *err)
{
	uint64_t n;
	if (number(name, v, 1, 75, &n, err) != 0)
		return -1;
	/* Of the memory the run may use: a container's limit, not the host's memory. */
	uint64_t usable = mem_usable();
	if (usable == 0)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "%s: cannot find the physical memory size", name);
	o->mem = usable / 100 * n;
	return 0;
}

static int opt_fix(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	(void)o;
	/* Only reached inside a build's command line: -fix alone is an action (options.c). */
	return sq_fail(err, SQ_ERR_USAGE, "%s %s: -fix takes only the image to fix (mksquashfs -fix IMAGE)",
		       name, v ? v : "");
}

static int opt_dereference(struct mksq_options *o, const char *name, const char *v,
			   struct sq_error *err)
{
	(void)name, (void)v, (void)err;
	o->run.deref = DEREF_DELETE;
	return 0;
}

static int opt_deref(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	if (v != NULL && strcmp(v, "keep") == 0)
		o->run.deref = DEREF_KEEP;
	else if (v != NULL && strcmp(v, "delete") == 0)
		o->run.deref = DEREF_DELETE;
	else
		return sq_fail(err, SQ_ERR_USAGE, "%s missing or invalid response \"%s\": use keep or delete",
			       name, v ? v : "");
	return 0;
}

static int opt_deref_path(struct mksq_options *o, const char *name, const char *v,
			  struct sq_error *err)
{
	if (v == NULL || v[0] == '\0')
		return sq_fail(err, SQ_ERR_USAGE, "%s missing pathname", name);
	char **grown = sq_realloc_array(o->run.deref_paths, (size_t)o->run.deref_path_count + 1,
					sizeof(*grown));
	if (grown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	grown[o->run.deref_path_count++] = (char *)v;
	o->run.deref_paths = grown;
	return 0;
}

/* Actions change what is stored file by file; silently building without them would make a
 * different image than asked, so they are refused by name. */
static int opt_action(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	(void)o, (void)v;
	return sq_fail(err, SQ_ERR_UNSUPPORTED,
		       "%s: actions are not supported by this mksquashfs (see mksquashfs(1))", name);
}

static int run_finish(struct mksq_options *o, struct sq_error *err)
{
	if (o->run.stream) {
		if (o->info)
			return sq_fail(err, SQ_ERR_USAGE, "-stream cannot be used with -info, use -info-file");
		if (o->run.percentage)
			return sq_fail(err, SQ_ERR_USAGE, "-stream cannot be used with -percentage");
		if (o->progress_forced)
			return sq_fail(err, SQ_ERR_USAGE, "-stream cannot be used with -progress");
		/* Standard output carries the image: nothing else goes there, and written blocks
		 * cannot be read back to confirm duplicates. */
		o->quiet = true;
		o->progress = false;
		o->image.duplicates = false;
	}
	if (o->run.percentage)
		o->progress = true;
	return 0;
}

void options_run_free(struct mksq_options *o)
{
	free(o->run.deref_paths);
	o->run.deref_paths = NULL;
	o->run.deref_path_count = 0;
}

static const struct opt_def run_defs[] = {
	OPT_FLAG_DEF("-exit-on-error", run.exit_on_error, true, SECTION_RUNTIME, "-exit-on-error\t\ttreat normally ignored errors as fatal (a source file or\n\t\t\tdirectory that cannot be read)"),
	OPT_VALUE_DEF("-info-file", opt_info_file, SECTION_RUNTIME, "-info-file <file>\tprint files written to filesystem to file <file>.  This\n\t\t\tdoes not disable the progress bar"),
	OPT_FLAG_DEF("-percentage", run.percentage, true, SECTION_RUNTIME, "-percentage\t\tdisplay a percentage rather than the full progress bar.\n\t\t\tCan be used with dialog --gauge etc."),
	OPT_VALUE_DEF("-throttle", opt_run_number, SECTION_RUNTIME, "-throttle <percentage>\tthrottle the I/O input rate by the given percentage.\n\t\t\tThis can be used to reduce the I/O and CPU consumption\n\t\t\tof Mksquashfs"),
	OPT_VALUE_DEF("-limit", opt_run_number, SECTION_RUNTIME, "-limit <percentage>\tlimit the I/O input rate to the given percentage.\n\t\t\tThis can be used to reduce the I/O and CPU consumption\n\t\t\tof Mksquashfs (alternative to -throttle)"),
	OPT_VALUE_DEF("-mem-percent", opt_mem_percent, SECTION_RUNTIME, "-mem-percent <percent>\tuse <percent> of physical memory (or of the control\n\t\t\tgroup's memory limit when smaller), shared out as\n\t\t\t-mem says"),
	{ .name = "-mem-default", .kind = OPT_IGNORED, .section = SECTION_RUNTIME, .help = "-mem-default\t\tprint default memory usage in Mbytes" },
	OPT_IGNORED_DEF("-single-reader", SECTION_RUNTIME, "-single-reader\t\tuse a single thread to read files (accepted: this\n\t\t\tmksquashfs always reads with one thread that works ahead\n\t\t\tof the compressors)"),
	OPT_VALUE_DEF("-small-readers", opt_run_number, SECTION_RUNTIME, "-small-readers <n>\tuse <n> threads to read small files (accepted and\n\t\t\tchecked, 1 .. 1024: files are read by one thread here)"),
	OPT_VALUE_DEF("-block-readers", opt_run_number, SECTION_RUNTIME, "-block-readers <n>\tuse <n> threads to read block files (accepted and\n\t\t\tchecked, 1 .. 1024: files are read by one thread here)"),
	OPT_VALUE_DEF("-overcommit", opt_run_number, SECTION_RUNTIME, "-overcommit <percent>\tallow <percent> more compressor threads than\n\t\t\tprocessors (0 .. 100, default 0)"),
	OPT_VALUE_DEF("-read-queue", opt_run_number, SECTION_RUNTIME, "-read-queue <size>\tsquashfs-tools 4.5 queue size in Mbytes (accepted;\n\t\t\tthis mksquashfs has one ring of blocks, sized by -mem)"),
	OPT_VALUE_DEF("-write-queue", opt_run_number, SECTION_RUNTIME, "-write-queue <size>\tas -read-queue"),
	OPT_VALUE_DEF("-fragment-queue", opt_run_number, SECTION_RUNTIME, "-fragment-queue <size>\tas -read-queue"),
	OPT_FLAG_DEF("-stream", run.stream, true, SECTION_EXPERT, "-stream\t\t\toutput the filesystem to STDOUT rather than to a file.\n\t\t\tThe super block is at the end of the streamed filesystem:\n\t\t\tfix it up afterwards with the -fix option.  Use - for the\n\t\t\toutput FILESYSTEM on the command line.  Duplicate detection\n\t\t\tis disabled using the -stream option"),
	OPT_VALUE_DEF("-fix", opt_fix, SECTION_EXPERT, "-fix <filesystem>\tfix <filesystem> generated using the -stream option"),
	OPT_CALL_FOR(OPT_MKSQUASHFS_ONLY, "-dereference", opt_dereference, SECTION_FILTER, "-dereference\t\tfollow symbolic links, and store the files they point\n\t\t\tto rather than the symbolic link.  If a symbolic link\n\t\t\tcannot be dereferenced then delete it (see -deref)"),
	OPT_VALUE_FOR(OPT_MKSQUASHFS_ONLY, "-deref", opt_deref, SECTION_FILTER, "-deref <response>\tfollow symbolic links like the -dereference option, but\n\t\t\twhere <response> determines what Mksquashfs does if it\n\t\t\tcannot dereference the symbolic link.  \"keep\" keeps the\n\t\t\tsymbolic link, and \"delete\" deletes the symbolic link"),
	OPT_VALUE_FOR(OPT_MKSQUASHFS_ONLY, "-deref-path", opt_deref_path, SECTION_FILTER, "-deref-path <name>\tfollow the symbolic link with pathname <name>, and\n\t\t\tstore the file(s) it points to, rather than the symbolic\n\t\t\tlink.  If it cannot be dereferenced then delete it.\n\t\t\tPathname <name> refers to the output filesystem being built"),
	OPT_VALUE_DEF("-action", opt_action, SECTION_ACTIONS, NULL),
	OPT_VALUE_DEF("-log-action", opt_action, SECTION_ACTIONS, NULL),
	OPT_VALUE_DEF("-true-action", opt_action, SECTION_ACTIONS, NULL),
	OPT_VALUE_DEF("-false-action", opt_action, SECTION_ACTIONS, NULL),
	OPT_VALUE_DEF("-action-file", opt_action, SECTION_ACTIONS, NULL),
	OPT_VALUE_DEF("-log-action-file", opt_action, SECTION_ACTIONS, NULL),
	OPT_VALUE_DEF("-true-action-file", opt_action, SECTION_ACTIONS, NULL),
	OPT_VALUE_DEF("-false-action-file", opt_action, SECTION_ACTIONS, NULL),
	OPT_END_DEF,
};

OPT_GROUP_DEF(run_options, "runtime", run_defs, run_finish);
