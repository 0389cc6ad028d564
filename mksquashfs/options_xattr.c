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
#include "mksquashfs/pseudo/pseudo.h"

static int need_xattr_support(const char *name, struct sq_error *err)
{
#ifdef HAVE_XATTR
	(void)name, (void)err;
	return 0;
#else
	return sq_fail(err, SQ_ERR_UNSUPPORTED,
		       "%s: xattrs are unsupported in this build (configured --without-xattr)", name);
#endif
}

#ifndef HAVE_XATTR
/* -xattrs, which such a build cannot honour for source files: refused rather than accepted
 * and dropped (core's table has the flag when xattrs are built in). */
static int opt_xattrs(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	(void)o, (void)v;
	return need_xattr_support(name, err);
}
#endif

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

/* -xattrs-exclude and -xattrs-include: the last of each given counts. */
static int opt_filter(struct mksq_options *o, const char *name, const char *v,
		      struct sq_error *err)
{
	regex_t **slot = strcmp(name, "-xattrs-exclude") == 0 ? &o->xattr.exclude : &o->xattr.include;
	if (compile_regex(name, v, slot, err) != 0)
		return -1;
	o->image.no_xattrs = false;
	return 0;
}

/* NAME=VALUE with the value encodings of pseudo x definitions (pseudo/value.c): one parser for
 * both, so a value means the same on the command line and in a pseudo file. */
static int parse_add(const char *name, const char *v, struct xattr_add *a, struct sq_error *err)
{
	const char *eq = strchr(v, '=');
	if (eq == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid argument \"%s\": no '=' found", name, v);
	const char *why = eq == v ? "xattr name is empty" : eq[1] == '\0' ? "xattr value is empty" :
			  eq[1] == '0' && eq[2] != '\0' && strchr("sSxXtTbB", eq[2]) != NULL &&
					  eq[3] == '\0' ? "xattr value is empty after its prefix" : NULL;
	if (why != NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid argument \"%s\": %s", name, v, why);
	char msg[160];
	struct xattr_entry e;
	if (pseudo_parse_xattr(v, &e, msg, sizeof(msg)) != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s: invalid argument \"%s\": %s", name, v, msg);
	a->type = e.type;
	a->key = e.key;
	a->value = e.value;
	a->value_len = e.value_len;
	a->full_name = strndup(v, (size_t)(eq - v));
	if (a->full_name == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	/* The kernel reads no xattr value larger than 64 KiB (XATTR_SIZE_MAX). */
	if (a->value_len > 65536)
		return sq_fail(err, SQ_ERR_USAGE, "%s: the value of %s is %u bytes (at most 65536)",
			       name, a->full_name, a->value_len);
	return 0;
}

static int opt_add(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	if (v == NULL)
		return sq_fail(err, SQ_ERR_USAGE, "%s missing xattr argument (NAME=VALUE)", name);
	if (need_xattr_support(name, err) != 0)
		return -1;
	struct xattr_add *grown = sq_realloc_array(o->xattr.add, (size_t)o->xattr.add_count + 1,
						   sizeof(*grown));
	if (grown == NULL)
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	o->xattr.add = grown;
	struct xattr_add *a = &grown[o->xattr.add_count];
	memset(a, 0, sizeof(*a));
	o->xattr.add_count++;
	if (parse_add(name, v, a, err) != 0)
		return -1;
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
#ifndef HAVE_XATTR
	OPT_CALL_DEF("-xattrs", opt_xattrs, SECTION_XATTR, "-xattrs\t\t\tstore extended attributes (unsupported: this build was\n\t\t\tconfigured --without-xattr and reads no xattrs from\n\t\t\tsource files; those of tar archives and pseudo\n\t\t\tdefinitions are still stored)"),
#endif
	OPT_VALUE_DEF("-xattrs-exclude", opt_filter, SECTION_XATTR, "-xattrs-exclude <regex>\texclude any xattr names matching <regex>.\n\t\t\t<regex> is a POSIX regular expression, e.g. -xattrs-exclude\n\t\t\t'^user.' excludes xattrs from the user namespace"),
	OPT_VALUE_DEF("-xattrs-include", opt_filter, SECTION_XATTR, "-xattrs-include <regex>\tinclude any xattr names matching <regex>.\n\t\t\t<regex> is a POSIX regular expression, e.g. -xattrs-include\n\t\t\t'^user.' includes xattrs from the user namespace"),
	OPT_VALUE_DEF("-xattrs-add", opt_add, SECTION_XATTR, "-xattrs-add <name=val>\tadd the xattr <name> with <val> to files.  If an\n\t\t\tuser xattr it will be added to regular files and\n\t\t\tdirectories (see man 7 xattr).  Otherwise it will be added\n\t\t\tto all files.  <val> by default will be treated as binary\n\t\t\t(i.e. an uninterpreted byte sequence), but it can be\n\t\t\tprefixed with 0s, where it will be treated as base64\n\t\t\tencoded, or prefixed with 0x, where val will be treated as\n\t\t\thexadecimal.  Additionally it can be prefixed with 0t where\n\t\t\tthis encoding is similar to binary encoding, except\n\t\t\tbackslashes are specially treated, and a backslash followed\n\t\t\tby 3 octal digits can be used to encode any ASCII character.\n\t\t\tThe option can be repeated multiple times to add multiple\n\t\t\txattrs"),
	OPT_END_DEF,
};

OPT_GROUP_DEF(xattr_options, "xattrs", xattr_defs, xattr_finish);
