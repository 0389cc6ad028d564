/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* data_test.c — the data stage end to end without the table writer: scan a generated tree,
 * write its data, then rebuild every file from the image's blocks and fragments and compare;
 * images must be byte-identical whatever the thread count, duplicates stored once, zero
 * blocks sparse. */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/format.h"
#include "mksquashfs/build.h"
#include "mksquashfs/data.h"
#include "mksquashfs/options.h"
#include "mksquashfs/build.h"
#include "mksquashfs/scan.h"
#include "tests/lib/check.h"


static char dir[256];

static void put_file(const char *name, const uint8_t *data, size_t len, size_t hole_at,
		     size_t hole_len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/src/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	if (hole_len == 0) {
		if (write(fd, data, len) != (ssize_t)len)
			exit(1);
	} else {
		if (write(fd, data, hole_at) != (ssize_t)hole_at)
			exit(1);
		if (ftruncate(fd, (off_t)(hole_at + hole_len)) != 0 ||
		    lseek(fd, 0, SEEK_END) < 0)
			exit(1);
		if (write(fd, data + hole_at + hole_len, len - hole_at - hole_len) !=
		    (ssize_t)(len - hole_at - hole_len))
			exit(1);
	}
	close(fd);
}

static uint8_t *read_whole(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		return NULL;
	uint8_t *buf = malloc((size_t)st.st_size + 1);
	if (read(fd, buf, (size_t)st.st_size) != st.st_size) {
		close(fd);
		free(buf);
		return NULL;
	}
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

/* Stored block -> its bytes. */
static int load_block(const struct codec *codec, void *state, const uint8_t *img, size_t img_len,
		      uint64_t at, uint32_t word, uint8_t *dst, size_t cap, size_t *got)
{
	size_t len = word & SQFS_DATA_SIZE_MASK;
	if (at + len > img_len)
		return -1;
	if (word & SQFS_DATA_UNCOMPRESSED) {
		if (len > cap)
			return -1;
		memcpy(dst, img + at, len);
		*got = len;
		return 0;
	}
	const char *why = NULL;
	ptrdiff_t n = codec->decompress(state, img + at, len, dst, cap, &why);
	if (n < 0)
		return -1;
	*got = (size_t)n;
	return 0;
}

struct run {
	struct mksq_options o;
	struct tree tree;
	struct file_list files;
	struct data_stats stats;
	struct fragment_entry *frags;
	uint32_t frag_count;
	uint8_t *img;
	size_t img_len;
};

static int run_once(struct run *r, const char *extra_opt, unsigned workers, unsigned slots)
{
	char src[300], imgpath[300];
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(imgpath, sizeof(imgpath), "%s/out.img", dir);
	char *argv[] = { "mksquashfs", src, imgpath, "-b", "4096", "-noappend",
			 (char *)extra_opt, NULL };
	int argc = extra_opt ? 7 : 6;
	enum options_action action;
	struct sq_error err;
	sq_error_clear(&err);
	memset(r, 0, sizeof(*r));
	if (options_parse(&r->o, argc, argv, NULL, 1000, &action, &err) != 0) {
		fprintf(stderr, "options: %s\n", err.msg);
		return -1;
	}
	struct exclude_list x;
	exclude_init(&x, NULL, 0, false, false, NULL, 0, &err);
	struct scan_stats ss;
	if (build_tree(&r->o, &x, NULL, &r->tree, &r->files, &ss, NULL, NULL, &err) != 0) {
		fprintf(stderr, "scan: %s\n", err.msg);
		return -1;
	}
	exclude_free(&x);
	struct image_out out;
	if (image_out_open(&out, imgpath, &err) != 0)
		return -1;
	uint8_t header[96] = { 0 };
	image_out_write(&out, header, sizeof(header), &err);
	struct data_config cfg = { .image = &r->o.image, .sparse = !r->o.no_sparse,
				   .workers = workers, .slots = slots };
	if (data_write(&cfg, &out, &r->files, &r->frags, &r->frag_count, &r->stats, &err) != 0) {
		fprintf(stderr, "data: %s\n", err.msg);
		image_out_close(&out, false, &err);
		return -1;
	}
	image_out_close(&out, true, &err);
	r->img = read_whole(imgpath, &r->img_len);
	return r->img ? 0 : -1;
}

static void free_run(struct run *r)
{
	tree_free(&r->tree);
	file_list_free(&r->files);
	free(r->frags);
	free(r->img);
	options_free(&r->o);
}

/* Rebuild every file from the image and compare with its source. */
static void verify(struct run *r, const char *label)
{
	const struct codec *codec = r->o.image.codec;
	void *state = codec->state_new(&r->o.image.codec_opts, r->o.image.block_size);
	uint32_t bs = r->o.image.block_size;
	uint8_t *block = malloc(bs);
	for (size_t i = 0; i < r->files.count; i++) {
		struct tree_inode *n = r->files.files[i];
		struct file_data *f = n->file;
		size_t src_len;
		char path[4096];
		tree_source_path(n, path, sizeof(path));
		uint8_t *src = read_whole(path, &src_len);
		CHECK(src != NULL && src_len == f->size, "%s: %s size", label, path);
		uint8_t *rebuilt = calloc(1, f->size + 1);
		uint64_t at = f->blocks_start, pos = 0;
		for (uint32_t b = 0; b < f->block_count; b++) {
			size_t got = 0, want = f->size - pos < bs ? f->size - pos : bs;
			if (f->block_sizes[b] == 0) {
				memset(rebuilt + pos, 0, want);
				got = want;
			} else if (load_block(codec, state, r->img, r->img_len, at, f->block_sizes[b],
					      block, bs, &got) != 0) {
				CHECK(0, "%s: %s block %u unreadable", label, path, b);
				break;
			} else {
				memcpy(rebuilt + pos, block, got < want ? got : want);
			}
			CHECK(got == want, "%s: %s block %u has %zu bytes, want %zu", label,
			      path, b, got, want);
			at += f->block_sizes[b] & SQFS_DATA_SIZE_MASK;
			pos += want;
		}
		if (f->fragment_index != SQFS_NO_FRAGMENT) {
			size_t got = 0;
			CHECK(f->fragment_index < r->frag_count, "%s: fragment index", label);
			if (f->fragment_index < r->frag_count &&
			    load_block(codec, state, r->img, r->img_len,
				       r->frags[f->fragment_index].start,
				       r->frags[f->fragment_index].size_word, block, bs, &got) == 0) {
				CHECK(f->fragment_offset + (f->size - pos) <= got,
				      "%s: %s tail beyond its fragment", label, path);
				memcpy(rebuilt + pos, block + f->fragment_offset, f->size - pos);
				pos = f->size;
			}
		}
		CHECK(pos == f->size, "%s: %s covers %llu of %llu bytes", label, path,
		      (unsigned long long)pos, (unsigned long long)f->size);
		CHECK(src && memcmp(src, rebuilt, f->size) == 0, "%s: %s content differs", label,
		      path);
		free(src);
		free(rebuilt);
	}
	/* Nothing stored that no file or fragment refers to: the image is the header, each
	 * distinct block run once, and the fragments. */
	uint64_t expect = 96;
	for (size_t i = 0; i < r->files.count; i++) {
		struct file_data *f = r->files.files[i]->file;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++) {
			struct file_data *g = r->files.files[j]->file;
			seen = g->block_count > 0 && g->blocks_start == f->blocks_start;
		}
		if (seen)
			continue;
		for (uint32_t b = 0; b < f->block_count; b++)
			expect += f->block_sizes[b] & SQFS_DATA_SIZE_MASK;
	}
	for (uint32_t i = 0; i < r->frag_count; i++)
		expect += r->frags[i].size_word & SQFS_DATA_SIZE_MASK;
	CHECK(expect == r->img_len, "%s: image holds %zu bytes, files and fragments %llu", label,
	      r->img_len, (unsigned long long)expect);
	free(block);
	codec->state_free(state);
}

static struct tree_inode *find(struct run *r, const char *name)
{
	for (uint32_t i = 0; i < r->tree.root->dir->count; i++)
		if (strcmp(r->tree.root->dir->entries[i].name, name) == 0)
			return r->tree.root->dir->entries[i].inode;
	return NULL;
}

/* The source files: duplicates, sparse and zero blocks, shared blocks and shared tails. */
static void make_sources(const uint8_t *rnd, const uint8_t *text, uint8_t *zero, size_t big)
{
	put_file("empty", rnd, 0, 0, 0);
	put_file("small", text, 100, 0, 0);
	put_file("small_dup", text, 100, 0, 0);
	put_file("small_other", rnd, 100, 0, 0);
	put_file("big", rnd, big, 0, 0);
	put_file("big_dup", rnd, big, 0, 0);
	put_file("text", text, big, 0, 0);
	put_file("exact", rnd, 4096, 0, 0);
	put_file("sparse", rnd, 4 * 4096 + 10, 4096, 2 * 4096);
	put_file("zeros", zero, 3 * 4096, 0, 0);
	/* Same size and first block as big, different later: no duplicate. */
	memcpy(zero, rnd, big);
	zero[big - 1] ^= 1;
	put_file("big_near", zero, big, 0, 0);

	/* Same two blocks, one with a tail: the blocks are shared under -always-use-fragments. */
	put_file("pre", rnd + 7, 8192, 0, 0);
	put_file("pre_tail", rnd + 7, 8192 + 100, 0, 0);
	/* Different blocks, the same tail: the tail is shared in the fragment. */
	memcpy(zero, text, 4096);
	memcpy(zero + 4096, rnd + 300, 500);
	put_file("tail_x", zero, 4096 + 500, 0, 0);
	memcpy(zero, rnd + 1000, 4096);
	put_file("tail_y", zero, 4096 + 500, 0, 0);
	memset(zero, 0, big);
}

static int check_default(void)
{
	struct run one, three;
	if (run_once(&one, NULL, 1, 3) != 0 || run_once(&three, NULL, 3, 8) != 0) {
		fprintf(stderr, "data stage failed\n");
		return -1;
	}
	verify(&one, "default/1");
	verify(&three, "default/3");
	CHECK(one.img_len == three.img_len && memcmp(one.img, three.img, one.img_len) == 0,
	      "images differ between 1 and 3 workers");
	CHECK(one.stats.duplicate_files == 3, "duplicates %u, want 3 (the empty file counts, as in squashfs-tools)", one.stats.duplicate_files);
	struct tree_inode *b = find(&one, "big"), *bd = find(&one, "big_dup");
	CHECK(b && bd && b->file->blocks_start == bd->file->blocks_start, "big_dup not shared");
	struct tree_inode *sm = find(&one, "small"), *sd = find(&one, "small_dup");
	CHECK(sm && sd && sm->file->fragment_index == sd->file->fragment_index &&
	      sm->file->fragment_offset == sd->file->fragment_offset, "small_dup not shared");
	struct tree_inode *sp = find(&one, "sparse");
	CHECK(sp && sp->file->block_count == 5 && sp->file->block_sizes[1] == 0 &&
	      sp->file->block_sizes[2] == 0 && sp->file->sparse_bytes == 2 * 4096,
	      "sparse blocks not detected");
	struct tree_inode *z = find(&one, "zeros");
	CHECK(z && z->file->block_count == 3 && z->file->block_sizes[0] == 0, "zero file not sparse");
	CHECK(b && b->file->block_count == 6 && b->file->fragment_index == SQFS_NO_FRAGMENT,
	      "big file: tail should be a block by default");
	struct tree_inode *e = find(&one, "empty");
	CHECK(e && e->file->block_count == 0 && e->file->fragment_index == SQFS_NO_FRAGMENT,
	      "empty file");
	free_run(&one);
	free_run(&three);
	return 0;
}

/* What -always-use-fragments shares: whole blocks of a file with a tail, and equal tails. */
static void check_shared_parts(struct run *a)
{
	struct tree_inode *p1 = find(a, "pre"), *p2 = find(a, "pre_tail");
	struct tree_inode *tx = find(a, "tail_x"), *ty = find(a, "tail_y");
	CHECK(p1->file->blocks_start == p2->file->blocks_start &&
	      p2->file->fragment_index != SQFS_NO_FRAGMENT, "blocks not shared");
	CHECK(tx->file->blocks_start != ty->file->blocks_start &&
	      tx->file->fragment_index == ty->file->fragment_index &&
	      tx->file->fragment_offset == ty->file->fragment_offset,
	      "equal tails not shared");
}

static void check_variant(const char *opt)
{
	struct run a, c;
	if (run_once(&a, opt, 1, 3) != 0 || run_once(&c, opt, 2, 5) != 0) {
		CHECK(0, "%s: data stage failed", opt);
		return;
	}
	verify(&a, opt);
	CHECK(a.img_len == c.img_len && memcmp(a.img, c.img, a.img_len) == 0,
	      "%s: images differ between 1 and 2 workers", opt);
	struct tree_inode *bb = find(&a, "big"), *ss = find(&a, "small");
	struct tree_inode *sp2 = find(&a, "sparse");
	if (strcmp(opt, "-no-fragments") == 0)
		CHECK(a.frag_count == 0 && ss->file->block_count == 1, "-no-fragments");
	if (strcmp(opt, "-always-use-fragments") == 0) {
		CHECK(bb->file->block_count == 5 && bb->file->fragment_index != SQFS_NO_FRAGMENT &&
		      a.stats.duplicate_files == 3, "-always-use-fragments");
		check_shared_parts(&a);
	}
	if (strcmp(opt, "-no-duplicates") == 0)
		CHECK(a.stats.duplicate_files == 0, "-no-duplicates");
	if (strcmp(opt, "-no-sparse") == 0)
		CHECK(sp2->file->block_sizes[1] != 0 && a.stats.sparse_blocks == 0, "-no-sparse");
	if (strcmp(opt, "-noD") == 0)
		CHECK((bb->file->block_sizes[0] & SQFS_DATA_UNCOMPRESSED) &&
		      !(a.frags[0].size_word & SQFS_DATA_UNCOMPRESSED), "-noD");
	if (strcmp(opt, "-noF") == 0)
		CHECK((a.frags[0].size_word & SQFS_DATA_UNCOMPRESSED), "-noF");
	free_run(&a);
	free_run(&c);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/data_test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	char src[300];
	snprintf(src, sizeof(src), "%s/src", dir);
	mkdir(src, 0755);

	size_t big = 5 * 4096 + 1234;
	uint8_t *rnd = malloc(big), *text = malloc(big), *zero = calloc(1, big);
	uint64_t s = 12345;
	for (size_t i = 0; i < big; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		rnd[i] = (uint8_t)(s >> 56);
		text[i] = "the quick brown fox jumps "[i % 26];
	}
	make_sources(rnd, text, zero, big);
	if (check_default() != 0)
		return 1;

	static const char *const variants[] = { "-no-fragments", "-always-use-fragments",
						"-no-duplicates", "-no-sparse", "-noD", "-noF" };
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
		check_variant(variants[v]);

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	free(rnd);
	free(text);
	free(zero);
	return check_exit("data_test");
}
