/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dec_unit.c — decoder unit checks on hand-built frames (headers, block types, errors) plus XXH64 and code tables. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/common/tables.h"
#include "common/util/xxhash64.h"
#include "codecs/zstd/zstd.h"
#include "tests/lib/check.h"
#include "tests/zstd/dec_util.h"

/* A frame under construction. */
struct buf {
	uint8_t b[1 << 16];
	size_t n;
};

static void put(struct buf *f, const void *p, size_t n)
{
	if (n == 0)
		return;
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void put8(struct buf *f, unsigned v)
{
	f->b[f->n++] = (uint8_t)v;
}

static void putle(struct buf *f, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		put8(f, (unsigned)(v >> (8 * i)) & 0xFF);
}

static void block_header(struct buf *f, int last, int type, size_t size)
{
	putle(f, (uint64_t)(last | (type << 1) | (size << 3)), 3);
}

/* Magic and a single-segment header with a content size of fcs_bytes (1, 2, 4 or 8). */
static void frame_start_ss(struct buf *f, uint64_t content, int fcs_bytes, int checksum)
{
	unsigned flag = fcs_bytes == 1 ? 0 : fcs_bytes == 2 ? 1 : fcs_bytes == 4 ? 2 : 3;

	putle(f, ZS_MAGIC, 4);
	put8(f, (flag << 6) | 0x20 | (checksum ? 4 : 0));
	putle(f, fcs_bytes == 2 ? content - 256 : content, fcs_bytes);
}

static ptrdiff_t decode(const struct buf *f, uint8_t *out, size_t cap, size_t max_window)
{
	static zs_dctx *d;

	if (d == NULL)
		d = zs_dctx_new();
	if (f == NULL) {
		zs_dctx_free(d);
		d = NULL;
		return 0;
	}
	return zs_decompress(d, f->b, f->n, out, cap, max_window);
}

static void test_xxh64(void)
{
	uint8_t data[1100];
	uint64_t x = 1;

	CHECK(sq_xxh64("", 0, 0) == 0xEF46DB3751D8E999ull, "XXH64 of empty input");
	CHECK(sq_xxh64("abc", 3, 0) == 0x44BC2CF5AD770999ull, "XXH64 of abc");
	for (size_t i = 0; i < sizeof(data); i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		data[i] = (uint8_t)(x >> 56);
	}
	for (size_t len = 0; len < sizeof(data); len += len < 70 ? 1 : 97) {
		struct sq_xxh64_state st;
		size_t done = 0, step = 1;

		sq_xxh64_init(&st, 7);
		while (done < len) {
			size_t k = step < len - done ? step : len - done;

			sq_xxh64_update(&st, data + done, k);
			done += k;
			step = step * 3 % 41 + 1;
		}
		CHECK(sq_xxh64_digest(&st) == sq_xxh64(data, len, 7), "streaming XXH64, len %zu", len);
	}
}

static void test_code_tables(void)
{
	for (uint32_t l = 0; l < 131072; l++) {
		unsigned c = zs_ll_code(l);

		if (c > ZS_LL_MAX_CODE || l < zs_ll_base[c] || l - zs_ll_base[c] >= (1u << zs_ll_bits[c])) {
			CHECK(0, "literal length %u gets code %u", l, c);
			break;
		}
	}
	for (uint32_t m = 3; m < 131075; m++) {
		unsigned c = zs_ml_code(m);

		if (c > ZS_ML_MAX_CODE || m < zs_ml_base[c] || m - zs_ml_base[c] >= (1u << zs_ml_bits[c])) {
			CHECK(0, "match length %u gets code %u", m, c);
			break;
		}
	}
	int sum_ll = 0, sum_ml = 0, sum_of = 0;

	for (unsigned i = 0; i <= ZS_LL_MAX_CODE; i++)
		sum_ll += zs_ll_default_norm[i] < 0 ? 1 : zs_ll_default_norm[i];
	for (unsigned i = 0; i <= ZS_ML_MAX_CODE; i++)
		sum_ml += zs_ml_default_norm[i] < 0 ? 1 : zs_ml_default_norm[i];
	for (unsigned i = 0; i <= ZS_OF_DEFAULT_MAX_CODE; i++)
		sum_of += zs_of_default_norm[i] < 0 ? 1 : zs_of_default_norm[i];
	CHECK(sum_ll == 64 && sum_ml == 64 && sum_of == 32, "default distributions sum to 2^log");
}

static void test_headers(void)
{
	static uint8_t out[70000];
	uint8_t text[300];
	struct buf f;
	ptrdiff_t r;

	dec_alphabet(text, sizeof(text));

	/* Every content-size width. */
	const int widths[] = { 1, 2, 4, 8 };

	for (int w = 0; w < 4; w++) {
		size_t len = widths[w] == 1 ? 200 : 300;

		f.n = 0;
		frame_start_ss(&f, len, widths[w], 0);
		block_header(&f, 1, ZS_BLOCK_RAW, len);
		put(&f, text, len);
		r = decode(&f, out, sizeof(out), 0);
		CHECK(r == (ptrdiff_t)len && memcmp(out, text, len) == 0, "FCS width %d: %td", widths[w], r);
	}

	/* Window descriptor, no content size, every dictionary id width with id 0. */
	for (int did = 0; did < 4; did++) {
		static const int did_bytes[4] = { 0, 1, 2, 4 };

		f.n = 0;
		putle(&f, ZS_MAGIC, 4);
		put8(&f, (unsigned)did);
		put8(&f, 0x50); /* window 2^(10+10) */
		putle(&f, 0, did_bytes[did]);
		block_header(&f, 0, ZS_BLOCK_RLE, 1000);
		put8(&f, 'x');
		block_header(&f, 1, ZS_BLOCK_RAW, 5);
		put(&f, "tail.", 5);
		r = decode(&f, out, sizeof(out), 0);
		CHECK(r == 1005 && out[0] == 'x' && out[999] == 'x' && memcmp(out + 1000, "tail.", 5) == 0,
		      "window descriptor, dictionary id width %d: %td", did_bytes[did], r);
		if (did) {
			f.b[6] = 1; /* a real dictionary id */
			r = decode(&f, out, sizeof(out), 0);
			CHECK(r == ZS_ERR_DICTIONARY, "dictionary frame refused: %td", r);
		}
	}

	/* max_window: a 1 MiB window refused under a 64 KiB limit, accepted at 1 MiB. */
	f.n = 0;
	putle(&f, ZS_MAGIC, 4);
	put8(&f, 0);
	put8(&f, 0x50);
	block_header(&f, 1, ZS_BLOCK_RAW, 3);
	put(&f, "abc", 3);
	CHECK(decode(&f, out, sizeof(out), 65536) == ZS_ERR_WINDOW_TOO_LARGE, "window over max_window");
	CHECK(decode(&f, out, sizeof(out), 1u << 20) == 3, "window at max_window");

	/* Reserved header bit. */
	f.b[4] |= 0x08;
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_FRAME_HEADER, "reserved frame header bit");

	/* A block larger than a small window (1 KiB). */
	f.n = 0;
	putle(&f, ZS_MAGIC, 4);
	put8(&f, 0);
	put8(&f, 0x00);
	block_header(&f, 1, ZS_BLOCK_RLE, 2048);
	put8(&f, 'y');
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_BLOCK_SIZE, "block over the window");

	/* Reserved block type. */
	f.n = 0;
	frame_start_ss(&f, 3, 1, 0);
	block_header(&f, 1, ZS_BLOCK_RESERVED, 3);
	put(&f, "abc", 3);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_BLOCK_TYPE, "reserved block type");

	/* Content size mismatch. */
	f.n = 0;
	frame_start_ss(&f, 4, 1, 0);
	block_header(&f, 1, ZS_BLOCK_RAW, 3);
	put(&f, "abc", 3);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_CONTENT_SIZE, "content size mismatch");

}

/* Checksums, concatenated and skippable frames, garbage and trailing bytes, an empty frame. */
static void test_frames(void)
{
	struct buf f;
	ptrdiff_t r;
	static uint8_t out[70000];
	uint8_t text[300];

	dec_alphabet(text, sizeof(text));

	/* Checksums: right, wrong, missing. */
	f.n = 0;
	frame_start_ss(&f, 26, 1, 1);
	block_header(&f, 1, ZS_BLOCK_RAW, 26);
	put(&f, text, 26);
	putle(&f, (uint32_t)sq_xxh64(text, 26, 0), 4);
	CHECK(decode(&f, out, sizeof(out), 0) == 26, "valid checksum");
	f.b[f.n - 1] ^= 1;
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_CHECKSUM, "bad checksum");
	f.n -= 4;
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SRC_TRUNCATED, "missing checksum");

	/* Concatenated frames around skippable frames; output room exactly right, then short. */
	f.n = 0;
	putle(&f, ZS_SKIPPABLE_MAGIC + 3, 4);
	putle(&f, 5, 4);
	put(&f, "JUNK!", 5);
	frame_start_ss(&f, 3, 1, 0);
	block_header(&f, 1, ZS_BLOCK_RAW, 3);
	put(&f, "one", 3);
	putle(&f, ZS_SKIPPABLE_MAGIC + 15, 4);
	putle(&f, 0, 4);
	frame_start_ss(&f, 3, 1, 0);
	block_header(&f, 1, ZS_BLOCK_RAW, 3);
	put(&f, "two", 3);
	r = decode(&f, out, 6, 0);
	CHECK(r == 6 && memcmp(out, "onetwo", 6) == 0, "concatenated and skippable frames: %td", r);
	CHECK(decode(&f, out, 5, 0) == ZS_ERR_DST_TOO_SMALL, "second frame without room");
	f.n -= 1;
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SRC_TRUNCATED, "truncated last frame");

	/* Skippable frame claiming more than there is. */
	f.n = 0;
	putle(&f, ZS_SKIPPABLE_MAGIC, 4);
	putle(&f, 100, 4);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SRC_TRUNCATED, "short skippable frame");

	/* Garbage, empty input, a bare magic, trailing bytes. */
	f.n = 0;
	put(&f, "hello world", 11);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_BAD_MAGIC, "bad magic");
	f.n = 0;
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SRC_TRUNCATED, "empty input");
	putle(&f, ZS_MAGIC, 4);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SRC_TRUNCATED, "magic only");
	f.n = 0;
	frame_start_ss(&f, 3, 1, 0);
	block_header(&f, 1, ZS_BLOCK_RAW, 3);
	put(&f, "abc", 3);
	put(&f, "xy", 2);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SRC_TRUNCATED, "trailing bytes");

	/* An empty frame (content size 0, one empty raw block) into a NULL buffer. */
	f.n = 0;
	frame_start_ss(&f, 0, 1, 0);
	block_header(&f, 1, ZS_BLOCK_RAW, 0);
	CHECK(decode(&f, NULL, 0, 0) == 0, "empty frame");
}

/* A compressed block with raw literals and a hand-written sequences section, in a frame with
 * a 1 KiB window and no content size (single-segment would cap the block at the content size). */
static void compressed_frame(struct buf *f, size_t content, const uint8_t *lits, size_t nlits,
			     const uint8_t *seq, size_t seq_len)
{
	(void)content;
	f->n = 0;
	putle(f, ZS_MAGIC, 4);
	put8(f, 0);
	put8(f, 0);
	block_header(f, 1, ZS_BLOCK_COMPRESSED, 1 + nlits + seq_len);
	put8(f, (unsigned)(nlits << 3)); /* raw literals, 1-byte header */
	put(f, lits, nlits);
	put(f, seq, seq_len);
}

static void test_sequences(void)
{
	static uint8_t out[1024];
	struct buf f;
	ptrdiff_t r;

	/* One sequence with RLE tables: LL code 4 (4), OF code 2 + 2 bits '11' (offset 4),
	 * ML code 2 (5): "abcd" + 5 bytes from 4 back. */
	const uint8_t one[] = { 1, 0x54, 4, 2, 2, 0x07 };

	compressed_frame(&f, 9, (const uint8_t *)"abcd", 4, one, sizeof(one));
	r = decode(&f, out, sizeof(out), 0);
	CHECK(r == 9 && memcmp(out, "abcdabcda", 9) == 0, "RLE-mode sequence: %td", r);

	/* Same in the 2-byte count form. */
	const uint8_t one2[] = { 0x80, 1, 0x54, 4, 2, 2, 0x07 };

	compressed_frame(&f, 9, (const uint8_t *)"abcd", 4, one2, sizeof(one2));
	CHECK(decode(&f, out, sizeof(out), 0) == 9, "2-byte sequence count");

	/* Reserved bits in Symbol_Compression_Modes. */
	const uint8_t resv[] = { 1, 0x55, 4, 2, 2, 0x07 };

	compressed_frame(&f, 9, (const uint8_t *)"abcd", 4, resv, sizeof(resv));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SEQ_HEADER, "reserved mode bits");

	/* RLE symbol beyond the alphabet (LL 36). */
	const uint8_t badrle[] = { 1, 0x54, 36, 2, 2, 0x07 };

	compressed_frame(&f, 9, (const uint8_t *)"abcd", 4, badrle, sizeof(badrle));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SEQ_HEADER, "RLE literal-length code 36");

	/* Repeat mode in the first block: no table to repeat. */
	const uint8_t rep[] = { 1, 0xFC, 0x07 };

	compressed_frame(&f, 9, (const uint8_t *)"abcd", 4, rep, sizeof(rep));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_NO_SEQ_TABLE, "repeat mode without table");

	/* Offset 4 but only 3 literals before the match. LL code 3. */
	const uint8_t far[] = { 1, 0x54, 3, 2, 2, 0x07 };

	compressed_frame(&f, 8, (const uint8_t *)"abc", 3, far, sizeof(far));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_OFFSET, "offset before the frame start");

	/* Literal length 4 with 3 literals. */
	compressed_frame(&f, 9, (const uint8_t *)"abc", 3, one, sizeof(one));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_LITERAL_LENGTH, "more literals than decoded");

	/* Literal length 0 and offset value 3 (code 1 + bit 1): rep0 - 1 = 0 is invalid. */
	const uint8_t off0[] = { 1, 0x54, 0, 1, 0, 0x03 };

	compressed_frame(&f, 3, NULL, 0, off0, sizeof(off0));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_OFFSET, "computed offset 0");

	/* Bits left over in the sequence stream. */
	const uint8_t extra[] = { 1, 0x54, 4, 2, 2, 0x1F };

	compressed_frame(&f, 9, (const uint8_t *)"abcd", 4, extra, sizeof(extra));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SEQ_STREAM, "unconsumed sequence bits");
}

/* The sequence section's edge cases: no sequences, missing tables, tight room, odd tables. */
static void test_sequence_edges(void)
{
	static uint8_t out[1024];
	struct buf f;
	ptrdiff_t r;
	const uint8_t one[] = { 1, 0x54, 4, 2, 2, 0x07 };

	/* Zero sequences in the 1-, 2- and 3-byte forms; bytes after them are an error. */
	const uint8_t zero1[] = { 0 }, zero2[] = { 0x80, 0 }, zero_extra[] = { 0, 0 };

	compressed_frame(&f, 4, (const uint8_t *)"abcd", 4, zero1, 1);
	CHECK(decode(&f, out, sizeof(out), 0) == 4, "zero sequences, 1 byte");
	compressed_frame(&f, 4, (const uint8_t *)"abcd", 4, zero2, 2);
	CHECK(decode(&f, out, sizeof(out), 0) == 4, "zero sequences, 2 bytes");
	compressed_frame(&f, 4, (const uint8_t *)"abcd", 4, zero_extra, 2);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_SEQ_HEADER, "bytes after zero sequences");

	/* Treeless literals in the first block. */
	const uint8_t treeless[] = { 0x03 | (4 << 4), 0x00, 0x00 };

	f.n = 0;
	putle(&f, ZS_MAGIC, 4);
	put8(&f, 0);
	put8(&f, 0);
	block_header(&f, 1, ZS_BLOCK_COMPRESSED, sizeof(treeless) + 1);
	put(&f, treeless, sizeof(treeless));
	put8(&f, 0);
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_NO_HUFFMAN_TABLE, "treeless without table");

	/* Output room ending inside the match: refused, and nothing written past the end is
	 * ASan's to notice. */
	compressed_frame(&f, 9, (const uint8_t *)"abcd", 4, one, sizeof(one));
	uint8_t *tight = malloc(8);

	CHECK(tight && decode(&f, tight, 8, 0) == ZS_ERR_DST_TOO_SMALL, "no room for the match");
	free(tight);

	/* An FSE literal-length table whose 32 cells all go to "less than 1" symbols (an
	 * all-zero description: 32 counts of -1 at log 5). Symbols fill the cells from the top,
	 * so state 28 is LL code 3; OF and ML predefined, states 0 (codes 0): 3 literals, then
	 * repeat offset 1 for 3 bytes. */
	uint8_t lowprob[2 + 15 + 3] = { 1, 0x80 };

	lowprob[17] = 0x00; /* the bitstream: marker, LL state 28, OF state 0, ML state 0 */
	lowprob[18] = 0xE0;
	lowprob[19] = 0x01;
	compressed_frame(&f, 6, (const uint8_t *)"abc", 3, lowprob, sizeof(lowprob));
	r = decode(&f, out, sizeof(out), 0);
	CHECK(r == 6 && memcmp(out, "abcccc", 6) == 0, "FSE table of only less-than-1 symbols: %td", r);

	/* A single-segment frame's window is its content size: a compressed block larger than
	 * that is refused even when it would decode (the reference decoder does the same). */
	f.n = 0;
	frame_start_ss(&f, 9, 1, 0);
	block_header(&f, 1, ZS_BLOCK_COMPRESSED, 1 + 4 + sizeof(one));
	put8(&f, 4 << 3);
	put(&f, "abcd", 4);
	put(&f, one, sizeof(one));
	CHECK(decode(&f, out, sizeof(out), 0) == ZS_ERR_BLOCK_SIZE, "compressed block over the window");
}

/* Matches at every short offset (the decoder repeats patterns below 16 bytes in its own way,
 * and runs of one byte as a memset), of lengths around its copy widths, through our encoder,
 * decoded into exactly the room they need (the end of the room takes the careful path). */
static void test_short_offsets(void)
{
	static const size_t runs[] = { 4, 9, 17, 31, 33, 64, 65, 70, 300, 5000 };
	uint8_t *in = malloc(8192), *z = malloc(zs_compress_bound(8192)), *back = malloc(8192);
	zs_dctx *d = zs_dctx_new();
	zs_cctx *c1 = zs_cctx_new(1, 8192), *c19 = zs_cctx_new(19, 8192);
	uint32_t seed = 12345;

	if (!in || !z || !back || !d || !c1 || !c19) {
		CHECK(0, "out of memory");
		return;
	}
	for (size_t period = 1; period <= 40; period++) {
		for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
			size_t len = 0;

			for (size_t i = 0; i < 20 + period; i++) {
				seed = seed * 1103515245u + 12345u;
				in[len++] = (uint8_t)(seed >> 24);
			}
			for (size_t i = 0; i < runs[r]; i++, len++)
				in[len] = in[len - period];
			/* A tail longer than the wild copies' slack: the run itself takes the fast path. */
			for (size_t i = 0; i < 48; i++)
				in[len++] = (uint8_t)(i * 37);
			for (int lv = 0; lv < 2; lv++) {
				ptrdiff_t n = zs_compress(lv ? c19 : c1, in, len, z, zs_compress_bound(len), 0);
				ptrdiff_t got = n < 0 ? n : zs_decompress(d, z, (size_t)n, back, len, len);

				CHECK(got == (ptrdiff_t)len && memcmp(back, in, len) == 0,
				      "period %zu run %zu level %d: %td", period, runs[r], lv ? 19 : 1, got);
			}
		}
	}
	zs_cctx_free(c1);
	zs_cctx_free(c19);
	zs_dctx_free(d);
	free(in);
	free(z);
	free(back);
}

int main(void)
{
	test_xxh64();
	test_code_tables();
	test_headers();
	test_frames();
	test_sequences();
	test_sequence_edges();
	test_short_offsets();
	decode(NULL, NULL, 0, 0);
	return check_exit("zstd/dec_unit");
}
