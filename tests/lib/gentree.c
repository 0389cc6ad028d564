/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* gentree.c — builds a deterministic source tree holding every kind of entry mksquashfs must handle. */
#include "config.h"

#include "tests/lib/gentree.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define TRY(expr) do { if ((expr) != 0) return -1; } while (0)

enum { KIB = 1024, MIB = 1024 * 1024 };

/* snprintf into a PATH_MAX buffer; the names built here are all short enough. */
static const char *pathf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *pathf(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, 4096, fmt, ap);
	va_end(ap);
	return buf;
}

/* Block-size boundaries (4 KiB minimum and 128 KiB default block, 1 MiB maximum). */
static int make_files(struct gen *g)
{
	static const uint64_t sizes[] = { 0, 1, 4095, 4096, 4097, 131071, 131072, 131073,
					  MIB - 1, MIB, MIB + 1 };
	char p[4096];
	unsigned tag = (unsigned)(g->seed & 0xffff);

	TRY(gen_mkdir(g, "files", 0755));
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (g->small && sizes[i] > 131073 && sizes[i] != MIB + 1)
			continue;
		enum gen_content kind = (i + g->seed) % 2 ? GEN_TEXT : GEN_RANDOM;

		TRY(gen_file(g, pathf(p, "files/size-%llu-%04x", (unsigned long long)sizes[i], tag),
			     sizes[i], kind, i));
		/* The other content kind at the same size, so both reach every boundary. */
		if (sizes[i] > 0 && (!g->small || sizes[i] <= 131073))
			TRY(gen_file(g, pathf(p, "files/size-%llu-%04x.alt", (unsigned long long)sizes[i], tag),
				     sizes[i], kind == GEN_TEXT ? GEN_RANDOM : GEN_TEXT, 100 + i));
	}
	TRY(gen_file(g, "files/zeros", g->small ? 200000 : 3 * MIB, GEN_ZERO, 0));
	if (!g->small) {
		TRY(gen_file(g, "files/big-text", gen_range(g, 2 * MIB, 5 * MIB), GEN_TEXT, 7));
		TRY(gen_file(g, "files/big-random", gen_range(g, 2 * MIB, 3 * MIB), GEN_RANDOM, 8));
	}
	/* Seed-varied names, counts and sizes. */
	TRY(gen_mkdir(g, "files/extra", 0755));
	unsigned n_extra = (unsigned)gen_range(g, 3, g->small ? 6 : 12);
	for (unsigned i = 0; i < n_extra; i++) {
		uint64_t size = gen_range(g, 0, g->small ? 70000 : 600000);

		TRY(gen_file(g, pathf(p, "files/extra/x%08llx", (unsigned long long)(gen_rand(g) >> 32)),
			     size, gen_rand(g) % 2 ? GEN_TEXT : GEN_RANDOM, 200 + i));
	}
	return 0;
}

/* Whole duplicates, duplicate fragments and duplicate tails, plus near-duplicates that a
 * careless deduplicator would merge. */
static int make_dups(struct gen *g)
{
	const uint64_t big = g->small ? 140000 : 300000;
	struct gen_seg tail_a[] = { { 131072, GEN_RANDOM, 301 }, { 7000, GEN_TEXT, 303 } };
	struct gen_seg tail_b[] = { { 131072, GEN_RANDOM, 302 }, { 7000, GEN_TEXT, 303 } };
	struct gen_seg near_a[] = { { 131072, GEN_RANDOM, 304 }, { 100, GEN_RANDOM, 305 } };
	struct gen_seg near_b[] = { { 131072, GEN_RANDOM, 304 }, { 100, GEN_RANDOM, 306 } };

	TRY(gen_mkdir(g, "dups", 0755));
	TRY(gen_mkdir(g, "dups/sub", 0755));
	TRY(gen_file(g, "dups/whole-1", big, GEN_RANDOM, 300));
	TRY(gen_file(g, "dups/sub/whole-2", big, GEN_RANDOM, 300));
	TRY(gen_file(g, "dups/whole-3", big, GEN_RANDOM, 300));
	TRY(gen_file(g, "dups/frag-1", 3000, GEN_TEXT, 310));
	TRY(gen_file(g, "dups/sub/frag-2", 3000, GEN_TEXT, 310));
	TRY(gen_file(g, "dups/frag-3", 3000, GEN_TEXT, 310));
	TRY(gen_file(g, "dups/empty-1", 0, GEN_TEXT, 0));
	TRY(gen_file(g, "dups/empty-2", 0, GEN_TEXT, 0));
	TRY(gen_file_segs(g, "dups/tail-a", tail_a, 2));
	TRY(gen_file_segs(g, "dups/tail-b", tail_b, 2));
	TRY(gen_file_segs(g, "dups/near-a", near_a, 2));
	TRY(gen_file_segs(g, "dups/near-b", near_b, 2));
	/* Same bytes, one block shorter: must not be taken for a duplicate. */
	TRY(gen_file(g, "dups/prefix", 131072, GEN_RANDOM, 304));
	return 0;
}

static int make_sparse(struct gen *g)
{
	const struct gen_seg middle[] = { { 131072, GEN_RANDOM, 400 }, { 262144, GEN_HOLE, 0 },
					  { 131072, GEN_TEXT, 401 } };
	const struct gen_seg all_hole[] = { { MIB, GEN_HOLE, 0 } };
	const struct gen_seg end_hole[] = { { 100000, GEN_TEXT, 402 }, { 400000, GEN_HOLE, 0 } };
	const struct gen_seg ragged[] = { { 1000, GEN_RANDOM, 403 }, { 300000, GEN_HOLE, 0 },
					  { 5000, GEN_TEXT, 404 } };
	/* Past 4 GiB: block counts and offsets that overflow 32 bits. */
	const struct gen_seg huge[] = { { 65536, GEN_RANDOM, 405 },
					{ 4ULL * 1024 * MIB + 131072, GEN_HOLE, 0 },
					{ 12345, GEN_TEXT, 406 } };

	TRY(gen_mkdir(g, "sparse", 0755));
	TRY(gen_file_segs(g, "sparse/hole-middle", middle, 3));
	TRY(gen_file_segs(g, "sparse/all-hole", all_hole, 1));
	TRY(gen_file_segs(g, "sparse/hole-end", end_hole, 2));
	TRY(gen_file_segs(g, "sparse/ragged", ragged, 3));
	if (!g->small && !g->no_huge)
		TRY(gen_file_segs(g, "sparse/over-4GiB", huge, 3));
	return 0;
}

static int make_dirs(struct gen *g)
{
	char p[4096];
	size_t len;
	unsigned n = g->small ? 700 : 5000;

	TRY(gen_mkdir(g, "dirs", 0755));
	TRY(gen_mkdir(g, "dirs/empty", 0755));
	/* Big enough to need directory headers every 256 entries and a directory index. */
	TRY(gen_mkdir(g, "dirs/many", 0755));
	for (unsigned i = 0; i < n; i++) {
		pathf(p, "dirs/many/entry-%05u-%llx", i, (unsigned long long)(g->seed % 4096));
		if (i % 97 == 0)
			TRY(gen_mkdir(g, p, 0755));
		else
			TRY(gen_file(g, p, i % 7 == 0 ? i % 50 : 0, GEN_TEXT, 500 + i));
	}
	strcpy(p, "dirs/deep");
	TRY(gen_mkdir(g, p, 0755));
	len = strlen(p);
	for (unsigned depth = 1; depth <= 60; depth++) {
		len += (size_t)snprintf(p + len, sizeof(p) - len, "/d%02u", depth);
		TRY(gen_mkdir(g, p, 0755));
	}
	snprintf(p + len, sizeof(p) - len, "/bottom");
	TRY(gen_file(g, p, 777, GEN_TEXT, 501));
	return 0;
}

static int make_symlinks(struct gen *g)
{
	char target[4096];
	size_t i;

	TRY(gen_mkdir(g, "links", 0755));
	TRY(gen_symlink(g, "a", "links/short"));
	for (i = 0; i < 4095; i++)
		target[i] = i % 9 == 8 ? '/' : (char)('a' + (i + g->seed) % 26);
	target[4095] = '\0';
	TRY(gen_symlink(g, target, "links/long-4095"));
	target[255] = '\0';
	TRY(gen_symlink(g, target, "links/long-255"));
	TRY(gen_symlink(g, "does/not/exist", "links/dangling"));
	TRY(gen_symlink(g, "/etc/passwd", "links/absolute"));
	TRY(gen_symlink(g, "../files", "links/to-dir"));
	TRY(gen_symlink(g, "../dups/whole-1", "links/to-file"));
	return 0;
}

static int make_special(struct gen *g)
{
	TRY(gen_mkdir(g, "special", 0755));
	if (mkfifo("special/fifo", 0644) != 0)
		return gen_fail_errno(g, "special/fifo: mkfifo");
	TRY(gen_chmod(g, "special/fifo", 0640));
	TRY(gen_socket(g, "special/socket"));
	if (!g->root)
		return 0;
	TRY(gen_mknod(g, "special/block-8-1", S_IFBLK | 0660, makedev(8, 1)));
	TRY(gen_mknod(g, "special/char-1-3", S_IFCHR | 0666, makedev(1, 3)));
	/* The largest numbers squashfs's 32-bit rdev can hold: 12-bit major, 20-bit minor. */
	TRY(gen_mknod(g, "special/block-259-1048575", S_IFBLK | 0600, makedev(259, 1048575)));
	TRY(gen_mknod(g, "special/char-4095-1048575", S_IFCHR | 0600, makedev(4095, 1048575)));
	TRY(gen_mknod(g, "special/char-0-0", S_IFCHR | 0600, makedev(0, 0)));
	return 0;
}

static int make_hardlinks(struct gen *g)
{
	TRY(gen_mkdir(g, "hardlinks", 0755));
	TRY(gen_mkdir(g, "hardlinks/a", 0755));
	TRY(gen_mkdir(g, "hardlinks/b", 0755));
	TRY(gen_mkdir(g, "hardlinks/b/c", 0755));
	TRY(gen_file(g, "hardlinks/a/pair", 5000, GEN_TEXT, 600));
	TRY(gen_link(g, "hardlinks/a/pair", "hardlinks/b/pair-link"));
	TRY(gen_file(g, "hardlinks/a/three", 200000, GEN_RANDOM, 601));
	TRY(gen_link(g, "hardlinks/a/three", "hardlinks/b/three-2"));
	TRY(gen_link(g, "hardlinks/a/three", "hardlinks/b/c/three-3"));
	TRY(gen_file(g, "hardlinks/a/empty", 0, GEN_TEXT, 0));
	TRY(gen_link(g, "hardlinks/a/empty", "hardlinks/b/empty-link"));
	/* Same content as pair but a separate inode: must stay separate. */
	TRY(gen_file(g, "hardlinks/b/pair-copy", 5000, GEN_TEXT, 600));
	TRY(gen_symlink(g, "pair", "hardlinks/a/symlink"));
	TRY(gen_link(g, "hardlinks/a/symlink", "hardlinks/b/symlink-link"));
	if (mkfifo("hardlinks/a/fifo", 0600) != 0)
		return gen_fail_errno(g, "hardlinks/a/fifo: mkfifo");
	TRY(gen_link(g, "hardlinks/a/fifo", "hardlinks/b/fifo-link"));
	if (g->root) {
		TRY(gen_mknod(g, "hardlinks/a/chardev", S_IFCHR | 0600, makedev(10, 200)));
		TRY(gen_link(g, "hardlinks/a/chardev", "hardlinks/b/chardev-link"));
	}
	return 0;
}

static int make_names(struct gen *g)
{
	static const char *const names[] = {
		"with space", " leading space", "trailing space ", "new\nline", "tab\tname",
		"h\xc3\xa9llo-w\xc3\xb6rld-\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "-leading-dash", "--",
		"*?[", "[a-z]*", "back\\slash", "quote\"'", ".hidden", "...", "\x01\x7f", "%s%n",
	};
	char p[4096], name[256];

	TRY(gen_mkdir(g, "names", 0755));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		TRY(gen_file(g, pathf(p, "names/%s", names[i]), i * 3, GEN_TEXT, 700 + i));
	/* 255 bytes: the longest name Linux and squashfs allow; once ASCII, once 2-byte UTF-8. */
	memset(name, 'n', 255);
	name[255] = '\0';
	name[0] = (char)('a' + g->seed % 26);
	TRY(gen_file(g, pathf(p, "names/%s", name), 10, GEN_TEXT, 720));
	for (size_t i = 0; i + 1 < 255; i += 2) {
		name[i] = '\xc3';
		name[i + 1] = '\xa9';
	}
	name[254] = 'x';
	TRY(gen_mkdir(g, pathf(p, "names/%s", name), 0755));
	return 0;
}

static int make_owners(struct gen *g)
{
	static const unsigned long ids[][2] = {
		{ 0, 0 }, { 1000, 1000 }, { 65534, 65534 }, { 65536, 65536 },
		{ 4000000000UL, 4000000000UL }, { 1000, 65534 }, { 0, 4000000000UL },
	};
	char p[4096];

	if (!g->root)
		return 0;
	TRY(gen_mkdir(g, "owners", 0755));
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		pathf(p, "owners/%lu-%lu", ids[i][0], ids[i][1]);
		TRY(gen_file(g, p, 10 + i, GEN_TEXT, 800 + i));
		TRY(gen_lchown(g, p, (uid_t)ids[i][0], (gid_t)ids[i][1]));
	}
	TRY(gen_mkdir(g, "owners/dir-1000", 0755));
	TRY(gen_lchown(g, "owners/dir-1000", 1000, 1000));
	TRY(gen_symlink(g, "0-0", "owners/symlink-65536"));
	TRY(gen_lchown(g, "owners/symlink-65536", 65536, 65536));
	TRY(gen_mknod(g, "owners/fifo-4000000000", S_IFIFO | 0644, 0));
	TRY(gen_lchown(g, "owners/fifo-4000000000", 4000000000U, 1000));
	return 0;
}

static int make_modes(struct gen *g)
{
	static const mode_t modes[] = { 04755, 02755, 06777, 01755, 0, 0400, 0111, 0777, 04000 };
	char p[4096];

	TRY(gen_mkdir(g, "modes", 0755));
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		/* Without root nobody could read these back (not mksquashfs, not treecmp). */
		if (!g->root && !(modes[i] & S_IRUSR))
			continue;
		pathf(p, "modes/file-%04o", (unsigned)modes[i]);
		TRY(gen_file(g, p, 20, GEN_TEXT, 900 + i));
		/* chown clears setuid, so owners first, modes last. */
		if (g->root)
			TRY(gen_lchown(g, p, 1000, 1000));
		TRY(gen_chmod(g, p, modes[i]));
	}
	TRY(gen_mkdir(g, "modes/sticky", 01777));
	TRY(gen_mkdir(g, "modes/setgid-dir", 02775));
	TRY(gen_mkdir(g, "modes/private", 0700));
	TRY(gen_file(g, "modes/private/inside", 5, GEN_TEXT, 910));
	TRY(gen_mkdir(g, "modes/dir-0555", 0755));
	TRY(gen_file(g, "modes/dir-0555/inside", 5, GEN_TEXT, 911));
	TRY(gen_chmod(g, "modes/dir-0555", 0555));
	return 0;
}

/* Extremes of squashfs's unsigned 32-bit mtime; the directory's is forced after its entries. */
static int make_times(struct gen *g)
{
	static const int64_t times[] = { 0, 1, 315532800, 2147483647, 2147483648LL, 4294967295LL };
	char p[4096];

	TRY(gen_mkdir(g, "times", 0755));
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		pathf(p, "times/mtime-%lld", (long long)times[i]);
		TRY(gen_file(g, p, 3, GEN_TEXT, 1000 + i));
		TRY(gen_mtime(g, p, times[i]));
	}
	TRY(gen_symlink(g, "mtime-1", "times/symlink-mtime-1"));
	TRY(gen_mtime(g, "times/symlink-mtime-1", 1));
	TRY(gen_mkdir(g, "times/dir-mtime-0", 0755));
	TRY(gen_file(g, "times/dir-mtime-0/inside", 3, GEN_TEXT, 1010));
	TRY(gen_mtime(g, "times/dir-mtime-0", 0));
	TRY(gen_mtime(g, "times", 4294967295LL));
	return 0;
}

static int set_xattr_set(struct gen *g, const char *path, int with_user)
{
	if (with_user) {
		TRY(gen_xattr(g, path, "user.shared.a", "1", 1));
		TRY(gen_xattr(g, path, "user.shared.b", "two", 3));
		TRY(gen_xattr(g, path, "user.empty", "", 0));
	}
	if (g->root) {
		TRY(gen_xattr(g, path, "trusted.shared", "t\0binary", 8));
		TRY(gen_xattr(g, path, "security.shared", "s", 1));
	}
	return 0;
}

static int make_xattrs(struct gen *g)
{
	char p[4096], name[64], value[3000];

	TRY(gen_mkdir(g, "xattrs", 0755));
	/* The same set on several inodes: squashfs stores it once. */
	for (int i = 0; i < 4; i++) {
		TRY(gen_file(g, pathf(p, "xattrs/same-set-%d", i), 100 * (size_t)i, GEN_TEXT, 1100));
		TRY(set_xattr_set(g, p, 1));
	}
	TRY(gen_mkdir(g, "xattrs/dir-with-set", 0755));
	TRY(set_xattr_set(g, "xattrs/dir-with-set", 1));
	/* Large values go out of line in squashfs; ext4 fits about 4 KiB per inode. */
	TRY(gen_file(g, "xattrs/large", 10, GEN_TEXT, 1101));
	for (size_t i = 0; i < sizeof(value); i++)
		value[i] = (char)('A' + (i * 7 + g->seed) % 26);
	TRY(gen_xattr(g, "xattrs/large", "user.large", value, sizeof(value)));
	TRY(gen_file(g, "xattrs/many", 10, GEN_TEXT, 1102));
	unsigned n_keys = (unsigned)gen_range(g, 30, 60);
	for (unsigned i = 0; i < n_keys; i++) {
		snprintf(name, sizeof(name), "user.key-%03u", i);
		snprintf(value, sizeof(value), "value-%u-%llu", i * i, (unsigned long long)g->seed);
		TRY(gen_xattr(g, "xattrs/many", name, value, strlen(value)));
	}
	if (g->root) {
		/* user.* is not allowed on symlinks and devices; trusted.* is. */
		TRY(gen_symlink(g, "large", "xattrs/symlink"));
		TRY(set_xattr_set(g, "xattrs/symlink", 0));
		TRY(gen_mknod(g, "xattrs/fifo", S_IFIFO | 0600, 0));
		TRY(gen_xattr(g, "xattrs/fifo", "trusted.fifo", "f", 1));
	}
	return 0;
}

static int generate(struct gen *g)
{
	static int (*const steps[])(struct gen *) = {
		make_files, make_dups, make_sparse, make_dirs, make_symlinks, make_special,
		make_hardlinks, make_names, make_owners, make_modes, make_times, make_xattrs,
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		TRY(steps[i](g));
	return gen_apply_mtimes(g);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: gentree [--seed N] [--small] [--no-huge] DIR\n"
		     "Creates DIR (which must not exist) holding a deterministic test tree.\n"
		     "--small: a quick variant; --no-huge: leave out the sparse file over 4 GiB\n"
		     "(reading it back costs seconds per image even though it takes no disk).\n");
}

int main(int argc, char **argv)
{
	struct gen g = { .seed = 1 };
	const char *dir = NULL;
	int ret = 2;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
			char *end;

			errno = 0;
			g.seed = strtoull(argv[++i], &end, 0);
			if (errno != 0 || *end != '\0' || end == argv[i]) {
				fprintf(stderr, "gentree: bad seed '%s'\n", argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "--small") == 0) {
			g.small = 1;
		} else if (strcmp(argv[i], "--no-huge") == 0) {
			g.no_huge = 1;
		} else if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' || dir != NULL) {
			fprintf(stderr, "gentree: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			dir = argv[i];
		}
	}
	if (dir == NULL) {
		usage(stderr);
		return 2;
	}
	g.rng = g.seed * 0x2545F4914F6CDD1DULL + 17;
	g.root = geteuid() == 0;
	umask(0);
	if (mkdir(dir, 0755) != 0) {
		fprintf(stderr, "gentree: %s: mkdir: %s\n", dir, strerror(errno));
		return 2;
	}
	/* Relative paths keep socket names within sun_path and every path short. */
	if (chdir(dir) != 0) {
		fprintf(stderr, "gentree: %s: chdir: %s\n", dir, strerror(errno));
		return 2;
	}
	if (generate(&g) == 0)
		ret = 0;
	else
		fprintf(stderr, "gentree: %s/%s\n", dir, g.err);
	gen_free(&g);
	return ret;
}
