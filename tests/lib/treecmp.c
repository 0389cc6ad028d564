/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* treecmp.c — compares two trees entry by entry (metadata, content, xattrs, hard-link groups). */
#include "config.h"

#include "tests/lib/treecmp.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

struct tc_opts {
	int no_xattrs;          /* skip xattr comparison */
	int xattrs_absent;      /* B must carry no xattrs at all (-no-xattrs) */
	int no_owner;
	int have_owner;         /* B's owners must all be owner_uid:owner_gid (-all-root, -force-*) */
	uint64_t owner_uid, owner_gid;
	int have_uid, have_gid; /* only one of them forced */
	int no_mtime;
	int have_mtime;         /* B's mtimes must all be mtime (-all-time) */
	int64_t mtime;
	int ignore_root_mtime;
	int ignore_root;        /* the top's mode, owner and mtime */
	int no_dir_nlink;
	int no_hardlinks;
	int no_symlink_hardlinks; /* the reference mksquashfs 4.5.1 sometimes splits linked symlinks */
	int have_clamp;         /* B's mtimes must be min(A's, clamp) (SOURCE_DATE_EPOCH) */
	int64_t clamp;
};

struct tc_run {
	const struct tc_opts *opt;
	const struct tc_tree *a, *b;
	unsigned long diffs;
	int error;              /* a read failed: exit 2 even if nothing else differs */
	unsigned char *buf_a, *buf_b;
};

enum { BUF = 1 << 20, XATTR_LIST = 1 << 16, XATTR_VALUE = 1 << 16 };

static void diff(struct tc_run *run, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void diff(struct tc_run *run, const char *path, const char *fmt, ...)
{
	va_list ap;

	run->diffs++;
	tc_print_path(path);
	fputs(": ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "file";
	case S_IFDIR: return "directory";
	case S_IFLNK: return "symlink";
	case S_IFBLK: return "block device";
	case S_IFCHR: return "char device";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "socket";
	default: return "unknown";
	}
}

static char *join(const char *top, const char *path)
{
	size_t a = strlen(top), b = strlen(path);
	char *full = malloc(a + b + 2);

	if (full != NULL) {
		memcpy(full, top, a);
		full[a] = '/';
		memcpy(full + a + 1, path, b + 1);
	}
	return full;
}

static ssize_t read_full(int fd, unsigned char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static void compare_content(struct tc_run *run, const char *path)
{
	char *pa = join(run->a->top, path), *pb = join(run->b->top, path);
	int fa = -1, fb = -1;
	uint64_t off = 0;

	if (pa == NULL || pb == NULL) {
		fprintf(stderr, "treecmp: out of memory\n");
		run->error = 1;
		goto out;
	}
	fa = open(pa, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	fb = open(pb, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fa < 0 || fb < 0) {
		fprintf(stderr, "treecmp: %s: open: %s\n", fa < 0 ? pa : pb, strerror(errno));
		run->error = 1;
		goto out;
	}
	posix_fadvise(fa, 0, 0, POSIX_FADV_SEQUENTIAL);
	posix_fadvise(fb, 0, 0, POSIX_FADV_SEQUENTIAL);
	for (;;) {
		ssize_t na = read_full(fa, run->buf_a, BUF);
		ssize_t nb = read_full(fb, run->buf_b, BUF);

		if (na < 0 || nb < 0) {
			fprintf(stderr, "treecmp: %s: read at %" PRIu64 ": %s\n", na < 0 ? pa : pb, off,
				strerror(errno));
			run->error = 1;
			diff(run, path, "read error at offset %" PRIu64, off);
			goto out;
		}
		if (na != nb || memcmp(run->buf_a, run->buf_b, (size_t)na) != 0) {
			size_t i = 0;

			while (i < (size_t)na && i < (size_t)nb && run->buf_a[i] == run->buf_b[i])
				i++;
			diff(run, path, "content differs at offset %" PRIu64, off + i);
			goto out;
		}
		if (na == 0)
			break;
		off += (uint64_t)na;
	}
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	free(pa);
	free(pb);
}

static void compare_target(struct tc_run *run, const char *path)
{
	char *pa = join(run->a->top, path), *pb = join(run->b->top, path);
	char ta[4097], tb[4097];
	ssize_t na, nb;

	if (pa == NULL || pb == NULL) {
		fprintf(stderr, "treecmp: out of memory\n");
		run->error = 1;
		goto out;
	}
	na = readlink(pa, ta, sizeof(ta) - 1);
	nb = readlink(pb, tb, sizeof(tb) - 1);
	if (na < 0 || nb < 0) {
		fprintf(stderr, "treecmp: %s: readlink: %s\n", na < 0 ? pa : pb, strerror(errno));
		run->error = 1;
		goto out;
	}
	if (na != nb || memcmp(ta, tb, (size_t)na) != 0) {
		ta[na] = tb[nb] = '\0';
		diff(run, path, "symlink target differs (%zd bytes vs %zd bytes%s)", na, nb,
		     na == nb ? ", same length" : "");
	}
out:
	free(pa);
	free(pb);
}

/* Names of path's xattrs, NUL-separated, sorted, in list (XATTR_LIST bytes); returns the count. */
static int xattr_names(struct tc_run *run, const char *full, char *list, const char **names, int max)
{
	ssize_t len = llistxattr(full, list, XATTR_LIST);
	int n = 0;

	if (len < 0) {
		if (errno == ENOTSUP)
			return 0;
		fprintf(stderr, "treecmp: %s: listxattr: %s\n", full, strerror(errno));
		run->error = 1;
		return -1;
	}
	for (ssize_t i = 0; i < len && n < max; i += (ssize_t)strlen(list + i) + 1)
		names[n++] = list + i;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
			const char *t = names[j];

			names[j] = names[j - 1];
			names[j - 1] = t;
		}
	return n;
}

static void compare_xattrs(struct tc_run *run, const char *path)
{
	enum { MAX = 4096 };
	char *pa = join(run->a->top, path), *pb = join(run->b->top, path);
	char *la = malloc(XATTR_LIST), *lb = malloc(XATTR_LIST);
	const char **na = malloc(MAX * sizeof(*na)), **nb = malloc(MAX * sizeof(*nb));
	int ca, cb;

	if (!pa || !pb || !la || !lb || !na || !nb) {
		fprintf(stderr, "treecmp: out of memory\n");
		run->error = 1;
		goto out;
	}
	cb = xattr_names(run, pb, lb, nb, MAX);
	if (run->opt->xattrs_absent) {
		if (cb > 0)
			diff(run, path, "has %d xattrs (first %s), expected none", cb, nb[0]);
		goto out;
	}
	ca = xattr_names(run, pa, la, na, MAX);
	if (ca < 0 || cb < 0)
		goto out;
	for (int i = 0, j = 0; i < ca || j < cb;) {
		int c = i >= ca ? 1 : j >= cb ? -1 : strcmp(na[i], nb[j]);

		if (c < 0) {
			diff(run, path, "xattr %s only in first tree", na[i++]);
		} else if (c > 0) {
			diff(run, path, "xattr %s only in second tree", nb[j++]);
		} else {
			ssize_t va = lgetxattr(pa, na[i], run->buf_a, XATTR_VALUE);
			ssize_t vb = lgetxattr(pb, nb[j], run->buf_b, XATTR_VALUE);

			if (va < 0 || vb < 0) {
				fprintf(stderr, "treecmp: %s: getxattr %s: %s\n", va < 0 ? pa : pb, na[i],
					strerror(errno));
				run->error = 1;
			} else if (va != vb || memcmp(run->buf_a, run->buf_b, (size_t)va) != 0) {
				diff(run, path, "xattr %s value differs (%zd vs %zd bytes)", na[i], va, vb);
			}
			i++;
			j++;
		}
	}
out:
	free(pa);
	free(pb);
	free(la);
	free(lb);
	free(na);
	free(nb);
}

static void compare_entry(struct tc_run *run, size_t ia, size_t ib)
{
	const struct tc_opts *opt = run->opt;
	const struct tc_entry *ea = &run->a->ent[ia], *eb = &run->b->ent[ib];
	const struct stat *a = &ea->st, *b = &eb->st;
	const char *path = ea->path;
	int is_root = *path == '\0';

	if ((a->st_mode & S_IFMT) != (b->st_mode & S_IFMT)) {
		diff(run, path, "type differs (%s vs %s)", type_name(a->st_mode), type_name(b->st_mode));
		return;
	}
	if (!(is_root && opt->ignore_root) && (a->st_mode & 07777) != (b->st_mode & 07777))
		diff(run, path, "mode differs (%04o vs %04o)", (unsigned)(a->st_mode & 07777),
		     (unsigned)(b->st_mode & 07777));
	if (!opt->no_owner && !(is_root && opt->ignore_root)) {
		uint64_t want_uid = opt->have_uid ? opt->owner_uid : (uint64_t)a->st_uid;
		uint64_t want_gid = opt->have_gid ? opt->owner_gid : (uint64_t)a->st_gid;

		if (want_uid != (uint64_t)b->st_uid || want_gid != (uint64_t)b->st_gid)
			diff(run, path, "owner differs (%" PRIu64 ":%" PRIu64 " vs %lu:%lu)", want_uid,
			     want_gid, (unsigned long)b->st_uid, (unsigned long)b->st_gid);
	}
	if (!opt->no_mtime && !(is_root && (opt->ignore_root || opt->ignore_root_mtime))) {
		int64_t want = opt->have_mtime ? opt->mtime : (int64_t)a->st_mtim.tv_sec;

		if (opt->have_clamp && want > opt->clamp)
			want = opt->clamp;
		if (want != (int64_t)b->st_mtim.tv_sec)
			diff(run, path, "mtime differs (%lld vs %lld)", (long long)want,
			     (long long)b->st_mtim.tv_sec);
	}
	if (S_ISDIR(a->st_mode) && !opt->no_dir_nlink && a->st_nlink != b->st_nlink)
		diff(run, path, "link count differs (%lu vs %lu)", (unsigned long)a->st_nlink,
		     (unsigned long)b->st_nlink);
	if (S_ISBLK(a->st_mode) || S_ISCHR(a->st_mode)) {
		if (a->st_rdev != b->st_rdev)
			diff(run, path, "rdev differs (%u:%u vs %u:%u)", major(a->st_rdev),
			     minor(a->st_rdev), major(b->st_rdev), minor(b->st_rdev));
	}
	if (S_ISREG(a->st_mode)) {
		if (a->st_size != b->st_size)
			diff(run, path, "size differs (%lld vs %lld)", (long long)a->st_size,
			     (long long)b->st_size);
		else
			compare_content(run, path);
	}
	if (S_ISLNK(a->st_mode))
		compare_target(run, path);
	if (!opt->no_hardlinks && !S_ISDIR(a->st_mode) &&
	    !(opt->no_symlink_hardlinks && S_ISLNK(a->st_mode))) {
		const char *ra = run->a->ent[ea->link_rep].path, *rb = run->b->ent[eb->link_rep].path;

		if (strcmp(ra, rb) != 0) {
			/* Each group is named by its first path, so equal partitions name equal firsts. */
			run->diffs++;
			tc_print_path(path);
			fputs(": hard-link group differs (first member ", stdout);
			tc_print_path(ra);
			fputs(" vs ", stdout);
			tc_print_path(rb);
			fputs(")\n", stdout);
		}
	}
	if (!opt->no_xattrs || opt->xattrs_absent)
		compare_xattrs(run, path);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno != 0 || end == s || *end != '\0' || *s == '-' ? -1 : 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: treecmp [options] A B\n"
		"Compares trees A and B (lstat, never following symlinks). Exit 0 identical,\n"
		"1 different (one line per difference), 2 error.\n"
		"  --no-xattrs           do not compare xattrs\n"
		"  --xattrs-absent       B must have no xattrs at all\n"
		"  --no-owner            do not compare uid/gid\n"
		"  --owner UID:GID       B's owners must all be UID:GID\n"
		"  --uid UID, --gid GID  B's uids (gids) must all be this\n"
		"  --no-mtime            do not compare mtimes\n"
		"  --mtime T             B's mtimes must all be T\n"
		"  --mtime-clamp T       B's mtimes must be A's, clamped to at most T\n"
		"  --ignore-root-mtime   do not compare the top directory's mtime\n"
		"  --ignore-root         do not compare the top directory's mode, owner, mtime\n"
		"  --no-dir-nlink        do not compare directory link counts\n"
		"  --no-hardlinks        do not compare hard-link groups\n"
		"  --no-symlink-hardlinks  ... of symlinks only\n");
}

/* Returns 0 to compare, 1 after --help, -1 on a usage error. */
static int parse_args(int argc, char **argv, struct tc_opts *opt, const char **a, const char **b)
{
	const char *arg = NULL;
	int n_paths = 0;

	for (int i = 1; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		arg = argv[i];
		uint64_t v;

		if (strcmp(arg, "--no-xattrs") == 0) {
			opt->no_xattrs = 1;
		} else if (strcmp(arg, "--xattrs-absent") == 0) {
			opt->xattrs_absent = 1;
		} else if (strcmp(arg, "--no-owner") == 0) {
			opt->no_owner = 1;
		} else if (strcmp(arg, "--owner") == 0 && val != NULL) {
			char *colon = strchr(argv[++i], ':');

			if (colon == NULL)
				goto bad;
			*colon = '\0';
			if (parse_u64(val, &opt->owner_uid) || parse_u64(colon + 1, &opt->owner_gid))
				goto bad;
			opt->have_uid = opt->have_gid = 1;
		} else if (strcmp(arg, "--uid") == 0 && val != NULL) {
			if (parse_u64(argv[++i], &opt->owner_uid))
				goto bad;
			opt->have_uid = 1;
		} else if (strcmp(arg, "--gid") == 0 && val != NULL) {
			if (parse_u64(argv[++i], &opt->owner_gid))
				goto bad;
			opt->have_gid = 1;
		} else if (strcmp(arg, "--no-mtime") == 0) {
			opt->no_mtime = 1;
		} else if (strcmp(arg, "--mtime") == 0 && val != NULL) {
			if (parse_u64(argv[++i], &v))
				goto bad;
			opt->have_mtime = 1;
			opt->mtime = (int64_t)v;
		} else if (strcmp(arg, "--mtime-clamp") == 0 && val != NULL) {
			if (parse_u64(argv[++i], &v))
				goto bad;
			opt->have_clamp = 1;
			opt->clamp = (int64_t)v;
		} else if (strcmp(arg, "--no-symlink-hardlinks") == 0) {
			opt->no_symlink_hardlinks = 1;
		} else if (strcmp(arg, "--ignore-root-mtime") == 0) {
			opt->ignore_root_mtime = 1;
		} else if (strcmp(arg, "--ignore-root") == 0) {
			opt->ignore_root = 1;
		} else if (strcmp(arg, "--no-dir-nlink") == 0) {
			opt->no_dir_nlink = 1;
		} else if (strcmp(arg, "--no-hardlinks") == 0) {
			opt->no_hardlinks = 1;
		} else if (strcmp(arg, "--help") == 0) {
			usage(stdout);
			return 1;
		} else if (arg[0] == '-' && arg[1] != '\0') {
			fprintf(stderr, "treecmp: unknown option '%s'\n", arg);
			return -1;
		} else if (n_paths == 0) {
			*a = arg;
			n_paths++;
		} else if (n_paths == 1) {
			*b = arg;
			n_paths++;
		} else {
			fprintf(stderr, "treecmp: too many arguments\n");
			return -1;
		}
	}
	if (n_paths != 2) {
		usage(stderr);
		return -1;
	}
	return 0;
bad:
	fprintf(stderr, "treecmp: bad value for %s\n", arg);
	return -1;
}

int main(int argc, char **argv)
{
	struct tc_opts opt = { 0 };
	struct tc_tree ta = { 0 }, tb = { 0 };
	struct tc_run run = { .opt = &opt, .a = &ta, .b = &tb };
	const char *a = NULL, *b = NULL;
	int ret = 2;

	ret = parse_args(argc, argv, &opt, &a, &b);
	if (ret != 0)
		return ret > 0 ? 0 : 2;
	ret = 2;
	run.buf_a = malloc(BUF);
	run.buf_b = malloc(BUF);
	if (run.buf_a == NULL || run.buf_b == NULL) {
		fprintf(stderr, "treecmp: out of memory\n");
		goto out;
	}
	if (tc_walk(&ta, a) != 0 || tc_walk(&tb, b) != 0)
		goto out;
	for (size_t i = 0, j = 0; i < ta.n || j < tb.n;) {
		int c = i >= ta.n ? 1 : j >= tb.n ? -1 : strcmp(ta.ent[i].path, tb.ent[j].path);

		if (c < 0) {
			diff(&run, ta.ent[i].path, "only in first tree (%s)", type_name(ta.ent[i].st.st_mode));
			i++;
		} else if (c > 0) {
			diff(&run, tb.ent[j].path, "only in second tree (%s)", type_name(tb.ent[j].st.st_mode));
			j++;
		} else {
			compare_entry(&run, i++, j++);
		}
	}
	fflush(stdout);
	ret = run.error ? 2 : run.diffs ? 1 : 0;
	if (run.diffs)
		fprintf(stderr, "treecmp: %s and %s: %lu differences\n", a, b, run.diffs);
out:
	tc_tree_free(&ta);
	tc_tree_free(&tb);
	free(run.buf_a);
	free(run.buf_b);
	return ret;
}
