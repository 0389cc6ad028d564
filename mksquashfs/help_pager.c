/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* help_pager.c — where help text goes (a pager on a terminal, as squashfs-tools 4.7: $PAGER, or
 * pager, less, more) and how wide it is wrapped (-cols, the terminal's width, or 80). */
#include "config.h"
#include "mksquashfs/help_out.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Is name an executable in $PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	if (path == NULL || path[0] == '\0')
		path = "/usr/local/bin:/usr/bin:/bin";
	char buf[4096];
	while (*path != '\0') {
		size_t len = strcspn(path, ":");
		if (len > 0 && len + strlen(name) + 2 < sizeof(buf)) {
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, name);
			if (access(buf, X_OK) == 0)
				return true;
		}
		path += len + (path[len] == ':');
	}
	return false;
}

/* The pager command, or NULL for none: $PAGER (empty means none; it may carry arguments, as the
 * shell reads them), else the first of pager, less, more found in $PATH. */
static const char *pager_command(void)
{
	const char *env = getenv("PAGER");
	if (env != NULL)
		return env[0] != '\0' ? env : NULL;
	static const char *const candidates[] = { "pager", "less", "more" };
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
		if (in_path(candidates[i]))
			return candidates[i];
	return NULL;
}

void help_out_open(struct help_out *h, unsigned cols, bool no_pager)
{
	h->out = stdout;
	h->pipe = NULL;
	h->cols = cols;
	bool tty = isatty(STDOUT_FILENO) != 0;
	if (h->cols == 0) {
		struct winsize ws;
		h->cols = 80;
		if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
			h->cols = ws.ws_col;
	}
	if (h->cols < 40)
		h->cols = 40;
	const char *pager = tty && !no_pager ? pager_command() : NULL;
	if (pager == NULL)
		return;
	fflush(stdout);
	/* Quitting the pager early must not kill us with SIGPIPE mid-text. */
	signal(SIGPIPE, SIG_IGN);
	h->pipe = popen(pager, "w");
	if (h->pipe != NULL)
		h->out = h->pipe;
}

int help_out_close(struct help_out *h)
{
	if (h->pipe != NULL) {
		pclose(h->pipe);
		h->pipe = NULL;
		return 0;
	}
	return fflush(stdout) != 0 || ferror(stdout) ? -1 : 0;
}

/* Text column of the description: 24, as squashfs-tools' three tab stops. */
#define DESC_COL 24u

static void put_tabs_to(FILE *out, unsigned from, unsigned to)
{
	while (from < to) {
		fputc('\t', out);
		from = (from / 8 + 1) * 8;
	}
}

void help_out_entry(const struct help_out *h, const char *head, size_t head_len,
		    const char *text, size_t text_len)
{
	FILE *out = h->out;
	fwrite(head, 1, head_len, out);
	unsigned col = (unsigned)head_len;
	if (col >= DESC_COL) {
		fputc('\n', out);
		col = 0;
	}
	put_tabs_to(out, col, DESC_COL);
	col = DESC_COL;
	unsigned width = h->cols > DESC_COL + 20 ? h->cols - 1 : DESC_COL + 20;
	size_t i = 0;
	bool first = true;
	while (i < text_len) {
		size_t gap = 0;
		while (i < text_len && text[i] == ' ') {
			i++;
			gap++;
		}
		size_t w = i;
		while (w < text_len && text[w] != ' ')
			w++;
		if (w == i)
			break;
		/* Two spaces after a sentence stay two, as squashfs-tools prints them. */
		unsigned sep = first ? 0 : gap >= 2 ? 2 : 1;
		unsigned wl = (unsigned)(w - i);
		if (!first && col + sep + wl > width) {
			fputc('\n', out);
			put_tabs_to(out, 0, DESC_COL);
			col = DESC_COL;
			sep = 0;
		}
		for (unsigned k = 0; k < sep; k++)
			fputc(' ', out);
		fwrite(text + i, 1, wl, out);
		col += sep + wl;
		first = false;
		i = w;
	}
	fputc('\n', out);
}
