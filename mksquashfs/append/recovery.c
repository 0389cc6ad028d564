/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* recovery.c — writing the recovery file before an append, and `-recover`: putting the image
 * back from it (squashfs-tools' format, plus a trailer it ignores; see recovery.h). */
#include "config.h"
#include "mksquashfs/append/recovery.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util/endian.h"
#include "common/util/io.h"
#include "common/util/xxhash64.h"

#define HEADER "Squashfs recovery file v1.0\n"
#define HEADER_LEN (sizeof(HEADER) - 1)
#define TRAILER "SQTK-RECOVERY-1\n"
#define TRAILER_LEN (sizeof(TRAILER) - 1)
#define TRAILER_FIXED (TRAILER_LEN + 48)

/* What the trailer's checksum covers: the superblock, the tables and the tail it restores. */
static uint64_t checksum(const uint8_t *sb, const uint8_t *tables, size_t tables_len,
			 const uint8_t *tail, size_t tail_len)
{
	struct sq_xxh64_state st;
	sq_xxh64_init(&st, 0);
	sq_xxh64_update(&st, sb, SQFS_SUPER_SIZE);
	sq_xxh64_update(&st, tables, tables_len);
	sq_xxh64_update(&st, tail, tail_len);
	return sq_xxh64_digest(&st);
}

static int write_contents(int fd, const struct append_image *a)
{
	size_t tables = (size_t)(a->sb.bytes_used - a->data_end);
	size_t tail = a->saved_len - tables;
	uint8_t t[TRAILER_FIXED];
	memcpy(t, TRAILER, TRAILER_LEN);
	put_le64(t + TRAILER_LEN, a->base);
	put_le64(t + TRAILER_LEN + 8, a->base + a->data_end + a->saved_len);
	put_le64(t + TRAILER_LEN + 16, a->fingerprint);
	put_le32(t + TRAILER_LEN + 24, a->fingerprint_len);
	put_le32(t + TRAILER_LEN + 28, 0);
	put_le64(t + TRAILER_LEN + 32, tail);
	put_le64(t + TRAILER_LEN + 40, checksum(a->sb_raw, a->saved, tables, a->saved + tables, tail));
	const struct {
		const void *p;
		size_t len;
	} parts[] = { { HEADER, HEADER_LEN }, { a->sb_raw, SQFS_SUPER_SIZE }, { a->saved, tables },
		      { t, sizeof(t) }, { a->saved + tables, tail } };
	uint64_t pos = 0;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (image_pwrite_full(fd, parts[i].p, parts[i].len, pos) != 0)
			return -1;
		pos += parts[i].len;
	}
	return fsync(fd);
}

static char *recovery_name(const struct append_image *a, const struct mksq_options *o,
			   const char *prefix, const char *suffix, struct sq_error *err)
{
	const char *dir = o->append.recovery_path;
	if (dir == NULL && (dir = getenv("HOME")) == NULL) {
		sq_fail(err, SQ_ERR_USAGE, "$HOME is not set: use -recovery-path DIR or -no-recovery");
		return NULL;
	}
	char *copy = strdup(a->path);
	if (copy == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	const char *base = basename(copy);
	size_t len = strlen(dir) + strlen(prefix) + strlen(base) + strlen(suffix) + 32;
	char *name = malloc(len);
	if (name != NULL)
		snprintf(name, len, "%s/%ssquashfs_recovery_%s_%ld%s", dir, prefix, base,
			 (long)getpid(), suffix);
	else
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	free(copy);
	return name;
}

/* The file appears under its name whole or not at all, and is on disk before the image changes. */
int recovery_write(const struct append_image *a, const struct mksq_options *o, char **path,
		   struct sq_error *err)
{
	*path = NULL;
	char *tmp = recovery_name(a, o, ".", ".tmp", err);
	char *name = tmp != NULL ? recovery_name(a, o, "", "", err) : NULL;
	if (name == NULL) {
		free(tmp);
		return -1;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		sq_fail_errno(err, "cannot create recovery file %s (-recovery-path DIR or "
			      "-no-recovery)", tmp);
		goto fail;
	}
	if (write_contents(fd, a) != 0) {
		sq_fail_errno(err, "cannot write recovery file %s", tmp);
		close(fd);
		unlink(tmp);
		goto fail;
	}
	close(fd);
	if (rename(tmp, name) != 0) {
		sq_fail_errno(err, "cannot rename recovery file %s to %s", tmp, name);
		unlink(tmp);
		goto fail;
	}
	char *dir = strdup(name);
	if (dir != NULL) {
		int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(dir);
	}
	free(tmp);
	*path = name;
	return 0;
fail:
	free(tmp);
	free(name);
	return -1;
}

/* ---- -recover ---- */

struct recovery {
	uint8_t *bytes;         /* the whole file */
	size_t len;
	struct sqfs_super sb;   /* the superblock it restores */
	const uint8_t *sb_raw;
	const uint8_t *tables;  /* [inode_table, bytes_used) */
	size_t tables_len;
	bool trailer;
	uint64_t base, file_len, fingerprint;
	uint32_t fingerprint_len;
	const uint8_t *tail;
	size_t tail_len;
};

static int load_file(const char *path, struct recovery *r, struct sq_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sq_fail_errno(err, "cannot open recovery file %s", path);
	struct stat st;
	int rc = -1;
	if (fstat(fd, &st) != 0) {
		sq_fail_errno(err, "cannot stat recovery file %s", path);
	} else if (!S_ISREG(st.st_mode) || st.st_size < (off_t)(HEADER_LEN + SQFS_SUPER_SIZE)) {
		sq_fail(err, SQ_ERR_CORRUPT, "%s is not a squashfs recovery file (too short)", path);
	} else if ((r->bytes = malloc((size_t)st.st_size)) == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory for recovery file %s", path);
	} else if (sq_pread_full(fd, r->bytes, (size_t)st.st_size, 0) != (ssize_t)st.st_size) {
		sq_fail_errno(err, "cannot read recovery file %s", path);
	} else {
		r->len = (size_t)st.st_size;
		rc = 0;
	}
	close(fd);
	return rc;
}

static int parse_trailer(const char *path, struct recovery *r, size_t at, struct sq_error *err)
{
	if (r->len - at < TRAILER_FIXED || memcmp(r->bytes + at, TRAILER, TRAILER_LEN) != 0)
		return 0; /* squashfs-tools' file, or ours without the trailer: no exact length */
	const uint8_t *t = r->bytes + at + TRAILER_LEN;
	r->base = get_le64(t);
	r->file_len = get_le64(t + 8);
	r->fingerprint = get_le64(t + 16);
	r->fingerprint_len = get_le32(t + 24);
	uint64_t tail = get_le64(t + 32);
	if (tail != r->len - at - TRAILER_FIXED ||
	    r->base + r->sb.bytes_used + tail != r->file_len || r->base > r->file_len ||
	    r->fingerprint_len > r->sb.inode_table)
		return sq_fail(err, SQ_ERR_CORRUPT, "recovery file %s: inconsistent trailer", path);
	r->trailer = true;
	r->tail = t + 48;
	r->tail_len = (size_t)tail;
	if (checksum(r->sb_raw, r->tables, r->tables_len, r->tail, r->tail_len) != get_le64(t + 40))
		return sq_fail(err, SQ_ERR_CORRUPT, "recovery file %s is corrupt (checksum)", path);
	return 0;
}

static int parse(const char *path, struct recovery *r, struct sq_error *err)
{
	if (memcmp(r->bytes, HEADER, HEADER_LEN) != 0)
		return sq_fail(err, SQ_ERR_CORRUPT, "%s is not a squashfs recovery file", path);
	r->sb_raw = r->bytes + HEADER_LEN;
	struct sq_error e;
	sq_error_clear(&e);
	if (sqfs_super_decode(&r->sb, r->sb_raw, &e) != 0)
		return sq_fail(err, SQ_ERR_CORRUPT, "recovery file %s: %s", path, e.msg);
	uint64_t tables = r->sb.bytes_used - r->sb.inode_table;
	size_t at = HEADER_LEN + SQFS_SUPER_SIZE;
	if (tables > r->len - at)
		return sq_fail(err, SQ_ERR_CORRUPT, "recovery file %s is truncated", path);
	r->tables = r->bytes + at;
	r->tables_len = (size_t)tables;
	return parse_trailer(path, r, at + r->tables_len, err);
}

/* Is the image (its current superblock at base) the one r was made from, or an append to it
 * that ran on past our reach (it completed, but the recovery file was not removed)? */
static int matches(int fd, const struct recovery *r, const char *image, struct sq_error *err)
{
	uint8_t cur[SQFS_SUPER_SIZE];
	if (sq_pread_full(fd, cur, sizeof(cur), r->base) != (ssize_t)sizeof(cur))
		return sq_fail(err, SQ_ERR_CORRUPT, "%s is too short for its superblock", image);
	if (memcmp(cur + 4, r->sb_raw + 4, SQFS_SUPER_SIZE - 4) == 0 &&
	    (get_le32(cur) == 0 || get_le32(cur) == SQFS_MAGIC))
		return 1;
	struct sqfs_super now;
	struct sq_error e;
	sq_error_clear(&e);
	if (!r->trailer || sqfs_super_decode(&now, cur, &e) != 0 ||
	    now.compressor != r->sb.compressor || now.block_size != r->sb.block_size ||
	    now.inode_table < r->sb.inode_table)
		return 0;
	uint8_t *buf = malloc(r->fingerprint_len ? r->fingerprint_len : 1);
	if (buf == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	ssize_t got = sq_pread_full(fd, buf, r->fingerprint_len,
				    r->base + r->sb.inode_table - r->fingerprint_len);
	int same = got == (ssize_t)r->fingerprint_len &&
		   sq_xxh64(buf, r->fingerprint_len, 0) == r->fingerprint;
	free(buf);
	return same;
}

static int restore(int fd, const struct recovery *r, const char *image, struct sq_error *err)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return sq_fail_errno(err, "cannot stat image %s", image);
	/* Without our trailer the old length is not known: squashfs-tools pads every image to
	 * 4 KiB unless -nopad, so the padding is written back as zeros. */
	uint64_t end = r->base + r->sb.bytes_used;
	uint64_t file_len = r->trailer ? r->file_len : (end + SQFS_DEVBLK_SIZE - 1) &
							 ~(uint64_t)(SQFS_DEVBLK_SIZE - 1);
	size_t pad = r->trailer ? r->tail_len : (size_t)(file_len - end);
	uint8_t *saved = calloc(1, r->tables_len + pad + 1);
	if (saved == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	memcpy(saved, r->tables, r->tables_len);
	if (r->trailer)
		memcpy(saved + r->tables_len, r->tail, pad);
	struct image_restore rs = {
		.super_pos = r->base,
		.super = r->sb_raw,
		.saved_pos = r->base + r->sb.inode_table,
		.saved = saved,
		.saved_len = r->tables_len + pad,
		.file_len = file_len,
		.truncate = S_ISREG(st.st_mode),
	};
	int rc = 0;
	if (image_restore_apply(fd, &rs) != 0)
		rc = sq_fail_errno(err, "cannot write image %s", image);
	free(saved);
	return rc;
}

int append_recover(const struct mksq_options *o, FILE *msg, struct sq_error *err)
{
	const char *file = o->append.recover, *image = o->image_path;
	struct recovery r = { 0 };
	int fd = -1, rc = -1;
	if (load_file(file, &r, err) != 0 || parse(file, &r, err) != 0)
		goto out;
	/* squashfs-tools' file does not say where the image starts: -offset does. */
	if (!r.trailer)
		r.base = o->offset;
	fd = open(image, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		sq_fail_errno(err, "cannot open image %s", image);
		goto out;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < r.base + r.sb.inode_table) {
		sq_fail(err, SQ_ERR_CORRUPT, "%s is shorter than the data of the image in %s", image,
			file);
		goto out;
	}
	int m = matches(fd, &r, image, err);
	if (m < 0)
		goto out;
	if (m == 0) {
		sq_fail(err, SQ_ERR_USAGE, "recovery file %s does not match image %s", file, image);
		goto out;
	}
	if (restore(fd, &r, image, err) != 0)
		goto out;
	if (msg != NULL)
		fprintf(msg, "Restored %s from recovery file %s\n", image, file);
	rc = 0;
out:
	if (fd >= 0 && close(fd) != 0 && rc == 0)
		rc = sq_fail_errno(err, "cannot close image %s", image);
	free(r.bytes);
	return rc;
}
