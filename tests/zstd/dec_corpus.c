/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* dec_corpus.c — every frame of the shared zstd corpus decodes exactly; every golden error frame is refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/zstd/zstd.h"
#include "tests/zstd/dec_util.h"

/* Decode one .zst against its original: into an exact buffer, and into one byte less (must
 * fail with DST_TOO_SMALL, never write past the end: ASan watches). Returns 0 when all good. */
static int check_pair(zs_dctx *d, const char *zst_path, const char *orig_path)
{
	size_t zlen = 0, olen = 0;
	uint8_t *z = dec_read_file(zst_path, &zlen);
	uint8_t *o = dec_read_file(orig_path, &olen);
	uint8_t *out = NULL;
	int bad = 1;

	if (z == NULL || o == NULL) {
		fprintf(stderr, "FAIL %s: cannot read it or its original\n", zst_path);
		goto out;
	}
	out = malloc(olen + 1);
	if (out == NULL)
		goto out;
	ptrdiff_t n = zs_decompress(d, z, zlen, out, olen, 0);

	if (n < 0) {
		fprintf(stderr, "FAIL %s: %s\n", zst_path, zs_error_string((int)n));
		goto out;
	}
	if ((size_t)n != olen || memcmp(out, o, olen) != 0) {
		fprintf(stderr, "FAIL %s: decoded %td bytes differ from the %zu original bytes\n",
			zst_path, n, olen);
		goto out;
	}
	if (olen > 0) {
		uint8_t *tight = malloc(olen - 1 ? olen - 1 : 1);

		n = tight ? zs_decompress(d, z, zlen, tight, olen - 1, 0) : ZS_ERR_ALLOC;
		free(tight);
		if (n != ZS_ERR_DST_TOO_SMALL) {
			fprintf(stderr, "FAIL %s: one byte short of room gave %td, not DST_TOO_SMALL\n",
				zst_path, n);
			goto out;
		}
	}
	bad = 0;
out:
	free(z);
	free(o);
	free(out);
	return bad;
}

/* dir/zst/NAME.zst against dir/orig/NAME. */
static int check_set(zs_dctx *d, const char *corpus, const char *set, int *count)
{
	char zdir[4096], path[4096], orig[4096];
	char **names;
	int fails = 0;

	dec_path(zdir, sizeof(zdir), "%s/%s/zst", corpus, set);
	int n = dec_list(zdir, ".zst", &names);

	if (n <= 0) {
		fprintf(stderr, "FAIL %s: no frames\n", zdir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		dec_path(path, sizeof(path), "%s/%s", zdir, names[i]);
		dec_path(orig, sizeof(orig), "%s/%s/orig/%.*s", corpus, set,
			 (int)(strlen(names[i]) - 4), names[i]);
		fails += check_pair(d, path, orig);
	}
	*count += n;
	dec_free_list(names, n);
	return fails;
}

int main(void)
{
	char cbuf[4096], dir[4096], path[4096], orig[4096];
	const char *corpus = dec_corpus_dir(cbuf, sizeof(cbuf));
	zs_dctx *d;
	int fails = 0, good = 0, errors = 0;
	char **names;
	int n;

	if (corpus == NULL)
		return 77;
	d = zs_dctx_new();
	if (d == NULL)
		return 1;
	fails += check_set(d, corpus, "small", &good);
	fails += check_set(d, corpus, "large", &good);

	/* Again through the generic (non-BMI2) code paths. */
	zs_dctx_free(d);
	setenv("ZS_DISABLE_BMI2", "1", 1);
	d = zs_dctx_new();
	if (d == NULL)
		return 1;
	fails += check_set(d, corpus, "small", &good);
	fails += check_set(d, corpus, "large", &good);
	unsetenv("ZS_DISABLE_BMI2");

	dec_path(dir, sizeof(dir), "%s/golden/golden-decompression", corpus);
	n = dec_list(dir, ".zst", &names);
	if (n <= 0) {
		fprintf(stderr, "FAIL %s: no frames\n", dir);
		fails++;
	}
	for (int i = 0; i < n; i++) {
		dec_path(path, sizeof(path), "%s/%s", dir, names[i]);
		dec_path(orig, sizeof(orig), "%s/%.*s.orig", dir, (int)(strlen(names[i]) - 4), names[i]);
		fails += check_pair(d, path, orig);
		good++;
	}
	if (n > 0)
		dec_free_list(names, n);

	dec_path(dir, sizeof(dir), "%s/golden/golden-decompression-errors", corpus);
	n = dec_list(dir, ".zst", &names);
	if (n <= 0) {
		fprintf(stderr, "FAIL %s: no frames\n", dir);
		fails++;
	}
	for (int i = 0; i < n; i++) {
		size_t zlen = 0;
		uint8_t *z;
		uint8_t *out = malloc(1u << 20);

		dec_path(path, sizeof(path), "%s/%s", dir, names[i]);
		z = dec_read_file(path, &zlen);
		ptrdiff_t r = z && out ? zs_decompress(d, z, zlen, out, 1u << 20, 0) : 0;

		if (z == NULL || out == NULL || r >= 0 || r == ZS_ERR_DST_TOO_SMALL) {
			fprintf(stderr, "FAIL %s: corrupt frame not rejected (%td)\n", path, r);
			fails++;
		} else {
			fprintf(stderr, "ok: %s rejected: %s\n", names[i], zs_error_string((int)r));
		}
		errors++;
		free(z);
		free(out);
	}
	if (n > 0)
		dec_free_list(names, n);
	zs_dctx_free(d);
	fprintf(stderr, "%d frames decoded and checked, %d error frames, %d failures\n", good, errors,
		fails);
	return fails ? 1 : 0;
}
