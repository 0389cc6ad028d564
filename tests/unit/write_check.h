/* write_check.h — the tiny assertion helpers of the table writer's unit tests. */
#ifndef SQ_TESTS_WRITE_CHECK_H
#define SQ_TESTS_WRITE_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                               \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

/* Compare bytes, printing the first difference. */
#define CHECK_BYTES(got, want, len) check_bytes(__FILE__, __LINE__, (got), (want), (len))

static inline void check_bytes(const char *file, int line, const void *got, const void *want,
			       size_t len)
{
	const unsigned char *g = got, *w = want;
	for (size_t i = 0; i < len; i++) {
		if (g[i] != w[i]) {
			fprintf(stderr, "%s:%d: byte %zu is %02x, expected %02x\n", file, line, i,
				g[i], w[i]);
			check_failures++;
			return;
		}
	}
}

#endif
