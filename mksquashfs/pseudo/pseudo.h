/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* pseudo.h — pseudo file definitions (-p, -pf, -pd): read while the command line is parsed (so a
 * bad definition costs no image), then applied to the scanned tree like another reader: entries
 * are added or modified through tree.h, regular file content is a source path or a span of a
 * spool file, so the data stage reads it like any other file.
 *
 * Rules (squashfs-tools 4.6/4.7 as documented, where 4.5.1 only warned they are errors here):
 * definitions form a tree independent of their order; directories on the way must exist in the
 * source or be defined (d/D), or -pd supplies them; a definition for a name the source already
 * has is ignored with a warning (exclude the source entry to replace it); m/M change an existing
 * entry; l/h link a host file (a hard link when the scan holds it), L an earlier pseudo
 * definition; x adds an xattr. Two definitions of one name, a definition below a non-directory,
 * "." or ".." components, bad fields, and a command that fails are errors naming the pseudo file
 * and line (or the -p definition). */
#ifndef SQ_MKSQUASHFS_PSEUDO_H
#define SQ_MKSQUASHFS_PSEUDO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/util/error.h"
#include "mksquashfs/inode_map.h"
#include "mksquashfs/tree.h"

struct pseudo_set;

struct pseudo_set *pseudo_set_new(struct sq_error *err);
void pseudo_set_free(struct pseudo_set *set);

/* -p DEFINITION. */
int pseudo_add_definition(struct pseudo_set *set, const char *text, struct sq_error *err);
/* -pf FILE ("-": standard input). Lines may continue with a trailing backslash; "#" starts a
 * comment; R definitions take their bytes from the data section after the START OF DATA
 * marker (unsquashfs -pf output). */
int pseudo_add_file(struct pseudo_set *set, const char *path, struct sq_error *err);
/* -pd "d mode uid gid" or "D time mode uid gid": the directory made for any missing directory on
 * the way to a definition. */
int pseudo_set_default_dir(struct pseudo_set *set, const char *text, struct sq_error *err);

/* What applying needs from the command line. */
struct pseudo_apply_opts {
	uint32_t now;          /* time of definitions without one (already SOURCE_DATE_EPOCH-clamped) */
	bool no_hardlinks;     /* l/h/L make copies, not hard links */
	bool no_xattrs;        /* x definitions are dropped */
	bool have_sources;     /* false: source "-", the root comes from "/" or -pd */
};

/* Apply every definition to tree (root NULL when there is no source). links maps host inodes to
 * the scan's (may be NULL); l/h use and extend it. Warnings go to warn unless NULL. Commands of
 * f/F definitions run here, through /bin/sh -c, their output spooled to an unlinked temporary
 * file that lives as long as the set. Inodes made or changed get TREE_PSEUDO. */
int pseudo_apply(struct pseudo_set *set, const struct pseudo_apply_opts *opts, struct tree *tree,
		 struct inode_map *links, FILE *warn, struct sq_error *err);

/* An unsigned 32-bit time: decimal seconds, or a date string given to date(1) ("1 jan 1980",
 * "yesterday"), as squashfs-tools reads times. 0, or -1 with the reason in why. */
int pseudo_parse_time(const char *s, uint32_t *out, char *why, size_t why_len);

/* An xattr "name=value" (value plain, 0s base64, 0x hex or 0t with \ooo escapes), as pseudo x
 * definitions and -xattrs-add give it. 0, or -1 with the reason in why. */
int pseudo_parse_xattr(const char *s, struct xattr_entry *out, char *why, size_t why_len);

/* The "Pseudo file definition format" section of -help. */
void pseudo_print_formats(FILE *out);

#endif
