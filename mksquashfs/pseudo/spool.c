/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* spool.c — bytes that exist nowhere on disk (the output of f commands, a data section read from
 * a pipe) appended to one temporary file in $TMPDIR, unlinked as soon as it is made, so it
 * cannot outlive the run however it ends. Each file's content is a span of it.
 *
 * A command may run for as long as it needs (squashfs-tools waits too: it may be reading a
 * device). While we wait for one, SIGINT, SIGTERM and SIGHUP stop the command and fail the run
 * through the ordinary error path, so the half-made image is removed; outside that wait they
 * keep their usual effect. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mksquashfs/pseudo/internal.h"

extern char **environ;

/* Set by the handler installed only while a command runs. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* The signal state a command runs under, and what it replaced. */
struct caught {
	struct sigaction old[3];
	sigset_t old_mask;
};

/* Catch the stop signals without SA_RESTART, so a blocked read returns EINTR. The image's signal
 * guard (append/guard.c) keeps them blocked in every thread; they are let through to this one
 * while the command runs, so that it is the command, not only the image, that a signal stops. */
static void catch_signals(struct caught *c)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigset_t stop;
	sigemptyset(&stop);
	for (size_t i = 0; i < 3; i++) {
		sigaction(stop_signals[i], &sa, &c->old[i]);
		sigaddset(&stop, stop_signals[i]);
	}
	pthread_sigmask(SIG_UNBLOCK, &stop, &c->old_mask);
}

static void restore_signals(const struct caught *c)
{
	pthread_sigmask(SIG_SETMASK, &c->old_mask, NULL);
	for (size_t i = 0; i < 3; i++)
		sigaction(stop_signals[i], &c->old[i], NULL);
}

static int spool_open(struct pseudo_spool *sp, char *why, size_t why_len)
{
	if (sp->fd >= 0)
		return 0;
	const char *dir = getenv("TMPDIR");
	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	size_t len = strlen(dir) + 32;
	char *tmpl = malloc(len);
	if (tmpl == NULL) {
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	snprintf(tmpl, len, "%s/mksquashfs-spool.XXXXXX", dir);
	sp->fd = mkostemp(tmpl, O_CLOEXEC);
	if (sp->fd < 0)
		snprintf(why, why_len, "cannot create a temporary file in %s: %s", dir,
			 strerror(errno));
	else
		unlink(tmpl);
	free(tmpl);
	sp->size = 0;
	return sp->fd < 0 ? -1 : 0;
}

static int spool_write(struct pseudo_spool *sp, const char *buf, size_t len, char *why,
		       size_t why_len)
{
	while (len > 0) {
		ssize_t n = pwrite(sp->fd, buf, len, (off_t)sp->size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(why, why_len, "cannot write the temporary spool file: %s",
				 n == 0 ? "no space" : strerror(errno));
			return -1;
		}
		buf += n;
		len -= (size_t)n;
		sp->size += (uint64_t)n;
	}
	return 0;
}

/* Copy everything from fd to the spool. */
static int drain_fd(struct pseudo_spool *sp, int fd, char *why, size_t why_len)
{
	char buf[65536];
	for (;;) {
		if (interrupted) {
			snprintf(why, why_len, "interrupted by signal %d while the command ran",
				 (int)interrupted);
			return -1;
		}
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(why, why_len, "cannot read the command's output: %s", strerror(errno));
			return -1;
		}
		if (n == 0)
			return 0;
		if (spool_write(sp, buf, (size_t)n, why, why_len) != 0)
			return -1;
	}
}

/* The command gets its own process group, so stopping it reaches whatever it started; its
 * standard input is /dev/null (a background group must not read the terminal, and -pf - may
 * be using ours). */
static pid_t spawn_shell(const char *command, int out_fd, char *why, size_t why_len)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	posix_spawnattr_setpgroup(&attr, 0);
	/* mksquashfs blocks SIGINT/SIGTERM/SIGHUP for its signal guard; the command starts with
	 * none blocked. */
	sigset_t none;
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	char *argv[] = { "sh", "-c", (char *)command, NULL };
	pid_t pid;
	int rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		snprintf(why, why_len, "cannot run /bin/sh: %s", strerror(rc));
		return -1;
	}
	return pid;
}

int pseudo_spool_command(struct pseudo_spool *sp, const char *command, uint64_t *offset,
			 uint64_t *length, char *why, size_t why_len)
{
	if (spool_open(sp, why, why_len) != 0)
		return -1;
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		snprintf(why, why_len, "cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	uint64_t start = sp->size;
	struct caught old;
	catch_signals(&old);
	pid_t pid = spawn_shell(command, pipefd[1], why, why_len);
	close(pipefd[1]);
	int rc = pid < 0 ? -1 : drain_fd(sp, pipefd[0], why, why_len);
	close(pipefd[0]);
	int status = 0;
	if (pid >= 0) {
		if (rc != 0)
			kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			if (interrupted && rc == 0) {
				kill(-pid, SIGKILL);
				rc = -1;
				snprintf(why, why_len, "interrupted by signal %d while the command ran",
					 (int)interrupted);
			}
	}
	restore_signals(&old);
	if (pid < 0 || rc != 0)
		return -1;
	if (WIFSIGNALED(status)) {
		snprintf(why, why_len, "the command was killed by signal %d", WTERMSIG(status));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, why_len, "the command exited with status %d%s", WEXITSTATUS(status),
			 WEXITSTATUS(status) == 127 ? " (command not found?)" : "");
		return -1;
	}
	*offset = start;
	*length = sp->size - start;
	return 0;
}

int pseudo_spool_copy(struct pseudo_spool *sp, FILE *f, uint64_t *offset, uint64_t *length,
		      char *why, size_t why_len)
{
	if (spool_open(sp, why, why_len) != 0)
		return -1;
	uint64_t start = sp->size;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (spool_write(sp, buf, n, why, why_len) != 0)
			return -1;
	if (ferror(f)) {
		snprintf(why, why_len, "read error: %s", strerror(errno));
		return -1;
	}
	*offset = start;
	*length = sp->size - start;
	return 0;
}

void pseudo_spool_close(struct pseudo_spool *sp)
{
	if (sp->fd >= 0)
		close(sp->fd);
	sp->fd = -1;
}
