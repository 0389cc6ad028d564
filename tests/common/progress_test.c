/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* progress_test.c — the progress bar stays silent off a terminal; with --tty (progress_tty.sh),
 * on a pseudo-terminal it stays silent when not wanted and draws "[===...] done/total pct%"
 * lines from several threads at once (exit 77 when no pseudo-terminal can be had). */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util/progress.h"
#include "tests/lib/check.h"


static void *advance_many(void *arg)
{
	struct progress *p = arg;
	for (int i = 0; i < 1000; i++)
		progress_advance(p, 1);
	return NULL;
}

static void off_terminal(void)
{
	struct progress p;
	FILE *f = tmpfile();
	CHECK(f != NULL, "tmpfile");
	if (f == NULL)
		return;
	progress_init(&p, f, true);
	CHECK(!p.enabled, "enabled on a regular file");
	progress_add_total(&p, 10);
	progress_advance(&p, 10);
	progress_finish(&p);
	progress_destroy(&p);
	CHECK(ftell(f) == 0, "wrote %ld bytes to a non-terminal", ftell(f));
	fclose(f);
}

static void on_terminal(void)
{
	struct progress p;
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
		fprintf(stderr, "SKIP: progress_test: no pseudo-terminal can be opened\n");
		exit(77);
	}
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	FILE *tty = slave >= 0 ? fdopen(slave, "w") : NULL;
	if (tty == NULL) {
		fprintf(stderr, "SKIP: progress_test: cannot open the pseudo-terminal's slave\n");
		exit(77);
	}
	progress_init(&p, tty, false);
	CHECK(!p.enabled, "enabled though not wanted (-no-progress)");
	progress_destroy(&p);

	progress_init(&p, tty, true);
	CHECK(p.enabled, "not enabled on a terminal");
	progress_add_total(&p, 4000);
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, advance_many, &p);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	progress_finish(&p);
	progress_destroy(&p);
	fclose(tty);

	char buf[65536];
	size_t got = 0;
	fcntl(master, F_SETFL, O_NONBLOCK);
	for (;;) {
		ssize_t n = read(master, buf + got, sizeof(buf) - 1 - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	char *last = strrchr(buf, '[');
	CHECK(last != NULL && strstr(last, "4000/4000 100%") != NULL,
	      "final line lacks 4000/4000 100%%: \"%s\"", last ? last : buf);
	close(master);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--tty") == 0) {
		on_terminal();
		return check_exit("progress_test --tty");
	}
	off_terminal();
	return check_exit("progress_test");
}
