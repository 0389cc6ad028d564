/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* mode.c — parsing and applying octal and symbolic modes, with chmod(1)'s meaning. */
#include "config.h"
#include "unsquashfs/mode.h"

#include <stdlib.h>
#include <string.h>

/* One operator of a clause: "+rx", "-w", "=u". */
struct mode_op {
	char op;        /* '+', '-' or '=' */
	unsigned bits;  /* from r, w, x, s, t, before the who mask */
	int cond_x;     /* X: execute only for directories or when some x is set */
	int copy_shift; /* -1, or the shift of the class copied (u 6, g 3, o 0) */
};

struct mode_clause {
	unsigned who; /* mask of the affected bits */
	struct mode_op *ops;
	size_t nops;
};

struct unsq_mode_spec {
	int octal;
	unsigned value;
	struct mode_clause *clauses;
	size_t nclauses;
};

void unsq_mode_free(struct unsq_mode_spec *m)
{
	if (m == NULL)
		return;
	for (size_t i = 0; i < m->nclauses; i++)
		free(m->clauses[i].ops);
	free(m->clauses);
	free(m);
}

/* bits[i] for the letter letters[i]; dflt for any other character. */
static unsigned letter_bits(const char *letters, const unsigned *bits, char c, unsigned dflt)
{
	const char *at = c != '\0' ? strchr(letters, c) : NULL;
	return at != NULL ? bits[at - letters] : dflt;
}

/* The mode bits a class letter covers (a, all of them). */
static unsigned who_mask(char c)
{
	static const unsigned masks[] = {04700, 02070, 01007};
	return letter_bits("ugo", masks, c, 07777);
}

static unsigned perm_bits(char c)
{
	static const unsigned perms[] = {0444, 0222, 0111, 06000, 01000};
	return letter_bits("rwxst", perms, c, 0);
}

/* One operator starting at *p (an operator character); *p moves past it. */
static int parse_op(const char **p, struct mode_op *op)
{
	const char *s = *p;
	memset(op, 0, sizeof(*op));
	op->op = *s++;
	op->copy_shift = -1;
	if (*s == 'u' || *s == 'g' || *s == 'o') {
		op->copy_shift = *s == 'u' ? 6 : *s == 'g' ? 3 : 0;
		s++;
	} else {
		for (; strchr("rwxXst", *s) != NULL && *s != '\0'; s++) {
			if (*s == 'X')
				op->cond_x = 1;
			else
				op->bits |= perm_bits(*s);
		}
	}
	*p = s;
	return 0;
}

static int parse_clause(const char **p, struct mode_clause *c)
{
	const char *s = *p;
	int any_who = 0;
	c->who = 0;
	for (; *s == 'u' || *s == 'g' || *s == 'o' || *s == 'a'; s++) {
		c->who |= who_mask(*s);
		any_who = 1;
	}
	if (!any_who)
		c->who = 07777;
	if (*s != '+' && *s != '-' && *s != '=')
		return -1;
	while (*s == '+' || *s == '-' || *s == '=') {
		struct mode_op *n = realloc(c->ops, (c->nops + 1) * sizeof(*n));
		if (n == NULL)
			return -1;
		c->ops = n;
		parse_op(&s, &c->ops[c->nops++]);
	}
	*p = s;
	return 0;
}

static int parse_symbolic(struct unsq_mode_spec *m, const char *text)
{
	const char *s = text;
	for (;;) {
		struct mode_clause *n = realloc(m->clauses, (m->nclauses + 1) * sizeof(*n));
		if (n == NULL)
			return -1;
		m->clauses = n;
		struct mode_clause *c = &m->clauses[m->nclauses++];
		memset(c, 0, sizeof(*c));
		if (parse_clause(&s, c))
			return -1;
		if (*s == '\0')
			return 0;
		if (*s++ != ',')
			return -1;
	}
}

struct unsq_mode_spec *unsq_mode_parse(const char *text, struct sq_error *err)
{
	struct unsq_mode_spec *m = calloc(1, sizeof(*m));
	if (m == NULL) {
		sq_fail(err, SQ_ERR_NOMEM, "out of memory");
		return NULL;
	}
	if (*text >= '0' && *text <= '7') {
		char *end;
		unsigned long v = strtoul(text, &end, 8);
		if (*end == '\0' && v <= 07777 && strlen(text) <= 5) {
			m->octal = 1;
			m->value = (unsigned)v;
			return m;
		}
	} else if (*text != '\0' && parse_symbolic(m, text) == 0) {
		return m;
	}
	unsq_mode_free(m);
	sq_fail(err, SQ_ERR_USAGE, "bad mode \"%s\" (an octal number or a symbolic mode such as u+rw,go-w)", text);
	return NULL;
}

static unsigned apply_op(const struct mode_op *op, unsigned who, unsigned mode, unsigned orig, int is_dir)
{
	unsigned bits = op->bits;
	if (op->cond_x && (is_dir || (orig & 0111)))
		bits |= 0111;
	if (op->copy_shift >= 0) {
		unsigned c = (mode >> op->copy_shift) & 7;
		bits = (c << 6) | (c << 3) | c;
	}
	bits &= who;
	switch (op->op) {
	case '+':
		return mode | bits;
	case '-':
		return mode & ~bits;
	default:
		return (mode & ~who) | bits;
	}
}

unsigned unsq_mode_apply(const struct unsq_mode_spec *m, unsigned mode, int is_dir)
{
	if (m->octal)
		return m->value;
	mode &= 07777;
	unsigned orig = mode;
	for (size_t i = 0; i < m->nclauses; i++)
		for (size_t j = 0; j < m->clauses[i].nops; j++)
			mode = apply_op(&m->clauses[i].ops[j], m->clauses[i].who, mode, orig, is_dir);
	return mode;
}
