#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# zstd_roundtrip.sh — build the zstd encoder round-trip fuzz target (libFuzzer+ASan+UBSan) and run it for a bounded time.
# Usage: zstd_roundtrip.sh [SECONDS]  (or FUZZ_SECONDS; default 60). Exit non-zero when a frame
# does not decode to its input, or on a crash.
set -u
FUZZ_SECONDS_ARG=${1:-}
. "$(dirname "$0")/zstd_fuzz_lib.sh"
zf_setup zstd-rt-fuzz
zf_build zstd_roundtrip_fuzz -O2 "$top_srcdir/tests/fuzz/zstd_roundtrip.c" "$z"/decompress/*.c \
	"$z"/compress/*.c

# Seeds: every level over each size class, with programs cut from C headers (text bytes read
# mostly as copies of earlier output) and from a binary (mostly literal runs).
text=$(find /usr/include -maxdepth 1 -name '*.h' -type f | sort | head -n 1)
n=0
for level in $(seq 0 21); do
	for class in 1 $((4 + level % 4)); do
		for src in "$text" /bin/sh; do
			[ -f "$src" ] || continue
			{ printf "\\$(printf '%03o' "$level")\\$(printf '%03o' "$class")"
			  head -c $((512 + 97 * level)) "$src"; } > "$work/corpus/seed$n"
			n=$((n + 1))
		done
	done
done
# Seeds: near-duplicate programs (a line of numbers, then slices of the output so far with two
# bytes changed) at the slow levels and the largest input. The level-20 one at 1 MiB fails on
# the encoder before the fix of 9b68519 (match_bt.h): this target finds that bug.
for level in 14 18 19 21; do
	for class in 5 7; do
		{ printf "\\$(printf '%03o' "$level")\\$(printf '%03o' "$class")\\070"
		  printf '%s\n' 104729 1299709 15485863 179424673 2038074743 22801763489 | head -c 64
		  for k in 1 2 3 4 5 6 7 8; do
			printf "\\201\\200\\000\\$(printf '%03o' $((k * 13)))\\100\\220"
		  done
		} > "$work/corpus/seed$n"
		n=$((n + 1))
	done
done
echo "seeded with $n programs" >&2

# A level-22 megabyte takes seconds under ASan and minutes on a crowded machine: the timeout
# is for hangs.
zf_run zstd_roundtrip_fuzz -max_len=4096 -timeout=300 -rss_limit_mb=3072
