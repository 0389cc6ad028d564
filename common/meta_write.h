/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* meta_write.h — the metadata block writer behind every squashfs table (inodes, directories,
 * lookup tables, xattrs): a byte stream cut into 8 KiB units, each compressed or stored raw. */
#ifndef SQ_COMMON_META_WRITE_H
#define SQ_COMMON_META_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecs/codec.h"
#include "common/util/error.h"
#include "common/format.h"

/* Where finished blocks go when they should leave memory (a table of a hundred million inodes is
 * gigabytes): handed the stored bytes in order. Returns 0, or -1 with err set. */
typedef int (*sqfs_meta_sink)(void *arg, const uint8_t *bytes, size_t len, struct sq_error *err);

/* By default the whole table is kept in memory until the caller writes it out: the image layout
 * puts each table after the previous one, so a table's final offset is only known once the ones
 * before it are complete. Stored bytes (u16 header + payload per block) accumulate in `out`.
 * With a sink (sqfs_meta_writer_set_sink) the bytes before out_base have left: references and
 * block offsets still count from the table's start, since they depend on no byte's address. */
struct sqfs_meta_writer {
	const struct codec *codec; /* NULL, or compress NULL: every block stored raw */
	void *state;               /* codec state able to take 8 KiB blocks */
	bool store_raw;            /* -noI / -noX ...: never try to compress */

	uint8_t block[SQFS_META_BLOCK_SIZE]; /* the unit being filled */
	size_t fill;                          /* bytes in block; always < 8192 between calls */

	uint8_t *out;      /* stored blocks from out_base to out_len, headers included */
	size_t out_len;    /* stored bytes of the whole table so far */
	size_t out_cap;
	size_t out_base;   /* stored bytes handed to the sink (0 without one) */

	sqfs_meta_sink sink; /* NULL: everything stays in out */
	void *sink_arg;
	size_t sink_at;      /* hand out what is held once it reaches this many bytes */

	uint64_t *block_starts; /* offset in out of every flushed block, by block number */
	size_t block_count;
	size_t block_cap;

	uint64_t raw_len;  /* uncompressed bytes accepted so far */
	uint8_t scratch[SQFS_META_BLOCK_SIZE];
};

/* Prepare an empty writer. Never fails (memory is taken on first use). */
void sqfs_meta_writer_init(struct sqfs_meta_writer *w, const struct codec *codec, void *state,
			   bool store_raw);

/* From now on, blocks leave memory through sink once at least `hold` stored bytes are held
 * (0: each block as it is finished), and sqfs_meta_writer_flush hands over the rest. */
void sqfs_meta_writer_set_sink(struct sqfs_meta_writer *w, sqfs_meta_sink sink, void *arg,
			       size_t hold);

/* Append len bytes (any length, spanning blocks as needed). Full blocks are emitted at once, so
 * the position reported by sqfs_meta_writer_ref is always inside the block being filled.
 * Returns 0, or -1 with SQ_ERR_NOMEM / SQ_ERR_CODEC in err (the writer is then unusable). */
int sqfs_meta_writer_append(struct sqfs_meta_writer *w, const void *data, size_t len,
			    struct sq_error *err);

/* Where the next appended byte goes: (stored offset of its block << 16) | offset in the block,
 * the form inode references and xattr references take. */
static inline uint64_t sqfs_meta_writer_ref(const struct sqfs_meta_writer *w)
{
	return sqfs_meta_ref(w->out_len, (uint32_t)w->fill);
}

/* Stored offset of the block that holds uncompressed stream position raw_pos, which must lie
 * in a flushed block or the one being filled. */
uint64_t sqfs_meta_writer_block_of(const struct sqfs_meta_writer *w, uint64_t raw_pos);

/* Emit the partly filled block, if any. After this, out/out_len hold the complete table, or
 * with a sink, the sink has had all of it (out_base == out_len). */
int sqfs_meta_writer_flush(struct sqfs_meta_writer *w, struct sq_error *err);

/* Free the memory; the writer may be initialised again. */
void sqfs_meta_writer_release(struct sqfs_meta_writer *w);

#endif
