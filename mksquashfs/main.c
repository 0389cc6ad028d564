/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* main.c — mksquashfs: options, scan, data stage, tables, summary; the only place that prints
 * an error and picks the exit status. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/util/error.h"
#include "common/format.h"
#include "common/util/progress.h"
#include "mksquashfs/data.h"
#include "mksquashfs/exclude.h"
#include "mksquashfs/image.h"
#include "mksquashfs/options.h"
#include "mksquashfs/scan.h"
#include "mksquashfs/summary.h"

static unsigned worker_count(const struct mksq_options *o)
{
	if (o->processors > 0)
		return o->processors;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

/* Enough slots that threads run in bursts rather than waking each other per block: about
 * 64 MiB of blocks by default (squashfs-tools takes several hundred), at least two per worker
 * plus the reader's and writer's; -mem caps them (each slot holds two blocks). */
static unsigned slot_count(const struct mksq_options *o, unsigned workers)
{
	uint64_t per_slot = (uint64_t)o->image.block_size * 2;
	uint64_t slots = (64ull << 20) / per_slot;
	if (slots > 1024)
		slots = 1024;
	if (o->mem > 0 && o->mem / 2 / per_slot < slots)
		slots = o->mem / 2 / per_slot;
	if (slots < (uint64_t)workers * 2 + 3)
		slots = (uint64_t)workers * 2 + 3;
	return (unsigned)slots;
}

/* Appending to an existing image is not implemented: never overwrite one silently. */
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
	if (!o->noappend)
		return sq_fail(err, SQ_ERR_UNSUPPORTED,
			       "%s exists and appending is not supported: use -noappend to overwrite it",
			       o->image_path);
	return 0;
}

static void print_version(void)
{
	printf("mksquashfs (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	printf("compatible with squashfs-tools 4.5.1 options; writes squashfs 4.0\n");
}

static int build(struct mksq_options *o, uint32_t now, struct sq_error *err)
{
	struct exclude_list excludes;
	struct image_out out = { .fd = -1 };
	struct tree tree = { 0 };
	struct file_list files = { 0 };
	struct scan_stats scan_stats = { 0 };
	struct data_stats data_stats = { 0 };
	struct image_stats image_stats = { 0 };
	struct fragment_entry *frags = NULL;
	uint32_t frag_count = 0;
	struct progress progress;
	void *meta_state = NULL;
	bool out_open = false;
	int rc = -1;
	unsigned workers = worker_count(o);

	progress_init(&progress, stdout, o->progress && !o->quiet);
	if (exclude_init(&excludes, o->excludes, o->exclude_count, o->wildcards, o->regex,
			 o->sources, o->source_count, err) != 0)
		goto out;
	/* Sources first: a typo must not cost an existing image or print a banner. */
	for (int i = 0; i < o->source_count; i++) {
		struct stat src;
		if (lstat(o->sources[i], &src) != 0) {
			sq_fail_errno(err, "cannot stat source %s", o->sources[i]);
			goto out;
		}
	}
	if (check_image_path(o, err) != 0)
		goto out;
	if (image_out_open(&out, o->image_path, err) != 0)
		goto out;
	out_open = true;
	struct stat st;
	if (fstat(out.fd, &st) != 0) {
		sq_fail_errno(err, "cannot stat image %s", o->image_path);
		goto out;
	}
	/* An image inside a source must not swallow itself. */
	if (exclude_add_id(&excludes, st.st_dev, st.st_ino, err) != 0)
		goto out;

	if (!o->quiet) {
		printf("Parallel mksquashfs: Using %u processor%s\n", workers, workers == 1 ? "" : "s");
		printf("Creating 4.0 filesystem on %s, block size %u.\n", o->image_path,
		       o->image.block_size);
		fflush(stdout);
	}
	if (scan_sources(o, &excludes, now, &tree, &files, &scan_stats, o->quiet ? NULL : stderr,
			 err) != 0)
		goto out;
	if (image_begin(&out, &o->image, err) != 0)
		goto out;

	progress_add_total(&progress, data_progress_units(&o->image, &files));
	struct data_config cfg = {
		.image = &o->image,
		.sparse = !o->no_sparse,
		.workers = workers,
		.slots = slot_count(o, workers),
		.progress = &progress,
		.info = o->info ? stdout : NULL,
	};
	if (data_write(&cfg, &out, &files, &frags, &frag_count, &data_stats, err) != 0)
		goto out;

	meta_state = o->image.codec->state_new(&o->image.codec_opts, SQFS_META_BLOCK_SIZE);
	if (meta_state == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "cannot set up the %s compressor", o->image.codec->name);
		goto out;
	}
	if (image_finish(&out, &o->image, &tree, frags, frag_count, meta_state, &image_stats,
			 err) != 0)
		goto out;
	progress_finish(&progress);
	out_open = false;
	if (image_out_close(&out, true, err) != 0)
		goto out;
	if (!o->quiet) {
		struct summary_input in = {
			.image = &o->image,
			.image_stats = &image_stats,
			.data_stats = &data_stats,
			.scan_stats = &scan_stats,
			.tree = &tree,
		};
		summary_print(stdout, &in);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		sq_fail_errno(err, "cannot write to standard output");
		goto out;
	}
	rc = 0;
out:
	if (out_open) {
		struct sq_error ignored;
		sq_error_clear(&ignored);
		image_out_close(&out, false, &ignored);
	}
	if (meta_state != NULL)
		o->image.codec->state_free(meta_state);
	free(frags);
	scan_tree_free(&tree);
	file_list_free(&files);
	exclude_free(&excludes);
	progress_destroy(&progress);
	return rc;
}

int main(int argc, char **argv)
{
	struct mksq_options o;
	struct sq_error err;
	enum options_action action;
	sq_error_clear(&err);
	uint32_t now = (uint32_t)time(NULL);

	int rc = options_parse(&o, argc, argv, getenv("SOURCE_DATE_EPOCH"), now, &action, &err);
	if (rc == 0) {
		switch (action) {
		case OPTIONS_HELP:
			options_print_help(stdout);
			break;
		case OPTIONS_VERSION:
			print_version();
			break;
		case OPTIONS_XHELP:
			if (o.image.codec->print_help != NULL)
				o.image.codec->print_help(stdout);
			else
				printf("%s has no compressor options\n", o.image.codec->name);
			break;
		case OPTIONS_RUN:
			rc = build(&o, o.clamp_set && now > o.clamp_time ? o.clamp_time : now, &err);
			break;
		}
	}
	options_free(&o);
	if (rc != 0) {
		fprintf(stderr, "mksquashfs: %s\n", err.msg[0] ? err.msg : "failed");
		return 1;
	}
	return 0;
}
