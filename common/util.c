/* util.c — checked allocation, number parsing with size suffixes, and full reads. */
#include "config.h"
#include "common/error.h"
#include "common/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void *sq_alloc_array(size_t n, size_t size)
{
	size_t total;
	if (!sq_mul_size(n, size, &total))
		return NULL;
	return calloc(total ? n : 1, total ? size : 1);
}

void *sq_realloc_array(void *p, size_t n, size_t size)
{
	size_t total;
	if (!sq_mul_size(n, size, &total))
		return NULL;
	return realloc(p, total ? total : 1);
}

int sq_parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (s == NULL || *s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (!sq_mul_u64(v, 10, &v) || !sq_add_u64(v, (uint64_t)(*s - '0'), &v))
			return -1;
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int sq_parse_size(const char *s, const char *suffixes, uint64_t *out)
{
	uint64_t v = 0;
	size_t digits = 0;
	if (s == NULL)
		return -1;
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (!sq_mul_u64(v, 10, &v) || !sq_add_u64(v, (uint64_t)(*s - '0'), &v))
			return -1;
	}
	if (digits == 0)
		return -1;
	if (*s != '\0') {
		char c = (char)toupper((unsigned char)*s);
		unsigned shift;
		if (s[1] != '\0' || strchr(suffixes, c) == NULL)
			return -1;
		switch (c) {
		case 'K': shift = 10; break;
		case 'M': shift = 20; break;
		case 'G': shift = 30; break;
		default: return -1;
		}
		if (v > (UINT64_MAX >> shift))
			return -1;
		v <<= shift;
	}
	*out = v;
	return 0;
}

ssize_t sq_pread_full(int fd, void *buf, size_t len, uint64_t offset)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(offset + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t sq_read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

int sq_for_each_line(const char *path, const char *what,
		     int (*fn)(void *ctx, const char *line, size_t len, struct sq_error *err),
		     void *ctx, struct sq_error *err)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return sq_fail_errno(err, "cannot open %s %s", what, path);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		if (fn(ctx, line, (size_t)n, err) != 0) {
			rc = -1;
			break;
		}
	}
	if (rc == 0 && ferror(f))
		rc = sq_fail_errno(err, "cannot read %s %s", what, path);
	free(line);
	fclose(f);
	return rc;
}
