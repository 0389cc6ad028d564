/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* codec_parse.c — strict parsing of -X option values shared by every backend. */
#include "config.h"
#include "codecs/codec_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int codec_parse_int(const char *text, long min, long max, long *value)
{
	/* strtol alone accepts leading blanks and a sign before digits; users typing "-X 5"
	 * mistakes deserve an error, so the first character must be a digit or '-'. */
	if (text == NULL || (text[0] != '-' && (text[0] < '0' || text[0] > '9')))
		return -1;
	char *end = NULL;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
		return -1;
	*value = v;
	return 0;
}

int codec_parse_list(const char *list, const char *const *names, unsigned count, uint32_t *mask,
		     const char **bad, size_t *bad_len)
{
	uint32_t bits = 0;
	const char *word = list;
	for (;;) {
		size_t len = strcspn(word, ",");
		unsigned i;
		for (i = 0; i < count; i++)
			if (strlen(names[i]) == len && memcmp(names[i], word, len) == 0)
				break;
		if (i == count) {
			*bad = word;
			*bad_len = len;
			return -1;
		}
		bits |= UINT32_C(1) << i;
		if (word[len] == '\0')
			break;
		word += len + 1;
	}
	*mask = bits;
	return 0;
}

void codec_print_mask(FILE *out, uint32_t mask, const char *const *names, unsigned count)
{
	const char *sep = "";
	for (unsigned i = 0; i < count; i++) {
		if (mask & (UINT32_C(1) << i)) {
			fprintf(out, "%s%s", sep, names[i]);
			sep = ", ";
		}
	}
}
