/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* value.c — pseudo definition values that are more than a number: times (seconds, or any date
 * string date(1) understands, as squashfs-tools does it) and xattr name=value pairs with the
 * 4.6 value encodings (plain, 0s base64, 0x hex, 0t text with \ooo escapes, 0b as is). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/format.h"
#include "common/util/io.h"
#include "common/util/sizes.h"
#include "mksquashfs/pseudo/internal.h"

extern char **environ;

/* Run argv (searched in PATH) with /dev/null as standard input and error; its standard output
 * (at most cap - 1 bytes) into buf. 0 when it exited with status 0. */
static int run_capture(char *const argv[], char *buf, size_t cap)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (rc != 0) {
		close(pipefd[0]);
		return -1;
	}
	size_t n = 0;
	for (;;) {
		char scratch[256];
		bool room = n + 1 < cap;
		ssize_t got = sq_read_full(pipefd[0], room ? buf + n : scratch,
					   room ? cap - 1 - n : sizeof(scratch));
		if (got <= 0)
			break;
		if (room)
			n += (size_t)got;
	}
	buf[n] = '\0';
	close(pipefd[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int pseudo_parse_time(const char *s, uint32_t *out, char *why, size_t why_len)
{
	uint64_t v;
	if (isdigit((unsigned char)s[0]) && strspn(s, "0123456789") == strlen(s)) {
		if (sq_parse_uint(s, UINT32_MAX, &v) != 0) {
			snprintf(why, why_len, "after 2106-02-07 (seconds must fit 32 bits)");
			return -1;
		}
		*out = (uint32_t)v;
		return 0;
	}
	char *dup = strdup(s);
	char buf[64];
	char *argv[] = { "date", "-d", dup, "+%s", NULL };
	int rc = dup == NULL ? -1 : run_capture(argv, buf, sizeof(buf));
	free(dup);
	if (rc != 0) {
		snprintf(why, why_len, "neither seconds since the epoch nor a date date(1) accepts");
		return -1;
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (sq_parse_uint(buf, UINT32_MAX, &v) != 0) {
		snprintf(why, why_len, "date %s is outside 1970..2106", buf);
		return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int b64_digit(char c)
{
	static const char set[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *at = c ? strchr(set, c) : NULL;
	return at ? (int)(at - set) : -1;
}

static const char *decode_hex(const char *s, uint8_t *out, size_t *len)
{
	size_t n = strlen(s);
	if (n % 2 != 0)
		return "odd number of hex digits";
	for (size_t i = 0; i < n; i += 2) {
		int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
		if (hi < 0 || lo < 0)
			return "not a hex digit";
		out[(*len)++] = (uint8_t)(hi << 4 | lo);
	}
	return NULL;
}

static const char *decode_base64(const char *s, uint8_t *out, size_t *len)
{
	uint32_t acc = 0;
	int bits = 0;
	size_t n = strlen(s);
	while (n > 0 && s[n - 1] == '=')
		n--;
	for (size_t i = 0; i < n; i++) {
		int d = b64_digit(s[i]);
		if (d < 0)
			return "not a base64 character";
		acc = acc << 6 | (uint32_t)d;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[(*len)++] = (uint8_t)(acc >> bits);
		}
	}
	/* Six or more bits left over cannot be the end of a byte: a character is missing. */
	return bits >= 6 ? "incomplete base64 (a character is missing)" : NULL;
}

static const char *decode_text(const char *s, uint8_t *out, size_t *len)
{
	for (; *s; s++) {
		if (*s != '\\') {
			out[(*len)++] = (uint8_t)*s;
		} else if (s[1] == '\\') {
			out[(*len)++] = '\\';
			s++;
		} else {
			unsigned v = 0;
			for (int k = 1; k <= 3; k++) {
				if (s[k] < '0' || s[k] > '7')
					return "a backslash must be followed by three octal digits";
				v = v * 8 + (unsigned)(s[k] - '0');
			}
			if (v > 255)
				return "octal escape above \\377";
			out[(*len)++] = (uint8_t)v;
			s += 3;
		}
	}
	return NULL;
}

int pseudo_parse_xattr(const char *s, struct xattr_entry *out, char *why, size_t why_len)
{
	const char *eq = strchr(s, '=');
	if (eq == NULL) {
		snprintf(why, why_len, "expected name=value");
		return -1;
	}
	const char *after = s;
	int type = tree_xattr_type(s, &after);
	size_t plen = (size_t)(after - s);
	if (type < 0 || (size_t)(eq - s) == plen || (size_t)(eq - s) > 255) {
		snprintf(why, why_len, "the name must be user.*, trusted.* or security.* and at most "
			 "255 bytes");
		return -1;
	}
	const char *v = eq + 1;
	uint8_t *val = malloc(strlen(v) + 1);
	char *key = strndup(s + plen, (size_t)(eq - s) - plen);
	if (val == NULL || key == NULL) {
		free(val);
		free(key);
		snprintf(why, why_len, "out of memory");
		return -1;
	}
	size_t len = 0;
	const char *bad = NULL;
	if (strncmp(v, "0x", 2) == 0 || strncmp(v, "0X", 2) == 0)
		bad = decode_hex(v + 2, val, &len);
	else if (strncmp(v, "0s", 2) == 0 || strncmp(v, "0S", 2) == 0)
		bad = decode_base64(v + 2, val, &len);
	else if (strncmp(v, "0t", 2) == 0 || strncmp(v, "0T", 2) == 0)
		bad = decode_text(v + 2, val, &len);
	else if (strncmp(v, "0b", 2) == 0 || strncmp(v, "0B", 2) == 0) /* 4.7: 0b binary, as is */
		memcpy(val, v + 2, len = strlen(v + 2));
	else
		memcpy(val, v, len = strlen(v));
	if (bad != NULL) {
		snprintf(why, why_len, "%s", bad);
		free(val);
		free(key);
		return -1;
	}
	out->type = (uint16_t)type;
	out->key = key;
	out->key_len = (uint16_t)strlen(key);
	out->value = val;
	out->value_len = (uint32_t)len;
	return 0;
}
