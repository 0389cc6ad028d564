/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* write.c — the table writer's two entry points: the image head before the data, and every
 * metadata table plus the final superblock after it. */
#include "config.h"
#include "mksquashfs/image.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/endian.h"
#include "common/format.h"
#include "common/super.h"
#include "common/table_write.h"
#include "mksquashfs/write_internal.h"

static bool block_size_valid(uint32_t bs)
{
	return bs >= (1u << SQFS_MIN_BLOCK_LOG) && bs <= (1u << SQFS_MAX_BLOCK_LOG) &&
	       (bs & (bs - 1)) == 0;
}

/* The options payload the codec wants written, 0 for none. */
static size_t codec_options(const struct image_settings *s, uint8_t buf[CODEC_OPTIONS_MAX])
{
	if (s->codec->write_options == NULL)
		return 0;
	size_t n = s->codec->write_options(&s->codec_opts, buf);
	return n <= CODEC_OPTIONS_MAX ? n : 0;
}

static int check_settings(const struct image_settings *s, struct sq_error *err)
{
	if (s->codec == NULL || !s->codec->supported)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "no usable compressor for the image");
	if (!block_size_valid(s->block_size))
		return sq_fail(err, SQ_ERR_USAGE, "block size %u is not a power of two from 4K to 1M",
			       (unsigned)s->block_size);
	return 0;
}

int image_begin(struct image_out *out, const struct image_settings *settings,
		struct sq_error *err)
{
	if (check_settings(settings, err) != 0)
		return -1;
	/* Zeros, not a valid superblock: an image cut short by a crash must not mount. */
	uint8_t head[SQFS_SUPER_SIZE + SQFS_META_HEADER_SIZE + CODEC_OPTIONS_MAX] = { 0 };
	size_t len = SQFS_SUPER_SIZE;
	size_t n = codec_options(settings, head + SQFS_SUPER_SIZE + SQFS_META_HEADER_SIZE);
	if (n > 0) {
		put_le16(head + SQFS_SUPER_SIZE, (uint16_t)(n | SQFS_META_UNCOMPRESSED));
		len += SQFS_META_HEADER_SIZE + n;
	}
	return image_out_write(out, head, len, err);
}

static uint16_t super_flags(const struct image_settings *s, bool options_block)
{
	const struct {
		bool on;
		uint16_t flag;
	} bits[] = {
		{s->uncompressed_inodes, SQFS_FLAG_UNCOMPRESSED_INODES},
		{s->uncompressed_data, SQFS_FLAG_UNCOMPRESSED_DATA},
		{s->uncompressed_fragments, SQFS_FLAG_UNCOMPRESSED_FRAGMENTS},
		{s->no_fragments, SQFS_FLAG_NO_FRAGMENTS},
		{s->always_fragments, SQFS_FLAG_ALWAYS_FRAGMENTS},
		{s->duplicates, SQFS_FLAG_DUPLICATES},
		{s->exportable, SQFS_FLAG_EXPORTABLE},
		{s->uncompressed_xattrs, SQFS_FLAG_UNCOMPRESSED_XATTRS},
		{s->no_xattrs, SQFS_FLAG_NO_XATTRS},
		{options_block, SQFS_FLAG_COMPRESSOR_OPTIONS},
	};
	uint16_t f = 0;
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (bits[i].on)
			f |= bits[i].flag;
	/* squashfs-tools 4.5.1 compresses ids like inodes and has no flag for it under -noI;
	 * the flag (4.6's) marks only -noId on its own, so -noI images stay byte-identical. */
	if (s->uncompressed_ids && !s->uncompressed_inodes)
		f |= SQFS_FLAG_UNCOMPRESSED_IDS;
	return f;
}

/* Append a lookup table; *where gets what the superblock points at. */
static int put_table(struct image_out *out, const uint8_t *entries, size_t len,
		     const struct image_settings *s, void *state, bool raw, uint64_t *where,
		     uint64_t *stored, struct sq_error *err)
{
	struct sqfs_table_image t;
	if (sqfs_table_build(&t, entries, len, NULL, 0, out->pos, s->codec, state, raw, err) != 0)
		return -1;
	*where = out->pos + t.list_offset;
	*stored = t.len;
	int rc = image_out_write(out, t.bytes, t.len, err);
	free(t.bytes);
	return rc;
}

static int write_fragment_table(struct image_out *out, const struct image_settings *s,
				const struct fragment_entry *frags, uint32_t count, void *state,
				uint64_t *where, uint64_t *stored, struct sq_error *err)
{
	uint8_t *entries = NULL;
	if (count > 0) {
		entries = calloc(count, SQFS_FRAGMENT_ENTRY_SIZE);
		if (entries == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the fragment table");
	}
	for (uint32_t i = 0; i < count; i++) {
		uint8_t *e = entries + (size_t)i * SQFS_FRAGMENT_ENTRY_SIZE;
		put_le64(e, frags[i].start);
		put_le32(e + 8, frags[i].size_word);
		put_le32(e + 12, 0);
	}
	int rc = put_table(out, entries, (size_t)count * SQFS_FRAGMENT_ENTRY_SIZE, s, state,
			   s->uncompressed_fragments, where, stored, err);
	free(entries);
	return rc;
}

static int write_export_table(struct image_out *out, struct write_ctx *ctx, void *state,
			      uint64_t *where, struct sq_error *err)
{
	/* Encoded in place over the references (the last use of them): a second array would be
	 * 8 bytes an inode outside the spill. */
	size_t len = (size_t)ctx->inode_count * SQFS_EXPORT_ENTRY_SIZE;
	uint8_t *entries = (uint8_t *)ctx->refs;
	for (uint32_t i = 0; i < ctx->inode_count; i++) {
		uint64_t ref = ctx->refs[i];
		put_le64(entries + (size_t)i * SQFS_EXPORT_ENTRY_SIZE, ref);
	}
	return put_table(out, entries, len, ctx->settings, state,
			 ctx->settings->uncompressed_inodes, where, &ctx->stats->export_table_bytes,
			 err);
}

static int write_id_table(struct image_out *out, struct write_ctx *ctx, void *state,
			  uint64_t *where, struct sq_error *err)
{
	size_t len = (size_t)ctx->ids.count * SQFS_ID_ENTRY_SIZE;
	uint8_t *entries = malloc(len ? len : 1);
	if (entries == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the id table");
	for (uint32_t i = 0; i < ctx->ids.count; i++)
		put_le32(entries + (size_t)i * SQFS_ID_ENTRY_SIZE, ctx->ids.ids[i]);
	const struct image_settings *s = ctx->settings;
	int rc = put_table(out, entries, len, s, state,
			   s->uncompressed_ids || s->uncompressed_inodes, where,
			   &ctx->stats->id_table_bytes, err);
	free(entries);
	return rc;
}

static int write_xattr_tables(struct image_out *out, struct write_ctx *ctx, uint64_t *where,
			      struct sq_error *err)
{
	uint8_t *bytes = NULL;
	size_t len = 0, offset = 0;
	if (sqfs_xattr_writer_finish(ctx->xattrs, out->pos, &bytes, &len, &offset,
				     &ctx->stats->xattr_table_raw, err) != 0)
		return -1;
	*where = out->pos + offset;
	ctx->stats->xattr_table_bytes = len;
	int rc = image_out_write(out, bytes, len, err);
	free(bytes);
	return rc;
}

/* The inode table goes straight into the image, in pieces of this size: it is the first table
 * after the data, and nothing else is written while it is encoded. */
#define INODE_TABLE_PIECE ((size_t)1 << 20)
/* The directory table, which the image puts after the whole inode table, waits in memory up to
 * a quarter of the tree's anonymous share of -mem, at most this much, then in a temporary file. */
#define DIR_TABLE_HOLD_MAX ((size_t)32 << 20)

static int inodes_to_image(void *out, const uint8_t *bytes, size_t len, struct sq_error *err)
{
	return image_out_write(out, bytes, len, err);
}

static int dirs_to_spool(void *spool, const uint8_t *bytes, size_t len, struct sq_error *err)
{
	return spool_write(spool, bytes, len, err);
}

/* Without a spill (tests' trees) the directory table stays in memory, as it always did. */
static void set_sinks(struct write_ctx *ctx, struct image_out *out)
{
	sqfs_meta_writer_set_sink(ctx->inodes, inodes_to_image, out, INODE_TABLE_PIECE);
	const struct spill *spill = ctx->tree->spill;
	if (spill == NULL)
		return;
	uint64_t hold = spill->anon_limit / 4;
	spool_init(&ctx->dir_spool, spill->dir);
	sqfs_meta_writer_set_sink(ctx->dirs, dirs_to_spool, &ctx->dir_spool,
				  hold < DIR_TABLE_HOLD_MAX ? (size_t)hold : DIR_TABLE_HOLD_MAX);
}

/* The directory table: what went to the temporary file, then what is still held. */
static int write_dir_table(struct image_out *out, struct write_ctx *ctx, struct sq_error *err)
{
	struct spool *sp = &ctx->dir_spool;
	if (sp->len > 0) {
		size_t piece = DIR_TABLE_HOLD_MAX < sp->len ? DIR_TABLE_HOLD_MAX : (size_t)sp->len;
		uint8_t *buf = malloc(piece);
		if (buf == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for the directory table");
		int rc = 0;
		for (uint64_t off = 0; rc == 0 && off < sp->len; off += piece) {
			size_t n = sp->len - off < piece ? (size_t)(sp->len - off) : piece;
			rc = spool_read(sp, buf, n, off, err);
			if (rc == 0)
				rc = image_out_write(out, buf, n, err);
		}
		free(buf);
		if (rc != 0)
			return -1;
	}
	const struct sqfs_meta_writer *w = ctx->dirs;
	return image_out_write(out, w->out, w->out_len - w->out_base, err);
}

/* The three metadata writers (inodes, directories, xattrs) over the codec state. */
static int ctx_init(struct write_ctx *ctx, struct image_out *out, void *codec_state)
{
	const struct image_settings *settings = ctx->settings;
	ctx->inodes = malloc(sizeof(*ctx->inodes));
	ctx->dirs = malloc(sizeof(*ctx->dirs));
	if (ctx->inodes == NULL || ctx->dirs == NULL) {
		free(ctx->inodes);
		free(ctx->dirs);
		ctx->inodes = ctx->dirs = NULL;
		return sq_fail(ctx->err, SQ_ERR_NOMEM, "out of memory for the inode table");
	}
	/* -noI covers the directory table too, as in squashfs-tools. */
	sqfs_meta_writer_init(ctx->inodes, settings->codec, codec_state,
			      settings->uncompressed_inodes);
	sqfs_meta_writer_init(ctx->dirs, settings->codec, codec_state,
			      settings->uncompressed_inodes);
	set_sinks(ctx, out);
	if (!settings->no_xattrs) {
		ctx->xattrs = sqfs_xattr_writer_new(settings->codec, codec_state,
						    settings->uncompressed_xattrs);
		if (ctx->xattrs == NULL)
			return sq_fail(ctx->err, SQ_ERR_NOMEM, "out of memory for xattrs");
	}
	return 0;
}

static void ctx_release(struct write_ctx *ctx)
{
	if (ctx->inodes != NULL)
		sqfs_meta_writer_release(ctx->inodes);
	if (ctx->dirs != NULL)
		sqfs_meta_writer_release(ctx->dirs);
	free(ctx->inodes);
	free(ctx->dirs);
	spool_close(&ctx->dir_spool);
	sqfs_xattr_writer_free(ctx->xattrs);
	id_map_free(&ctx->ids);
	free(ctx->scratch);
}

/* Number the tree and encode every inode and directory into the metadata writers. */
static int encode_tree(struct write_ctx *ctx)
{
	if (write_number_tree(ctx) != 0)
		return -1;
	/* 9 bytes an inode: in the tree's arena, which spills past its share of -mem. */
	ctx->refs = tree_alloc(ctx->tree, (size_t)ctx->inode_count * sizeof(*ctx->refs), ctx->err);
	if (ctx->refs == NULL)
		return -1;
	ctx->written = tree_alloc(ctx->tree, ctx->inode_count, ctx->err);
	if (ctx->written == NULL)
		return -1;
	if (write_emit_tree(ctx) != 0 || sqfs_meta_writer_flush(ctx->inodes, ctx->err) != 0 ||
	    sqfs_meta_writer_flush(ctx->dirs, ctx->err) != 0)
		return -1;
	return 0;
}

/* Append the tables in squashfs-tools' order, recording where each went in sb. */
static int append_tables(struct image_out *out, struct write_ctx *ctx,
			 const struct fragment_entry *fragments, uint32_t fragment_count,
			 void *codec_state, struct sqfs_super *sb)
{
	const struct image_settings *settings = ctx->settings;
	struct sq_error *err = ctx->err;
	/* The inode table is in the image already (encode_tree streamed it). */
	sb->directory_table = out->pos;
	if (write_dir_table(out, ctx, err) != 0)
		return -1;
	/* squashfs-tools writes a (possibly empty) fragment table even with -no-fragments. */
	if (write_fragment_table(out, settings, fragments, fragment_count, codec_state,
				 &sb->fragment_table, &ctx->stats->fragment_table_bytes, err) != 0)
		return -1;
	if (settings->exportable &&
	    write_export_table(out, ctx, codec_state, &sb->export_table, err) != 0)
		return -1;
	if (write_id_table(out, ctx, codec_state, &sb->id_table, err) != 0)
		return -1;
	sb->id_count = (uint16_t)ctx->ids.count; /* at most 65535 (write_ids.c) */
	if (ctx->xattrs != NULL && sqfs_xattr_writer_count(ctx->xattrs) > 0 &&
	    write_xattr_tables(out, ctx, &sb->xattr_id_table, err) != 0)
		return -1;
	sb->bytes_used = out->pos;
	return 0;
}

/* The final superblock over the zeroed one, then padding to the device block size. */
static int write_super(struct image_out *out, const struct image_settings *settings,
		       const struct sqfs_super *sb, struct sq_error *err)
{
	uint8_t raw[SQFS_SUPER_SIZE];
	sqfs_super_encode(sb, raw);
	if (image_out_pwrite(out, raw, sizeof(raw), 0, err) != 0)
		return -1;
	if (settings->pad && out->pos % SQFS_DEVBLK_SIZE != 0) {
		static const uint8_t zeros[SQFS_DEVBLK_SIZE];
		if (image_out_write(out, zeros, SQFS_DEVBLK_SIZE - out->pos % SQFS_DEVBLK_SIZE,
				    err) != 0)
			return -1;
	}
	return 0;
}

int image_finish(struct image_out *out, const struct image_settings *settings, struct tree *tree,
		 const struct fragment_entry *fragments, uint32_t fragment_count, void *codec_state,
		 struct image_stats *stats, struct sq_error *err)
{
	struct write_ctx ctx = { .settings = settings, .tree = tree, .stats = stats, .err = err,
				 .dir_spool = { .fd = -1 } };
	struct sqfs_super sb;
	uint8_t options[CODEC_OPTIONS_MAX];
	int rc = -1;

	memset(stats, 0, sizeof(*stats));
	if (check_settings(settings, err) != 0)
		return -1;
	if (fragment_count > 0 && fragments == NULL)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "fragment table missing");
	uint64_t inode_table = out->pos;
	if (ctx_init(&ctx, out, codec_state) != 0 || encode_tree(&ctx) != 0)
		goto cleanup;

	sqfs_super_init(&sb, settings->block_size, (uint16_t)settings->codec->id);
	sb.inode_table = inode_table;
	sb.inode_count = ctx.inode_count;
	sb.mod_time = settings->mkfs_time;
	sb.fragment_count = fragment_count;
	sb.flags = super_flags(settings, codec_options(settings, options) > 0);
	sb.root_inode = tree->root->inode_ref;
	if (append_tables(out, &ctx, fragments, fragment_count, codec_state, &sb) != 0 ||
	    write_super(out, settings, &sb, err) != 0)
		goto cleanup;

	stats->bytes_used = sb.bytes_used;
	stats->inode_table_bytes = ctx.inodes->out_len;
	stats->inode_table_raw = ctx.inodes->raw_len;
	stats->dir_table_bytes = ctx.dirs->out_len;
	stats->dir_table_raw = ctx.dirs->raw_len;
	stats->inode_count = ctx.inode_count;
	stats->id_count = ctx.ids.count;
	stats->xattr_id_count = ctx.xattrs ? sqfs_xattr_writer_count(ctx.xattrs) : 0;
	stats->fragment_count = fragment_count;
	rc = 0;
cleanup:
	ctx_release(&ctx);
	return rc;
}
