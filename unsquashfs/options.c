/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.c — parsing unsquashfs's command line into struct unsq_options. */
#include "config.h"
#include "unsquashfs/options.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/codec.h"
#include "common/util/io.h"

static int is(const char *arg, const char *shortname, const char *longname)
{
	return strcmp(arg, shortname) == 0 || (longname != NULL && strcmp(arg, longname) == 0);
}

static int parse_long(const char *s, long min, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < min)
		return -1;
	*out = v;
	return 0;
}

static int parse_offset(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (*s == '-' || *s == '\0')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	unsigned shift = 0;
	if (*end == 'K' || *end == 'k')
		shift = 10;
	else if (*end == 'M' || *end == 'm')
		shift = 20;
	else if (*end == 'G' || *end == 'g')
		shift = 30;
	else if (*end != '\0')
		return -1;
	if (shift && end[1] != '\0')
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int add_path(struct unsq_options *o, char *p, struct sq_error *err)
{
	char **n = realloc(o->paths, (o->npaths + 1) * sizeof(*n));
	if (n == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	o->paths = n;
	o->paths[o->npaths++] = p;
	return 0;
}

/* An extract file holds one name per line. Each line is its own allocation, chained through
 * paths_storage so they can be freed together. */
static int extract_line(void *ctx, const char *line, size_t len, struct sq_error *err)
{
	struct unsq_options *o = ctx;
	char *copy = malloc(len + 1 + sizeof(char *));
	if (copy == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	/* Chain allocations: the first bytes hold the previous head. */
	memcpy(copy, &o->paths_storage, sizeof(char *));
	o->paths_storage = copy;
	memcpy(copy + sizeof(char *), line, len + 1);
	return add_path(o, copy + sizeof(char *), err);
}

static int read_extract_file(struct unsq_options *o, const char *file, struct sq_error *err)
{
	return sq_for_each_line(file, "extract file", extract_line, o, err);
}

void unsq_options_free(struct unsq_options *o)
{
	char *p = o->paths_storage;
	while (p != NULL) {
		char *next;
		memcpy(&next, p, sizeof(char *));
		free(p);
		p = next;
	}
	o->paths_storage = NULL;
	free(o->paths);
	o->paths = NULL;
	o->npaths = 0;
}

/* Flags: name and long name -> mode (UNSQ_MODE_KEEP: unchanged) and up to two int fields set. */
#define UNSQ_MODE_KEEP (-1)
#define NO_FIELD ((size_t)-1)

struct flag_option {
	const char *name, *alias;
	int mode;
	size_t field1;
	int value1;
	size_t field2;
	int value2;
};

#define FIELD(f) offsetof(struct unsq_options, f)
#define FLAG(n, a, f, v) { n, a, UNSQ_MODE_KEEP, FIELD(f), v, NO_FIELD, 0 }
#define FLAG2(n, a, f, v, f2, v2) { n, a, UNSQ_MODE_KEEP, FIELD(f), v, FIELD(f2), v2 }
#define MODE(n, a, m) { n, a, m, NO_FIELD, 0, NO_FIELD, 0 }
#define MODE1(n, a, m, f, v) { n, a, m, FIELD(f), v, NO_FIELD, 0 }
#define MODE2(n, a, m, f, v, f2, v2) { n, a, m, FIELD(f), v, FIELD(f2), v2 }

static const struct flag_option flag_options[] = {
	MODE("-cat", NULL, UNSQ_CAT),
	FLAG("-q", "-quiet", quiet, 1),
	FLAG("-n", "-no-progress", no_progress, 1),
	FLAG("-no", "-no-xattrs", xattrs, 0),
	FLAG("-x", "-xattrs", xattrs, 1),
	FLAG2("-u", "-user-xattrs", xattrs, 1, user_xattrs, 1),
	FLAG("-i", "-info", info, 1),
	FLAG("-li", "-linfo", info, 2),
	MODE("-l", "-ls", UNSQ_LIST),
	MODE1("-ll", "-lls", UNSQ_LIST, list_long, 1),
	MODE2("-lln", "-llnumeric", UNSQ_LIST, list_long, 1, list_numeric, 1),
	MODE1("-lc", NULL, UNSQ_LIST, list_concise, 1),
	MODE2("-llc", NULL, UNSQ_LIST, list_long, 1, list_concise, 1),
	FLAG("-f", "-force", force, 1),
	FLAG("-ig", "-ignore-errors", ignore_errors, 1),
	FLAG("-st", "-strict-errors", strict_errors, 1),
	FLAG("-no-exit", "-no-exit-code", no_exit_code, 1),
	MODE("-s", "-stat", UNSQ_STAT),
	FLAG("-UTC", NULL, utc, 1),
	MODE("-mkfs-time", "-fstime", UNSQ_MKFS_TIME),
	FLAG("-no-wild", "-no-wildcards", no_wildcards, 1),
};

/* Options with a value: name and long names -> parser of the value. */
struct value_option {
	const char *name, *alias, *alias2;
	int (*set)(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err);
};

static int set_dest(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)opt, (void)err;
	o->dest = val;
	return 0;
}

static int set_max_depth(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	if (parse_long(val, 0, &o->max_depth))
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad number of levels \"%s\"", opt, val);
	return 0;
}

static int set_processors(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	if (parse_long(val, 1, &o->processors))
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad number of processors \"%s\"", opt, val);
	return 0;
}

static int set_offset(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	if (parse_offset(val, &o->offset))
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad offset \"%s\"", opt, val);
	return 0;
}

static int set_extract_file(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)opt;
	return read_extract_file(o, val, err);
}

/* Queue sizes tune the reference's caches; ours are fixed and small. */
static int set_queue(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)o;
	long ignored;
	if (parse_long(val, 1, &ignored))
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad size \"%s\"", opt, val);
	return 0;
}

static const struct value_option value_options[] = {
	{"-d", "-dest", NULL, set_dest},
	{"-max", "-max-depth", NULL, set_max_depth},
	{"-p", "-processors", NULL, set_processors},
	{"-o", "-offset", NULL, set_offset},
	{"-e", "-ef", "-extract-file", set_extract_file},
	{"-da", "-data-queue", NULL, set_queue},
	{"-fr", "-frag-queue", NULL, set_queue},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int same(const char *arg, const char *name)
{
	return name != NULL && strcmp(arg, name) == 0;
}

static const struct flag_option *find_flag(const char *arg)
{
	for (size_t i = 0; i < COUNT(flag_options); i++)
		if (same(arg, flag_options[i].name) || same(arg, flag_options[i].alias))
			return &flag_options[i];
	return NULL;
}

static const struct value_option *find_value(const char *arg)
{
	for (size_t i = 0; i < COUNT(value_options); i++) {
		const struct value_option *v = &value_options[i];
		if (same(arg, v->name) || same(arg, v->alias) || same(arg, v->alias2))
			return v;
	}
	return NULL;
}

static void set_flag(struct unsq_options *o, const struct flag_option *f)
{
	if (f->mode != UNSQ_MODE_KEEP)
		o->mode = (enum unsq_mode)f->mode;
	if (f->field1 != NO_FIELD)
		*(int *)((char *)o + f->field1) = f->value1;
	if (f->field2 != NO_FIELD)
		*(int *)((char *)o + f->field2) = f->value2;
}

/* One option at argv[*i]; *i moves past its value. 1 when parsing stops here (-help,
 * -version), 0 to go on, -1 on a usage error. */
static int parse_one(struct unsq_options *o, int argc, char **argv, int *i, struct sq_error *err)
{
	const char *a = argv[*i];
	if (is(a, "-v", "-version")) {
		o->mode = UNSQ_VERSION;
		return 1;
	}
	if (is(a, "-h", "-help")) {
		o->mode = UNSQ_HELP;
		return 1;
	}
	const struct flag_option *f = find_flag(a);
	if (f != NULL) {
		set_flag(o, f);
		return 0;
	}
	const struct value_option *v = find_value(a);
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "unknown option %s (see unsquashfs -help)", a);
	if (*i + 1 >= argc)
		return sq_fail(err, SQ_ERR_USAGE, "%s: missing value", a);
	*i += 1;
	return v->set(o, a, argv[*i], err);
}

int unsq_options_parse(struct unsq_options *o, int argc, char **argv, struct sq_error *err)
{
	memset(o, 0, sizeof(*o));
	o->xattrs = 1;
	o->max_depth = -1;
	o->dest = "squashfs-root";
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		int r = parse_one(o, argc, argv, &i, err);
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	if (i >= argc)
		return sq_fail(err, SQ_ERR_USAGE, "no image given (see unsquashfs -help)");
	o->image = argv[i++];
	for (; i < argc; i++)
		if (add_path(o, argv[i], err))
			return -1;
	if (o->mode == UNSQ_CAT && o->npaths == 0)
		return sq_fail(err, SQ_ERR_USAGE, "-cat needs at least one file name");
	return 0;
}

void unsq_print_help(void)
{
	printf("SYNTAX: unsquashfs [OPTIONS] FILESYSTEM [files to extract or cat (with -cat)]\n"
	       "\t-v[ersion]\t\tprint version information\n"
	       "\t-cat\t\t\tcat the files on the command line to stdout\n"
	       "\t-d[est] <pathname>\textract to <pathname>, default \"squashfs-root\"\n"
	       "\t-max[-depth] <levels>\tdescend at most <levels> of directories when\n"
	       "\t\t\t\textracting or listing\n"
	       "\t-q[uiet]\t\tno verbose output\n"
	       "\t-n[o-progress]\t\tdon't display the progress bar\n"
	       "\t-no[-xattrs]\t\tdon't extract xattrs in file system\n"
	       "\t-x[attrs]\t\textract xattrs in file system (default)\n"
	       "\t-u[ser-xattrs]\t\tonly extract user xattrs in file system.\n"
	       "\t\t\t\tEnables extracting xattrs\n"
	       "\t-p[rocessors] <number>\tuse <number> processors.  By default will use\n"
	       "\t\t\t\tthe number of processors available\n"
	       "\t-i[nfo]\t\t\tprint files as they are extracted\n"
	       "\t-li[nfo]\t\tprint files as they are extracted with file\n"
	       "\t\t\t\tattributes (like ls -l output)\n"
	       "\t-l[s]\t\t\tlist filesystem, but don't extract files\n"
	       "\t-ll[s]\t\t\tlist filesystem with file attributes (like\n"
	       "\t\t\t\tls -l output), but don't extract files\n"
	       "\t-lln[umeric]\t\tsame as -lls but with numeric uids and gids\n"
	       "\t-lc\t\t\tlist filesystem concisely, displaying only files\n"
	       "\t\t\t\tand empty directories.  Don't extract files\n"
	       "\t-llc\t\t\tlist filesystem concisely with file attributes,\n"
	       "\t\t\t\tdisplaying only files and empty directories.\n"
	       "\t\t\t\tDon't extract files\n"
	       "\t-o[ffset] <bytes>\tskip <bytes> at start of FILESYSTEM.  Optionally\n"
	       "\t\t\t\ta suffix of K, M or G can be given to specify\n"
	       "\t\t\t\tKbytes, Mbytes or Gbytes respectively (default\n"
	       "\t\t\t\t0 bytes).\n"
	       "\t-f[orce]\t\tif file already exists then overwrite\n"
	       "\t-ig[nore-errors]\ttreat errors writing files to output as\n"
	       "\t\t\t\tnon-fatal\n"
	       "\t-st[rict-errors]\ttreat all errors as fatal\n"
	       "\t-no-exit[-code]\t\tdon't set exit code (to nonzero) on non-fatal\n"
	       "\t\t\t\terrors\n"
	       "\t-s[tat]\t\t\tdisplay filesystem superblock information\n"
	       "\t-UTC\t\t\tuse UTC rather than local time zone when\n"
	       "\t\t\t\tdisplaying time\n"
	       "\t-mkfs-time\t\tdisplay filesystem superblock time\n"
	       "\t-fstime\t\t\tsynonym for -mkfs-time\n"
	       "\t-e[f] <extract file>\tlist of directories or files to extract.\n"
	       "\t\t\t\tOne per line\n"
	       "\t-extract-file <file>\tsynonym for -ef\n"
	       "\t-da[ta-queue] <size>\taccepted for compatibility, ignored\n"
	       "\t-fr[ag-queue] <size>\taccepted for compatibility, ignored\n"
	       "\t-no-wild[cards]\t\tdo not use wildcard matching in extract names\n"
	       "\t-h[elp]\t\t\toutput this options text to stdout\n"
	       "\nDecompressors available:\n");
	for (const struct codec *const *c = codec_all(); *c != NULL; c++)
		if ((*c)->supported)
			printf("\t%s\n", (*c)->name);
	printf("\nExit status:\n"
	       "  0\tThe filesystem listed or extracted OK.\n"
	       "  1\tFATAL errors occurred, e.g. filesystem corruption, I/O errors.\n"
	       "\tUnsquashfs did not continue and aborted.\n"
	       "  2\tNon-fatal errors occurred, e.g. no support for XATTRs, Symbolic links\n"
	       "\tin output filesystem or couldn't write permissions to output filesystem.\n"
	       "\tUnsquashfs continued and did not abort.\n");
}
