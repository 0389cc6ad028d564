/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_core.c — the core options (layout, compression, ownership, time, selection, running)
 * with squashfs-tools' names, value checks and help lines. */
#include "config.h"
#include "mksquashfs/options.h"

#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/io.h"
#include "common/util/sizes.h"
#include "mksquashfs/mem_limit.h"
#include "mksquashfs/opt_def.h"

int options_parse_block_size(const char *s, uint32_t *out, struct sq_error *err)
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

int options_parse_owner(const char *opt, const char *s, bool is_group, uint32_t *out,
			struct sq_error *err)
{
	uint64_t v;
	if (s == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing %s", opt,
			       is_group ? "gid or group name" : "uid or user name");
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

static int opt_force_uid(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	o->force_uid_set = true;
	return options_parse_owner(name, v, false, &o->force_uid, err);
}

static int opt_force_gid(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	o->force_gid_set = true;
	return options_parse_owner(name, v, true, &o->force_gid, err);
}

static int opt_processors(struct mksq_options *o, const char *name, const char *v,
			  struct sq_error *err)
{
	uint64_t n;
	if (v == NULL || sq_parse_uint(v, 4096, &n) != 0 || n < 1)
		return sq_fail(err, SQ_ERR_USAGE, "%s \"%s\" should be 1 or larger (and at most 4096)",
			       name, v ? v : "");
	o->processors = (unsigned)n;
	return 0;
}

static int opt_mem(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	uint64_t n;
	if (v == NULL || sq_parse_size(v, "KMG", &n) != 0 || n == 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s \"%s\" missing or invalid memory size", name,
			       v ? v : "");
	o->mem = n;
	return 0;
}

uint64_t mksq_mem_budget(const struct mksq_options *o)
{
	return o->mem > 0 ? o->mem : mksq_mem_default_budget();
}

uint64_t mksq_mem_default_budget(void)
{
	uint64_t usable = mem_usable();
	if (usable == 0)
		return 4ull << 30; /* unknown: as a small machine */
	return usable / 2;
}

static int exclude_line(void *ctx, const char *line, size_t len, struct sq_error *err)
{
	(void)len;
	return options_add_exclude(ctx, line, err);
}

static int opt_exclude_file(struct mksq_options *o, const char *name, const char *v,
			    struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing filename", name);
	return sq_for_each_line(v, "exclude file", exclude_line, o, err);
}

static int opt_progress(struct mksq_options *o, const char *name, const char *v,
			struct sq_error *err)
{
	(void)name, (void)v, (void)err;
	o->progress = true;
	o->progress_forced = true;
	return 0;
}

static int opt_no_compression(struct mksq_options *o, const char *name, const char *v,
			      struct sq_error *err)
{
	(void)name, (void)v, (void)err;
	o->image.uncompressed_inodes = true;
	o->image.uncompressed_data = true;
	o->image.uncompressed_fragments = true;
	o->image.uncompressed_xattrs = true;
	return 0;
}

static int core_finish(struct mksq_options *o, struct sq_error *err)
{
	(void)err;
	/* As squashfs-tools: -info lines and the bar would interleave, so -info turns the bar off
	 * unless -progress asks for it. */
	if (o->info && !o->progress_forced)
		o->progress = false;
	if (o->image.no_fragments && o->image.always_fragments)
		o->image.always_fragments = false;
	if (o->image.uncompressed_inodes)
		o->image.uncompressed_ids = true;
	return 0;
}

static const struct opt_def core_defs[] = {
	/* -comp and -b are read before everything else (options.c); listed for -help. */
	{ .name = "-comp", .kind = OPT_IGNORED, .section = SECTION_COMPRESSION,
	  .help = "-comp <comp>\t\tselect <comp> compression.  Run -help-comp <comp> to get\n"
		  "\t\t\tcompressor options for <comp>, or <all> for all the\n"
		  "\t\t\tcompressors.  The kernel cannot mount lzma images\n%COMPRESSORS%" },
	{ .name = "-b", .kind = OPT_IGNORED, .section = SECTION_COMPRESSION,
	  .help = "-b <block_size>\t\tset data block to <block_size>.  Default 128 Kbytes.\n"
		  "\t\t\tOptionally a suffix of K or M can be given to specify\n"
		  "\t\t\tKbytes or Mbytes respectively" },
	OPT_FLAG_DEF("-noI", image.uncompressed_inodes, true, SECTION_COMPRESSION,
		     "-noI\t\t\tdo not compress inode table"),
	OPT_FLAG_DEF("-noInodeCompression", image.uncompressed_inodes, true, SECTION_MISC,
		     "-noInodeCompression\talternative name for -noI"),
	OPT_FLAG_DEF("-noId", image.uncompressed_ids, true, SECTION_COMPRESSION,
		     "-noId\t\t\tdo not compress the uid/gid table (implied by -noI)"),
	OPT_FLAG_DEF("-noIdTableCompression", image.uncompressed_ids, true, SECTION_MISC,
		     "-noIdTableCompression\talternative name for -noId"),
	OPT_FLAG_DEF("-noD", image.uncompressed_data, true, SECTION_COMPRESSION,
		     "-noD\t\t\tdo not compress data blocks"),
	OPT_FLAG_DEF("-noDataCompression", image.uncompressed_data, true, SECTION_MISC,
		     "-noDataCompression\talternative name for -noD"),
	OPT_FLAG_DEF("-noF", image.uncompressed_fragments, true, SECTION_COMPRESSION,
		     "-noF\t\t\tdo not compress fragment blocks"),
	OPT_FLAG_DEF("-noFragmentCompression", image.uncompressed_fragments, true, SECTION_MISC,
		     "-noFragmentCompression\talternative name for -noF"),
	OPT_FLAG_DEF("-noX", image.uncompressed_xattrs, true, SECTION_COMPRESSION,
		     "-noX\t\t\tdo not compress extended attributes"),
	OPT_FLAG_DEF("-noXattrCompression", image.uncompressed_xattrs, true, SECTION_MISC,
		     "-noXattrCompression\talternative name for -noX"),
	OPT_CALL_DEF("-no-compression", opt_no_compression, SECTION_COMPRESSION,
		     "-no-compression\t\tdo not compress any of the data or metadata.  This is\n"
		     "\t\t\tequivalent to specifying -noI -noD -noF and -noX"),
	OPT_FLAG_DEF("-no-exports", image.exportable, false, SECTION_BUILD,
		     "-no-exports\t\tdon't make the filesystem exportable via NFS"),
	OPT_FLAG_DEF("-exports", image.exportable, true, SECTION_BUILD,
		     "-exports\t\tmake the filesystem exportable via NFS (default)"),
	OPT_FLAG_DEF("-no-sparse", no_sparse, true, SECTION_BUILD,
		     "-no-sparse\t\tdon't detect sparse files"),
	OPT_FLAG_DEF("-no-xattrs", image.no_xattrs, true, SECTION_XATTR,
		     "-no-xattrs\t\tdon't store extended attributes"),
#ifdef HAVE_XATTR
	OPT_FLAG_DEF("-xattrs", image.no_xattrs, false, SECTION_XATTR,
		     "-xattrs\t\t\tstore extended attributes (default)"),
#endif
	OPT_FLAG_DEF("-no-fragments", image.no_fragments, true, SECTION_BUILD,
		     "-no-fragments\t\tdo not use fragments"),
	OPT_FLAG_DEF("-no-tailends", image.always_fragments, false, SECTION_BUILD,
		     "-no-tailends\t\tdo not pack tail ends into fragments (default)"),
	OPT_FLAG_DEF("-tailends", image.always_fragments, true, SECTION_BUILD,
		     "-tailends\t\tpack tail ends into fragments"),
	OPT_FLAG_DEF("-always-use-fragments", image.always_fragments, true, SECTION_MISC,
		     "-always-use-fragments\talternative name for -tailends"),
	OPT_FLAG_DEF("-no-duplicates", image.duplicates, false, SECTION_BUILD,
		     "-no-duplicates\t\tdo not perform duplicate checking"),
	OPT_FLAG_DEF("-all-root", all_root, true, SECTION_PERMISSIONS,
		     "-all-root\t\tmake all files owned by root"),
	OPT_FLAG_DEF("-root-owned", all_root, true, SECTION_MISC,
		     "-root-owned\t\talternative name for -all-root"),
	OPT_VALUE_DEF("-force-uid", opt_force_uid, SECTION_PERMISSIONS,
		      "-force-uid <uid>\tset all file uids to <uid> (number or user name)"),
	OPT_VALUE_DEF("-force-gid", opt_force_gid, SECTION_PERMISSIONS,
		      "-force-gid <gid>\tset all file gids to <gid> (number or group name)"),
	OPT_FLAG_FOR(OPT_MKSQUASHFS_ONLY, "-keep-as-directory", keep_as_directory, true,
		     SECTION_BUILD,
		     "-keep-as-directory\tif one source directory is specified, create a root\n"
		     "\t\t\tdirectory containing that directory, rather than the\n"
		     "\t\t\tcontents of the directory"),
	OPT_IGNORED_FOR(OPT_MKSQUASHFS_ONLY, "-e", SECTION_FILTER,
			"-e <list>\t\tlist of exclude dirs/files (takes the rest of the line)"),
	OPT_VALUE_DEF("-ef", opt_exclude_file, SECTION_FILTER,
		      "-ef <exclude_file>\tlist of exclude dirs/files.  One per line"),
	OPT_FLAG_FOR(OPT_MKSQUASHFS_ONLY, "-wildcards", wildcards, true, SECTION_FILTER,
		     "-wildcards\t\tallow extended shell wildcards (globbing) to be used in\n"
		     "\t\t\texclude dirs/files (always on for tar input)"),
	OPT_FLAG_DEF("-regex", regex, true, SECTION_FILTER,
		     "-regex\t\t\tallow POSIX regular expressions to be used in exclude\n"
		     "\t\t\tdirs/files"),
	OPT_FLAG_DEF("-quiet", quiet, true, SECTION_RUNTIME, "-quiet\t\t\tno verbose output"),
	OPT_FLAG_DEF("-info", info, true, SECTION_RUNTIME,
		     "-info\t\t\tprint files written to filesystem to stdout.  This\n"
		     "\t\t\tautomatically disables the progress bar.  See -info-file to\n"
		     "\t\t\toutput to file without disabling the progress bar"),
	OPT_FLAG_DEF("-no-progress", progress, false, SECTION_RUNTIME,
		     "-no-progress\t\tdon't display the progress bar"),
	OPT_CALL_DEF("-progress", opt_progress, SECTION_RUNTIME,
		     "-progress\t\tdisplay the progress bar (default, on a terminal)"),
	OPT_VALUE_DEF("-processors", opt_processors, SECTION_RUNTIME,
		      "-processors <number>\tuse <number> processors.  By default will use number of\n"
		      "\t\t\tprocessors available.  <number> threads compress\n"
		      "\t\t\tdata blocks and one more compresses fragments (all\n"
		      "\t\t\ttake whichever block is next); reading, duplicate\n"
		      "\t\t\tchecks and writing run on two threads of their own"),
	OPT_VALUE_DEF("-mem", opt_mem, SECTION_RUNTIME,
		      "-mem <size>\t\tuse about <size> memory (default half the physical\n"
		      "\t\t\tmemory, or half the control group's memory limit\n"
		      "\t\t\t(memory.max) when that is smaller): queued blocks up to half of it (at most\n"
		      "\t\t\t32M), per-file records a quarter, then they spill to\n"
		      "\t\t\ta temporary file in TMPDIR (else next to the image);\n"
		      "\t\t\tduplicate and hard-link tables an eighth each, then\n"
		      "\t\t\tlater duplicates may be missed.  Optionally a suffix\n"
		      "\t\t\tof K, M or G can be given"),
	OPT_FLAG_DEF("-nopad", image.pad, false, SECTION_EXPERT,
		     "-nopad\t\t\tdo not pad filesystem to a multiple of 4K"),
	{ .name = NULL },
};

const struct opt_group core_options = {
	.concern = "core",
	.defs = core_defs,
	.finish = core_finish,
};
