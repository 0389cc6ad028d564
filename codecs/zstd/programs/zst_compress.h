/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* zst_compress.h — the encoder's commands of the `zst` tool: -c (compress) and -b (benchmark). */
#ifndef SQ_ZSTD_PROGRAMS_ZST_COMPRESS_H
#define SQ_ZSTD_PROGRAMS_ZST_COMPRESS_H

/* argv[0] is the mode word ("-c" or "-b"); returns the process exit status. */
int zst_compress_main(int argc, char **argv);
int zst_bench_main(int argc, char **argv);

/* Monotonic time in seconds, for the benchmarks. */
double zst_now(void);

#endif
