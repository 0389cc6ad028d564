/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* sink.c — writing streamed file contents, holes included, to a stdio stream. */
#include "config.h"
#include "unsquashfs/sink.h"

#include <stdio.h>

int unsq_stream_sink(void *file, uint64_t offset, const uint8_t *data, size_t len, struct sq_error *err)
{
	(void)offset;
	static const uint8_t zeros[4096];
	FILE *out = file;
	while (len > 0) {
		size_t n = data ? len : (len < sizeof(zeros) ? len : sizeof(zeros));
		if (fwrite(data ? data : zeros, 1, n, out) != n)
			return sq_fail_errno(err, "cannot write %s", out == stdout ? "to standard output" : "the output");
		len -= n;
		if (data)
			data += n;
	}
	return 0;
}
