#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# zstd_roundtrip.sh — build the zstd encoder round-trip fuzz target (libFuzzer+ASan+UBSan) and run it for a bounded time.
# Usage: zstd_roundtrip.sh [SECONDS]  (or FUZZ_SECONDS; default 60). Exit non-zero when a frame
# does not decode to its input, or on a crash.
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
seconds=${1:-${FUZZ_SECONDS:-60}}
cc=${CLANG:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "clang not installed: skipped" >&2
	exit 77
fi

work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/zstd-rt-fuzz.XXXXXX")} || exit 1
mkdir -p "$work/corpus" "$work/artifacts"
printf '#define _GNU_SOURCE 1\n' > "$work/config.h"

z="$top_srcdir/codecs/zstd"
if ! "$cc" -std=c11 -g -O2 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$work" -I"$top_srcdir" -o "$work/zstd_roundtrip_fuzz" \
	"$top_srcdir/tests/fuzz/zstd_roundtrip.c" "$z"/common/*.c "$z"/decompress/*.c \
	"$z"/compress/*.c "$top_srcdir"/common/util/xxhash64.c; then
	echo "FAIL: could not build the fuzz target (libfuzzer-14-dev installed?)" >&2
	exit 1
fi

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
"$work/zstd_roundtrip_fuzz" -max_total_time="$seconds" -max_len=4096 -timeout=300 \
	-rss_limit_mb=3072 -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/corpus" \
	2> "$work/fuzz.log"
rc=$?
tail -n 25 "$work/fuzz.log" >&2
if [ "$rc" -ne 0 ]; then
	echo "FAIL: fuzzer found a problem (exit $rc); artifacts in $work/artifacts" >&2
	exit 1
fi
[ -n "${FUZZ_WORKDIR:-}" ] || rm -rf "$work"
exit 0
