/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* xattr_write.c — storing xattr sets once each, with repeated values out of line. */
#include "config.h"
#include "common/xattr_write.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/endian.h"
#include "common/format.h"
#include "common/table_write.h"
#include "common/util/sizes.h"

/* A slot of an open-addressing table: a byte range of w->blob and what it maps to. */
struct slot {
	uint64_t hash;
	size_t off, len;
	uint64_t value; /* set: its index; value: reference of its inline copy */
	bool used;
};

struct hash_table {
	struct slot *slots;
	size_t cap, count; /* cap a power of two, kept at most half full */
};

struct sqfs_xattr_writer {
	struct sqfs_meta_writer kv;
	uint8_t *ids;          /* xattr id table entries */
	size_t ids_len, ids_cap;
	uint32_t count;
	uint8_t *blob;         /* canonical bytes of every distinct set and value, for comparing */
	size_t blob_len, blob_cap;
	struct hash_table sets, values;
};

static uint64_t fnv1a(const uint8_t *p, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

static int blob_put(struct sqfs_xattr_writer *w, const void *p, size_t n, struct sq_error *err)
{
	if (w->blob_cap - w->blob_len < n) {
		uint8_t *b = sq_grow(w->blob, &w->blob_cap, w->blob_len + n, 1, 4096);
		if (b == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for xattrs");
		w->blob = b;
	}
	memcpy(w->blob + w->blob_len, p, n);
	w->blob_len += n;
	return 0;
}

/* Find the slot holding bytes[0..len) or the empty slot where it belongs. */
static struct slot *ht_find(struct hash_table *t, const uint8_t *blob, uint64_t hash,
			    const uint8_t *bytes, size_t len)
{
	size_t i = (size_t)hash & (t->cap - 1);
	while (t->slots[i].used) {
		struct slot *s = &t->slots[i];
		if (s->hash == hash && s->len == len && memcmp(blob + s->off, bytes, len) == 0)
			return s;
		i = (i + 1) & (t->cap - 1);
	}
	return &t->slots[i];
}

static int ht_reserve(struct hash_table *t, struct sq_error *err)
{
	if (t->cap != 0 && (t->count + 1) * 2 <= t->cap)
		return 0;
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct slot *slots = calloc(cap, sizeof(*slots));
	if (slots == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for xattrs");
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].used)
			continue;
		size_t j = (size_t)t->slots[i].hash & (cap - 1);
		while (slots[j].used)
			j = (j + 1) & (cap - 1);
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

struct sqfs_xattr_writer *sqfs_xattr_writer_new(const struct codec *codec, void *state,
						bool store_raw)
{
	struct sqfs_xattr_writer *w = calloc(1, sizeof(*w));
	if (w != NULL)
		sqfs_meta_writer_init(&w->kv, codec, state, store_raw);
	return w;
}

void sqfs_xattr_writer_free(struct sqfs_xattr_writer *w)
{
	if (w == NULL)
		return;
	sqfs_meta_writer_release(&w->kv);
	free(w->ids);
	free(w->blob);
	free(w->sets.slots);
	free(w->values.slots);
	free(w);
}

uint32_t sqfs_xattr_writer_count(const struct sqfs_xattr_writer *w)
{
	return w->count;
}

static uint32_t prefix_len(uint16_t type)
{
	switch (type & SQFS_XATTR_PREFIX_MASK) {
	case SQFS_XATTR_USER:
		return 5; /* "user." */
	case SQFS_XATTR_TRUSTED:
		return 8; /* "trusted." */
	default:
		return 9; /* "security." */
	}
}

/* squashfs-tools' layout, followed so images come out identical: values over 128 bytes live on
 * their own ahead of the keys of the first set that uses them, and every use refers to them out
 * of line; a value of 8 bytes or more seen before (one 8-byte reference is no larger) is
 * referred to where it was first stored. */
#define STANDALONE_MIN_VALUE 129u
#define DEDUP_MIN_VALUE 8u

/* The value table slot for a value (found, or the empty one where it would go). */
static struct slot *value_slot(struct sqfs_xattr_writer *w, const struct sqfs_xattr_pair *x,
			       uint64_t *hash, struct sq_error *err)
{
	if (ht_reserve(&w->values, err) != 0)
		return NULL;
	*hash = fnv1a(x->value, x->value_len, UINT64_C(0xcbf29ce484222325));
	return ht_find(&w->values, w->blob, *hash, x->value, x->value_len);
}

static int remember_value(struct sqfs_xattr_writer *w, struct slot *vs, uint64_t hash,
			  const struct sqfs_xattr_pair *x, uint64_t ref, struct sq_error *err)
{
	size_t off = w->blob_len;
	if (blob_put(w, x->value, x->value_len, err) != 0)
		return -1;
	*vs = (struct slot){ .hash = hash, .off = off, .len = x->value_len, .value = ref,
			     .used = true };
	w->values.count++;
	return 0;
}

/* Store a value on its own (u32 size, bytes) unless an identical one is already stored. */
static int write_standalone(struct sqfs_xattr_writer *w, const struct sqfs_xattr_pair *x,
			    struct sq_error *err)
{
	uint64_t hash;
	struct slot *vs = value_slot(w, x, &hash, err);
	if (vs == NULL)
		return -1;
	if (vs->used)
		return 0;
	uint8_t head[4];
	uint64_t ref = sqfs_meta_writer_ref(&w->kv);
	put_le32(head, x->value_len);
	if (sqfs_meta_writer_append(&w->kv, head, 4, err) != 0 ||
	    sqfs_meta_writer_append(&w->kv, x->value, x->value_len, err) != 0)
		return -1;
	return remember_value(w, vs, hash, x, ref, err);
}

static int write_pair(struct sqfs_xattr_writer *w, const struct sqfs_xattr_pair *x,
		      struct sq_error *err)
{
	uint8_t head[4];
	uint16_t type = x->type;
	struct slot *vs = NULL;
	uint64_t vhash = 0;

	if (x->value_len >= DEDUP_MIN_VALUE) {
		if ((vs = value_slot(w, x, &vhash, err)) == NULL)
			return -1;
		if (vs->used)
			type |= SQFS_XATTR_VALUE_OOL;
	}
	put_le16(head, type);
	put_le16(head + 2, x->key_len);
	if (sqfs_meta_writer_append(&w->kv, head, 4, err) != 0 ||
	    sqfs_meta_writer_append(&w->kv, x->key, x->key_len, err) != 0)
		return -1;

	if (type & SQFS_XATTR_VALUE_OOL) {
		uint8_t ref[12];
		put_le32(ref, 8);
		put_le64(ref + 4, vs->value);
		return sqfs_meta_writer_append(&w->kv, ref, sizeof(ref), err);
	}
	uint64_t value_ref = sqfs_meta_writer_ref(&w->kv);
	put_le32(head, x->value_len);
	if (sqfs_meta_writer_append(&w->kv, head, 4, err) != 0 ||
	    sqfs_meta_writer_append(&w->kv, x->value, x->value_len, err) != 0)
		return -1;
	return vs != NULL ? remember_value(w, vs, vhash, x, value_ref, err) : 0;
}

int sqfs_xattr_writer_add(struct sqfs_xattr_writer *w, const struct sqfs_xattr_pair *pairs,
			  uint32_t count, uint32_t *index, struct sq_error *err)
{
	/* The canonical form (what identical sets share) is the pairs' fields in order. */
	size_t start = w->blob_len;
	uint64_t size = 0;
	for (uint32_t i = 0; i < count; i++) {
		uint8_t head[8];
		const struct sqfs_xattr_pair *x = &pairs[i];
		if ((x->type & ~SQFS_XATTR_PREFIX_MASK) != 0 || x->type > SQFS_XATTR_SECURITY)
			return sq_fail(err, SQ_ERR_UNSUPPORTED, "xattr namespace %u cannot be stored",
				       (unsigned)x->type);
		put_le16(head, x->type);
		put_le16(head + 2, x->key_len);
		put_le32(head + 4, x->value_len);
		if (blob_put(w, head, sizeof(head), err) != 0 ||
		    blob_put(w, x->key, x->key_len, err) != 0 ||
		    blob_put(w, x->value, x->value_len, err) != 0)
			return -1;
		/* squashfs-tools' size: what listxattr plus getxattr of every pair would need. */
		size += prefix_len(x->type) + x->key_len + 1 + (uint64_t)x->value_len;
	}
	if (size > 0xFFFFFFFFu)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "xattr set larger than 4 GiB");
	size_t len = w->blob_len - start;

	if (ht_reserve(&w->sets, err) != 0)
		return -1;
	uint64_t hash = fnv1a(w->blob + start, len, UINT64_C(0xcbf29ce484222325));
	/* The new bytes are at the end of the blob, so a match found must be an older copy. */
	struct slot *s = ht_find(&w->sets, w->blob, hash, w->blob + start, len);
	if (s->used) {
		w->blob_len = start;
		*index = (uint32_t)s->value;
		return 0;
	}
	if (w->count == 0xFFFFFFFFu)
		return sq_fail(err, SQ_ERR_UNSUPPORTED, "too many distinct xattr sets");
	*s = (struct slot){ .hash = hash, .off = start, .len = len, .value = w->count,
			    .used = true };
	w->sets.count++;

	for (uint32_t i = 0; i < count; i++)
		if (pairs[i].value_len >= STANDALONE_MIN_VALUE &&
		    write_standalone(w, &pairs[i], err) != 0)
			return -1;
	/* The keys: pairs with short values first, then those whose value stands alone (the order
	 * squashfs-tools writes). Readers find a key by walking all `count` pairs. */
	uint64_t ref = sqfs_meta_writer_ref(&w->kv);
	for (int large = 0; large < 2; large++)
		for (uint32_t i = 0; i < count; i++)
			if ((pairs[i].value_len >= STANDALONE_MIN_VALUE) == (large == 1) &&
			    write_pair(w, &pairs[i], err) != 0)
				return -1;

	if (w->ids_cap - w->ids_len < SQFS_XATTR_ID_ENTRY_SIZE) {
		size_t cap = w->ids_cap ? w->ids_cap * 2 : 1024;
		uint8_t *p = realloc(w->ids, cap);
		if (p == NULL)
			return sq_fail(err, SQ_ERR_NOMEM, "out of memory for xattrs");
		w->ids = p;
		w->ids_cap = cap;
	}
	uint8_t *e = w->ids + w->ids_len;
	put_le64(e, ref);
	put_le32(e + 8, count);
	put_le32(e + 12, (uint32_t)size);
	w->ids_len += SQFS_XATTR_ID_ENTRY_SIZE;
	*index = w->count++;
	return 0;
}

int sqfs_xattr_writer_finish(struct sqfs_xattr_writer *w, uint64_t pos, uint8_t **bytes,
			     size_t *len, size_t *table_offset, uint64_t *raw_len,
			     struct sq_error *err)
{
	*bytes = NULL;
	if (sqfs_meta_writer_flush(&w->kv, err) != 0)
		return -1;
	uint8_t header[SQFS_XATTR_ID_TABLE_HEADER_SIZE];
	put_le64(header, pos);
	put_le32(header + 8, w->count);
	put_le32(header + 12, 0);

	struct sqfs_table_image t;
	if (sqfs_table_build(&t, w->ids, w->ids_len, header, sizeof(header), pos + w->kv.out_len,
			     w->kv.codec, w->kv.state, w->kv.store_raw, err) != 0)
		return -1;
	uint8_t *all = malloc(w->kv.out_len + t.len);
	if (all == NULL) {
		free(t.bytes);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory for xattrs");
	}
	if (w->kv.out_len > 0)
		memcpy(all, w->kv.out, w->kv.out_len);
	memcpy(all + w->kv.out_len, t.bytes, t.len);
	*bytes = all;
	*len = w->kv.out_len + t.len;
	*table_offset = w->kv.out_len + t.list_offset;
	*raw_len = w->kv.raw_len;
	free(t.bytes);
	return 0;
}
