/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* write_errors.c — the table writer refuses trees it cannot store faithfully (bad or unsorted
 * names, inconsistent block lists, cycles, too many ids) and a full disk, with a message naming
 * the cause and no image left behind. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/format.h"
#include "mksquashfs/image.h"
#include "mksquashfs/tree.h"
#include "tests/lib/check.h"

struct fixture {
	struct tree_inode root, file, sub;
	struct tree_dir root_dir, sub_dir;
	struct tree_entry entries[3];
	struct file_data data;
	uint32_t blocks[2];
};

/* root: "a" (a 10-byte file in a fragment), "b" (a directory), "c" (the same file again). */
static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->root = (struct tree_inode){ .mode = S_IFDIR | 0755, .dir = &f->root_dir };
	f->root_dir = (struct tree_dir){ .entries = f->entries, .count = 3, .cap = 3,
					 .parent = &f->root };
	f->sub = (struct tree_inode){ .mode = S_IFDIR | 0700, .dir = &f->sub_dir };
	f->sub_dir = (struct tree_dir){ .parent = &f->root };
	f->data = (struct file_data){ .size = 10, .fragment_index = 0, .block_sizes = f->blocks };
	f->file = (struct tree_inode){ .mode = S_IFREG | 0644, .nlink = 2, .file = &f->data };
	f->entries[0] = (struct tree_entry){ "a", 1, &f->file };
	f->entries[1] = (struct tree_entry){ "b", 1, &f->sub };
	f->entries[2] = (struct tree_entry){ "c", 1, &f->file };
}

static const char *image_path;

/* Run the writer on the fixture; returns its result and leaves the message in err. */
static int run(struct fixture *f, struct sq_error *err, const char *path)
{
	struct image_settings s = { .codec = codec_by_name("gzip"), .block_size = 4096,
				    .duplicates = true, .exportable = true, .pad = true };
	if (s.codec == NULL || !s.codec->supported) {
		fprintf(stderr, "write_errors: gzip not built\n");
		exit(77);
	}
	s.codec->init_options(&s.codec_opts, s.block_size);
	void *state = s.codec->state_new(&s.codec_opts, 8192);
	struct image_out out;
	struct image_stats st;
	struct tree tree = { .root = &f->root };
	struct fragment_entry frag = { .start = 96, .size_word = SQFS_DATA_UNCOMPRESSED | 10 };
	sq_error_clear(err);
	int rc = image_out_open(&out, path, err);
	if (rc == 0)
		rc = image_begin(&out, &s, err);
	if (rc == 0)
		rc = image_out_write(&out, "0123456789", 10, err);
	if (rc == 0)
		rc = image_finish(&out, &s, &tree, &frag, 1, state, &st, err);
	/* The writer keeps its per-inode records in the tree's arena; the root is the fixture's. */
	tree.root = NULL;
	tree_free(&tree);
	if (out.fd >= 0 || out.path != NULL) {
		struct sq_error close_err;
		if (image_out_close(&out, rc == 0, &close_err) != 0 && rc == 0) {
			*err = close_err;
			rc = -1;
		}
	}
	s.codec->state_free(state);
	return rc;
}

static void expect_failure(struct fixture *f, const char *what, const char *needle)
{
	struct sq_error err;
	int rc = run(f, &err, image_path);
	if (rc != -1 || strstr(err.msg, needle) == NULL) {
		fprintf(stderr, "%s: rc %d, message \"%s\", expected one with \"%s\"\n", what, rc,
			err.msg, needle);
		check_failures++;
	}
	if (access(image_path, F_OK) == 0) {
		fprintf(stderr, "%s: a failed run left %s behind\n", what, image_path);
		check_failures++;
		unlink(image_path);
	}
}

int main(void)
{
	char path[] = "/tmp/write_errors.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	close(fd);
	unlink(path);
	image_path = path;

	struct fixture *f = malloc(sizeof(*f));
	struct sq_error err;

	fixture_init(f);
	CHECK(run(f, &err, image_path) == 0);
	CHECK(f->root.inode_number == 3 && f->file.inode_number == 1 && f->sub.inode_number == 2);
	CHECK(f->root.nlink == 3);
	unlink(image_path);

	fixture_init(f);
	f->entries[0].name = "d";
	expect_failure(f, "unsorted", "not sorted");
	fixture_init(f);
	f->entries[1].name = "a";
	expect_failure(f, "duplicate", "not sorted (or duplicated)");
	fixture_init(f);
	f->entries[0] = (struct tree_entry){ "..", 2, &f->file };
	expect_failure(f, "dot-dot", "invalid file name");
	fixture_init(f);
	f->entries[0] = (struct tree_entry){ "/a", 2, &f->file };
	expect_failure(f, "slash", "invalid file name");
	fixture_init(f);
	f->entries[0] = (struct tree_entry){ "", 0, &f->file };
	expect_failure(f, "empty name", "invalid file name");
	fixture_init(f);
	f->data.block_count = 1; /* 10 bytes in a fragment have no block */
	expect_failure(f, "block count", "data blocks recorded");
	fixture_init(f);
	f->file.file = NULL;
	expect_failure(f, "no data", "no data recorded");
	fixture_init(f);
	f->file.mode = 0644; /* no type bits */
	expect_failure(f, "type", "unknown file type");
	fixture_init(f);
	struct tree_entry loop = { "loop", 4, &f->root };
	f->sub_dir = (struct tree_dir){ .entries = &loop, .count = 1, .cap = 1,
					.parent = &f->root };
	expect_failure(f, "cycle", "appears twice");
	fixture_init(f);
	f->root.mode = S_IFREG | 0644;
	expect_failure(f, "root", "no root directory");

	/* 65535 distinct ids fit; one more does not (the 16-bit count would read as 0). */
	enum { IDS = 65536 };
	struct tree_inode *many = calloc(IDS, sizeof(*many));
	struct tree_entry *names = calloc(IDS, sizeof(*names));
	char (*text)[8] = calloc(IDS, 8);
	for (int n = 0; n < 2; n++) {
		uint32_t count = n == 0 ? 65534 : 65535; /* plus the root's id 0 */
		for (uint32_t i = 0; i < count; i++) {
			snprintf(text[i], 8, "%06u", i);
			many[i] = (struct tree_inode){ .mode = S_IFIFO | 0600, .uid = i + 1,
						       .gid = 0, .nlink = 1 };
			names[i] = (struct tree_entry){ text[i], 6, &many[i] };
		}
		fixture_init(f);
		f->root_dir.entries = names;
		f->root_dir.count = count;
		if (n == 0) {
			CHECK(run(f, &err, image_path) == 0);
			unlink(image_path);
		} else {
			expect_failure(f, "ids", "distinct uids and gids");
		}
	}
	free(many);
	free(names);
	free(text);

	/* A full disk is an error naming the image, not a short image. */
	if (access("/dev/full", W_OK) == 0) {
		fixture_init(f);
		CHECK(run(f, &err, "/dev/full") == -1);
		CHECK(strstr(err.msg, "/dev/full") != NULL);
		/* Failure removes a half-written regular file, never a device node. */
		struct stat st;
		CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
	}
	free(f);
	return check_exit("write_errors");
}
