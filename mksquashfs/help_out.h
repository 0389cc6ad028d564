/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* help_out.h — the stream help text is printed to, and one option's entry wrapped to its width. */
#ifndef SQ_MKSQUASHFS_HELP_OUT_H
#define SQ_MKSQUASHFS_HELP_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct help_out {
	FILE *out;       /* stdout, or the pager's pipe */
	FILE *pipe;      /* the pager, when one runs */
	unsigned cols;   /* wrap width */
	bool sqfstar;    /* sqfstar's help: its options only, its syntax */
};

/* Standard output, through a pager when it is a terminal (unless no_pager); cols 0 means the
 * terminal's width, else 80. */
void help_out_open(struct help_out *h, unsigned cols, bool no_pager);
/* Wait for the pager; -1 when writing standard output failed. */
int help_out_close(struct help_out *h);

/* "head<tabs to column 24>text", the text's words wrapped to the width with continuation lines
 * indented to column 24. */
void help_out_entry(const struct help_out *h, const char *head, size_t head_len,
		    const char *text, size_t text_len);

#endif
