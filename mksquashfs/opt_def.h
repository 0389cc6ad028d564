/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* opt_def.h — how mksquashfs's options are declared: each concern (core, pseudo files, tar input,
 * append, ...) owns a table of option definitions with their help lines, and options.c walks the
 * tables. Adding an option touches only its concern's table. */
#ifndef SQ_MKSQUASHFS_OPT_DEF_H
#define SQ_MKSQUASHFS_OPT_DEF_H

#include <stdbool.h>
#include <stddef.h>

#include "common/util/error.h"

struct mksq_options;

/* The sections of -help, in the order squashfs-tools 4.7 prints them (-help-section takes the
 * short names help.c gives them: compression, build, time, perms, ...). */
enum opt_section {
	SECTION_COMPRESSION,
	SECTION_BUILD,
	SECTION_TIME,
	SECTION_PERMISSIONS,
	SECTION_PSEUDO,
	SECTION_FILTER,
	SECTION_XATTR,
	SECTION_RUNTIME,
	SECTION_APPEND,
	SECTION_ACTIONS,
	SECTION_TAR,
	SECTION_EXPERT,
	SECTION_HELP,
	SECTION_MISC,
	SECTION_COUNT
};

enum opt_kind {
	OPT_FLAG,          /* sets the bool at `offset` to `value` */
	OPT_VALUE,         /* takes the next word; `parse` stores it */
	OPT_CALL,          /* takes no word; `parse` is called with value NULL */
	OPT_IGNORED,       /* accepted for compatibility, changes nothing (help says why) */
};

/* Which program takes an option: mksquashfs and sqfstar share one binary and these tables. */
enum opt_tool {
	OPT_BOTH = 0,           /* the default: mksquashfs and sqfstar */
	OPT_MKSQUASHFS_ONLY,    /* directory sources, -e, appending, -tar itself ... */
	OPT_SQFSTAR_ONLY,       /* -force */
};

struct opt_def {
	const char *name;       /* "-root-mode" */
	enum opt_kind kind;
	enum opt_tool tool;     /* OPT_BOTH unless set */
	size_t offset;          /* OPT_FLAG: offset of a bool in struct mksq_options */
	bool value;             /* OPT_FLAG: the value it sets */
	/* OPT_VALUE / OPT_CALL: store the option; value is NULL when the word is missing (the parse
	 * function then says what was expected). 0, or -1 with a one-line message in err. */
	int (*parse)(struct mksq_options *o, const char *name, const char *value,
		     struct sq_error *err);
	enum opt_section section;
	/* -help lines: "-name <arg>\tdescription", continuation lines start with '\t'; lines are
	 * separated by '\n'. NULL: not listed (an alias documented by another entry). */
	const char *help;
};

/* Table entries; the _FOR forms name the one program that takes the option (enum opt_tool). */
#define OPT_FLAG_FOR(t, n, field, v, sec, h) \
	{ .name = (n), .kind = OPT_FLAG, .tool = (t), \
	  .offset = offsetof(struct mksq_options, field), .value = (v), .section = (sec), .help = (h) }
#define OPT_VALUE_FOR(t, n, fn, sec, h) \
	{ .name = (n), .kind = OPT_VALUE, .tool = (t), .parse = (fn), .section = (sec), .help = (h) }
#define OPT_CALL_FOR(t, n, fn, sec, h) \
	{ .name = (n), .kind = OPT_CALL, .tool = (t), .parse = (fn), .section = (sec), .help = (h) }
#define OPT_IGNORED_FOR(t, n, sec, h) \
	{ .name = (n), .kind = OPT_IGNORED, .tool = (t), .section = (sec), .help = (h) }
#define OPT_FLAG_DEF(n, field, v, sec, h) OPT_FLAG_FOR(OPT_BOTH, n, field, v, sec, h)
#define OPT_VALUE_DEF(n, fn, sec, h) OPT_VALUE_FOR(OPT_BOTH, n, fn, sec, h)
#define OPT_CALL_DEF(n, fn, sec, h) OPT_CALL_FOR(OPT_BOTH, n, fn, sec, h)
#define OPT_IGNORED_DEF(n, sec, h) OPT_IGNORED_FOR(OPT_BOTH, n, sec, h)

/* A concern's options: a table ended by an entry with name NULL, and a check run after the whole
 * command line is read (cross-option rules, defaults that depend on other options; may be NULL). */
struct opt_group {
	const char *concern;
	const struct opt_def *defs;
	int (*finish)(struct mksq_options *o, struct sq_error *err);
};

/* The entry that ends a table, and a group defined in one line. */
#define OPT_END_DEF { .name = NULL }
#define OPT_GROUP_DEF(var, concern_, defs_, finish_) \
	const struct opt_group var = { .concern = (concern_), .defs = (defs_), .finish = (finish_) }

/* Every concern's group, in the order their options are looked up and help is printed. */
extern const struct opt_group core_options;
extern const struct opt_group append_options;
extern const struct opt_group pseudo_options;   /* mksquashfs/pseudo/options.c */
extern const struct opt_group tree_options;     /* mksquashfs/options_tree.c */
extern const struct opt_group time_options;
extern const struct opt_group xattr_options;
extern const struct opt_group run_options;
extern const struct opt_group help_options;
extern const struct opt_group tar_options;

/* The -help section titles. */
const char *opt_section_title(enum opt_section s);

/* All groups, ended by NULL. */
const struct opt_group *const *opt_groups(void);

/* Find an option by its exact name in every group; NULL when unknown. */
const struct opt_def *opt_find(const char *name);
/* The same, among the options the tool takes (sqfstar or mksquashfs). */
const struct opt_def *opt_find_for(const char *name, bool sqfstar);
/* Does the tool take (and -help list) this option? */
bool opt_for_tool(const struct opt_def *d, bool sqfstar);

#endif
