/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options.h — the mksquashfs command line turned into settings (squashfs-tools 4.5.1 names). */
#ifndef SQ_MKSQUASHFS_OPTIONS_H
#define SQ_MKSQUASHFS_OPTIONS_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/image.h"
#include "mksquashfs/mode.h"

struct pseudo_set;
struct sort_table;

/* Root, owner and permission options: passes over the finished tree (attrs.c). */
struct attr_options {
	bool root_mode_set, root_uid_set, root_gid_set, root_time_set;
	struct mode_spec root_mode;
	uint32_t root_uid, root_gid, root_time;
	bool file_mode_set, dir_mode_set;  /* -force-file-mode, -force-dir-mode */
	struct mode_spec file_mode, dir_mode;
	uint32_t uid_gid_offset;           /* added to every uid and gid last */
	bool pseudo_override;              /* pseudo owners/modes win over -all-root, -force-* */
};

/* How the sources are walked (scan.c). */
struct walk_options {
	bool no_hardlinks;                 /* every name its own inode */
	bool one_file_system;              /* mount points become empty directories */
	bool one_file_system_x;            /* ... or are left out */
	bool max_depth_set;
	uint32_t max_depth;                /* directory levels whose contents are read */
};

/* The squashfs-tools release whose mksquashfs command line this one takes (-version's first
 * line: scripts parse it to decide which options exist). */
#define SQ_COMPAT_VERSION "4.7.5"

enum options_action {
	OPTIONS_RUN,      /* build an image */
	OPTIONS_HELP,     /* -help and the 4.7 help options: o->help says which text */
	OPTIONS_XHELP,    /* -Xhelp: the chosen codec's options */
	OPTIONS_VERSION,  /* -version */
	OPTIONS_MEM_DEFAULT, /* -mem-default: print the default queue memory in Mbytes */
	OPTIONS_FIX,      /* -fix IMAGE: move a -stream image's superblock to the front */
};

/* Which help text (-help, -help-all, -help-option REGEX, -help-section NAME, -help-comp COMP). */
enum help_kind {
	HELP_SUMMARY,
	HELP_ALL,
	HELP_OPTION,
	HELP_SECTION,
	HELP_COMP,
};

struct help_request {
	enum help_kind kind;
	const char *arg;       /* the regex, section or compressor word */
	unsigned cols;         /* -cols; 0: the terminal's width, or 80 */
	bool no_pager;         /* -no-pager (a pager is only used on a terminal anyway) */
};

/* -xattrs-add NAME=VALUE, decoded. */
struct xattr_add {
	uint16_t type;         /* SQFS_XATTR_USER, _TRUSTED or _SECURITY */
	char *key;             /* without the namespace prefix */
	char *full_name;       /* as given, for messages */
	uint8_t *value;
	uint32_t value_len;
};

struct xattr_options {
	regex_t *exclude;      /* -xattrs-exclude (the last given), NULL when none */
	regex_t *include;      /* -xattrs-include (the last given) */
	struct xattr_add *add; /* -xattrs-add, in command line order */
	uint32_t add_count;
};

/* What -dereference, -deref and -deref-path ask of symbolic links found while scanning. */
enum deref_mode {
	DEREF_NONE,            /* store symlinks (the default) */
	DEREF_DELETE,          /* follow them; one that cannot be followed is left out */
	DEREF_KEEP,            /* follow them; one that cannot be followed is stored as a link */
};

/* Running and tuning (options_run.c). */
struct run_options {
	bool exit_on_error;    /* unreadable sources are fatal */
	bool percentage;       /* -percentage: progress as bare percentages, one per line */
	const char *info_file; /* -info-file: the -info listing goes there */
	unsigned throttle;     /* -throttle/-limit: percent of the time the reader idles, 0..99 */
	unsigned overcommit;   /* -overcommit: percent more compressor threads than processors */
	bool stream;           /* -stream: the image goes to standard output */
	const char *fix_path;  /* -fix */
	enum deref_mode deref;
	char **deref_paths;    /* -deref-path: image paths of links to follow (not owned) */
	uint32_t deref_path_count;
};

/* Tar and cpio input (mksquashfs/tar/options.c). */
struct tar_settings {
	bool sqfstar;                  /* entered as sqfstar: [OPTIONS] IMAGE [EXCLUDES], tar on stdin */
	bool enabled;                  /* sqfstar or -tar: the source is a tar archive on stdin */
	bool force;                    /* sqfstar -force: an existing image may be overwritten */
	bool no_strip;                 /* -no-strip/-tarstyle: sources keep their whole path */
	bool cpiostyle;                /* -cpiostyle/-cpiostyle0: file names on stdin */
	bool cpio_nul;                 /* -cpiostyle0: the names end with NUL, not newline */
	bool ignore_zeros;             /* go on past zero blocks (concatenated archives) */
	bool numeric_owner;            /* use the archive's numbers, not its user/group names */
	bool default_mode_set, default_uid_set, default_gid_set;
	uint32_t default_mode;         /* directories the archive does not list, and the root */
	uint32_t default_uid, default_gid;
};

struct mksq_options {
	struct image_settings image;   /* what the back needs */
	struct tar_settings tar;

	char **sources;                /* argv words, not copies */
	int source_count;
	const char *image_path;

	uint32_t now;                  /* the build time: made-up directories and entries without a
	                                  time of their own (clamped by SOURCE_DATE_EPOCH) */
	bool time_option_set;          /* a command line option set a time (-mkfs-time, -all-time,
	                                  ...): SOURCE_DATE_EPOCH may not be used with it */
	bool mkfs_time_inode;          /* -mkfs-time inode / -repro: the latest source inode time */
	bool inode_time_inode;         /* -inode-time inode: every inode gets that time */

	bool quiet;
	bool progress;                 /* the bar (default on; only drawn on a terminal) */
	bool progress_forced;          /* -progress given (keeps the bar with -info) */
	bool info;                     /* -info: list every file as it is written */
	bool keep_as_directory;
	bool no_sparse;
	bool noappend;
	bool all_root;
	bool force_uid_set, force_gid_set;
	uint32_t force_uid, force_gid;
	bool all_time_set;
	uint32_t all_time;
	bool mkfs_time_set;            /* -mkfs-time or SOURCE_DATE_EPOCH */
	bool clamp_set;                /* SOURCE_DATE_EPOCH: clamp newer mtimes */
	uint32_t clamp_time;

	char **excludes;               /* -e words and -ef lines (owned: freed by options_free) */
	uint32_t exclude_count;
	bool wildcards;
	bool regex;

	bool comp_given;               /* -comp on the command line (appending keeps the image's) */
	bool block_size_given;         /* -b likewise */
	struct {
		const char *root_becomes;  /* -root-becomes NAME: the old root becomes NAME */
		const char *recover;       /* -recover FILE: restore the image from FILE and stop */
		const char *recovery_path; /* -recovery-path DIR: where the recovery file goes */
		bool no_recovery;          /* -no-recovery */
	} append;

	unsigned processors;           /* 0: online CPUs */
	uint64_t mem;                  /* -mem: bounds the queue, the tree's anonymous records and
	                                  the hash tables (mksq_mem_budget), 0: not given */

	struct attr_options attrs;
	struct walk_options walk;
	uint64_t offset;               /* -offset: the image starts this far into the output file */
	const char *sort_path;         /* -sort: read once the command line is complete */
	struct sort_table *sort;       /* -sort priorities (owned) */
	struct pseudo_set *pseudo;     /* -p, -pf, -pd definitions (owned) */
	struct help_request help;
	struct xattr_options xattr;
	struct run_options run;
};

/* Parse argv (argv[0] is the program: entered by the name sqfstar, the sqfstar grammar is used,
 * `sqfstar [OPTIONS] IMAGE [EXCLUDES]` with a tar archive on standard input). sde is getenv("SOURCE_DATE_EPOCH") or NULL; now is the
 * time used for the superblock when nothing else sets it. Returns 0 with *action set, or -1 with
 * a one-line message (SQ_ERR_USAGE) in err. On failure *o still needs options_free. */
int options_parse(struct mksq_options *o, int argc, char **argv, const char *sde, uint32_t now,
		  enum options_action *action, struct sq_error *err);
void options_free(struct mksq_options *o);
/* The parts options_free releases for each concern. */
void options_xattr_free(struct mksq_options *o);
void options_run_free(struct mksq_options *o);

/* -help and the 4.7 help options (help.c): print what o->help asks for (sqfstar's text when
 * o->tar.sqfstar), through a pager on a terminal. 0, or -1 with a message (an unknown section or
 * compressor, a bad regex). */
int options_print_help(const struct mksq_options *o, struct sq_error *err);

/* The name errors and help use: "sqfstar" or "mksquashfs". */
const char *options_tool_name(const struct mksq_options *o);

/* Shared value parsers for the option tables: each returns 0, or -1 with a one-line message
 * naming the option. */
int options_parse_block_size(const char *s, uint32_t *out, struct sq_error *err);
/* Seconds since the epoch, or a date string as the date command reads it ("now", "last week",
 * "Wed Feb 15 21:02:39 GMT 2023"), as squashfs-tools 4.6. */
int options_parse_time(const char *opt, const char *s, uint32_t *out, struct sq_error *err);
/* The same, or "inode" (*is_inode set): the latest inode time of the sources. */
int options_parse_time_or_inode(const char *opt, const char *s, uint32_t *out, bool *is_inode,
				struct sq_error *err);
/* A number, or a user (group) name looked up in the password (group) database. */
int options_parse_owner(const char *opt, const char *s, bool is_group, uint32_t *out,
			struct sq_error *err);
/* True when the only source is "-": no source directory (pseudo definitions, or standard
 * input for the tar and cpio readers, supply the tree). */
bool options_no_sources(const struct mksq_options *o);

/* The memory the run may take, in bytes: -mem, else half of the memory the process may use (the
 * physical memory or its control group's limit, mem_limit.h; so that a tree too
 * large for memory spills instead of failing). Its shares (doc/scaling.md): block buffers up to
 * a half (build.c, at most 32 MiB unless -mem is smaller), the tree's records a quarter before
 * they spill to a temporary file (spill.h), and the hash tables of each stage an eighth (the
 * scan's hard-link map; the data stage's duplicate tables, dedup.h). */
uint64_t mksq_mem_budget(const struct mksq_options *o);
/* The budget without -mem (-mem-default prints it in Mbytes). */
uint64_t mksq_mem_default_budget(void);
#define MKSQ_MEM_TREE_SHARE 4   /* budget / 4: the tree's anonymous records */
#define MKSQ_MEM_TABLE_SHARE 8  /* budget / 8: one stage's hash tables */
/* Append a copy of pattern to the exclude list. */
int options_add_exclude(struct mksq_options *o, const char *pattern, struct sq_error *err);

#endif
