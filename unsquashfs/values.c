/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* values.c — option values: numbers, owners by name, date(1) times, memory amounts. */
#include "config.h"
#include "unsquashfs/values.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util/io.h"
#include "common/util/sizes.h"

int unsq_parse_long(const char *s, long min, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < min)
		return -1;
	*out = v;
	return 0;
}

int unsq_parse_offset(const char *s, uint64_t *out)
{
	return sq_parse_size(s, "KMG", out);
}

int unsq_parse_owner(const char *s, int is_group, uint32_t *out)
{
	uint64_t v;
	if (sq_parse_uint(s, UINT32_MAX, &v) == 0) {
		*out = (uint32_t)v;
		return 0;
	}
	if (is_group) {
		struct group *g = getgrnam(s);
		if (g == NULL)
			return -1;
		*out = (uint32_t)g->gr_gid;
	} else {
		struct passwd *p = getpwnam(s);
		if (p == NULL)
			return -1;
		*out = (uint32_t)p->pw_uid;
	}
	return 0;
}

/* Run date -d TEXT +%s (no shell: TEXT is one argument) and read its one line of output. */
static int run_date(const char *text, char *buf, size_t cap)
{
	int pipefd[2];
	if (pipe(pipefd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		close(pipefd[0]);
		close(pipefd[1]);
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, STDERR_FILENO);
		execlp("date", "date", "-d", text, "+%s", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	ssize_t n = sq_read_full(pipefd[0], buf, cap - 1);
	close(pipefd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int unsq_parse_time(const char *opt, const char *s, uint32_t *out, struct sq_error *err)
{
	uint64_t v;
	if (sq_parse_uint(s, UINT32_MAX, &v) == 0) {
		*out = (uint32_t)v;
		return 0;
	}
	char buf[64];
	long long t;
	char *end;
	if (run_date(s, buf, sizeof(buf)) == 0) {
		errno = 0;
		t = strtoll(buf, &end, 10);
		if (errno == 0 && end != buf && *end == '\0') {
			if (t < 0 || t > (long long)UINT32_MAX)
				return sq_fail(err, SQ_ERR_USAGE, "%s: \"%s\" is outside 1970 to 2106", opt, s);
			*out = (uint32_t)t;
			return 0;
		}
	}
	return sq_fail(err, SQ_ERR_USAGE, "%s: bad time \"%s\" (seconds since the epoch, or a date(1) string)",
		       opt, s);
}

int unsq_parse_mem(const char *opt, const char *s, uint64_t *out, struct sq_error *err)
{
	uint64_t v;
	if (sq_parse_size(s, "KMG", &v) != 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad size \"%s\"", opt, s);
	if (v < 2u << 20)
		return sq_fail(err, SQ_ERR_USAGE, "%s: %s is less than 2 Mbytes", opt, s);
	*out = v;
	return 0;
}

static uint64_t physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long size = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || size <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)size;
}

int unsq_parse_mem_percent(const char *opt, const char *s, uint64_t *out, struct sq_error *err)
{
	uint64_t pc;
	const char *end = s + strlen(s);
	char num[32];
	size_t len = (size_t)(end - s);
	if (len > 0 && s[len - 1] == '%')
		len--;
	if (len == 0 || len >= sizeof(num))
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad percentage \"%s\" (1 to 75)", opt, s);
	memcpy(num, s, len);
	num[len] = '\0';
	if (sq_parse_uint(num, 75, &pc) != 0 || pc < 1)
		return sq_fail(err, SQ_ERR_USAGE, "%s: bad percentage \"%s\" (1 to 75)", opt, s);
	uint64_t phys = physical_memory();
	if (phys == 0)
		return sq_fail(err, SQ_ERR_USAGE, "%s: cannot tell the amount of physical memory", opt);
	*out = phys / 100 * pc;
	return 0;
}
