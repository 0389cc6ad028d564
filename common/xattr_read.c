/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xattr_read.c — xattr id entries, keys with namespace prefixes, inline and out-of-line values. */
#include "config.h"
#include "common/xattr_read.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/endian.h"

static const char *const prefixes[] = {"user.", "trusted.", "security."};

void sqfs_xattr_reader_init(struct sqfs_meta_reader *kv, struct sqfs_decoder *dec,
			    const struct sqfs_tables *tb)
{
	sqfs_meta_reader_init(kv, dec, tb->xattr_kv_start, dec->img->sb.xattr_id_table, "xattr table");
}

void sqfs_xattr_list_free(struct sqfs_xattr_list *list)
{
	for (uint32_t i = 0; i < list->count; i++) {
		free(list->items[i].name);
		free(list->items[i].value);
	}
	free(list->items);
	list->items = NULL;
	list->count = 0;
}

static int read_value(struct sqfs_meta_reader *kv, struct sqfs_meta_pos *pos, struct sqfs_xattr *x,
		      struct sq_error *err)
{
	uint8_t b[4];
	if (sqfs_meta_read(kv, pos, b, 4, err))
		return -1;
	uint32_t len = get_le32(b);
	if (len > SQFS_XATTR_VALUE_MAX)
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr %s: value size %u is too large", x->name, len);
	x->value = malloc(len ? len : 1);
	if (x->value == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for xattr %s", x->name);
	x->value_len = len;
	return sqfs_meta_read(kv, pos, x->value, len, err);
}

static int read_pair(struct sqfs_meta_reader *kv, struct sqfs_meta_pos *pos, struct sqfs_xattr *x,
		     struct sq_error *err)
{
	uint8_t k[4];
	if (sqfs_meta_read(kv, pos, k, 4, err))
		return -1;
	uint16_t type = get_le16(k);
	uint16_t nlen = get_le16(k + 2);
	unsigned ns = type & SQFS_XATTR_PREFIX_MASK;
	if (ns > SQFS_XATTR_SECURITY || (type & ~(SQFS_XATTR_PREFIX_MASK | SQFS_XATTR_VALUE_OOL)))
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr table: unknown key type 0x%04x", type);
	if (nlen == 0 || nlen > 255)
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr table: key length %u is out of range", nlen);
	size_t plen = strlen(prefixes[ns]);
	x->name = malloc(plen + nlen + 1);
	if (x->name == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for an xattr name");
	memcpy(x->name, prefixes[ns], plen);
	if (sqfs_meta_read(kv, pos, x->name + plen, nlen, err))
		return -1;
	x->name[plen + nlen] = '\0';
	if (memchr(x->name + plen, '\0', nlen) != NULL)
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr table: a key contains a NUL byte");
	if (!(type & SQFS_XATTR_VALUE_OOL))
		return read_value(kv, pos, x, err);
	uint8_t r[12];
	if (sqfs_meta_read(kv, pos, r, 12, err))
		return -1;
	if (get_le32(r) != 8)
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr %s: bad out-of-line value reference", x->name);
	uint64_t ref = get_le64(r + 4);
	struct sqfs_meta_pos vpos;
	if (sqfs_meta_locate(kv, sqfs_meta_ref_block(ref), sqfs_meta_ref_offset(ref), &vpos, err))
		return -1;
	return read_value(kv, &vpos, x, err);
}

int sqfs_xattr_read(struct sqfs_tables *tb, struct sqfs_meta_reader *kv, uint32_t index,
		    struct sqfs_xattr_list *out, struct sq_error *err)
{
	out->items = NULL;
	out->count = 0;
	uint8_t e[SQFS_XATTR_ID_ENTRY_SIZE];
	if (index >= tb->xattr.count)
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr index %u is out of range (%u entries)", index,
			       tb->xattr.count);
	if (sqfs_table_get(&tb->xattr, index, e, err))
		return -1;
	uint64_t ref = get_le64(e);
	uint32_t count = get_le32(e + 8);
	if (count > 65536)
		return sq_fail(err, SQ_ERR_CORRUPT, "xattr index %u: %u attributes is too many", index, count);
	struct sqfs_meta_pos pos;
	if (sqfs_meta_locate(kv, sqfs_meta_ref_block(ref), sqfs_meta_ref_offset(ref), &pos, err))
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		if ((i & (i - 1)) == 0) { /* grow at powers of two: a lying count costs nothing up front */
			uint32_t cap = i ? i * 2 : 1;
			struct sqfs_xattr *n = realloc(out->items, cap * sizeof(*n));
			if (n == NULL) {
				sqfs_xattr_list_free(out);
				return sq_fail(err, SQ_ERR_NOMEM, "out of memory for xattrs");
			}
			out->items = n;
		}
		memset(&out->items[i], 0, sizeof(out->items[i]));
		out->count = i + 1;
		if (read_pair(kv, &pos, &out->items[i], err)) {
			sqfs_xattr_list_free(out);
			return -1;
		}
	}
	return 0;
}
