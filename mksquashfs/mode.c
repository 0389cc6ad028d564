/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mode.c — octal and symbolic permission modes (chmod's grammar, as squashfs-tools 4.6 documents
 * it for -root-mode and -force-*-mode); a symbolic mode changes each inode's own bits. */
#include "config.h"
#include "mksquashfs/mode.h"

#include <string.h>
#include <sys/stat.h>

enum { WHO_U = 1, WHO_G = 2, WHO_O = 4, WHO_ALL = 7 };
enum { P_R = 04, P_W = 02, P_X = 01, P_S = 010, P_T = 020, P_BIGX = 040 };

static int bad(const char *opt, const char *s, const char *why, struct sq_error *err)
{
	return sq_fail(err, SQ_ERR_USAGE, "%s: invalid mode \"%s\" (%s): octal number <= 07777 or "
		       "symbolic mode such as u+rw,go-w expected", opt, s, why);
}

static int parse_octal(const char *opt, const char *s, struct mode_spec *out, struct sq_error *err)
{
	uint32_t v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '7')
			return bad(opt, s, "not an octal digit", err);
		v = v * 8 + (uint32_t)(*p - '0');
		if (v > 07777)
			return bad(opt, s, "out of range", err);
	}
	out->octal = true;
	out->value = v;
	return 0;
}

static int add_clause(const char *opt, const char *s, struct mode_spec *out,
		      const struct mode_clause *c, struct sq_error *err)
{
	if (out->count == MODE_MAX_CLAUSES)
		return bad(opt, s, "too many clauses", err);
	out->clauses[out->count++] = *c;
	return 0;
}

/* One comma-separated clause at *p: who letters, then op/perms pairs. */
static int parse_clause(const char *opt, const char *s, const char **p, struct mode_spec *out,
			struct sq_error *err)
{
	uint8_t who = 0;
	for (;; (*p)++) {
		if (**p == 'u')
			who |= WHO_U;
		else if (**p == 'g')
			who |= WHO_G;
		else if (**p == 'o')
			who |= WHO_O;
		else if (**p == 'a')
			who |= WHO_ALL;
		else
			break;
	}
	if (**p != '+' && **p != '-' && **p != '=')
		return bad(opt, s, "expected +, - or =", err);
	while (**p == '+' || **p == '-' || **p == '=') {
		struct mode_clause c = { .who = who, .op = *(*p)++ };
		if (**p == 'u' || **p == 'g' || **p == 'o') {
			c.copy = *(*p)++;
		} else {
			for (; **p && strchr("rwxXst", **p) != NULL; (*p)++)
				c.perms |= **p == 'r' ? P_R : **p == 'w' ? P_W : **p == 'x' ? P_X :
					   **p == 'X' ? P_BIGX : **p == 's' ? P_S : P_T;
		}
		if (add_clause(opt, s, out, &c, err) != 0)
			return -1;
	}
	if (**p != '\0' && **p != ',')
		return bad(opt, s, "unexpected character", err);
	return 0;
}

int mode_parse(const char *opt, const char *s, struct mode_spec *out, struct sq_error *err)
{
	memset(out, 0, sizeof(*out));
	if (s == NULL || *s == '\0')
		return sq_fail(err, SQ_ERR_USAGE, "%s missing mode, symbolic mode or octal number "
			       "expected", opt);
	if (*s >= '0' && *s <= '9')
		return parse_octal(opt, s, out, err);
	const char *p = s;
	for (;;) {
		if (parse_clause(opt, s, &p, out, err) != 0)
			return -1;
		if (*p == '\0')
			return 0;
		p++; /* the comma */
	}
}

/* The bits of class `from` (u, g or o) of mode, as an rwx triple. */
static uint32_t class_bits(uint32_t mode, char from)
{
	int shift = from == 'u' ? 6 : from == 'g' ? 3 : 0;
	return (mode >> shift) & 7;
}

static uint32_t clause_bits(const struct mode_clause *c, uint32_t mode)
{
	uint8_t who = c->who ? c->who : WHO_ALL;
	uint32_t rwx = c->copy ? class_bits(mode, c->copy) : (uint32_t)(c->perms & 7);
	if (!c->copy && (c->perms & P_BIGX) && (S_ISDIR(mode) || (mode & 0111)))
		rwx |= P_X;
	uint32_t bits = 0;
	if (who & WHO_U)
		bits |= rwx << 6;
	if (who & WHO_G)
		bits |= rwx << 3;
	if (who & WHO_O)
		bits |= rwx;
	if (!c->copy && (c->perms & P_S)) {
		if (who & WHO_U)
			bits |= S_ISUID;
		if (who & WHO_G)
			bits |= S_ISGID;
	}
	if (!c->copy && (c->perms & P_T) && (who & WHO_O))
		bits |= S_ISVTX;
	return bits;
}

/* The bits "=" resets for who: its rwx classes and the special bit each class carries. */
static uint32_t clause_mask(const struct mode_clause *c)
{
	uint8_t who = c->who ? c->who : WHO_ALL;
	uint32_t m = 0;
	if (who & WHO_U)
		m |= 0700 | S_ISUID;
	if (who & WHO_G)
		m |= 0070 | S_ISGID;
	if (who & WHO_O)
		m |= 0007 | S_ISVTX;
	return m;
}

uint32_t mode_apply(const struct mode_spec *spec, uint32_t mode)
{
	if (spec->octal)
		return spec->value;
	uint32_t type = mode & S_IFMT;
	uint32_t perm = mode & 07777;
	for (uint32_t i = 0; i < spec->count; i++) {
		const struct mode_clause *c = &spec->clauses[i];
		uint32_t bits = clause_bits(c, type | perm);
		if (c->op == '+')
			perm |= bits;
		else if (c->op == '-')
			perm &= ~bits;
		else
			perm = (perm & ~clause_mask(c)) | bits;
	}
	return perm;
}
