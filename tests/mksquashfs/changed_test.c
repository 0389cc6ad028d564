/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* changed_test.c — sources that change between the scan and the data stage: a small file that
 * grew or shrank is read again at its new size (squashfs-tools' "attempting to re-read"), one
 * that vanished is stored empty with a warning (fatal with -exit-on-error), a large file keeps
 * what was read and its inode says so; every stored file decodes to the bytes its size claims. */
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
#include "tests/lib/check.h"

#define BS 4096u

static char dir[256];

static uint8_t pattern(size_t i)
{
	return (uint8_t)((i * 2654435761u) >> 13);
}

/* Write len bytes of the pattern to src/name: a new file, or more at the end of it (append). */
static void write_file(const char *name, size_t len, bool append)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/src/%s", dir, name);
	FILE *f = fopen(path, append ? "ab" : "wb");
	long start = f != NULL && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (start < 0) {
		perror(path);
		exit(1);
	}
	for (size_t i = 0; i < len; i++)
		fputc(pattern((size_t)start + i), f);
	if (fclose(f) != 0)
		exit(1);
}

static void cut_file(const char *name, off_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/src/%s", dir, name);
	if (truncate(path, len) != 0)
		exit(1);
}

/* One build: the scan's results, what the data stage warned, and what it wrote. */
struct build {
	struct mksq_options o;
	struct tree tree;
	struct file_list files;
	char warnings[4096];
	struct data_stats stats;
	struct fragment_entry *frags;
	uint32_t frag_count;
};

static int scan(struct build *b, bool exit_on_error)
{
	char src[300], img[300];
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(img, sizeof(img), "%s/out.img", dir);
	char *argv[] = { "mksquashfs", src, img, "-b", "4096", "-noappend", "-exit-on-error", NULL };
	enum options_action action;
	struct sq_error err;
	sq_error_clear(&err);
	memset(b, 0, sizeof(*b));
	if (options_parse(&b->o, exit_on_error ? 7 : 6, argv, NULL, 1000, &action, &err) != 0)
		return -1;
	struct exclude_list x;
	exclude_init(&x, NULL, 0, false, false, NULL, 0, &err);
	struct scan_stats ss;
	int rc = build_tree(&b->o, &x, NULL, &b->tree, &b->files, &ss, NULL, NULL, &err);
	exclude_free(&x);
	return rc;
}

/* The data stage into out.img; warnings kept in b->warnings. */
static int write_data(struct build *b, struct sq_error *err)
{
	char img[300];
	snprintf(img, sizeof(img), "%s/out.img", dir);
	struct image_out out;
	if (image_out_open(&out, img, err) != 0)
		return -1;
	uint8_t header[96] = { 0 };
	image_out_write(&out, header, sizeof(header), err);
	FILE *warn = fmemopen(b->warnings, sizeof(b->warnings) - 1, "w");
	struct data_config cfg = { .image = &b->o.image, .sparse = true, .workers = 2, .slots = 8,
				   .warn = warn, .exit_on_error = b->o.run.exit_on_error };
	int rc = data_write(&cfg, &out, &b->files, &b->frags, &b->frag_count, &b->stats, err);
	fclose(warn);
	image_out_close(&out, rc == 0, err);
	return rc;
}

static struct tree_inode *find(struct build *b, const char *name)
{
	for (uint32_t i = 0; i < b->tree.root->dir->count; i++)
		if (strcmp(b->tree.root->dir->entries[i].name, name) == 0)
			return b->tree.root->dir->entries[i].inode;
	return NULL;
}

/* Decode one stored block (or fragment) at offset with size word `word`. */
static size_t load(struct build *b, void *st, int fd, uint64_t at, uint32_t word, uint8_t *dst)
{
	static uint8_t raw[BS];
	size_t len = word & SQFS_DATA_SIZE_MASK;
	if (len > BS || pread(fd, raw, len, (off_t)at) != (ssize_t)len)
		return 0;
	if (word & SQFS_DATA_UNCOMPRESSED) {
		memcpy(dst, raw, len);
		return len;
	}
	const char *why;
	ptrdiff_t n = b->o.image.codec->decompress(st, raw, len, dst, BS, &why);
	return n < 0 ? 0 : (size_t)n;
}

/* The stored file named name holds `size` bytes of the pattern. */
static void check_stored(struct build *b, const char *name, uint64_t size)
{
	struct tree_inode *n = find(b, name);
	CHECK(n != NULL && n->file->size == size, "%s: stored size %llu, want %llu", name,
	      n ? (unsigned long long)n->file->size : 0, (unsigned long long)size);
	if (n == NULL || n->file->size != size)
		return;
	char img[300];
	snprintf(img, sizeof(img), "%s/out.img", dir);
	int fd = open(img, O_RDONLY);
	void *st = b->o.image.codec->state_new(&b->o.image.codec_opts, BS);
	static uint8_t block[BS];
	const struct file_data *f = n->file;
	uint64_t pos = 0, at = f->blocks_start;
	bool same = true;
	for (uint32_t i = 0; i < f->block_count && same; i++) {
		size_t want = size - pos < BS ? (size_t)(size - pos) : BS;
		size_t got = f->block_sizes[i] == 0 ? (memset(block, 0, want), want)
						     : load(b, st, fd, at, f->block_sizes[i], block);
		same = got == want;
		for (size_t k = 0; k < want && same; k++)
			same = block[k] == pattern(pos + k);
		at += f->block_sizes[i] & SQFS_DATA_SIZE_MASK;
		pos += want;
	}
	if (same && f->fragment_index != SQFS_NO_FRAGMENT) {
		size_t got = f->fragment_index < b->frag_count
				     ? load(b, st, fd, b->frags[f->fragment_index].start,
					    b->frags[f->fragment_index].size_word, block)
				     : 0;
		same = f->fragment_offset + (size - pos) <= got;
		for (size_t k = 0; same && pos + k < size; k++)
			same = block[f->fragment_offset + k] == pattern(pos + k);
		pos = size;
	}
	CHECK(same && pos == size, "%s: stored bytes are not the file's first %llu", name,
	      (unsigned long long)size);
	b->o.image.codec->state_free(st);
	close(fd);
}

static void free_build(struct build *b)
{
	tree_free(&b->tree);
	file_list_free(&b->files);
	free(b->frags);
	options_free(&b->o);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/changed_test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL)
		return 1;
	char src[300];
	snprintf(src, sizeof(src), "%s/src", dir);
	mkdir(src, 0755);
	write_file("grow_small", 100, false);
	write_file("shrink_small", 300, false);
	write_file("gone", 100, false);
	write_file("shrink_big", 5 * BS + 100, false);
	write_file("grow_big", 3 * BS + 100, false);
	write_file("steady", 2 * BS + 7, false);

	struct build b;
	struct sq_error err;
	sq_error_clear(&err);
	CHECK(scan(&b, false) == 0, "scan failed");
	write_file("grow_small", 200, true);
	cut_file("shrink_small", 50);
	char gone[300];
	snprintf(gone, sizeof(gone), "%s/src/gone", dir);
	unlink(gone);
	cut_file("shrink_big", 2 * BS + 10);
	write_file("grow_big", 5000, true);
	CHECK(write_data(&b, &err) == 0, "data stage failed: %s", err.msg);
	check_stored(&b, "grow_small", 300);
	check_stored(&b, "shrink_small", 50);
	check_stored(&b, "gone", 0);
	check_stored(&b, "shrink_big", 2 * BS + 10);
	check_stored(&b, "grow_big", 3 * BS + 100);
	check_stored(&b, "steady", 2 * BS + 7);
	CHECK(b.stats.unreadable_files == 1 && b.stats.changed_files == 4,
	      "counted %u unreadable, %u changed", b.stats.unreadable_files, b.stats.changed_files);
	CHECK(strstr(b.warnings, "File ") && strstr(b.warnings, "/grow_small changed size while "
							"reading filesystem, attempting to re-read"),
	      "no re-read warning for grow_small: %s", b.warnings);
	CHECK(strstr(b.warnings, "/gone, creating empty file") != NULL,
	      "no warning for the vanished file: %s", b.warnings);
	CHECK(strstr(b.warnings, "/shrink_big changed size while reading filesystem, storing the "
				 "8202 bytes read") != NULL,
	      "no warning for shrink_big: %s", b.warnings);
	free_build(&b);

	/* -exit-on-error: the vanished file fails the build, naming it. */
	write_file("gone", 100, false);
	CHECK(scan(&b, true) == 0, "scan failed");
	unlink(gone);
	sq_error_clear(&err);
	CHECK(write_data(&b, &err) != 0 && strstr(err.msg, "/gone") != NULL,
	      "-exit-on-error: a vanished file was not fatal: %s", err.msg);
	free_build(&b);

	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return check_exit("changed_test");
}
