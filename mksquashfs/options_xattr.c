/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_xattr.c — the extended attribute options of squashfs-tools 4.6: -xattrs-exclude and
 * -xattrs-include (POSIX extended regexes on the full name), -xattrs-add NAME=VALUE with its
 * value encodings (plain bytes, 0s base64, 0x hex, 0t text with \ooo escapes, 0b bytes). */
#include "config.h"
#include "mksquashfs/options.h"

#include <stdlib.h>
#include <string.h>

#include "common/format.h"
#include "common/util/sizes.h"
#include "mksquashfs/opt_def.h"

static int need_xattr_support(const char *name, struct sq_error *err)
{
#ifdef HAVE_XATTR
	(void)name, (void)err;
	return 0;
#else
	return sq_fail(err, SQ_ERR_UNSUPPORTED, "%s: xattrs are unsupported in this build", name);
#endif
}

static int compile_regex(const char *name, const char *v, regex_t **slot, struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing regex pattern", name);
	if (need_xattr_support(name, err) != 0)
		return -1;
	regex_t *re = malloc(sizeof(*re));
	if (re == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	int rc = regcomp(re, v, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char why[256];
		regerror(rc, re, why, sizeof(why));
		free(re);
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid regex \"%s\": %s", name, v, why);
	}
	if (*slot != NULL) {
		regfree(*slot);
		free(*slot);
	}
	*slot = re;
	return 0;
}

static int opt_exclude(struct mksq_options *o, const char *name, const char *v,
		       struct sq_error *err)
{
	if (compile_regex(name, v, &o->xattr.exclude, err) != 0)
		return -1;
	o->image.no_xattrs = false;
	return 0;
}

static int opt_include(struct mksq_options *o, const char *name, const char *v,
		       struct sq_error *err)
{
	if (compile_regex(name, v, &o->xattr.include, err) != 0)
		return -1;
	o->image.no_xattrs = false;
	return 0;
}

static int b64_digit(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 with optional '=' padding; out has room for len bytes. */
static int decode_base64(const char *s, size_t len, uint8_t *out, uint32_t *out_len)
{
	while (len > 0 && s[len - 1] == '=' && len % 4 != 1)
		len--;
	uint32_t acc = 0, bits = 0, n = 0;
	for (size_t i = 0; i < len; i++) {
		int d = b64_digit((unsigned char)s[i]);
		if (d < 0)
			return -1;
		acc = (acc << 6) | (uint32_t)d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	if (bits >= 6) /* a lone sixth bit group cannot end a byte */
		return -1;
	*out_len = n;
	return 0;
}

static int hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int decode_hex(const char *s, size_t len, uint8_t *out, uint32_t *out_len)
{
	if (len % 2 != 0)
		return -1;
	for (size_t i = 0; i < len; i += 2) {
		int hi = hex_digit((unsigned char)s[i]), lo = hex_digit((unsigned char)s[i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	*out_len = (uint32_t)(len / 2);
	return 0;
}

/* Text where a backslash is always followed by three octal digits (one byte, at most \377). */
static int decode_text(const char *s, size_t len, uint8_t *out, uint32_t *out_len)
{
	uint32_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\\') {
			out[n++] = (uint8_t)s[i];
			continue;
		}
		if (len - i < 4)
			return -1;
		unsigned v = 0;
		for (size_t k = 1; k <= 3; k++) {
			if (s[i + k] < '0' || s[i + k] > '7')
				return -1;
			v = v * 8 + (unsigned)(s[i + k] - '0');
		}
		if (v > 255)
			return -1;
		out[n++] = (uint8_t)v;
		i += 3;
	}
	*out_len = n;
	return 0;
}

static const struct {
	const char *prefix;
	uint16_t type;
} namespaces[] = {
	{ "user.", SQFS_XATTR_USER },
	{ "trusted.", SQFS_XATTR_TRUSTED },
	{ "security.", SQFS_XATTR_SECURITY },
};

/* Split NAME=VALUE and decode VALUE into a (len + 1)-byte buffer. */
static int decode_value(const char *name, const char *arg, const char *v, struct xattr_add *a,
			struct sq_error *err)
{
	size_t len = strlen(v);
	a->value = malloc(len + 1);
	if (a->value == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	int rc = 0;
	const char *how = "";
	char p = len >= 2 && v[0] == '0' && strchr("sSxXtTbB", v[1]) != NULL ? v[1] : '\0';
	if (p != '\0' && len == 2)
		return sq_fail(err, SQ_ERR_USAGE, "%s: xattr value is empty after its prefix in \"%s\"",
			       name, arg);
	if (p == 's' || p == 'S') {
		how = "base64 (0s) ";
		rc = decode_base64(v + 2, len - 2, a->value, &a->value_len);
	} else if (p == 'x' || p == 'X') {
		how = "hex (0x) ";
		rc = decode_hex(v + 2, len - 2, a->value, &a->value_len);
	} else if (p == 't' || p == 'T') {
		how = "text (0t) ";
		rc = decode_text(v + 2, len - 2, a->value, &a->value_len);
	} else {
		size_t skip = p == 'b' || p == 'B' ? 2 : 0;
		memcpy(a->value, v + skip, len - skip);
		a->value_len = (uint32_t)(len - skip);
	}
	if (rc != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid %svalue in \"%s\"", name, how, arg);
	return 0;
}

static int opt_add(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing xattr argument (NAME=VALUE)", name);
	if (need_xattr_support(name, err) != 0)
		return -1;
	const char *eq = strchr(v, '=');
	if (eq == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid argument \"%s\": no '=' found", name, v);
	if (eq == v)
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid argument \"%s\": xattr name is empty",
			       name, v);
	if (eq[1] == '\0')
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid argument \"%s\": xattr value is empty",
			       name, v);
	size_t k;
	for (k = 0; k < sizeof(namespaces) / sizeof(namespaces[0]); k++)
		if (strncmp(v, namespaces[k].prefix, strlen(namespaces[k].prefix)) == 0)
			break;
	size_t name_len = (size_t)(eq - v);
	if (k == sizeof(namespaces) / sizeof(namespaces[0]) ||
	    name_len <= strlen(namespaces[k].prefix))
		return sq_fail(err, SQ_ERR_USAGE,
			       "%s: unrecognised xattr prefix in \"%.*s\" (squashfs stores user., trusted. and security. xattrs)",
			       name, (int)name_len, v);
	if (name_len - strlen(namespaces[k].prefix) > 255)
		return sq_fail(err, SQ_ERR_USAGE, "%s: xattr name too long in \"%s\"", name, v);
	struct xattr_add *grown = sq_realloc_array(o->xattr.add, (size_t)o->xattr.add_count + 1,
						   sizeof(*grown));
	if (grown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	o->xattr.add = grown;
	struct xattr_add *a = &grown[o->xattr.add_count];
	memset(a, 0, sizeof(*a));
	o->xattr.add_count++;
	a->type = namespaces[k].type;
	a->full_name = strndup(v, name_len);
	a->key = a->full_name != NULL ? strdup(a->full_name + strlen(namespaces[k].prefix)) : NULL;
	if (a->full_name == NULL || a->key == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	if (decode_value(name, v, eq + 1, a, err) != 0)
		return -1;
	/* The kernel reads no xattr value larger than 64 KiB (XATTR_SIZE_MAX). */
	if (a->value_len > 65536)
		return sq_fail(err, SQ_ERR_USAGE, "%s: the value of %s is %u bytes (at most 65536)",
			       name, a->full_name, a->value_len);
	for (uint32_t i = 0; i + 1 < o->xattr.add_count; i++)
		if (strcmp(o->xattr.add[i].full_name, a->full_name) == 0)
			return sq_fail(err, SQ_ERR_USAGE, "%s: xattr %s given twice", name,
				       a->full_name);
	o->image.no_xattrs = false;
	return 0;
}

static int xattr_finish(struct mksq_options *o, struct sq_error *err)
{
	bool any = o->xattr.exclude != NULL || o->xattr.include != NULL || o->xattr.add_count > 0;
	if (any && o->image.no_xattrs)
		return sq_fail(err, SQ_ERR_USAGE,
			       "-no-xattrs should not be used in combination with -xattrs-* options");
	return 0;
}

void options_xattr_free(struct mksq_options *o)
{
	regex_t *res[] = { o->xattr.exclude, o->xattr.include };
	for (size_t i = 0; i < 2; i++) {
		if (res[i] != NULL) {
			regfree(res[i]);
			free(res[i]);
		}
	}
	for (uint32_t i = 0; i < o->xattr.add_count; i++) {
		free(o->xattr.add[i].full_name);
		free(o->xattr.add[i].key);
		free(o->xattr.add[i].value);
	}
	free(o->xattr.add);
	memset(&o->xattr, 0, sizeof(o->xattr));
}

static const struct opt_def xattr_defs[] = {
	OPT_VALUE_DEF("-xattrs-exclude", opt_exclude, SECTION_XATTR,
		      "-xattrs-exclude <regex>\texclude any xattr names matching <regex>.\n"
		      "\t\t\t<regex> is a POSIX regular expression, e.g. -xattrs-exclude\n"
		      "\t\t\t'^user.' excludes xattrs from the user namespace"),
	OPT_VALUE_DEF("-xattrs-include", opt_include, SECTION_XATTR,
		      "-xattrs-include <regex>\tinclude any xattr names matching <regex>.\n"
		      "\t\t\t<regex> is a POSIX regular expression, e.g. -xattrs-include\n"
		      "\t\t\t'^user.' includes xattrs from the user namespace"),
	OPT_VALUE_DEF("-xattrs-add", opt_add, SECTION_XATTR,
		      "-xattrs-add <name=val>\tadd the xattr <name> with <val> to files.  If an\n"
		      "\t\t\tuser xattr it will be added to regular files and\n"
		      "\t\t\tdirectories (see man 7 xattr).  Otherwise it will be added\n"
		      "\t\t\tto all files.  <val> by default will be treated as binary\n"
		      "\t\t\t(i.e. an uninterpreted byte sequence), but it can be\n"
		      "\t\t\tprefixed with 0s, where it will be treated as base64\n"
		      "\t\t\tencoded, or prefixed with 0x, where val will be treated as\n"
		      "\t\t\thexadecimal.  Additionally it can be prefixed with 0t where\n"
		      "\t\t\tthis encoding is similar to binary encoding, except\n"
		      "\t\t\tbackslashes are specially treated, and a backslash followed\n"
		      "\t\t\tby 3 octal digits can be used to encode any ASCII character.\n"
		      "\t\t\tThe option can be repeated multiple times to add multiple\n"
		      "\t\t\txattrs"),
	{ .name = NULL },
};

const struct opt_group xattr_options = {
	.concern = "xattrs",
	.defs = xattr_defs,
	.finish = xattr_finish,
};
