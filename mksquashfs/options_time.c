/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* options_time.c — the time and reproducibility options of squashfs-tools 4.6/4.7: times given
 * as seconds, as a date the date command reads, or as "inode" (the latest source inode time). */
#include "config.h"
#include "mksquashfs/options.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util/sizes.h"
#include "mksquashfs/opt_def.h"

extern char **environ;

/* Read all of fd (at most cap - 1 bytes kept) into buf, NUL-terminated. */
static void read_all(int fd, char *buf, size_t cap)
{
	size_t used = 0;
	for (;;) {
		char scratch[256];
		ssize_t n = read(fd, scratch, sizeof(scratch));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t keep = (size_t)n < cap - 1 - used ? (size_t)n : cap - 1 - used;
		memcpy(buf + used, scratch, keep);
		used += keep;
	}
	buf[used] = '\0';
}

/* Ask the date command what a date string means, in seconds since the epoch, as
 * squashfs-tools does: its grammar ("now", "last week", "2023-02-15 21:02 UTC") is what users
 * of -mkfs-time already know. No shell is involved: the string is one argument. */
static int date_seconds(const char *s, int64_t *out)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	char *argv[] = { "date", "-d", (char *)s, "+%s", NULL };
	pid_t pid;
	int rc = posix_spawnp(&pid, "date", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		return -1;
	}
	char buf[64];
	read_all(pipefd[0], buf, sizeof(buf));
	close(pipefd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno != 0 || end == buf || (*end != '\n' && *end != '\0'))
		return -1;
	*out = v;
	return 0;
}

int options_parse_time(const char *opt, const char *s, uint32_t *out, struct sq_error *err)
{
	uint64_t v;
	if (s == NULL || s[0] == '\0')
		return sq_fail(err, SQ_ERR_USAGE, "%s missing time value", opt);
	if (sq_parse_uint(s, UINT32_MAX, &v) == 0) {
		*out = (uint32_t)v;
		return 0;
	}
	int64_t when;
	if (s[0] >= '0' && s[0] <= '9' && strspn(s, "0123456789") == strlen(s))
		return sq_fail(err, SQ_ERR_USAGE, "%s time value \"%s\" is out of range (0 .. 4294967295)",
			       opt, s);
	if (date_seconds(s, &when) != 0)
		return sq_fail(err, SQ_ERR_USAGE,
			       "%s invalid time value \"%s\": give seconds since the epoch, \"inode\" or a date the date command understands",
			       opt, s);
	if (when < 0 || when > (int64_t)UINT32_MAX)
		return sq_fail(err, SQ_ERR_USAGE,
			       "%s time \"%s\" (%lld) is outside 1970-01-01 .. 2106-02-07, which squashfs cannot store",
			       opt, s, (long long)when);
	*out = (uint32_t)when;
	return 0;
}

int options_parse_time_or_inode(const char *opt, const char *s, uint32_t *out, bool *is_inode,
				struct sq_error *err)
{
	*is_inode = s != NULL && strcmp(s, "inode") == 0;
	if (*is_inode) {
		*out = 0;
		return 0;
	}
	return options_parse_time(opt, s, out, err);
}

static int opt_mkfs_time(struct mksq_options *o, const char *name, const char *v,
			 struct sq_error *err)
{
	if (options_parse_time_or_inode(name, v, &o->image.mkfs_time, &o->mkfs_time_inode, err) != 0)
		return -1;
	o->mkfs_time_set = true;
	o->time_option_set = true;
	return 0;
}

static int opt_inode_time(struct mksq_options *o, const char *name, const char *v,
			  struct sq_error *err)
{
	if (options_parse_time_or_inode(name, v, &o->all_time, &o->inode_time_inode, err) != 0)
		return -1;
	/* "inode" is resolved once the sources are read (times.c); a fixed time goes through
	 * the attribute pass like -all-time always did. */
	o->all_time_set = !o->inode_time_inode;
	o->time_option_set = true;
	return 0;
}

static int opt_repro(struct mksq_options *o, const char *name, const char *v, struct sq_error *err)
{
	(void)name, (void)v, (void)err;
	o->mkfs_time_inode = true;
	o->mkfs_time_set = true;
	o->time_option_set = true;
	return 0;
}

static int opt_repro_time(struct mksq_options *o, const char *name, const char *v,
			  struct sq_error *err)
{
	return opt_mkfs_time(o, name, v, err) != 0 || opt_inode_time(o, name, v, err) != 0 ? -1 : 0;
}

#define TIME_FORMS \
	"\t\t\t<time> can be \"inode\", which means use the latest inode\n" \
	"\t\t\ttimestamp, an unsigned 32-bit int indicating seconds since\n" \
	"\t\t\tthe epoch (1970-01-01) or a string value which is passed to\n" \
	"\t\t\tthe \"date\" command to parse, such as \"now\", \"last week\", or\n" \
	"\t\t\t\"Wed Feb 15 21:02:39 GMT 2023\""

static const struct opt_def time_defs[] = {
	OPT_VALUE_DEF("-mkfs-time", opt_mkfs_time, SECTION_TIME, "-mkfs-time <time>\tset filesystem creation timestamp to <time>.\n" TIME_FORMS),
	OPT_VALUE_DEF("-inode-time", opt_inode_time, SECTION_TIME, "-inode-time <time>\tset all file and directory timestamps to <time>.\n"
		      TIME_FORMS ".  This option sets and overrides the -root-time option"),
	OPT_CALL_DEF("-repro", opt_repro, SECTION_TIME, "-repro\t\t\tbuild a reproducible filesystem image.  This is\n\t\t\tequivalent to -mkfs-time inode, which achieves\n\t\t\treproducibility by setting the filesystem build time to the\n\t\t\tlatest inode timestamp"),
	OPT_VALUE_DEF("-repro-time", opt_repro_time, SECTION_TIME, "-repro-time <time>\tbuild a reproducible filesystem image.  This is\n\t\t\tequivalent to specifying -mkfs-time <time> and -inode-time\n\t\t\t<time>, which achieves reproducibility by setting all\n\t\t\ttimestamps to <time>"),
	OPT_IGNORED_DEF("-reproducible", SECTION_BUILD, "-reproducible\t\tbuild filesystems that are reproducible (default: the\n\t\t\tsame sources and options always give the same image)"),
	OPT_IGNORED_DEF("-not-reproducible", SECTION_BUILD, "-not-reproducible\tbuild filesystems that are not reproducible (accepted;\n\t\t\tthis mksquashfs's layout never depends on thread timing, so\n\t\t\tits images are reproducible either way)"),
	OPT_VALUE_DEF("-fstime", opt_mkfs_time, SECTION_MISC, "-fstime <time>\t\talternative name for -mkfs-time"),
	OPT_VALUE_DEF("-all-time", opt_inode_time, SECTION_MISC, "-all-time <time>\talternative name for -inode-time"),
	OPT_END_DEF,
};

OPT_GROUP_DEF(time_options, "time", time_defs, NULL);
