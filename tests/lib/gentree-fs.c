/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* gentree-fs.c — deterministic content and the filesystem calls gentree builds its trees with. */
#include "config.h"

#include "tests/lib/gentree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

int gen_fail(struct gen *g, const char *fmt, ...)
{
	va_list ap;

	if (g->err[0] != '\0')
		return -1;
	va_start(ap, fmt);
	vsnprintf(g->err, sizeof(g->err), fmt, ap);
	va_end(ap);
	return -1;
}

int gen_fail_errno(struct gen *g, const char *fmt, ...)
{
	int saved = errno;
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return gen_fail(g, "%s: %s", what, strerror(saved));
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

uint64_t gen_rand(struct gen *g)
{
	return splitmix64(&g->rng);
}

uint64_t gen_range(struct gen *g, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	if (hi - lo == UINT64_MAX)
		return gen_rand(g);
	return lo + gen_rand(g) % (hi - lo + 1);
}

/* A small vocabulary compresses about as well as source text does (3-4x with gzip). */
static const char *const words[] = {
	"squash", "block", "inode", "fragment", "the", "of", "and", "directory", "table",
	"compress", "kernel", "mount", "image", "data", "xattr", "link", "a", "to", "in",
	"file", "read", "write", "super", "metadata", "id", "export", "lookup", "page",
};

static void fill(uint64_t *stream, enum gen_content kind, unsigned char *buf, size_t len)
{
	size_t pos = 0;

	switch (kind) {
	case GEN_RANDOM:
		while (pos < len) {
			uint64_t r = splitmix64(stream);
			size_t n = len - pos < 8 ? len - pos : 8;

			memcpy(buf + pos, &r, n);
			pos += n;
		}
		break;
	case GEN_TEXT:
		while (pos < len) {
			uint64_t r = splitmix64(stream);
			const char *w = words[r % (sizeof(words) / sizeof(words[0]))];
			size_t n = strlen(w);

			if (n > len - pos)
				n = len - pos;
			memcpy(buf + pos, w, n);
			pos += n;
			if (pos < len)
				buf[pos++] = (r >> 32) % 11 == 0 ? '\n' : ' ';
		}
		break;
	case GEN_ZERO:
	case GEN_HOLE:
		memset(buf, 0, len);
		break;
	}
}

int gen_file_segs(struct gen *g, const char *path, const struct gen_seg *segs, size_t n)
{
	enum { CHUNK = 65536 };
	unsigned char *buf = NULL;
	uint64_t total = 0;
	int fd = -1, ret = -1;

	buf = malloc(CHUNK);
	if (buf == NULL) {
		gen_fail(g, "%s: out of memory", path);
		goto out;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		gen_fail_errno(g, "%s: create", path);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t stream = segs[i].seed ^ g->seed ^ ((uint64_t)segs[i].kind << 56);
		uint64_t left = segs[i].len;

		total += segs[i].len;
		if (segs[i].kind == GEN_HOLE) {
			if (lseek(fd, (off_t)total, SEEK_SET) < 0) {
				gen_fail_errno(g, "%s: seek", path);
				goto out;
			}
			continue;
		}
		while (left > 0) {
			size_t len = left < CHUNK ? (size_t)left : CHUNK;
			ssize_t done;

			fill(&stream, segs[i].kind, buf, len);
			done = write(fd, buf, len);
			if (done != (ssize_t)len) {
				if (done >= 0)
					errno = ENOSPC;
				gen_fail_errno(g, "%s: write", path);
				goto out;
			}
			left -= len;
		}
	}
	if (ftruncate(fd, (off_t)total) != 0) {
		gen_fail_errno(g, "%s: truncate", path);
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0 && close(fd) != 0 && ret == 0)
		ret = gen_fail_errno(g, "%s: close", path);
	free(buf);
	return ret;
}

int gen_file(struct gen *g, const char *path, uint64_t size, enum gen_content kind, uint64_t seed)
{
	struct gen_seg seg = { .len = size, .kind = kind, .seed = seed };

	return gen_file_segs(g, path, &seg, 1);
}

int gen_mkdir(struct gen *g, const char *path, mode_t mode)
{
	if (mkdir(path, mode) != 0)
		return gen_fail_errno(g, "%s: mkdir", path);
	/* mkdir applies the umask; the tree must not depend on the caller's. */
	return gen_chmod(g, path, mode);
}

int gen_symlink(struct gen *g, const char *target, const char *path)
{
	if (symlink(target, path) != 0)
		return gen_fail_errno(g, "%s: symlink", path);
	return 0;
}

int gen_link(struct gen *g, const char *existing, const char *path)
{
	/* linkat without AT_SYMLINK_FOLLOW links a symlink itself, as Linux allows. */
	if (linkat(AT_FDCWD, existing, AT_FDCWD, path, 0) != 0)
		return gen_fail_errno(g, "%s: link to %s", path, existing);
	return 0;
}

int gen_mknod(struct gen *g, const char *path, mode_t mode, dev_t dev)
{
	if (mknod(path, mode, dev) != 0)
		return gen_fail_errno(g, "%s: mknod", path);
	return gen_chmod(g, path, mode & 07777);
}

int gen_socket(struct gen *g, const char *path)
{
	struct sockaddr_un addr;
	int fd, ret = 0;

	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(addr.sun_path))
		return gen_fail(g, "%s: socket path too long", path);
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return gen_fail_errno(g, "%s: socket", path);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
		ret = gen_fail_errno(g, "%s: bind", path);
	close(fd);
	if (ret == 0)
		ret = gen_chmod(g, path, 0755);
	return ret;
}

int gen_chmod(struct gen *g, const char *path, mode_t mode)
{
	if (chmod(path, mode) != 0)
		return gen_fail_errno(g, "%s: chmod", path);
	return 0;
}

int gen_lchown(struct gen *g, const char *path, uid_t uid, gid_t gid)
{
	if (lchown(path, uid, gid) != 0)
		return gen_fail_errno(g, "%s: chown %lu:%lu", path, (unsigned long)uid,
				      (unsigned long)gid);
	return 0;
}

int gen_xattr(struct gen *g, const char *path, const char *name, const void *value, size_t len)
{
	if (lsetxattr(path, name, value, len, 0) != 0)
		return gen_fail_errno(g, "%s: setxattr %s", path, name);
	return 0;
}

int gen_mtime(struct gen *g, const char *path, int64_t mtime)
{
	char *copy;

	if (g->n_mtimes == g->cap_mtimes) {
		size_t cap = g->cap_mtimes ? g->cap_mtimes * 2 : 64;
		struct gen_mtime *grown = realloc(g->mtimes, cap * sizeof(*grown));

		if (grown == NULL)
			return gen_fail(g, "%s: out of memory", path);
		g->mtimes = grown;
		g->cap_mtimes = cap;
	}
	copy = strdup(path);
	if (copy == NULL)
		return gen_fail(g, "%s: out of memory", path);
	g->mtimes[g->n_mtimes].path = copy;
	g->mtimes[g->n_mtimes].mtime = mtime;
	g->n_mtimes++;
	return 0;
}

static int set_mtime(struct gen *g, const char *path, int64_t mtime)
{
	struct timespec ts[2] = { { .tv_sec = (time_t)mtime }, { .tv_sec = (time_t)mtime } };

	if (utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW) != 0)
		return gen_fail_errno(g, "%s: set mtime %lld", path, (long long)mtime);
	return 0;
}

/* FNV-1a: a path's default mtime depends only on its name and the seed. */
static int64_t default_mtime(const struct gen *g, const char *path)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ g->seed;

	for (const char *p = path; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return 946684800 + (int64_t)(h % 800000000);
}

static int walk_mtimes(struct gen *g, char *path, size_t len, size_t cap)
{
	DIR *dir = opendir(path);
	struct dirent *de;
	int ret = 0;

	if (dir == NULL)
		return gen_fail_errno(g, "%s: opendir", path);
	while (ret == 0 && (errno = 0, de = readdir(dir)) != NULL) {
		size_t n = strlen(de->d_name);

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (len + 1 + n + 1 > cap) {
			ret = gen_fail(g, "%s/%s: path too long", path, de->d_name);
			break;
		}
		path[len] = '/';
		memcpy(path + len + 1, de->d_name, n + 1);
		if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN) {
			struct stat st;

			if (lstat(path, &st) != 0)
				ret = gen_fail_errno(g, "%s: lstat", path);
			else if (S_ISDIR(st.st_mode))
				ret = walk_mtimes(g, path, len + 1 + n, cap);
		}
		if (ret == 0)
			ret = set_mtime(g, path, default_mtime(g, path));
		path[len] = '\0';
	}
	if (ret == 0 && errno != 0)
		ret = gen_fail_errno(g, "%s: readdir", path);
	closedir(dir);
	return ret;
}

int gen_apply_mtimes(struct gen *g)
{
	enum { CAP = 65536 };
	char *path = malloc(CAP);
	int ret;

	if (path == NULL)
		return gen_fail(g, "out of memory");
	strcpy(path, ".");
	ret = walk_mtimes(g, path, 1, CAP);
	free(path);
	if (ret == 0)
		ret = set_mtime(g, ".", default_mtime(g, "."));
	for (size_t i = 0; ret == 0 && i < g->n_mtimes; i++)
		ret = set_mtime(g, g->mtimes[i].path, g->mtimes[i].mtime);
	return ret;
}

void gen_free(struct gen *g)
{
	for (size_t i = 0; i < g->n_mtimes; i++)
		free(g->mtimes[i].path);
	free(g->mtimes);
	g->mtimes = NULL;
	g->n_mtimes = g->cap_mtimes = 0;
}
