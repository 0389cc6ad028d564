/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* gentree.h — the generator context and the filesystem helpers its sections build trees with. */
#ifndef SQ_TESTS_GENTREE_H
#define SQ_TESTS_GENTREE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A path whose mtime is forced after the whole tree exists, because creating entries later
 * would otherwise disturb directory mtimes. */
struct gen_mtime {
	char *path;
	int64_t mtime;
};

struct gen {
	uint64_t rng;          /* splitmix64 state, seeded from --seed */
	uint64_t seed;
	int small;             /* --small: a quick variant for option sweeps */
	int no_huge;           /* --no-huge: the full tree without the file over 4 GiB */
	int root;              /* euid 0: owners, devices, trusted xattrs */
	char err[1024];        /* first failure, "path: reason" */
	struct gen_mtime *mtimes;
	size_t n_mtimes, cap_mtimes;
};

/* Every helper returns 0 on success or -1 after recording the first failure in g->err. */
int gen_fail(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int gen_fail_errno(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

uint64_t gen_rand(struct gen *g);
/* Uniform in [lo, hi] (hi >= lo). */
uint64_t gen_range(struct gen *g, uint64_t lo, uint64_t hi);

enum gen_content {
	GEN_RANDOM,       /* incompressible */
	GEN_TEXT,         /* compressible word salad */
	GEN_ZERO,         /* written zeros (not holes) */
	GEN_HOLE,         /* skipped with lseek: a hole in a sparse file */
};

/* One stretch of a file; equal (kind, seed, len) give equal bytes, which is how the tests make
 * duplicate files and duplicate tails. */
struct gen_seg {
	uint64_t len;
	enum gen_content kind;
	uint64_t seed;
};

/* Create path (must not exist, mode 0644) from the segments in order; a trailing hole is made
 * with ftruncate so the file ends in a hole. */
int gen_file_segs(struct gen *g, const char *path, const struct gen_seg *segs, size_t n);
/* One segment: size bytes of kind from seed. */
int gen_file(struct gen *g, const char *path, uint64_t size, enum gen_content kind, uint64_t seed);

int gen_mkdir(struct gen *g, const char *path, mode_t mode);
int gen_symlink(struct gen *g, const char *target, const char *path);
int gen_link(struct gen *g, const char *existing, const char *path);
int gen_mknod(struct gen *g, const char *path, mode_t mode, dev_t dev);
int gen_socket(struct gen *g, const char *path);
int gen_chmod(struct gen *g, const char *path, mode_t mode);
int gen_lchown(struct gen *g, const char *path, uid_t uid, gid_t gid);
int gen_xattr(struct gen *g, const char *path, const char *name, const void *value, size_t len);
/* Remember an mtime to force at the end (see struct gen_mtime). */
int gen_mtime(struct gen *g, const char *path, int64_t mtime);
/* Give every entry under "." a seed-derived mtime, then apply the forced ones. */
int gen_apply_mtimes(struct gen *g);

void gen_free(struct gen *g);

#endif
