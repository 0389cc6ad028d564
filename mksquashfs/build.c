/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* build.c — one mksquashfs run. Every reader (the directory scan today; pseudo definitions, tar
 * streams and an existing image feed the same tree) fills one tree; attribute options are passes
 * over it; the data stage writes every listed file; the table writer finishes the image. */
#include "config.h"
#include "mksquashfs/build.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/progress.h"
#include "common/util/sizes.h"
#include "mksquashfs/append/append.h"
#include "mksquashfs/append/guard.h"
#include "mksquashfs/append/stored.h"
#include "mksquashfs/attrs.h"
#include "mksquashfs/data.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/file_list.h"
#include "mksquashfs/image.h"
#include "mksquashfs/info.h"
#include "mksquashfs/inode_map.h"
#include "mksquashfs/pseudo/pseudo.h"
#include "mksquashfs/scan.h"
#include "mksquashfs/spill.h"
#include "mksquashfs/scan_xattr.h"
#include "mksquashfs/sort.h"
#include "mksquashfs/summary.h"
#include "mksquashfs/times.h"
#include "mksquashfs/tar/tar.h"

struct build {
	const struct mksq_options *o;
	struct image_settings image;  /* o->image, or what the image appended to imposes */
	unsigned workers;
	struct exclude_list excludes;
	bool excludes_ready;
	struct image_out out;
	bool out_open;
	struct tree tree;
	struct spill spill;           /* where the tree's records go past their share of -mem */
	bool spill_ready;
	struct file_list files;
	struct scan_stats scan_stats;
	struct data_stats data_stats;
	struct image_stats image_stats;
	struct fragment_entry *frags;
	uint32_t frag_count;
	struct progress progress;
	void *meta_state;
	FILE *info_file;        /* -info-file, open until the listing is written */
	struct out_guard guard;       /* SIGINT/SIGTERM/SIGHUP clean up the image */
	bool appending;
	struct append_image append;   /* the existing image, when appending */
	struct stored_data *stored;
};

static unsigned worker_count(const struct mksq_options *o)
{
	unsigned n = o->processors;
	if (n == 0) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		n = online < 1 ? 1 : online > 256 ? 256 : (unsigned)online;
	}
	/* -overcommit: more compressors than processors, in steps of whole threads. */
	return n + n * o->run.overcommit / 100;
}

uint64_t mksq_default_mem(void)
{
	return 32ull << 20;
}

/* Enough block buffers that threads run in bursts rather than waking each other per block:
 * about 32 MiB by default (squashfs-tools takes several hundred), at
 * least two per worker plus the reader's and writer's; -mem caps them (each holds two blocks). */
static unsigned slot_count(const struct mksq_options *o, uint32_t block_size, unsigned workers)
{
	uint64_t per_slot = (uint64_t)block_size * 2;
	uint64_t slots = mksq_default_mem() / per_slot;
	if (slots > 1024)
		slots = 1024;
	if (o->mem > 0 && o->mem / 2 / per_slot < slots)
		slots = o->mem / 2 / per_slot;
	if (slots < (uint64_t)workers * 2 + 3)
		slots = (uint64_t)workers * 2 + 3;
	return (unsigned)slots;
}

/* 1 when the image exists and is appended to (squashfs-tools' default), 0 when it is written
 * afresh. */
static int check_image_path(const struct mksq_options *o, struct sq_error *err)
{
	struct stat st;
	if (stat(o->image_path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		return sq_fail_errno(err, "cannot stat image %s", o->image_path);
	}
	if (S_ISDIR(st.st_mode))
		return sq_fail(err, SQ_ERR_USAGE, "image %s is a directory", o->image_path);
	if (o->noappend)
		return 0;
	/* An archive or a name list is not merged into an image (as squashfs-tools). */
	if (tar_style_sources(o))
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "%s exists and appending is not supported with -tar, -cpiostyle or "
			       "-no-strip: use %s to overwrite it",
			       o->image_path, o->tar.sqfstar ? "-force" : "-noappend");
	return 1;
}

/* The existing image: read whole before anything is written, and the settings it imposes. */
static int read_existing(struct build *b, struct sq_error *err)
{
	const struct mksq_options *o = b->o;
	b->appending = true;
	return append_read(&b->append, o->image_path, b->out.fd, o->offset, &b->tree, err) != 0 ||
			       append_settings(&b->append, o, &b->image, err) != 0
		       ? -1
		       : 0;
}

/* Sources first: a typo must not cost an existing image or print a banner. Then the image,
 * whose (dev, inode) joins the excludes so an image inside a source does not swallow itself. */
static int open_output(struct build *b, struct sq_error *err)
{
	const struct mksq_options *o = b->o;
	for (int i = 0; i < o->source_count && !options_no_sources(o); i++) {
		struct stat src;
		if (lstat(o->sources[i], &src) != 0)
			return sq_fail_errno(err, "cannot stat source %s", o->sources[i]);
	}
	if (o->run.stream) {
		/* -stream: standard output is the image (the image word, "-", is a placeholder). */
		if (image_out_open_stream(&b->out, err) != 0)
			return -1;
		b->out_open = true;
	} else {
		int existing = check_image_path(o, err);
		if (existing < 0)
			return -1;
		guard_hold(&b->guard);
		int rc = existing ? image_out_open_existing(&b->out, o->image_path, o->offset, err)
				  : image_out_open_at(&b->out, o->image_path, o->offset, err);
		b->out_open = rc == 0;
		guard_release(&b->guard);
		if (rc != 0 || (existing && read_existing(b, err) != 0))
			return -1;
	}
	struct stat st;
	if (fstat(b->out.fd, &st) != 0)
		return sq_fail_errno(err, "cannot stat image %s", b->out.path);
	if (b->out.stream && !S_ISREG(st.st_mode))
		return 0; /* a pipe or a terminal is in no source */
	return exclude_add_id(&b->excludes, st.st_dev, st.st_ino, err);
}

/* The readers: a tar archive or cpio-style names (tar/), or the directory scan (unless the
 * source is "-"), then pseudo definitions. base (appending) is what the existing image
 * contributes to the root (scan.h). */
static int read_sources(const struct mksq_options *o, const struct exclude_list *x,
			struct tree_inode *base, struct tree *tree, struct scan_stats *stats,
			FILE *warn, struct progress *progress, struct sq_error *err)
{
	struct inode_map links = { 0 };
	int rc = 0;
	/* A tar archive or a cpio-style list (whose source is "-" too) makes a root. */
	bool have_sources = tar_style_sources(o) || !options_no_sources(o);
	if (tar_style_sources(o)) {
		rc = tar_style_read(o, x, tree, stats, warn, err);
	} else if (!options_no_sources(o)) {
		rc = scan_sources(o, x, base, tree, stats, o->pseudo ? &links : NULL, warn, progress,
				  err);
		base = NULL;
	} else {
		tree_begin(tree);
		memset(stats, 0, sizeof(*stats));
	}
	if (rc == 0 && o->pseudo != NULL) {
		struct pseudo_apply_opts po = {
			.now = o->now,
			.no_hardlinks = o->walk.no_hardlinks,
			.no_xattrs = o->image.no_xattrs,
			.have_sources = have_sources,
		};
		rc = pseudo_apply(o->pseudo, &po, tree, &links, warn, err);
	}
	inode_map_free(&links);
	/* Source "-" and appending: the root made from the "/" definition takes the image's entries,
	 * which win over definitions of the same names (as squashfs-tools). */
	if (rc == 0 && base != NULL && tree->root != NULL) {
		rc = scan_merge_base(tree->root, base, err);
		base = NULL;
	}
	if (base != NULL) {
		struct tree unused = { .root = base };
		tree_free(&unused);
	}
	if (rc == 0 && tree->root == NULL)
		rc = sq_fail(err, SQ_ERR_USAGE, "no source given");
	if (rc != 0)
		tree_free(tree);
	return rc;
}

/* What the readers freed (the scan's hard-link map; the heap arrays tree_sort just moved into the
 * arena) goes back to the system: glibc keeps freed pages in the heap otherwise, and they would
 * stay anonymous memory for the rest of the run. */
static void return_freed_heap(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

int build_tree(const struct mksq_options *o, const struct exclude_list *x,
	       struct tree_inode *base, struct tree *tree, struct file_list *files,
	       struct scan_stats *stats, FILE *warn, struct progress *progress,
	       struct sq_error *err)
{
	memset(files, 0, sizeof(*files));
	if (read_sources(o, x, base, tree, stats, warn, progress, err) != 0)
		return -1;
	if (tree_sort_trim(tree, err) != 0)
		return -1;
	return_freed_heap();
	times_apply(o, tree);
	if (attrs_apply(o, tree, err) != 0 || xattrs_add_apply(o, tree, err) != 0)
		return -1;
	if (file_list_build(tree, o->info, files, err) != 0)
		return -1;
	return sort_apply(o->sort, tree, files, err);
}

static int write_data(struct build *b, struct sq_error *err)
{
	const struct mksq_options *o = b->o;
	if (!b->appending && image_begin(&b->out, &b->image, err) != 0)
		return -1;
	progress_add_total(&b->progress, data_progress_units(&b->image, &b->files));
	struct data_config cfg = {
		.image = &b->image,
		.sparse = !o->no_sparse,
		.workers = b->workers,
		.slots = slot_count(o, b->image.block_size, b->workers),
		.progress = &b->progress,
		.info = NULL, /* the whole listing is printed once inodes are numbered (info.c) */
		.warn = stderr,
		.exit_on_error = o->run.exit_on_error,
		.throttle = o->run.throttle,
		.table_mem = mksq_mem_budget(o) / MKSQ_MEM_TABLE_SHARE,
		.stored = b->stored,
	};
	return data_write(&cfg, &b->out, &b->files, &b->frags, &b->frag_count, &b->data_stats, err);
}

static int write_tables(struct build *b, struct sq_error *err)
{
	const struct mksq_options *o = b->o;
	struct image_settings image = b->image;
	b->meta_state = image.codec->state_new(&image.codec_opts, SQFS_META_BLOCK_SIZE);
	if (b->meta_state == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "cannot set up the %s compressor",
			       image.codec->name);
	image.mkfs_time = times_mkfs(o, &b->tree);
	if (image_finish(&b->out, &image, &b->tree, b->frags, b->frag_count, b->meta_state,
			 &b->image_stats, err) != 0)
		return -1;
	if (b->appending && append_finish(&b->append, &b->out, err) != 0)
		return -1;
	progress_finish(&b->progress);
	b->out_open = false;
	if (image_out_close(&b->out, true, err) != 0)
		return -1;
	if (b->appending)
		append_forget_recovery(&b->append);
	return 0;
}

/* -info-file: a new file (squashfs-tools refuses to overwrite one), made before anything is
 * built so that a bad path costs nothing. */
static int open_info_file(struct build *b, struct sq_error *err)
{
	const char *path = b->o->run.info_file;
	if (path == NULL)
		return 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0)
		return sq_fail_errno(err, "cannot create info file %s", path);
	b->info_file = fdopen(fd, "w");
	if (b->info_file == NULL) {
		close(fd);
		unlink(path);
		return sq_fail_errno(err, "cannot write info file %s", path);
	}
	return 0;
}

/* The -info listing, once inodes are numbered: to standard output and/or the -info-file. */
static int print_info(struct build *b, struct sq_error *err)
{
	if (b->o->info && info_print(stdout, &b->tree) != 0)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	if (b->info_file == NULL)
		return 0;
	int rc = info_print(b->info_file, &b->tree);
	if (fclose(b->info_file) != 0 || rc != 0) {
		b->info_file = NULL;
		return sq_fail_errno(err, "cannot write info file %s", b->o->run.info_file);
	}
	b->info_file = NULL;
	return 0;
}

static int print_summary(struct build *b, struct sq_error *err)
{
	if (print_info(b, err) != 0)
		return -1;
	if (!b->o->quiet) {
		/* The uncompressed size is the whole filesystem's, old files included (as
		 * squashfs-tools reports it after an append). */
		struct data_stats ds = b->data_stats;
		if (b->appending)
			ds.bytes_in += b->append.file_bytes;
		struct summary_input in = {
			.image = &b->image,
			.image_stats = &b->image_stats,
			.data_stats = &ds,
			.scan_stats = &b->scan_stats,
			.tree = &b->tree,
		};
		summary_print(stdout, &in);
		/* Not in squashfs-tools' summary: the disk the run used beside the image. */
		if (b->spill.file_bytes > 0)
			printf("Per-file records spilled to a temporary file in %s: %llu MiB (-mem)\n",
			       b->spill.dir, (unsigned long long)(b->spill.file_bytes >> 20));
	}
	summary_print_skipped(stderr, &b->scan_stats, &b->data_stats);
	if (fflush(stdout) != 0 || ferror(stdout))
		return sq_fail_errno(err, "cannot write to standard output");
	return 0;
}

static void build_free(struct build *b)
{
	if (b->out_open) {
		struct sq_error ignored;
		sq_error_clear(&ignored);
		image_out_close(&b->out, false, &ignored);
	}
	if (b->meta_state != NULL)
		b->image.codec->state_free(b->meta_state);
	free(b->frags);
	/* An appended image's inodes not yet in the tree live in the tree's arena. */
	if (b->appending)
		append_free(&b->append);
	b->appending = false;
	tree_free(&b->tree);
	file_list_free(&b->files);
	if (b->spill_ready)
		spill_close(&b->spill);
	if (b->excludes_ready)
		exclude_free(&b->excludes);
	if (b->info_file != NULL) {
		/* The build failed: no listing of an image that does not exist. */
		fclose(b->info_file);
		unlink(b->o->run.info_file);
	}
	progress_destroy(&b->progress);
	stored_free(b->stored);
}

static void print_banner(const struct build *b)
{
	const struct mksq_options *o = b->o;
	printf("Parallel mksquashfs: Using %u processor%s\n", b->workers, b->workers == 1 ? "" : "s");
	if (!b->appending) {
		printf("Creating 4.0 filesystem on %s, block size %u.\n", o->image_path,
		       b->image.block_size);
	} else {
		printf("Read existing filesystem, %u inodes scanned\n", b->append.inodes_read);
		printf("Appending to existing 4.0 filesystem on %s, block size %u\n", o->image_path,
		       b->image.block_size);
		printf("All -noI, -noD, -noF, -noX, -noId, -no-duplicates, -no-fragments,\n"
		       "-always-use-fragments, -exports, -no-xattrs and -X options ignored\n\n"
		       "If appending is not wanted, please re-run with -noappend specified!\n\n");
	}
	fflush(stdout);
}

/* The spill of the tree's records (spill.h): past their share of -mem, into a temporary file in
 * TMPDIR, else next to the image. SQ_MKSQUASHFS_SPILL_AT (bytes) moves the share, for tests. */
static int start_spill(struct build *b, struct sq_error *err)
{
	uint64_t limit = mksq_mem_budget(b->o) / MKSQ_MEM_TREE_SHARE;
	const char *at = getenv("SQ_MKSQUASHFS_SPILL_AT");
	if (at != NULL && sq_parse_size(at, "KMG", &limit) != 0)
		return sq_fail(err, SQ_ERR_USAGE, "SQ_MKSQUASHFS_SPILL_AT \"%s\" is not a size", at);
	const char *tmp = getenv("TMPDIR");
	char *dir = strdup(tmp != NULL && tmp[0] != '\0' ? tmp : b->o->image_path);
	if (dir == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	if (tmp == NULL || tmp[0] == '\0') {
		char *slash = strrchr(dir, '/');
		if (slash == NULL)
			strcpy(dir, ".");
		else
			slash[slash == dir] = '\0';
	}
	b->spill_ready = spill_init(&b->spill, limit, dir);
	free(dir);
	if (!b->spill_ready)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	b->tree.spill = &b->spill;
	return 0;
}

/* Appending: the tree the image contributes goes to the scan; the image is protected (recovery
 * file, cleared magic) only once the sources are read, so a bad source leaves it untouched.
 * Warnings name sources that could not be read: squashfs-tools prints them with -quiet too. */
static int build_all(struct build *b, struct sq_error *err)
{
	const struct mksq_options *o = b->o;
	struct tree_inode *base = NULL;
	if (b->appending && (base = append_base(&b->append, o->append.root_becomes, err)) == NULL)
		return -1;
	/* The readers see the settings the image is written with (an appended image's own). */
	struct mksq_options eff = *o;
	eff.image = b->image;
	if (build_tree(&eff, &b->excludes, base, &b->tree, &b->files, &b->scan_stats, stderr,
		       &b->progress, err) != 0)
		return -1;
	if (b->appending) {
		b->stored = stored_new(b->out.fd, o->offset, &b->image, b->append.frags,
				       b->append.frag_count, &b->tree, err);
		if (b->stored == NULL ||
		    append_protect(&b->append, o, &b->out, o->quiet ? NULL : stdout, err) != 0)
			return -1;
	}
	return write_data(b, err) != 0 || write_tables(b, err) != 0 ? -1 : 0;
}

int mksq_build(const struct mksq_options *o, struct sq_error *err)
{
	if (o->append.recover != NULL)
		return append_recover(o, o->quiet ? NULL : stdout, err);
	struct build b = { .o = o, .image = o->image, .workers = worker_count(o),
			   .out = { .fd = -1 } };
	int rc = -1;
	progress_init(&b.progress, stdout, o->progress && !o->quiet);
	if (o->run.percentage && !o->quiet)
		progress_set_percentage(&b.progress);
	b.excludes_ready = true; /* exclude_init leaves what exclude_free needs, even on failure */
	if (exclude_init(&b.excludes, o->excludes, o->exclude_count, o->wildcards, o->regex,
			 o->sources, o->source_count, err) != 0)
		goto out;
	/* The spill first: an appended image's inodes go to the tree's arena too. */
	if (open_info_file(&b, err) != 0 || guard_start(&b.guard, &b.out, err) != 0 ||
	    start_spill(&b, err) != 0 || open_output(&b, err) != 0)
		goto out;
	if (!o->quiet)
		print_banner(&b);
	if (build_all(&b, err) != 0)
		goto out;
	rc = print_summary(&b, err);
out:
	build_free(&b);
	guard_stop(&b.guard);
	return rc;
}
