/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* help.c — the -help text: squashfs-tools' option names, grouped as it groups them, listing
 * only what this mksquashfs implements. */
#include "config.h"
#include "mksquashfs/options.h"

#include "codecs/codec.h"

static const char *const help_text[] = {
	"Filesystem build options:",
	"-comp <comp>\t\tselect <comp> compression",
	NULL, /* the compressor list goes here */
	"-b <block_size>\t\tset data block to <block_size>.  Default 128 Kbytes.",
	"\t\t\tOptionally a suffix of K or M can be given to specify",
	"\t\t\tKbytes or Mbytes respectively",
	"-mkfs-time <time>\tset filesystem creation timestamp to <time> (seconds",
	"\t\t\tsince the epoch, unsigned 32-bit)",
	"-fstime <time>\t\tsynonym for -mkfs-time",
	"-all-time <time>\tset all file timestamps to <time>",
	"-no-exports\t\tdon't make the filesystem exportable via NFS",
	"-exports\t\tmake the filesystem exportable via NFS (default)",
	"-no-sparse\t\tdon't detect sparse files",
	"-no-xattrs\t\tdon't store extended attributes",
	"-xattrs\t\t\tstore extended attributes (default)",
	"-noI\t\t\tdo not compress inode table",
	"-noId\t\t\tdo not compress the uid/gid table (implied by -noI)",
	"-noD\t\t\tdo not compress data blocks",
	"-noF\t\t\tdo not compress fragment blocks",
	"-noX\t\t\tdo not compress extended attributes",
	"-no-fragments\t\tdo not use fragments",
	"-always-use-fragments\tuse fragment blocks for files larger than block size",
	"-no-duplicates\t\tdo not perform duplicate checking",
	"-all-root\t\tmake all files owned by root",
	"-force-uid <uid>\tset all file uids to <uid> (number or user name)",
	"-force-gid <gid>\tset all file gids to <gid> (number or group name)",
	"-keep-as-directory\tif one source directory is specified, create a root",
	"\t\t\tdirectory containing that directory, rather than the",
	"\t\t\tcontents of the directory",
	"",
	"Filesystem filter options:",
	"-e <list>\t\tlist of exclude dirs/files (takes the rest of the line)",
	"-ef <exclude_file>\tlist of exclude dirs/files.  One per line",
	"-wildcards\t\tallow extended shell wildcards (globbing) to be used in",
	"\t\t\texclude dirs/files",
	"-regex\t\t\tallow POSIX regular expressions to be used in exclude",
	"\t\t\tdirs/files",
	"",
	"Filesystem append options:",
	"-noappend\t\tdo not append to existing filesystem (appending is not",
	"\t\t\tsupported: an existing image is refused without it)",
	"",
	"Mksquashfs runtime options:",
	"-version\t\tprint version",
	"-quiet\t\t\tno verbose output",
	"-info\t\t\tprint files written to filesystem",
	"-no-progress\t\tdon't display the progress bar",
	"-progress\t\tdisplay the progress bar (default, on a terminal)",
	"-processors <number>\tuse <number> processors.  By default will use number of",
	"\t\t\tprocessors available",
	"-mem <size>\t\tuse at most about <size> memory for queued blocks.",
	"\t\t\tOptionally a suffix of K, M or G can be given",
	"",
	"Expert options (these may make the filesystem unmountable):",
	"-nopad\t\t\tdo not pad filesystem to a multiple of 4K",
	"",
	"Miscellaneous options:",
	"-root-owned\t\talternative name for -all-root",
	"-noInodeCompression\talternative name for -noI",
	"-noIdTableCompression\talternative name for -noId",
	"-noDataCompression\talternative name for -noD",
	"-noFragmentCompression\talternative name for -noF",
	"-noXattrCompression\talternative name for -noX",
	"",
	"-help\t\t\toutput this options text to stdout",
	"-h\t\t\toutput this options text to stdout",
	"",
	"-Xhelp\t\t\tprint compressor options for selected compressor",
	"",
	"Environment:",
	"SOURCE_DATE_EPOCH\tif set, this is used as the filesystem creation",
	"\t\t\ttimestamp, and any file timestamps after it are",
	"\t\t\tclamped to it",
};

void options_print_help(FILE *out)
{
	const struct codec *const *all = codec_all();
	const struct codec *def = codec_default();
	fprintf(out, "SYNTAX:mksquashfs source1 source2 ...  FILESYSTEM [OPTIONS] "
		     "[-e list of exclude dirs/files]\n\n");
	for (size_t i = 0; i < sizeof(help_text) / sizeof(help_text[0]); i++) {
		if (help_text[i] != NULL) {
			fprintf(out, "%s\n", help_text[i]);
			continue;
		}
		fprintf(out, "\t\t\tCompressors available:\n");
		for (size_t k = 0; all[k] != NULL; k++)
			fprintf(out, "\t\t\t\t%s%s%s\n", all[k]->name, all[k] == def ? " (default)" : "",
				all[k]->supported ? "" : " (not built in)");
	}
	fprintf(out, "\nCompressors available and compressor specific options:\n");
	for (size_t k = 0; all[k] != NULL; k++) {
		if (!all[k]->supported)
			continue;
		fprintf(out, "\t%s%s\n", all[k]->name, all[k] == def ? " (default)" : "");
		if (all[k]->print_help != NULL)
			all[k]->print_help(out);
		else
			fprintf(out, "\t  (no options)\n");
	}
}
