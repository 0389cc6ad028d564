/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* encode_test.c — byte-exact checks of the format writers (inodes, listings, index, lookup
 * tables, metadata blocks, xattrs) against layouts worked out by hand from doc/format.adoc. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/dir_write.h"
#include "common/util/endian.h"
#include "common/format.h"
#include "common/inode_write.h"
#include "common/meta_write.h"
#include "common/table_write.h"
#include "common/xattr_write.h"
#include "tests/lib/check.h"

/* ---- a fake codec: its answers are what the test decides, so headers can be predicted ---- */
enum fake_mode { FAKE_HALF, FAKE_ZERO, FAKE_SAME, FAKE_FAIL };

static ptrdiff_t fake_compress(void *state, const uint8_t *src, size_t len, uint8_t *dst,
			       size_t cap)
{
	enum fake_mode m = *(enum fake_mode *)state;
	(void)src;
	switch (m) {
	case FAKE_HALF:
		memset(dst, 0xC5, len / 2);
		return (ptrdiff_t)(len / 2);
	case FAKE_ZERO:
		return 0;
	case FAKE_SAME:
		memset(dst, 0, len < cap ? len : cap);
		return (ptrdiff_t)len;
	default:
		return -1;
	}
}

static const struct codec fake_codec = { .id = 1, .name = "fake", .supported = 1,
					 .compress = fake_compress };

/* in picks the kind it should and encodes to exactly want (len bytes) in out. */
static void check_encodes(struct sqfs_inode_w *in, int kind, const uint8_t *want, size_t len,
			  uint8_t *out)
{
	sqfs_inode_pick_kind(in);
	CHECK(in->type == kind);
	CHECK(sqfs_inode_encode(in, out) == len);
	CHECK_BYTES(out, want, len);
}

/* in, given the basic type and an xattr index, becomes the extended kind ext: len bytes in out,
 * led by ext's type number. */
static void check_extended(struct sqfs_inode_w *in, int type, uint32_t xattr, int ext,
			   size_t len, uint8_t *out)
{
	in->type = type;
	in->xattr_index = xattr;
	sqfs_inode_pick_kind(in);
	CHECK(in->type == ext);
	CHECK(sqfs_inode_encode(in, out) == len);
	CHECK(out[0] == ext);
}

/* The kind in would be given, on a copy. */
static int kind_of(struct sqfs_inode_w in)
{
	sqfs_inode_pick_kind(&in);
	return in.type;
}

static void test_file_inodes(void)
{
	uint8_t out[128];
	uint32_t blocks[1] = { 0x01002000 };
	struct sqfs_inode_w f = { .type = SQFS_INODE_FILE, .mode = 0100644, .uid_index = 1,
				  .gid_index = 2, .mtime = 0x01020304, .inode_number = 7,
				  .nlink = 1, .xattr_index = SQFS_NO_XATTR, .blocks_start = 0x60,
				  .fragment_index = 3, .fragment_offset = 0x10, .file_size = 0x2345,
				  .block_count = 1, .block_sizes = blocks };
	static const uint8_t want_file[] = {
		0x02, 0x00, 0xa4, 0x01, 0x01, 0x00, 0x02, 0x00, 0x04, 0x03, 0x02, 0x01,
		0x07, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
		0x10, 0x00, 0x00, 0x00, 0x45, 0x23, 0x00, 0x00, 0x00, 0x20, 0x00, 0x01 };
	check_encodes(&f, SQFS_INODE_FILE, want_file, sizeof(want_file), out);
	CHECK(sqfs_inode_encoded_size(&f) == sizeof(want_file));

	uint32_t sparse[1] = { 0 };
	struct sqfs_inode_w xf = f;
	xf.nlink = 2;
	xf.xattr_index = 5;
	xf.blocks_start = UINT64_C(0x100000000);
	xf.file_size = UINT64_C(0x100000001);
	xf.sparse_bytes = 0x1000;
	xf.fragment_index = SQFS_NO_FRAGMENT;
	xf.fragment_offset = 0;
	xf.block_sizes = sparse;
	static const uint8_t want_xfile[] = {
		0x09, 0x00, 0xa4, 0x01, 0x01, 0x00, 0x02, 0x00, 0x04, 0x03, 0x02, 0x01,
		0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
		0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };
	check_encodes(&xf, SQFS_INODE_EXT_FILE, want_xfile, sizeof(want_xfile), out);

	/* Each reason alone makes a file extended; the largest size a basic inode holds does not. */
	struct sqfs_inode_w r[5] = { f, f, f, f, f };
	r[0].sparse_bytes = 1;
	r[1].file_size = UINT64_C(0x100000000);
	r[2].blocks_start = UINT64_C(0x100000000);
	r[3].nlink = 2;
	r[4].file_size = 0xFFFFFFFFu;
	for (int i = 0; i < 4; i++)
		CHECK(kind_of(r[i]) == SQFS_INODE_EXT_FILE, "reason %d", i);
	CHECK(kind_of(r[4]) == SQFS_INODE_FILE);
}

static void test_dir_inodes(void)
{
	uint8_t out[128];
	struct sqfs_inode_w r[2];
	struct sqfs_inode_w d = { .type = SQFS_INODE_DIR, .mode = 040755, .inode_number = 8,
				  .nlink = 3, .xattr_index = SQFS_NO_XATTR,
				  .dir_block_start = 0x1234, .dir_size = 0x2b, .dir_offset = 0x1f,
				  .dir_parent = 9 };
	static const uint8_t want_dir[] = {
		0x01, 0x00, 0xed, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x08, 0x00, 0x00, 0x00, 0x34, 0x12, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
		0x2b, 0x00, 0x1f, 0x00, 0x09, 0x00, 0x00, 0x00 };
	check_encodes(&d, SQFS_INODE_DIR, want_dir, sizeof(want_dir), out);

	static const uint8_t idx[2] = { 0xAA, 0xBB };
	struct sqfs_inode_w xd = { .type = SQFS_INODE_DIR, .mode = 040755, .inode_number = 8,
				   .nlink = 2, .xattr_index = 0, .dir_block_start = 0x20,
				   .dir_size = 0x10003, .dir_offset = 0x100, .dir_parent = 1,
				   .dir_index_count = 1, .dir_index = idx, .dir_index_len = 2 };
	static const uint8_t want_xdir[] = {
		0x08, 0x00, 0xed, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x01, 0x00,
		0x20, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x00, 0xAA, 0xBB };
	check_encodes(&xd, SQFS_INODE_EXT_DIR, want_xdir, sizeof(want_xdir), out);
	/* A big listing alone, or an index alone, needs the extended form. */
	r[0] = d;
	r[0].dir_size = 0x10000;
	r[1] = d;
	r[1].dir_index_count = 1;
	CHECK(kind_of(r[0]) == SQFS_INODE_EXT_DIR);
	CHECK(kind_of(r[1]) == SQFS_INODE_EXT_DIR);
}

static void test_special_inodes(void)
{
	uint8_t out[128];
	struct sqfs_inode_w s = { .type = SQFS_INODE_SYMLINK, .mode = 0120777, .inode_number = 3,
				  .nlink = 1, .xattr_index = SQFS_NO_XATTR, .target = "abc",
				  .target_len = 3 };
	static const uint8_t want_sym[] = {
		0x03, 0x00, 0xff, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
		0x61, 0x62, 0x63 };
	check_encodes(&s, SQFS_INODE_SYMLINK, want_sym, sizeof(want_sym), out);
	check_extended(&s, SQFS_INODE_SYMLINK, 2, SQFS_INODE_EXT_SYMLINK, sizeof(want_sym) + 4, out);
	CHECK_BYTES(out + 2, want_sym + 2, sizeof(want_sym) - 2);
	CHECK_BYTES(out + sizeof(want_sym), "\x02\x00\x00\x00", 4);

	/* major 300, minor 70000: minor low byte, major, minor high bits (0x111 << 20). */
	CHECK(sqfs_encode_dev(300, 70000) == 0x11112c70u);
	struct sqfs_inode_w b = { .type = SQFS_INODE_BLKDEV, .mode = 060666, .inode_number = 2,
				  .nlink = 1, .xattr_index = SQFS_NO_XATTR,
				  .rdev = sqfs_encode_dev(300, 70000) };
	static const uint8_t want_blk[] = {
		0x04, 0x00, 0xb6, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x70, 0x2c, 0x11, 0x11 };
	check_encodes(&b, SQFS_INODE_BLKDEV, want_blk, sizeof(want_blk), out);
	check_extended(&b, SQFS_INODE_CHRDEV, 1, SQFS_INODE_EXT_CHRDEV, sizeof(want_blk) + 4, out);
	CHECK_BYTES(out + 16, want_blk + 16, 8);
	CHECK_BYTES(out + 24, "\x01\x00\x00\x00", 4);

	struct sqfs_inode_w p = { .type = SQFS_INODE_FIFO, .mode = 010600, .inode_number = 4,
				  .nlink = 2, .xattr_index = SQFS_NO_XATTR };
	static const uint8_t want_fifo[] = {
		0x06, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00 };
	check_encodes(&p, SQFS_INODE_FIFO, want_fifo, sizeof(want_fifo), out);
	check_extended(&p, SQFS_INODE_SOCKET, 7, SQFS_INODE_EXT_SOCKET, 24, out);
	CHECK_BYTES(out + 16, "\x02\x00\x00\x00\x07\x00\x00\x00", 8);

	struct sqfs_inode_w bad = { .type = 15 };
	CHECK(sqfs_inode_encoded_size(&bad) == 0);
}

static void test_meta_writer(void)
{
	struct sq_error err;
	struct sqfs_meta_writer *w = malloc(sizeof(*w));
	uint8_t data[9000];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);

	/* Raw: a full block then a partial one; every header has bit 15. */
	sqfs_meta_writer_init(w, NULL, NULL, false);
	CHECK(sqfs_meta_writer_append(w, data, 100, &err) == 0);
	CHECK(sqfs_meta_writer_ref(w) == 100);
	CHECK(sqfs_meta_writer_append(w, data + 100, 8900, &err) == 0);
	CHECK(sqfs_meta_writer_ref(w) == ((uint64_t)8194 << 16 | 808));
	CHECK(sqfs_meta_writer_flush(w, &err) == 0);
	CHECK(w->out_len == 2 + 8192 + 2 + 808);
	CHECK_BYTES(w->out, "\x00\xa0", 2);
	CHECK_BYTES(w->out + 2, data, 8192);
	CHECK_BYTES(w->out + 8194, "\x28\x83", 2);
	CHECK_BYTES(w->out + 8196, data + 8192, 808);
	CHECK(w->raw_len == 9000);
	CHECK(w->block_count == 2 && w->block_starts[1] == 8194);
	sqfs_meta_writer_release(w);

	/* "Compressed" to half: header without bit 15, the codec's bytes stored. */
	enum fake_mode mode = FAKE_HALF;
	sqfs_meta_writer_init(w, &fake_codec, &mode, false);
	CHECK(sqfs_meta_writer_append(w, data, 100, &err) == 0);
	CHECK(sqfs_meta_writer_flush(w, &err) == 0);
	CHECK(w->out_len == 52);
	CHECK_BYTES(w->out, "\x32\x00\xc5\xc5", 4);
	sqfs_meta_writer_release(w);

	/* Codec says "store it" (0) or is not smaller: raw. -noI style store_raw: codec unused. */
	enum fake_mode modes[3] = { FAKE_ZERO, FAKE_SAME, FAKE_FAIL };
	for (int k = 0; k < 3; k++) {
		sqfs_meta_writer_init(w, &fake_codec, &modes[k], k == 2);
		CHECK(sqfs_meta_writer_append(w, data, 10, &err) == 0);
		CHECK(sqfs_meta_writer_flush(w, &err) == 0);
		CHECK(w->out_len == 12);
		CHECK_BYTES(w->out, "\x0a\x80", 2);
		CHECK_BYTES(w->out + 2, data, 10);
		sqfs_meta_writer_release(w);
	}

	/* A codec failure is an error, not a silently stored block. */
	mode = FAKE_FAIL;
	sqfs_meta_writer_init(w, &fake_codec, &mode, false);
	sq_error_clear(&err);
	CHECK(sqfs_meta_writer_append(w, data, 10, &err) == 0);
	CHECK(sqfs_meta_writer_flush(w, &err) == -1 && err.code == SQ_ERR_CODEC);
	sqfs_meta_writer_release(w);
	free(w);
}

static void test_tables(void)
{
	struct sq_error err;
	struct sqfs_table_image t;
	uint8_t ids[12] = { 1, 0, 0, 0, 0xe8, 0x03, 0, 0, 0xff, 0xff, 0xff, 0xff };
	CHECK(sqfs_table_build(&t, ids, sizeof(ids), NULL, 0, 1000, NULL, NULL, true, &err) == 0);
	static const uint8_t want[] = { 0x0c, 0x80, 1, 0, 0, 0, 0xe8, 0x03, 0, 0, 0xff, 0xff,
					0xff, 0xff, 0xe8, 0x03, 0, 0, 0, 0, 0, 0 };
	CHECK(t.len == sizeof(want) && t.list_offset == 14);
	CHECK_BYTES(t.bytes, want, sizeof(want));
	free(t.bytes);

	/* 2049 ids: a full block of 2048 and one more; the list gives both absolute offsets. */
	uint8_t *many = calloc(2049, 4);
	CHECK(sqfs_table_build(&t, many, 2049 * 4, NULL, 0, 0x10000, NULL, NULL, true, &err) == 0);
	CHECK(t.list_offset == 8194 + 6 && t.len == 8194 + 6 + 16);
	CHECK_BYTES(t.bytes, "\x00\xa0", 2);
	CHECK_BYTES(t.bytes + 8194, "\x04\x80", 2);
	CHECK(get_le64(t.bytes + t.list_offset) == 0x10000);
	CHECK(get_le64(t.bytes + t.list_offset + 8) == 0x10000 + 8194);
	free(t.bytes);
	free(many);

	/* No entries: nothing but the empty list the superblock points at. */
	CHECK(sqfs_table_build(&t, NULL, 0, NULL, 0, 500, NULL, NULL, false, &err) == 0);
	CHECK(t.len == 0 && t.list_offset == 0);
	free(t.bytes);
	/* A prefix sits between the blocks and the list. */
	CHECK(sqfs_table_build(&t, ids, 4, (const uint8_t *)"PREFIX", 6, 0, NULL, NULL, true,
			       &err) == 0);
	CHECK(t.len == 6 + 6 + 8 && t.list_offset == 6);
	CHECK_BYTES(t.bytes + 6, "PREFIX\x00\x00\x00\x00\x00\x00\x00\x00", 14);
	free(t.bytes);
}

static void test_dir_small(void)
{
	struct sq_error err;
	struct sqfs_meta_writer *w = malloc(sizeof(*w));
	struct sqfs_dir_listing l;
	sqfs_meta_writer_init(w, NULL, NULL, true);
	CHECK(sqfs_meta_writer_append(w, "0123456789", 10, &err) == 0);
	struct sqfs_dir_entry_w e[3] = {
		{ "a", 1, 0x20, 5, SQFS_INODE_FILE },
		{ "bb", 2, 0x40, 6, SQFS_INODE_DIR },
		{ "c", 1, ((uint64_t)0x1234 << 16) | 0x10, 4, SQFS_INODE_SYMLINK },
	};
	CHECK(sqfs_dir_write(w, e, 3, &l, &err) == 0);
	static const uint8_t want[] = {
		1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0,                         /* header */
		0x20, 0, 0, 0, 2, 0, 0, 0, 'a',                             /* a */
		0x40, 0, 1, 0, 1, 0, 1, 0, 'b', 'b',                        /* bb, delta 1 */
		0, 0, 0, 0, 0x34, 0x12, 0, 0, 4, 0, 0, 0,                   /* new inode block */
		0x10, 0, 0, 0, 3, 0, 0, 0, 'c' };
	CHECK(l.block_start == 0 && l.offset == 10 && l.size == sizeof(want) + 3);
	CHECK(l.index_count == 0 && l.index == NULL);
	CHECK(sqfs_meta_writer_flush(w, &err) == 0);
	CHECK(w->out_len == 2 + 10 + sizeof(want));
	CHECK_BYTES(w->out + 12, want, sizeof(want));
	sqfs_meta_writer_release(w);

	/* Deltas: -5 fits in s16, +39999 does not and opens a header. Empty dir: size 3. */
	sqfs_meta_writer_init(w, NULL, NULL, true);
	struct sqfs_dir_entry_w d[3] = {
		{ "a", 1, 0, 10, SQFS_INODE_FILE },
		{ "b", 1, 0, 5, SQFS_INODE_FILE },
		{ "c", 1, 0, 40004, SQFS_INODE_FILE },
	};
	CHECK(sqfs_dir_write(w, d, 0, &l, &err) == 0 && l.size == 3);
	CHECK(sqfs_dir_write(w, d, 3, &l, &err) == 0);
	CHECK(l.size == 3 + 12 + 9 + 9 + 12 + 9);
	CHECK(get_le32(w->block) == 1);
	CHECK_BYTES(w->block + 12 + 9, "\x00\x00\xfb\xff", 4);
	CHECK(get_le32(w->block + 12 + 18) == 0 && get_le32(w->block + 12 + 18 + 8) == 40004);
	sqfs_meta_writer_release(w);

	/* 257 entries: 256 under one header, then a second header. */
	struct sqfs_dir_entry_w *many = calloc(257, sizeof(*many));
	char names[257][12];
	for (int i = 0; i < 257; i++) {
		snprintf(names[i], sizeof(names[i]), "%03d", i);
		many[i] = (struct sqfs_dir_entry_w){ names[i], 3, (uint64_t)i * 32, (uint32_t)i + 1,
						     SQFS_INODE_FILE };
	}
	sqfs_meta_writer_init(w, NULL, NULL, true);
	CHECK(sqfs_dir_write(w, many, 257, &l, &err) == 0);
	CHECK(l.size == 3 + 12 + 256 * 11 + 12 + 11);
	CHECK(get_le32(w->block) == 255);
	CHECK(get_le32(w->block + 12 + 256 * 11) == 0);
	CHECK(get_le32(w->block + 12 + 256 * 11 + 8) == 257);
	sqfs_meta_writer_release(w);
	free(many);

	struct sqfs_dir_entry_w bad = { "x", 0, 0, 1, SQFS_INODE_FILE };
	sqfs_meta_writer_init(w, NULL, NULL, true);
	CHECK(sqfs_dir_write(w, &bad, 1, &l, &err) == -1);
	sqfs_meta_writer_release(w);
	free(w);
}

/* A listing over several blocks, written through the halving codec so that stored block offsets
 * differ from raw ones: index points come where an entry would end more than 8 KiB after the
 * previous point (squashfs-tools' rule), and give the stored offset of the header's block. */
static void test_dir_index(void)
{
	enum { N = 2000, ENTRY = 8 + 40 };
	struct sq_error err;
	struct sqfs_meta_writer *w = malloc(sizeof(*w));
	struct sqfs_dir_entry_w *e = calloc(N, sizeof(*e));
	char (*names)[44] = calloc(N, 44);
	enum fake_mode mode = FAKE_HALF;
	for (int i = 0; i < N; i++) {
		snprintf(names[i], 44, "entry-%034d", i); /* 40 bytes */
		e[i] = (struct sqfs_dir_entry_w){ names[i], 40, 64, (uint32_t)i + 1,
						  SQFS_INODE_FILE };
	}
	sqfs_meta_writer_init(w, &fake_codec, &mode, false);
	/* Start the listing 100 bytes into a block: index points are relative to the listing. */
	uint8_t pad[100] = { 0 };
	CHECK(sqfs_meta_writer_append(w, pad, sizeof(pad), &err) == 0);
	struct sqfs_dir_listing l;
	CHECK(sqfs_dir_write(w, e, N, &l, &err) == 0);
	CHECK(l.block_start == 0 && l.offset == 100);
	size_t listing = l.size - 3;
	/* 8192 / 48 < 256 entries fit between points, so every header after the first is one. */
	CHECK(listing == (size_t)N * ENTRY + 12 * (l.index_count + 1u));
	CHECK(l.index_count >= 11);

	const uint8_t *ix = l.index;
	uint32_t prev_point = 0;
	for (unsigned k = 0; k < l.index_count; k++) {
		uint32_t pos = get_le32(ix), start = get_le32(ix + 4), nlen = get_le32(ix + 8) + 1;
		CHECK(nlen == 40);
		char digits[41] = { 0 };
		memcpy(digits, ix + 12 + 6, 34);
		int first = atoi(digits);
		CHECK(first > 0 && first < N);
		CHECK(memcmp(ix + 12, names[first], 40) == 0);
		/* before the header: `first` entries and one header per earlier point */
		CHECK(pos == (uint32_t)first * ENTRY + 12 * (k + 1));
		/* the previous entry still fitted, this one would not have */
		CHECK(pos - prev_point <= 8192 && pos + ENTRY - prev_point > 8192);
		/* each block of the fake codec is stored in 2 + 4096 bytes */
		CHECK(start == ((100 + pos) / 8192) * (2 + 4096));
		prev_point = pos;
		ix += 12 + nlen;
	}
	CHECK((size_t)(ix - l.index) == l.index_len);
	free(l.index);
	sqfs_meta_writer_release(w);
	free(names);
	free(e);
	free(w);
}

static void test_xattrs(void)
{
	struct sq_error err;
	struct sqfs_xattr_writer *w = sqfs_xattr_writer_new(NULL, NULL, true);
	const uint8_t *ten = (const uint8_t *)"0123456789";
	struct sqfs_xattr_pair a = { SQFS_XATTR_USER, 1, "x", 1, (const uint8_t *)"1" };
	struct sqfs_xattr_pair c = { SQFS_XATTR_TRUSTED, 1, "k", 10, ten };
	struct sqfs_xattr_pair d = { SQFS_XATTR_SECURITY, 7, "selinux", 10, ten };
	uint32_t i1 = 9, i2 = 9, i3 = 9, i4 = 9;
	CHECK(sqfs_xattr_writer_add(w, &a, 1, &i1, &err) == 0);
	CHECK(sqfs_xattr_writer_add(w, &a, 1, &i2, &err) == 0);
	CHECK(sqfs_xattr_writer_add(w, &c, 1, &i3, &err) == 0);
	CHECK(sqfs_xattr_writer_add(w, &d, 1, &i4, &err) == 0);
	CHECK(i1 == 0 && i2 == 0 && i3 == 1 && i4 == 2);
	CHECK(sqfs_xattr_writer_count(w) == 3);

	uint8_t *bytes;
	size_t len, off;
	uint64_t raw_len;
	CHECK(sqfs_xattr_writer_finish(w, 500, &bytes, &len, &off, &raw_len, &err) == 0);
	static const uint8_t want[] = {
		0x34, 0x80,                                     /* kv block, 52 bytes raw */
		0, 0, 1, 0, 'x', 1, 0, 0, 0, '1',               /* user.x = "1" */
		1, 0, 1, 0, 'k', 10, 0, 0, 0, '0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
		2, 1, 7, 0, 's', 'e', 'l', 'i', 'n', 'u', 'x',  /* security.selinux, out of line */
		8, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0,            /* -> value at offset 15 */
		0x30, 0x80,                                     /* id table block, 3 x 16 */
		0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0,
		10, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 20, 0, 0, 0,
		29, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 27, 0, 0, 0,
		0xf4, 0x01, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, /* header: kv at 500, 3 ids */
		0x2a, 0x02, 0, 0, 0, 0, 0, 0 };                 /* id block at 554 */
	CHECK(len == sizeof(want) && off == 104 && raw_len == 52);
	CHECK_BYTES(bytes, want, sizeof(want));
	free(bytes);
	struct sqfs_xattr_pair bad = { 3, 1, "x", 1, (const uint8_t *)"1" };
	CHECK(sqfs_xattr_writer_add(w, &bad, 1, &i1, &err) == -1);
	sqfs_xattr_writer_free(w);
}

/* Values over 128 bytes stand alone before the first set using them; their keys come after the
 * set's other keys and refer to them out of line (squashfs-tools' layout). */
static void test_xattr_large(void)
{
	struct sq_error err;
	struct sqfs_xattr_writer *w = sqfs_xattr_writer_new(NULL, NULL, true);
	uint8_t big[200];
	memset(big, 'Q', sizeof(big));
	struct sqfs_xattr_pair set1[2] = { { SQFS_XATTR_USER, 1, "q", 200, big },
					   { SQFS_XATTR_USER, 1, "r", 5, (const uint8_t *)"short" } };
	struct sqfs_xattr_pair set2 = { SQFS_XATTR_USER, 1, "s", 200, big };
	uint32_t i1 = 9, i2 = 9;
	CHECK(sqfs_xattr_writer_add(w, set1, 2, &i1, &err) == 0);
	CHECK(sqfs_xattr_writer_add(w, &set2, 1, &i2, &err) == 0);
	CHECK(i1 == 0 && i2 == 1);
	uint8_t *bytes;
	size_t len, off;
	uint64_t raw_len;
	CHECK(sqfs_xattr_writer_finish(w, 0, &bytes, &len, &off, &raw_len, &err) == 0);
	CHECK(raw_len == 204 + 14 + 17 + 17);
	CHECK_BYTES(bytes, "\xfc\x80\xc8\x00\x00\x00QQQQ", 10);
	const uint8_t *kv = bytes + 2;
	CHECK_BYTES(kv + 204, "\x00\x00\x01\x00r\x05\x00\x00\x00short", 14);
	CHECK_BYTES(kv + 218, "\x00\x01\x01\x00q\x08\x00\x00\x00\0\0\0\0\0\0\0\0", 17);
	CHECK_BYTES(kv + 235, "\x00\x01\x01\x00s\x08\x00\x00\x00\0\0\0\0\0\0\0\0", 17);
	const uint8_t *ids = kv + 252 + 2;
	CHECK(get_le64(ids) == 204 && get_le32(ids + 8) == 2 && get_le32(ids + 12) == 12 + 207);
	CHECK(get_le64(ids + 16) == 235 && get_le32(ids + 24) == 1 && get_le32(ids + 28) == 207);
	free(bytes);
	sqfs_xattr_writer_free(w);
}

int main(void)
{
	test_file_inodes();
	test_dir_inodes();
	test_special_inodes();
	test_meta_writer();
	test_tables();
	test_dir_small();
	test_dir_index();
	test_xattrs();
	test_xattr_large();
	return check_exit("encode_test");
}
