/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* registry.c — unit test of the codec registry: ids, names, stubs of built-out codecs,
 * option routing, and -help text against the reference mksquashfs. */
#include "config.h"
#include "codecs/codec.h"
#include "tests/codecs/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expected {
	int id;
	const char *name;
	int supported;
	const char *why; /* substring of unsupported_why */
};

/* 1 when configure defined HAVE_X (to 1), 0 when it left it undefined: the stringised
 * expansion is "1" or the macro's own name. */
#define BUILT(have) BUILT_(have)
#define BUILT_(value) (sizeof(#value) == 2)

static const struct expected table[] = {
	{ 1, "gzip", BUILT(HAVE_ZLIB), "built without zlib" },
	{ 2, "lzma", BUILT(HAVE_LZMA), "built without liblzma" },
	{ 3, "lzo", BUILT(HAVE_LZO), "built without lzo2" },
	{ 4, "xz", BUILT(HAVE_LZMA), "built without liblzma" },
	{ 5, "lz4", BUILT(HAVE_LZ4), "built without liblz4" },
	{ 6, "zstd", 1, NULL },
};

/* The reference -help section of one compressor: the lines after "\tNAME" or "\tNAME (default)"
 * up to the next compressor's line. */
static int reference_help(const char *name, char *out, size_t cap)
{
	FILE *p = popen("mksquashfs -help 2>&1", "r");
	if (p == NULL)
		return -1;
	char line[512];
	int in_section = 0, inside = 0;
	size_t used = 0;
	out[0] = '\0';
	while (fgets(line, sizeof line, p) != NULL) {
		static const char heading[] = "Compressors available and compressor specific options:";
		if (strncmp(line, heading, sizeof heading - 1) == 0) {
			in_section = 1;
			continue;
		}
		if (!in_section)
			continue;
		if (line[0] != '\t') {
			inside = 0;
			if (line[0] != '\n')
				in_section = 0;
			continue;
		}
		if (line[1] != ' ' && line[1] != '\t') {
			size_t n = strlen(name);
			inside = strncmp(line + 1, name, n) == 0 &&
				 (line[1 + n] == '\n' || line[1 + n] == ' ');
			continue;
		}
		if (inside && used + strlen(line) < cap) {
			strcpy(out + used, line);
			used += strlen(line);
		}
	}
	pclose(p);
	return 0;
}

int main(int argc, char **argv)
{
	harness_init(argc, argv);
	const struct codec *const *all = codec_all();
	size_t count = 0;
	while (all[count] != NULL)
		count++;
	CHECK(count == sizeof table / sizeof table[0], "codec_all lists %zu codecs", count);

	for (size_t i = 0; i < sizeof table / sizeof table[0] && i < count; i++) {
		const struct expected *e = &table[i];
		const struct codec *c = all[i];
		CHECK(c->id == e->id && strcmp(c->name, e->name) == 0, "entry %zu is %d %s", i,
		      c->id, c->name);
		CHECK(codec_by_name(e->name) == c, "codec_by_name(%s)", e->name);
		CHECK(codec_by_id(e->id) == c, "codec_by_id(%d)", e->id);
		CHECK(c->supported == e->supported, "%s supported = %d", e->name, c->supported);
		if (!e->supported) {
			CHECK(c->unsupported_why != NULL && strstr(c->unsupported_why, e->why),
			      "%s: why unsupported: %s", e->name,
			      c->unsupported_why ? c->unsupported_why : "(null)");
			/* xz alone is still read without liblzma (our decoder): it writes nothing. */
			int reads = e->id == 4;
			CHECK(c->compress == NULL && c->parse_option == NULL &&
			      c->finish_options == NULL && c->print_help == NULL,
			      "%s: a codec built out writes", e->name);
			CHECK(reads ? c->init_options && c->read_options && c->print_options &&
					      c->state_new && c->state_free && c->decompress
				    : c->init_options == NULL && c->decompress == NULL,
			      "%s: %s", e->name, reads ? "cannot read images" : "a stub has functions");
			continue;
		}
		CHECK(c->init_options && c->parse_option && c->write_options && c->read_options &&
			      c->print_options && c->print_help && c->state_new && c->state_free &&
			      c->compress && c->decompress,
		      "%s: missing functions", e->name);

		/* Options of other codecs are not this one's: parse_option says 0, no error. */
		struct codec_opts opts;
		char err[256] = "";
		c->init_options(&opts, 131072);
		char *foreign[] = { "-Xfoo", "7" };
		CHECK(c->parse_option(&opts, 2, foreign, err, sizeof err) == 0 && err[0] == '\0',
		      "%s claims -Xfoo", e->name);
		char *hc[] = { "-Xhc" };
		if (strcmp(e->name, "lz4") != 0)
			CHECK(c->parse_option(&opts, 1, hc, err, sizeof err) == 0, "%s claims -Xhc",
			      e->name);

		char ours[2048] = "", ref[2048];
		FILE *m = fmemopen(ours, sizeof ours, "w");
		if (m) {
			c->print_help(m);
			fclose(m);
		}
		/* lzma has no options: its line says so, as the reference's does. */
		CHECK(strncmp(ours, "\t  -X", 5) == 0 ||
			      (e->id == 2 && strncmp(ours, "\t  (no options)", 15) == 0),
		      "%s: help text starts '%.10s'", e->name, ours);
		/* Options newer than the reference (lz4's 4.7.6 ones) follow the reference's text. */
		if (harness_have_reference() && reference_help(e->name, ref, sizeof ref) == 0)
			CHECK(strncmp(ours, ref, strlen(ref)) == 0,
			      "%s: help differs\n--- ours:\n%s--- reference:\n%s", e->name, ours, ref);
	}
	CHECK(codec_by_name("foo") == NULL && codec_by_name("") == NULL && codec_by_name(NULL) == NULL,
	      "unknown names");
	CHECK(codec_by_id(0) == NULL && codec_by_id(7) == NULL && codec_by_id(-1) == NULL,
	      "unknown ids");
	const struct codec *def = codec_default();
#ifdef HAVE_ZLIB
	CHECK(def != NULL && strcmp(def->name, "gzip") == 0, "default is gzip");
#else
	CHECK(def != NULL && strcmp(def->name, "zstd") == 0, "default without zlib is zstd");
#endif
	return harness_exit_code("codecs_registry");
}
