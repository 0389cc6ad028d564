/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* data.h — the data stage: every regular file's content into data blocks, sparse blocks and
 * tail fragments, with duplicate files stored once. Runs on the pipeline (pipeline.h): a reader
 * thread decides the layout (deterministically, in file order), workers compress, and the
 * calling thread writes blocks to the image in order. */
#ifndef SQ_MKSQUASHFS_DATA_H
#define SQ_MKSQUASHFS_DATA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/util/error.h"
#include "common/util/progress.h"
#include "mksquashfs/image.h"
#include "mksquashfs/file_list.h"

struct stored_data;

struct data_config {
	const struct image_settings *image;
	bool sparse;             /* detect all-zero blocks (not -no-sparse) */
	unsigned workers;        /* -processors N, >= 1: the stage runs N + 1 compression threads
	                            (see data_threads) */
	unsigned slots;          /* block buffers in flight (memory: 2 * block_size each) */
	struct progress *progress;  /* may be NULL */
	FILE *info;              /* -info: one line per file written, else NULL */
	FILE *warn;              /* unreadable or changing files are named here (NULL: silent) */
	bool exit_on_error;      /* -exit-on-error: an unreadable file fails the build */
	unsigned throttle;       /* -throttle: percent of the reading time spent idle, 0..99 */
	uint64_t table_mem;      /* bytes the duplicate tables may hold (their share of -mem), 0: no
	                            bound; past it later duplicates go unnoticed (dedup.h) */
	struct stored_data *stored; /* appending: the image's files and fragments, which new files
	                               dedup against (mksquashfs/append/stored.h); NULL otherwise */
};

struct data_stats {
	uint64_t bytes_in;            /* file bytes read */
	uint64_t data_bytes_out;      /* stored data block bytes (duplicates taken back) */
	uint64_t fragment_bytes_out;  /* stored fragment block bytes */
	uint64_t fragment_bytes_in;   /* tail bytes packed into fragments */
	uint32_t files;
	uint32_t duplicate_files;
	uint64_t blocks;              /* data blocks, sparse ones included */
	uint64_t sparse_blocks;
	uint32_t unreadable_files;    /* stored empty: could not be opened or read */
	uint32_t changed_files;       /* changed size while being read */
};

/* Compression threads for -processors N: N for data blocks, as squashfs-tools, plus one in
 * place of its fragment compressors (it runs N more beside its N block compressors). Ours
 * share one queue, so every thread takes whichever block is next. */
unsigned data_threads(unsigned processors);

/* How many progress units data_write will count for these files (one per stored block, one per
 * file without blocks). */
uint64_t data_progress_units(const struct image_settings *img, const struct file_list *files);

/* Write the content of files->files[0..count) after out->pos. On success every file's
 * struct file_data is complete, and *fragments (malloc'd, *fragment_count entries) describes
 * the fragment blocks written. On failure err names the file or block. */
int data_write(const struct data_config *cfg, struct image_out *out,
	       const struct file_list *files, struct fragment_entry **fragments,
	       uint32_t *fragment_count, struct data_stats *stats, struct sq_error *err);

#endif
