/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/reader.c — the archive, header by header: extension headers gathered, each member placed
 * in the tree, regular files' bytes copied to the spool, everything else skipped; the end at two
 * zero blocks (or past them with -ignore-zeros) or at the end of input. */
#include "config.h"
#include "mksquashfs/tar/tar.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/util/sizes.h"
#include "mksquashfs/tar/reader.h"

/* Extension headers (pax records, GNU long names) are held whole: bounded, as their size comes
 * from the archive. */
#define TAR_EXT_MAX (16u << 20)

/* A name fit for a one-line message: control bytes escaped, long names cut in the middle. */
static void printable(const char *s, char *out, size_t cap)
{
	size_t len = strlen(s), n = 0;
	for (size_t i = 0; i < len && n + 8 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		if (len > 200 && i == 96) {
			n += (size_t)snprintf(out + n, cap - n, "...");
			i = len - 97;
			continue;
		}
		if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
			n += (size_t)snprintf(out + n, cap - n, "\\x%02x", c);
		else
			out[n++] = (char)c;
	}
	out[n] = '\0';
}

int tar_fail(struct tar_reader *r, enum sq_errcode code, const char *fmt, ...)
{
	char what[256], name[240];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->entry == NULL)
		return sq_fail(r->err, code, "tar header at offset %llu: %s",
			       (unsigned long long)r->entry_offset, what);
	printable(r->entry, name, sizeof(name));
	return sq_fail(r->err, code, "tar entry \"%s\" (header at offset %llu): %s", name,
		       (unsigned long long)r->entry_offset, what);
}

void tar_warn(struct tar_reader *r, const char *fmt, ...)
{
	if (r->warn == NULL)
		return;
	char what[256], name[240];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	printable(r->entry != NULL ? r->entry : "", name, sizeof(name));
	fprintf(r->warn, "%s: tar entry \"%s\": %s\n", options_tool_name(r->o), name, what);
}

int tar_skip_padding(struct tar_reader *r, uint64_t size)
{
	return tar_in_skip(r, (TAR_BLOCK - size % TAR_BLOCK) % TAR_BLOCK);
}

/* An extension header's data, NUL-terminated. */
static int read_ext_data(struct tar_reader *r, const struct tar_header *h, uint8_t **out)
{
	if (h->size > TAR_EXT_MAX)
		return tar_fail(r, SQ_ERR_UNSUPPORTED, "extension header of %llu bytes (limit %u)",
				(unsigned long long)h->size, TAR_EXT_MAX);
	uint8_t *buf = malloc((size_t)h->size + 1);
	if (buf == NULL)
		return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	if (tar_in_read(r, buf, (size_t)h->size) != 0 || tar_skip_padding(r, h->size) != 0) {
		free(buf);
		return -1;
	}
	buf[h->size] = '\0';
	*out = buf;
	return 0;
}

static int handle_ext(struct tar_reader *r, const struct tar_header *h)
{
	uint8_t *data = NULL;
	if (read_ext_data(r, h, &data) != 0)
		return -1;
	int rc = 0;
	const char *why = "out of memory";
	char **field = NULL;
	if (h->type == 'x' || h->type == 'X' || h->type == 'g')
		rc = pax_parse(h->type == 'g' ? &r->global : &r->local, data, (size_t)h->size, &why);
	else
		field = h->type == 'L' ? &r->local.path : &r->local.linkpath;
	if (field != NULL) {
		/* GNU long names: the name up to its NUL. */
		free(*field);
		*field = strdup((const char *)data);
		rc = *field == NULL ? -2 : 0;
	}
	free(data);
	if (rc == -2)
		return sq_fail(r->err, SQ_ERR_NOMEM, "out of memory");
	if (rc != 0)
		return tar_fail(r, SQ_ERR_CORRUPT, "%s", why);
	return 0;
}

static bool is_ext_type(char t)
{
	return t == 'x' || t == 'X' || t == 'g' || t == 'L' || t == 'K';
}

/* The next member's header (extension headers before it applied). 1 at the end of the archive,
 * 0 with *h, -1. */
static int next_header(struct tar_reader *r, struct tar_header *h)
{
	bool pending = false; /* extension headers read for a member not seen yet */
	for (;;) {
		uint8_t block[TAR_BLOCK];
		r->entry = NULL;
		if (!pending)
			r->entry_offset = r->in.offset;
		ssize_t got = tar_in_fill(&r->in, TAR_BLOCK, r->err);
		if (got < 0)
			return -1;
		if (got == 0 && r->in.offset == 0)
			return tar_fail(r, SQ_ERR_CORRUPT, "the input is empty: no tar archive");
		if (got == 0 && !pending)
			return 1; /* no end-of-archive blocks: accepted, as squashfs-tools 4.6 does */
		if ((size_t)got < TAR_BLOCK)
			return tar_fail(r, SQ_ERR_CORRUPT, "archive truncated inside a header");
		memcpy(block, r->in.buf + r->in.pos, TAR_BLOCK);
		tar_in_consume(&r->in, TAR_BLOCK);
		if (tar_block_is_zero(block)) {
			if (pending)
				return tar_fail(r, SQ_ERR_CORRUPT, "extension header not followed by a member");
			if (r->o->tar.ignore_zeros)
				continue;
			tar_in_drain(r);
			return 1;
		}
		if (!tar_checksum_ok(block))
			return tar_fail(r, SQ_ERR_CORRUPT, "header checksum error (not a tar archive?)");
		const char *why = NULL;
		if (tar_header_decode(block, h, &why) != 0)
			return tar_fail(r, SQ_ERR_CORRUPT, "%s", why);
		if (h->type == 'V') { /* a volume label: no file */
			if (tar_in_skip(r, h->size) != 0 || tar_skip_padding(r, h->size) != 0)
				return -1;
			continue;
		}
		if (!is_ext_type(h->type))
			return 0;
		if (handle_ext(r, h) != 0)
			return -1;
		pending = true;
	}
}

int tar_read_tree(const struct mksq_options *o, const struct exclude_list *x, int fd,
		  struct tree *tree, struct scan_stats *stats, FILE *warn, struct sq_error *err)
{
	struct tar_reader r = { .o = o, .x = x, .tree = tree, .stats = stats, .warn = warn,
				.err = err };
	tree_begin(tree);
	memset(stats, 0, sizeof(*stats));
	r.dir_uid = o->tar.default_uid_set ? o->tar.default_uid : (uint32_t)getuid();
	r.dir_gid = o->tar.default_gid_set ? o->tar.default_gid : (uint32_t)getgid();
	int rc = -1;
	if (isatty(fd))
		return sq_fail(err, SQ_ERR_USAGE,
			       "standard input is a terminal: give the tar archive on standard input (< archive.tar, or a pipe)");
	if (tar_in_init(&r.in, fd, err) != 0)
		goto out;
	tree->root = tar_made_up_dir(&r, true);
	if (tree->root == NULL || tar_spool_open(&r.spool, o->image_path, err) != 0 ||
	    tree_keep_fd(tree, r.spool.fd, err) != 0)
		goto out;
	for (;;) {
		struct tar_header h;
		int got = next_header(&r, &h);
		if (got < 0)
			goto out;
		if (got > 0)
			break;
		if (tar_process_member(&r, &h) != 0)
			goto out;
		tar_ext_clear(&r.local);
	}
	rc = tar_spool_finish(&r);
out:
	free(r.open);
	tar_in_free(&r.in);
	tar_ext_clear(&r.local);
	tar_ext_clear(&r.global);
	tar_owner_cache_free(&r.users);
	tar_owner_cache_free(&r.groups);
	if (rc != 0)
		tree_free(tree);
	return rc;
}
