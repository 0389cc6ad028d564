/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar/pax.c — POSIX pax extended header records (IEEE 1003.1 "pax Interchange Format") and the
 * vendor keywords GNU tar and libarchive write: xattrs and GNU sparse 0.0/0.1/1.0. */
#include "config.h"
#include "mksquashfs/tar/pax.h"

#include <stdlib.h>
#include <string.h>

#include "common/util/sizes.h"

int pax_decimal(const char *s, size_t len, uint64_t *out)
{
	if (len == 0)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (!sq_mul_u64(v, 10, &v) || !sq_add_u64(v, (uint64_t)(s[i] - '0'), &v))
			return -1;
	}
	*out = v;
	return 0;
}

int pax_time(const char *s, size_t len, int64_t *out)
{
	bool negative = len > 0 && s[0] == '-';
	size_t start = negative ? 1 : 0;
	size_t dot = start;
	while (dot < len && s[dot] != '.')
		dot++;
	uint64_t whole;
	if (pax_decimal(s + start, dot - start, &whole) != 0 || whole > (uint64_t)INT64_MAX - 1)
		return -1;
	bool fraction = false;
	for (size_t i = dot + 1; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		fraction |= s[i] != '0';
	}
	/* Rounded down: -1.5 is second -2, as the instant lies in it. */
	*out = negative ? -(int64_t)whole - (fraction ? 1 : 0) : (int64_t)whole;
	return 0;
}

/* c's place in alphabet (its value as a digit), or -1 when absent. */
static int digit_value(const char *alphabet, char c)
{
	const char *at = c != '\0' ? strchr(alphabet, c) : NULL;
	return at != NULL ? (int)(at - alphabet) : -1;
}

static const char base64_digits[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

long pax_base64(const char *s, size_t len, uint8_t *out)
{
	while (len > 0 && s[len - 1] == '=')
		len--;
	long n = 0;
	uint32_t acc = 0;
	unsigned bits = 0;
	for (size_t i = 0; i < len; i++) {
		int v = digit_value(base64_digits, s[i]);
		if (v < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (uint8_t)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	return n;
}

/* Hex digits in either case. */
static int hex_value(char c)
{
	int v = digit_value("0123456789abcdefABCDEF", c);
	return v >= 16 ? v - 6 : v;
}

int pax_unescape(const char *s, size_t len, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '%') {
			out[n++] = s[i];
			continue;
		}
		int hi = i + 2 < len ? hex_value(s[i + 1]) : -1;
		int lo = i + 2 < len ? hex_value(s[i + 2]) : -1;
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0))
			return -1;
		out[n++] = (char)(hi << 4 | lo);
		i += 2;
	}
	out[n] = '\0';
	return 0;
}

void tar_ext_clear(struct tar_ext *e)
{
	free(e->path);
	free(e->linkpath);
	free(e->uname);
	free(e->gname);
	free(e->sparse_name);
	for (size_t i = 0; i < e->xattr_count; i++) {
		free(e->xattrs[i].name);
		free(e->xattrs[i].value);
	}
	free(e->xattrs);
	sparse_map_free(&e->map);
	memset(e, 0, sizeof(*e));
}

/* Replace *field with a copy of the value; an empty value unsets it. */
static int set_string(char **field, const char *v, size_t len)
{
	free(*field);
	*field = NULL;
	if (len == 0)
		return 0;
	*field = strndup(v, len);
	return *field != NULL ? 0 : -2;
}

/* Add or replace an xattr (libarchive writes each twice, as LIBARCHIVE and SCHILY). */
static int add_xattr(struct tar_ext *e, char *name, uint8_t *value, size_t len)
{
	for (size_t i = 0; i < e->xattr_count; i++) {
		if (strcmp(e->xattrs[i].name, name) == 0) {
			free(name);
			free(e->xattrs[i].value);
			e->xattrs[i].value = value;
			e->xattrs[i].len = len;
			return 0;
		}
	}
	struct tar_xattr *grown = sq_realloc_array(e->xattrs, e->xattr_count + 1, sizeof(*grown));
	if (grown == NULL) {
		free(name);
		free(value);
		return -2;
	}
	e->xattrs = grown;
	e->xattrs[e->xattr_count++] = (struct tar_xattr){ .name = name, .value = value, .len = len };
	return 0;
}

static int xattr_record(struct tar_ext *e, const char *key, size_t klen, const char *v,
			size_t vlen, bool libarchive, const char **why)
{
	char *name = malloc(klen + 1);
	uint8_t *value = malloc(vlen + 3);
	if (name == NULL || value == NULL) {
		free(name);
		free(value);
		return -2;
	}
	long len = (long)vlen;
	if (libarchive) {
		if (pax_unescape(key, klen, name) != 0 || (len = pax_base64(v, vlen, value)) < 0) {
			free(name);
			free(value);
			*why = "bad LIBARCHIVE.xattr record";
			return -1;
		}
	} else {
		memcpy(name, key, klen);
		name[klen] = '\0';
		memcpy(value, v, vlen);
	}
	if (name[0] == '\0' || memchr(key, '\0', klen) != NULL) {
		free(name);
		free(value);
		*why = "empty or NUL-holding xattr name";
		return -1;
	}
	return add_xattr(e, name, value, (size_t)len);
}

/* GNU.sparse.map=off,len,off,len,... (sparse 0.1). */
static int sparse_map_record(struct tar_ext *e, const char *v, size_t len, const char **why)
{
	size_t at = 0;
	for (unsigned k = 0; at < len; k++) {
		size_t end = at;
		while (end < len && v[end] != ',')
			end++;
		uint64_t n;
		if (pax_decimal(v + at, end - at, &n) != 0) {
			*why = "bad GNU.sparse.map number";
			return -1;
		}
		if (k % 2 == 0) {
			e->map_offset = n;
		} else if (sparse_map_add(&e->map, e->map_offset, n) != 0) {
			return -2;
		}
		e->map_pending = k % 2 == 0;
		at = end + 1;
	}
	return 0;
}

static int number_record(const char *v, size_t len, uint64_t *out, bool *has,
			 const char *bad, const char **why)
{
	if (pax_decimal(v, len, out) != 0) {
		*why = bad;
		return -1;
	}
	*has = true;
	return 0;
}

static int gnu_sparse_record(struct tar_ext *e, const char *k, size_t klen, const char *v,
			     size_t vlen, const char **why)
{
	uint64_t n;
	bool dummy;
	e->sparse = true;
#define KEY(s) (klen == sizeof(s) - 1 && memcmp(k, s, klen) == 0)
	if (KEY("major")) {
		if (number_record(v, vlen, &n, &dummy, "bad GNU.sparse.major", why) != 0)
			return -1;
		e->sparse_v1 = n == 1;
		return 0;
	}
	if (KEY("realsize") || KEY("size"))
		return number_record(v, vlen, &e->realsize, &e->has_realsize,
				     "bad GNU.sparse size", why);
	if (KEY("name"))
		return set_string(&e->sparse_name, v, vlen);
	if (KEY("map"))
		return sparse_map_record(e, v, vlen, why);
	if (KEY("offset")) {
		if (number_record(v, vlen, &e->map_offset, &dummy, "bad GNU.sparse.offset", why))
			return -1;
		e->map_pending = true;
		return 0;
	}
	if (KEY("numbytes")) {
		if (!e->map_pending) {
			*why = "GNU.sparse.numbytes without GNU.sparse.offset";
			return -1;
		}
		if (number_record(v, vlen, &n, &dummy, "bad GNU.sparse.numbytes", why) != 0)
			return -1;
		e->map_pending = false;
		return sparse_map_add(&e->map, e->map_offset, n) != 0 ? -2 : 0;
	}
#undef KEY
	return 0; /* minor, numblocks: implied by what follows */
}

static int apply_record(struct tar_ext *e, const char *k, size_t klen, const char *v,
			size_t vlen, const char **why)
{
#define IS(s) (klen == sizeof(s) - 1 && memcmp(k, s, klen) == 0)
#define STARTS(s) (klen > sizeof(s) - 1 && memcmp(k, s, sizeof(s) - 1) == 0)
	if (IS("path"))
		return set_string(&e->path, v, vlen);
	if (IS("linkpath"))
		return set_string(&e->linkpath, v, vlen);
	if (IS("uname"))
		return set_string(&e->uname, v, vlen);
	if (IS("gname"))
		return set_string(&e->gname, v, vlen);
	if (IS("size"))
		return number_record(v, vlen, &e->size, &e->has_size, "bad pax size", why);
	if (IS("uid"))
		return number_record(v, vlen, &e->uid, &e->has_uid, "bad pax uid", why);
	if (IS("gid"))
		return number_record(v, vlen, &e->gid, &e->has_gid, "bad pax gid", why);
	if (IS("mtime")) {
		if (pax_time(v, vlen, &e->mtime) != 0) {
			*why = "bad pax mtime";
			return -1;
		}
		e->has_mtime = true;
		return 0;
	}
	if (STARTS("SCHILY.xattr."))
		return xattr_record(e, k + 13, klen - 13, v, vlen, false, why);
	if (STARTS("LIBARCHIVE.xattr."))
		return xattr_record(e, k + 17, klen - 17, v, vlen, true, why);
	if (STARTS("GNU.sparse."))
		return gnu_sparse_record(e, k + 11, klen - 11, v, vlen, why);
#undef IS
#undef STARTS
	return 0; /* atime, ctime, comment, charset, SCHILY.dev/ino/nlink, ...: not stored */
}

int pax_parse(struct tar_ext *e, const uint8_t *data, size_t len, const char **why)
{
	const char *p = (const char *)data;
	size_t at = 0;
	while (at < len) {
		/* A run of NULs pads the last block: some writers leave it inside the size. */
		if (p[at] == '\0')
			break;
		size_t digits = at;
		while (digits < len && p[digits] >= '0' && p[digits] <= '9')
			digits++;
		uint64_t rec;
		if (digits >= len || p[digits] != ' ' ||
		    pax_decimal(p + at, digits - at, &rec) != 0 || rec > len - at ||
		    rec < digits - at + 4 || p[at + rec - 1] != '\n') {
			*why = "malformed pax record";
			return -1;
		}
		const char *key = p + digits + 1, *end = p + at + rec - 1;
		const char *eq = memchr(key, '=', (size_t)(end - key));
		if (eq == NULL || eq == key) {
			*why = "pax record without key=value";
			return -1;
		}
		int rc = apply_record(e, key, (size_t)(eq - key), eq + 1, (size_t)(end - eq - 1), why);
		if (rc != 0)
			return rc;
		at += rec;
	}
	return 0;
}
