/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.c — parsing unsquashfs's (and sqfscat's) command line into struct unsq_options:
 * a table of flag options, a table of value options, and the few that take a list. */
#include "config.h"
#include "unsquashfs/options.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util/io.h"
#include "unsquashfs/values.h"

const char *unsq_prog(const struct unsq_options *o)
{
	return o->sqfscat ? "sqfscat" : "unsquashfs";
}

static int add_string(struct unsq_strings *l, char *p, struct sq_error *err)
{
	char **n = realloc(l->items, (l->count + 1) * sizeof(*n));
	if (n == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	l->items = n;
	l->items[l->count++] = p;
	return 0;
}

/* A list file holds one name per line. Each line is its own allocation, chained through
 * o->storage so they can be freed together. */
struct line_target {
	struct unsq_options *o;
	struct unsq_strings *list;
};

static int list_line(void *ctx, const char *line, size_t len, struct sq_error *err)
{
	struct line_target *t = ctx;
	char *copy = malloc(len + 1 + sizeof(char *));
	if (copy == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	/* Chain allocations: the first bytes hold the previous head. */
	memcpy(copy, &t->o->storage, sizeof(char *));
	t->o->storage = copy;
	memcpy(copy + sizeof(char *), line, len + 1);
	return add_string(t->list, copy + sizeof(char *), err);
}

static void free_regex(regex_t **re)
{
	if (*re != NULL)
		regfree(*re);
	free(*re);
	*re = NULL;
}

void unsq_options_free(struct unsq_options *o)
{
	char *p = o->storage;
	while (p != NULL) {
		char *next;
		memcpy(&next, p, sizeof(char *));
		free(p);
		p = next;
	}
	o->storage = NULL;
	free(o->paths.items);
	free(o->exclude.items);
	o->paths.items = o->exclude.items = NULL;
	o->paths.count = o->exclude.count = 0;
	unsq_mode_free(o->force_file_mode);
	unsq_mode_free(o->force_dir_mode);
	o->force_file_mode = o->force_dir_mode = NULL;
	free_regex(&o->xattr_include);
	free_regex(&o->xattr_exclude);
}

/* Flags: names -> mode (UNSQ_MODE_KEEP: unchanged) and up to two int fields set. */
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
	FLAG("-percentage", NULL, percentage, 1),
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
	FLAG("-full", "-full-precision", full_precision, 1),
	FLAG("-f", "-force", force, 1),
	FLAG("-ig", "-ignore-errors", ignore_errors, 1),
	FLAG("-st", "-strict-errors", strict_errors, 1),
	FLAG("-no-exit", "-no-exit-code", no_exit_code, 1),
	MODE("-s", "-stat", UNSQ_STAT),
	FLAG("-UTC", NULL, utc, 1),
	MODE("-mkfs-time", "-fstime", UNSQ_MKFS_TIME),
	FLAG("-no-wild", "-no-wildcards", no_wildcards, 1),
	FLAG("-r", "-regex", regex, 1),
	FLAG("-excludes", NULL, excludes, 1),
	FLAG("-follow", "-follow-symlinks", follow, 1),
	FLAG("-L", NULL, follow, 1),
	FLAG("-missing", "-missing-symlinks", follow, 2),
	FLAG("-match", NULL, match, 1),
	FLAG("-no-pager", NULL, no_pager, 1),
	MODE("-h", "-help", UNSQ_HELP),
	MODE("--help", "-help-all", UNSQ_HELP),
	MODE("-ha", NULL, UNSQ_HELP),
	MODE("-v", "-version", UNSQ_VERSION),
	MODE("--version", NULL, UNSQ_VERSION),
	MODE("-mem-default", NULL, UNSQ_MEM_DEFAULT),
};

/* Options with a value: names -> parser of the value. */
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

static int set_pseudo(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)opt, (void)err;
	o->pseudo_file = val;
	o->mode = UNSQ_PSEUDO;
	return 0;
}

static int set_long(long *field, long min, const char *what, const char *opt, const char *val,
		    struct sq_error *err)
{
	if (unsq_parse_long(val, min, field))
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad %s \"%s\"", opt, what, val);
	return 0;
}

static int set_max_depth(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	return set_long(&o->max_depth, 0, "number of levels", opt, val, err);
}

static int set_processors(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	return set_long(&o->processors, 1, "number of processors", opt, val, err);
}

static int set_max_files(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	return set_long(&o->max_files, 1, "number of files", opt, val, err);
}

static int set_cols(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	long cols;
	if (set_long(&cols, 20, "width", opt, val, err))
		return -1;
	o->help_cols = cols > 10000 ? 10000 : (int)cols;
	return 0;
}

/* Queue sizes tune the reference's caches; ours are fixed and small. */
static int set_queue(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)o;
	long ignored;
	return set_long(&ignored, 1, "size", opt, val, err);
}

static int set_offset(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	if (unsq_parse_offset(val, &o->offset))
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad offset \"%s\"", opt, val);
	return 0;
}

static int set_extract_file(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)opt;
	struct line_target t = {o, &o->paths};
	return sq_for_each_line(val, "extract file", list_line, &t, err);
}

static int set_exclude_file(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)opt;
	struct line_target t = {o, &o->exclude};
	return sq_for_each_line(val, "exclude file", list_line, &t, err);
}

/* A build configured --without-xattr writes no xattrs: an option that asks for them (-xattrs,
 * -user-xattrs, -xattrs-include, -xattrs-exclude) is refused, as squashfs-tools built without
 * xattrs refuses -xattrs, rather than accepted and then dropped. */
static int need_xattr_support(const char *opt, struct sq_error *err)
{
#ifdef HAVE_XATTR
	(void)opt, (void)err;
	return 0;
#else
	return sq_fail(err, SQ_ERR_USAGE, "%s: xattrs are unsupported in this build (configured --without-xattr)",
		       opt);
#endif
}

/* -xattrs-include and -xattrs-exclude. */
static int set_xattr_regex(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	if (need_xattr_support(opt, err))
		return -1;
	regex_t **slot = strcmp(opt, "-xattrs-include") == 0 ? &o->xattr_include : &o->xattr_exclude;
	if (*slot != NULL)
		regfree(*slot);
	else if ((*slot = malloc(sizeof(regex_t))) == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	int r = regcomp(*slot, val, REG_EXTENDED | REG_NOSUB);
	if (r != 0) {
		char why[200];
		regerror(r, *slot, why, sizeof(why));
		free(*slot);
		*slot = NULL;
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad regular expression \"%s\": %s", opt, val, why);
	}
	return 0;
}

static int set_mem(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	return unsq_parse_mem(opt, val, &o->mem, err);
}

static int set_mem_percent(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	return unsq_parse_mem_percent(opt, val, &o->mem, err);
}

static int set_all_time(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	o->all_time_set = 1;
	return unsq_parse_time(opt, val, &o->all_time, err);
}

static int set_force_uid(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	o->force_uid_set = 1;
	if (unsq_parse_owner(val, 0, &o->force_uid))
		return sq_fail(err, SQ_ERR_USAGE, "%s: \"%s\" is neither a uid nor a known user", opt, val);
	return 0;
}

static int set_force_gid(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	o->force_gid_set = 1;
	if (unsq_parse_owner(val, 1, &o->force_gid))
		return sq_fail(err, SQ_ERR_USAGE, "%s: \"%s\" is neither a gid nor a known group", opt, val);
	return 0;
}

/* -force-file-mode and -force-dir-mode. */
static int set_mode_spec(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	struct unsq_mode_spec **slot =
		strcmp(opt, "-force-file-mode") == 0 ? &o->force_file_mode : &o->force_dir_mode;
	struct sq_error why;
	sq_error_clear(&why);
	unsq_mode_free(*slot);
	*slot = unsq_mode_parse(val, &why);
	if (*slot == NULL)
		return sq_fail(err, why.code, "%s: %s", opt, why.msg);
	return 0;
}

/* -help-option (-ho) and -help-section (-hs). */
static int set_help_arg(struct unsq_options *o, const char *opt, const char *val, struct sq_error *err)
{
	(void)err;
	int option = strcmp(opt, "-help-option") == 0 || strcmp(opt, "-ho") == 0;
	o->mode = option ? UNSQ_HELP_OPTION : UNSQ_HELP_SECTION;
	o->help_arg = val;
	return 0;
}

static const struct value_option value_options[] = {
	{"-d", "-dest", NULL, set_dest},
	{"-max", "-max-depth", NULL, set_max_depth},
	{"-p", "-processors", NULL, set_processors},
	{"-o", "-offset", NULL, set_offset},
	{"-e", "-ef", "-extract-file", set_extract_file},
	{"-exc", "-excf", "-exclude-file", set_exclude_file},
	{"-pf", "-pseudo-file", NULL, set_pseudo},
	{"-da", "-data-queue", NULL, set_queue},
	{"-fr", "-frag-queue", NULL, set_queue},
	{"-xattrs-include", NULL, NULL, set_xattr_regex},
	{"-xattrs-exclude", NULL, NULL, set_xattr_regex},
	{"-mem", NULL, NULL, set_mem},
	{"-mem-percent", NULL, NULL, set_mem_percent},
	{"-all", "-all-time", NULL, set_all_time},
	{"-max-files", NULL, NULL, set_max_files},
	{"-force-uid", NULL, NULL, set_force_uid},
	{"-force-gid", NULL, NULL, set_force_gid},
	{"-force-file-mode", NULL, NULL, set_mode_spec},
	{"-force-dir-mode", NULL, NULL, set_mode_spec},
	{"-cols", NULL, NULL, set_cols},
	{"-help-option", "-ho", NULL, set_help_arg},
	{"-help-section", "-hs", NULL, set_help_arg},
};

/* What sqfscat accepts (upstream's sqfscat options). */
static const char *const sqfscat_names[] = {
	"-v", "-version", "--version", "-p", "-processors", "-mem", "-mem-percent", "-mem-default", "-o",
	"-offset", "-ig", "-ignore-errors", "-st", "-strict-errors", "-no-exit", "-no-exit-code", "-da",
	"-data-queue", "-fr", "-frag-queue", "-no-wild", "-no-wildcards", "-r", "-regex", "-h", "-help",
	"--help", "-help-all", "-ha", "-help-option", "-ho", "-help-section", "-hs", "-no-pager", "-cols",
	NULL,
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

static int sqfscat_knows(const char *arg)
{
	for (size_t i = 0; sqfscat_names[i] != NULL; i++)
		if (strcmp(arg, sqfscat_names[i]) == 0)
			return 1;
	return 0;
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

/* -ex[clude-list] a b c ; — the names up to a ";" word are excludes. */
static int parse_exclude_list(struct unsq_options *o, int argc, char **argv, int *i, struct sq_error *err)
{
	const char *opt = argv[*i];
	for (int j = *i + 1; j < argc; j++) {
		if (strcmp(argv[j], ";") == 0) {
			*i = j;
			return 0;
		}
		if (add_string(&o->exclude, argv[j], err))
			return -1;
	}
	return sq_fail(err, SQ_ERR_USAGE, "%s: the list of excludes has no terminating \";\"", opt);
}

/* Modes that end parsing: what follows (even a missing image) does not matter. */
static int is_final(enum unsq_mode m)
{
	return m == UNSQ_HELP || m == UNSQ_HELP_OPTION || m == UNSQ_HELP_SECTION || m == UNSQ_VERSION ||
	       m == UNSQ_MEM_DEFAULT;
}

/* One option at argv[*i]; *i moves past its values. 1 when parsing stops here (help,
 * version), 0 to go on, -1 on a usage error. */
static int parse_one(struct unsq_options *o, int argc, char **argv, int *i, struct sq_error *err)
{
	const char *a = argv[*i];
	const char *prog = unsq_prog(o);
	if (o->sqfscat && !sqfscat_knows(a))
		return sq_fail(err, SQ_ERR_USAGE, "unknown option %s (see %s -help)", a, prog);
	if (same(a, "-ex") || same(a, "-exclude-list"))
		return parse_exclude_list(o, argc, argv, i, err);
	const struct flag_option *f = find_flag(a);
	if (f != NULL) {
		if (f->field1 == FIELD(xattrs) && f->value1 == 1 && need_xattr_support(a, err))
			return -1;
		set_flag(o, f);
		return is_final(o->mode);
	}
	const struct value_option *v = find_value(a);
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "unknown option %s (see %s -help)", a, prog);
	if (*i + 1 >= argc)
		return sq_fail(err, SQ_ERR_USAGE, "%s: missing value", a);
	*i += 1;
	if (v->set(o, a, argv[*i], err))
		return -1;
	return is_final(o->mode);
}

static int check_combination(struct unsq_options *o, struct sq_error *err)
{
	const char *prog = unsq_prog(o);
	if (o->mode == UNSQ_CAT && o->paths.count == 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s needs at least one file name",
			       o->sqfscat ? "sqfscat" : "-cat");
	if ((o->force_uid_set || o->force_gid_set) && geteuid() != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s: -force-uid and -force-gid need the superuser",
			       prog);
	if (o->regex && o->no_wildcards)
		return sq_fail(err, SQ_ERR_USAGE, "-regex and -no-wildcards exclude each other");
	return 0;
}

int unsq_options_parse(struct unsq_options *o, int argc, char **argv, struct sq_error *err)
{
	memset(o, 0, sizeof(*o));
	o->xattrs = 1;
	o->max_depth = -1;
	o->dest = "squashfs-root";
	const char *base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	base = base ? base + 1 : argc > 0 ? argv[0] : "";
	if (strcmp(base, "sqfscat") == 0) {
		o->sqfscat = 1;
		o->mode = UNSQ_CAT;
	}
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		int r = parse_one(o, argc, argv, &i, err);
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	if (i >= argc)
		return sq_fail(err, SQ_ERR_USAGE, "no image given (see %s -help)", unsq_prog(o));
	o->image = argv[i++];
	struct unsq_strings *tail = o->excludes ? &o->exclude : &o->paths;
	for (; i < argc; i++)
		if (add_string(tail, argv[i], err))
			return -1;
	return check_combination(o, err);
}
