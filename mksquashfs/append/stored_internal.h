/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* stored_internal.h — what stored.c (decoding) and stored_seed.c (dedup seeding) share. */
#ifndef SQ_MKSQUASHFS_APPEND_STORED_INTERNAL_H
#define SQ_MKSQUASHFS_APPEND_STORED_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mksquashfs/append/stored.h"

/* One thread's decoding state: a block and a fragment block kept decoded. */
struct stored_ctx {
	void *state;
	uint8_t *cbuf;          /* one stored block */
	uint8_t *block;         /* the decoded block (block_pos, block_word) */
	uint64_t block_pos;
	uint32_t block_word;
	bool block_valid;
	uint8_t *frag;          /* the decoded fragment block frag_index */
	size_t frag_len;
	uint32_t frag_index;
	bool frag_valid;
	uint8_t *other;         /* a second block (comparisons) */
	/* Where the last read left off, so reading a file in order does not sum its block sizes
	 * again for every block. */
	const struct tree_inode *cur;
	uint32_t cur_index;
	uint64_t cur_pos;
};

struct stored_data {
	int fd;
	uint64_t base;
	const struct codec *codec;
	struct codec_opts opts;
	uint32_t bs;
	bool duplicates;
	bool no_fragments, always_fragments;
	struct fragment_entry *frags;
	uint32_t frag_count;
	struct tree *tree;
	uint8_t *zeros;
	struct stored_ctx reader, writer;
};

/* The raw length of block i of f (a tail kept as a block is shorter). */
size_t stored_block_len(const struct stored_data *s, const struct file_data *f, uint32_t i);
/* Decode block i of stored file n into c->block (cached). */
int stored_block(struct stored_data *s, struct stored_ctx *c, const struct tree_inode *n,
		 uint32_t i, struct sq_error *err);
/* The file's tail in its fragment: *tail points into c->frag, *len bytes. */
int stored_tail(struct stored_data *s, struct stored_ctx *c, const struct file_data *f,
		const uint8_t **tail, size_t *len, struct sq_error *err);

#endif
