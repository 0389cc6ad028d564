/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dec_corpus.c — every frame of the shared zstd corpus decodes exactly; every golden error frame is refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/zstd.h"
#include "tests/lib/check.h"
#include "tests/zstd/dec_util.h"

/* Decode one .zst against its original: into an exact buffer, and into one byte less (must
 * fail with DST_TOO_SMALL, never write past the end: ASan watches). */
static void check_pair(zs_dctx *d, const char *zst_path, const char *orig_path)
{
	size_t zlen = 0, olen = 0;
	uint8_t *z = dec_read_file(zst_path, &zlen);
	uint8_t *o = dec_read_file(orig_path, &olen);
	uint8_t *out = o != NULL ? malloc(olen + 1) : NULL;

	CHECK(z != NULL && o != NULL && out != NULL, "%s: cannot read it or its original", zst_path);
	if (z == NULL || o == NULL || out == NULL)
		goto out;
	ptrdiff_t n = zs_decompress(d, z, zlen, out, olen, 0);

	CHECK(n >= 0, "%s: %s", zst_path, n < 0 ? zs_error_string((int)n) : "");
	CHECK(n < 0 || ((size_t)n == olen && memcmp(out, o, olen) == 0),
	      "%s: decoded %td bytes differ from the %zu original bytes", zst_path, n, olen);
	if (olen > 0) {
		uint8_t *tight = malloc(olen - 1 ? olen - 1 : 1);

		n = tight ? zs_decompress(d, z, zlen, tight, olen - 1, 0) : ZS_ERR_ALLOC;
		free(tight);
		CHECK(n == ZS_ERR_DST_TOO_SMALL, "%s: one byte short of room gave %td, not DST_TOO_SMALL",
		      zst_path, n);
	}
out:
	free(z);
	free(o);
	free(out);
}

/* dir/zst/NAME.zst against dir/orig/NAME. */
static void check_set(zs_dctx *d, const char *corpus, const char *set, int *count)
{
	char zdir[4096], path[4096], orig[4096];
	char **names;

	dec_path(zdir, sizeof(zdir), "%s/%s/zst", corpus, set);
	int n = dec_list(zdir, ".zst", &names);

	CHECK(n > 0, "%s: no frames", zdir);
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++) {
		dec_path(path, sizeof(path), "%s/%s", zdir, names[i]);
		dec_path(orig, sizeof(orig), "%s/%s/orig/%.*s", corpus, set,
			 (int)(strlen(names[i]) - 4), names[i]);
		check_pair(d, path, orig);
	}
	*count += n;
	dec_free_list(names, n);
}

int main(void)
{
	char cbuf[4096], dir[4096], path[4096], orig[4096];
	const char *corpus = dec_corpus_dir(cbuf, sizeof(cbuf));
	zs_dctx *d;
	int good = 0, errors = 0;
	char **names;
	int n;

	if (corpus == NULL)
		return 77;
	d = zs_dctx_new();
	if (d == NULL)
		return 1;
	check_set(d, corpus, "small", &good);
	check_set(d, corpus, "large", &good);

	/* Again through the generic (non-BMI2) code paths. */
	zs_dctx_free(d);
	setenv("ZS_DISABLE_BMI2", "1", 1);
	d = zs_dctx_new();
	if (d == NULL)
		return 1;
	check_set(d, corpus, "small", &good);
	check_set(d, corpus, "large", &good);
	unsetenv("ZS_DISABLE_BMI2");

	dec_path(dir, sizeof(dir), "%s/golden/golden-decompression", corpus);
	n = dec_list(dir, ".zst", &names);
	CHECK(n > 0, "%s: no frames", dir);
	for (int i = 0; i < n; i++) {
		dec_path(path, sizeof(path), "%s/%s", dir, names[i]);
		dec_path(orig, sizeof(orig), "%s/%.*s.orig", dir, (int)(strlen(names[i]) - 4), names[i]);
		check_pair(d, path, orig);
		good++;
	}
	if (n > 0)
		dec_free_list(names, n);

	dec_path(dir, sizeof(dir), "%s/golden/golden-decompression-errors", corpus);
	n = dec_list(dir, ".zst", &names);
	CHECK(n > 0, "%s: no frames", dir);
	for (int i = 0; i < n; i++) {
		size_t zlen = 0;
		uint8_t *z;
		uint8_t *out = malloc(1u << 20);

		dec_path(path, sizeof(path), "%s/%s", dir, names[i]);
		z = dec_read_file(path, &zlen);
		ptrdiff_t r = z && out ? zs_decompress(d, z, zlen, out, 1u << 20, 0) : 0;

		CHECK(z != NULL && out != NULL && r < 0 && r != ZS_ERR_DST_TOO_SMALL,
		      "%s: corrupt frame not rejected (%td)", path, r);
		if (r < 0)
			fprintf(stderr, "ok: %s rejected: %s\n", names[i], zs_error_string((int)r));
		errors++;
		free(z);
		free(out);
	}
	if (n > 0)
		dec_free_list(names, n);
	zs_dctx_free(d);
	fprintf(stderr, "%d frames decoded and checked, %d error frames\n", good, errors);
	return check_exit("zstd/dec_corpus");
}
