/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar_decode_test.c — the tar reader's decoders on good and hostile bytes: octal and base-256
 * numbers, header checksums, ustar/GNU headers, old GNU sparse extension blocks, pax records
 * (xattrs, times, GNU sparse 0.0/0.1), the sparse 1.0 map text and sparse map checks. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mksquashfs/tar/header.h"
#include "mksquashfs/tar/pax.h"
#include "tests/lib/check.h"

static int64_t num(const char *field, size_t len, int *rc)
{
	int64_t v = -12345;
	*rc = tar_number((const uint8_t *)field, len, &v);
	return v;
}

static void test_octal(void)
{
	int rc;
	CHECK(num("0000644\0", 8, &rc) == 0644 && rc == 0, "plain octal");
	CHECK(num("   644 \0", 8, &rc) == 0644 && rc == 0, "leading spaces, trailing space");
	CHECK(num("\0\0\0\0\0\0\0\0", 8, &rc) == 0 && rc == 0, "all NUL reads as 0");
	CHECK(num("        ", 8, &rc) == 0 && rc == 0, "all blank reads as 0");
	CHECK(num("77777777777\0", 12, &rc) == 077777777777LL && rc == 0, "largest 11-digit size");
	num("0000x44\0", 8, &rc);
	CHECK(rc == -1, "a non-octal digit is refused");
	num("644 1\0\0\0", 8, &rc);
	CHECK(rc == -1, "digits after the terminator are refused");
	num("0000000000000000000000000", 24, &rc);
	CHECK(rc == 0, "many zeros fit");
	num("7777777777777777777777", 22, &rc);
	CHECK(rc == -1, "an octal value over 63 bits is refused");
	CHECK(num("8", 1, &rc) == -12345 && rc == -1, "8 is not octal");
}

static void test_base256(void)
{
	int rc;
	/* 8 GiB + 1 as GNU tar writes sizes over 077777777777. */
	uint8_t size[12] = { 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0x01 };
	CHECK(num((const char *)size, 12, &rc) == 0x200000001LL && rc == 0, "base-256 8 GiB + 1");
	uint8_t minus1[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	CHECK(num((const char *)minus1, 8, &rc) == -1 && rc == 0, "base-256 -1");
	uint8_t minus256[12] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00 };
	CHECK(num((const char *)minus256, 12, &rc) == -256 && rc == 0, "base-256 -256");
	uint8_t huge[12] = { 0x80, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0 };
	num((const char *)huge, 12, &rc);
	CHECK(rc == -1, "a base-256 value over 63 bits is refused");
	uint8_t max[12] = { 0x80, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	CHECK(num((const char *)max, 12, &rc) == INT64_MAX && rc == 0, "INT64_MAX fits");
	uint64_t u;
	CHECK(tar_unsigned(minus1, 8, &u) == -1, "a negative size is refused");
	uint8_t big_id[8] = { 0x80, 0, 0, 0, 0xee, 0x6b, 0x28, 0x00 };
	CHECK(tar_unsigned(big_id, 8, &u) == 0 && u == 4000000000ULL, "uid 4000000000 in base-256");
}

/* A ustar header with a good checksum. */
static void make_header(uint8_t *b, const char *name, char type, const char *size_octal,
			bool gnu)
{
	memset(b, 0, TAR_BLOCK);
	memcpy(b, name, strlen(name) < 100 ? strlen(name) : 100);
	memcpy(b + 100, "0000644", 8);
	memcpy(b + 108, "0001750", 8);
	memcpy(b + 116, "0001750", 8);
	memcpy(b + 124, size_octal, strlen(size_octal));
	memcpy(b + 136, "14000000000", 12);
	b[156] = (uint8_t)type;
	memcpy(b + 257, gnu ? "ustar  \0" : "ustar\00000", 8);
	memcpy(b + 265, "alice", 5);
	memcpy(b + 297, "staff", 5);
	unsigned sum = 0;
	memset(b + 148, ' ', 8);
	for (int i = 0; i < (int)TAR_BLOCK; i++)
		sum += b[i];
	snprintf((char *)b + 148, 8, "%06o", sum);
}

static void test_header(void)
{
	uint8_t b[TAR_BLOCK];
	struct tar_header h;
	const char *why = NULL;
	make_header(b, "dir/file.txt", '0', "00000001234", false);
	CHECK(tar_checksum_ok(b), "checksum of a made header");
	CHECK(tar_header_decode(b, &h, &why) == 0, "decode: %s", why ? why : "");
	CHECK(h.format == TAR_USTAR && h.type == '0' && strcmp(h.name, "dir/file.txt") == 0,
	      "name %s", h.name);
	CHECK(h.size == 01234 && h.mode == 0644 && h.uid == 01750 && h.mtime == 014000000000LL,
	      "numbers");
	CHECK(strcmp(h.uname, "alice") == 0 && strcmp(h.gname, "staff") == 0, "owner names");

	/* The ustar prefix joins the name with '/'. */
	memcpy(b + 345, "some/prefix", 11);
	memset(b + 148, ' ', 8);
	unsigned sum = 0;
	for (int i = 0; i < (int)TAR_BLOCK; i++)
		sum += b[i];
	snprintf((char *)b + 148, 8, "%06o", sum);
	CHECK(tar_header_decode(b, &h, &why) == 0 && strcmp(h.name, "some/prefix/dir/file.txt") == 0,
	      "prefix: %s", h.name);

	b[0] ^= 1;
	CHECK(!tar_checksum_ok(b), "one changed byte breaks the checksum");
	b[0] ^= 1;
	/* Old writers summed signed bytes: a byte over 127 counts negative. */
	b[1] = 0xe9;
	memset(b + 148, ' ', 8);
	int ssum = 0;
	for (int i = 0; i < (int)TAR_BLOCK; i++)
		ssum += (int8_t)b[i];
	snprintf((char *)b + 148, 8, "%06o", (unsigned)ssum);
	CHECK(tar_checksum_ok(b), "a signed-byte checksum is accepted");

	make_header(b, "f", '0', "0000000x234", false);
	CHECK(tar_header_decode(b, &h, &why) == -1 && strstr(why, "size") != NULL,
	      "a bad size field is named: %s", why);
	uint8_t zero[TAR_BLOCK] = { 0 };
	CHECK(tar_block_is_zero(zero) && !tar_block_is_zero(b), "zero blocks");

	/* GNU: the prefix area is not a name prefix; 'S' carries a sparse map. */
	make_header(b, "sparse", 'S', "00000002000", true);
	memcpy(b + 345, "garbage!", 8);
	memcpy(b + 386, "00000000000\0" "00000001000\0", 24);
	memcpy(b + 410, "00000100000\0" "00000001000\0", 24);
	b[482] = 1;
	memcpy(b + 483, "00000200000\0", 12);
	memset(b + 148, ' ', 8);
	sum = 0;
	for (int i = 0; i < (int)TAR_BLOCK; i++)
		sum += b[i];
	snprintf((char *)b + 148, 8, "%06o", sum);
	CHECK(tar_header_decode(b, &h, &why) == 0, "GNU sparse: %s", why ? why : "");
	CHECK(h.format == TAR_GNU && strcmp(h.name, "sparse") == 0, "GNU name without prefix");
	CHECK(h.sparse_count == 2 && h.sparse[1].offset == 0100000 && h.sparse[1].length == 01000 &&
	      h.sparse_extended && h.realsize == 0200000, "GNU sparse map in the header");

	uint8_t ext[TAR_BLOCK] = { 0 };
	memcpy(ext, "00000300000\0" "00000000010\0", 24);
	struct tar_sparse_entry e[TAR_GNU_SPARSE_IN_EXT];
	unsigned n = 0;
	bool more = true;
	CHECK(tar_sparse_ext_decode(ext, e, &n, &more, &why) == 0 && n == 1 && !more &&
	      e[0].offset == 0300000 && e[0].length == 010, "extension block");
	memcpy(ext + 24, "0000zz00000\0" "00000000010\0", 24);
	CHECK(tar_sparse_ext_decode(ext, e, &n, &more, &why) == -1, "bad extension entry refused");
}

static int parse(struct tar_ext *e, const char *text, const char **why)
{
	return pax_parse(e, (const uint8_t *)text, strlen(text), why);
}

/* Append one "LEN key=value\n" record (value may hold any byte but NUL here), LEN computed. */
static void rec(char *buf, size_t cap, const char *kv)
{
	size_t body = strlen(kv) + 2; /* ' ' and '\n' */
	size_t len = body + 1;
	while (len != body + (size_t)snprintf(NULL, 0, "%zu", len))
		len = body + (size_t)snprintf(NULL, 0, "%zu", len);
	size_t at = strlen(buf);
	snprintf(buf + at, cap - at, "%zu %s\n", len, kv);
}

static void test_pax(void)
{
	struct tar_ext e;
	memset(&e, 0, sizeof(e));
	const char *why = NULL;
	char good[1024] = "";
	const char *kvs[] = { "mtime=1700000000.123456789", "path=a/long/path",
			      "linkpath=target/x", "size=8589934593", "uid=4000000", "gid=100",
			      "uname=alice", "SCHILY.xattr.user.k=v\n",
			      "LIBARCHIVE.xattr.user.a%3Db=aGVsbG8=", "ctime=1.5 ignored" };
	for (size_t i = 0; i < sizeof(kvs) / sizeof(kvs[0]); i++)
		rec(good, sizeof(good), kvs[i]);
	CHECK(parse(&e, good, &why) == 0, "good records: %s", why ? why : "");
	CHECK(e.has_mtime && e.mtime == 1700000000, "mtime with a fraction rounds down");
	CHECK(e.path && strcmp(e.path, "a/long/path") == 0, "path");
	CHECK(e.linkpath && strcmp(e.linkpath, "target/x") == 0, "linkpath");
	CHECK(e.has_size && e.size == 8589934593ULL, "size over 8 GiB");
	CHECK(e.has_uid && e.uid == 4000000 && e.gid == 100, "ids");
	CHECK(e.uname && strcmp(e.uname, "alice") == 0 && e.gname == NULL, "uname");
	CHECK(e.xattr_count == 2, "two xattrs, got %zu", e.xattr_count);
	if (e.xattr_count == 2) {
		CHECK(strcmp(e.xattrs[0].name, "user.k") == 0 && e.xattrs[0].len == 2 &&
		      memcmp(e.xattrs[0].value, "v\n", 2) == 0, "SCHILY value is raw (newline kept)");
		CHECK(strcmp(e.xattrs[1].name, "user.a=b") == 0 && e.xattrs[1].len == 5 &&
		      memcmp(e.xattrs[1].value, "hello", 5) == 0, "LIBARCHIVE name unescaped, base64");
	}
	/* The same xattr again replaces the value. */
	char again[128] = "";
	rec(again, sizeof(again), "SCHILY.xattr.user.k=second");
	CHECK(parse(&e, again, &why) == 0 && e.xattr_count == 2 && e.xattrs[0].len == 6,
	      "a repeated xattr replaces");
	CHECK(parse(&e, "8 path=\n", &why) == 0 && e.path == NULL, "an empty value unsets");
	tar_ext_clear(&e);

	const char *bad[] = {
		"99 path=x\n",               /* length past the end */
		"3 p\n",                     /* too short */
		"10 path=xy",                /* no newline */
		"11 pathxyz\n\n",            /* no '=' */
		"x path=y\n",                /* no length */
		"14 size=12a45\n",           /* bad number */
		"29 size=99999999999999999999\n", /* over 64 bits */
		"16 mtime=12.3.4\n",         /* bad time */
		"38 LIBARCHIVE.xattr.user.k=not*base64\n",
		"32 LIBARCHIVE.xattr.user.%zz=AA\n",
		"26 GNU.sparse.numbytes=10\n", /* numbytes without offset */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&e, 0, sizeof(e));
		why = NULL;
		CHECK(parse(&e, bad[i], &why) == -1 && why != NULL, "bad record %zu refused", i);
		tar_ext_clear(&e);
	}

	memset(&e, 0, sizeof(e));
	char sp[512] = "";
	const char *v00[] = { "GNU.sparse.size=300", "GNU.sparse.numblocks=2", "GNU.sparse.offset=0",
			      "GNU.sparse.numbytes=10", "GNU.sparse.offset=200",
			      "GNU.sparse.numbytes=20" };
	for (size_t i = 0; i < 6; i++)
		rec(sp, sizeof(sp), v00[i]);
	CHECK(parse(&e, sp, &why) == 0, "sparse 0.0: %s", why ? why : "");
	CHECK(e.sparse && !e.sparse_v1 && e.realsize == 300 && e.map.count == 2 &&
	      e.map.e[1].offset == 200 && e.map.e[1].length == 20, "sparse 0.0 map");
	tar_ext_clear(&e);
	memset(&e, 0, sizeof(e));
	sp[0] = '\0';
	rec(sp, sizeof(sp), "GNU.sparse.map=0,10,200,20,300,0");
	CHECK(parse(&e, sp, &why) == 0 && e.map.count == 3 && e.map.e[2].offset == 300,
	      "sparse 0.1 map");
	tar_ext_clear(&e);
	memset(&e, 0, sizeof(e));
	sp[0] = '\0';
	const char *v10[] = { "GNU.sparse.major=1", "GNU.sparse.minor=0", "GNU.sparse.name=real",
			      "GNU.sparse.realsize=4096" };
	for (size_t i = 0; i < 4; i++)
		rec(sp, sizeof(sp), v10[i]);
	CHECK(parse(&e, sp, &why) == 0 && e.sparse_v1 && e.sparse_name &&
	      strcmp(e.sparse_name, "real") == 0 &&
	      e.realsize == 4096, "sparse 1.0 keys");
	tar_ext_clear(&e);

	int64_t t;
	CHECK(pax_time("-1.5", 4, &t) == 0 && t == -2, "-1.5 rounds down to -2");
	CHECK(pax_time("-3", 2, &t) == 0 && t == -3, "negative whole");
	CHECK(pax_time("5.", 2, &t) == 0 && t == 5, "empty fraction");
	CHECK(pax_time("", 0, &t) == -1 && pax_time("-", 1, &t) == -1, "empty time refused");
	uint64_t u;
	CHECK(pax_decimal("18446744073709551615", 20, &u) == 0 && u == UINT64_MAX, "UINT64_MAX");
	CHECK(pax_decimal("18446744073709551616", 20, &u) == -1, "UINT64_MAX + 1 refused");
}

static void test_sparse_text(void)
{
	struct sparse_map m = { 0 };
	struct sparse_text t;
	sparse_text_init(&t);
	const char *text = "3\n0\n512\n4096\n100\n8192\n0\nDATA";
	const char *why = NULL;
	size_t used = 0, total = 0;
	int rc = 0;
	/* Fed a byte at a time: numbers split across reads. */
	for (size_t i = 0; i < strlen(text) && rc == 0; i++) {
		rc = sparse_text_feed(&t, &m, (const uint8_t *)text + i, 1, &used, &why);
		total += used;
	}
	CHECK(rc == 1 && total == strlen(text) - 4, "map complete before the data (%d, %zu)", rc, total);
	CHECK(m.count == 3 && m.e[1].offset == 4096 && m.e[1].length == 100 && m.e[2].length == 0,
	      "map entries");
	CHECK(sparse_map_check(&m, 8192, 612) == NULL, "a good map");
	CHECK(sparse_map_check(&m, 8191, 612) != NULL, "segment past the real size");
	CHECK(sparse_map_check(&m, 8192, 613) != NULL, "lengths not adding up");
	sparse_map_free(&m);

	struct sparse_map m2 = { 0 };
	sparse_map_add(&m2, 100, 10);
	sparse_map_add(&m2, 50, 10);
	CHECK(sparse_map_check(&m2, 1000, 20) != NULL, "segments out of order");
	sparse_map_free(&m2);
	sparse_map_add(&m2, UINT64_MAX - 5, 10);
	CHECK(sparse_map_check(&m2, UINT64_MAX, 10) != NULL, "offset + length overflow");
	sparse_map_free(&m2);

	const char *bads[] = { "2\n1x\n", "\n", "1\n99999999999999999999999\n" };
	for (size_t i = 0; i < 3; i++) {
		sparse_text_init(&t);
		CHECK(sparse_text_feed(&t, &m, (const uint8_t *)bads[i], strlen(bads[i]), &used, &why) == -1,
		      "bad map text %zu refused", i);
		sparse_map_free(&m);
	}
	/* A huge count does not allocate: entries come only as their text is read. */
	sparse_text_init(&t);
	CHECK(sparse_text_feed(&t, &m, (const uint8_t *)"1000000000000\n", 14, &used, &why) == 0 &&
	      m.cap == 0, "huge count needs more text, allocates nothing");
	sparse_map_free(&m);
}

int main(void)
{
	test_octal();
	test_base256();
	test_header();
	test_pax();
	test_sparse_text();
	return check_exit("tar_decode_test");
}
