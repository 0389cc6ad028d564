#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# xz.sh — our xz decoder (codecs/xz/) against liblzma on single-block streams of a tree's data, as
# squashfs writes them (liblzma preset 6, dictionary = block, CRC32), 128 KiB and 1 MiB blocks:
# CPU-time speeds, best of RUNS alternating passes, then callgrind instruction counts and
# conditional-branch mispredictions (its simulated predictor) of one pass each.
# Usage: bench/xz.sh [TREE] [RUNS] [MiB]   (defaults: /tmp/perf-tree, 5, 16 MiB of the tree's files)
# bench/xz_bench.c is compiled here against liblzma-dev; never by the project's build.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-/tmp/perf-tree}
runs=${2:-5}
mib=${3:-16}
work=$(mktemp -d "${TMPDIR:-/tmp}/xz_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '#define _GNU_SOURCE 1\n' > "$work/config.h"
${CC:-cc} -std=c11 -O2 -I"$work" -I"$top" -o "$work/xz_bench" "$top/bench/xz_bench.c" \
	"$top"/codecs/xz/*.c $(pkg-config --libs liblzma)
find "$tree" -type f | sort | xargs cat 2>/dev/null | head -c $((mib * 1048576)) > "$work/sample"
echo "| block | streams | MB in | MB xz | ours MB/s | liblzma MB/s | speed ratio |"
echo "|---|---|---|---|---|---|---|"
for block in 131072 1048576; do
	"$work/xz_bench" -B "$block" -n "$runs" "$work/sample" |
		awk '{ printf "| %d KiB | %d | %.1f | %.1f | %s | %s | %s |\n", $1 / 1024, $2, $3 / 1e6, $4 / 1e6, $5, $6, $7 }'
done
command -v valgrind >/dev/null || exit 0
head -c 2097152 "$work/sample" > "$work/s2"
echo
echo "| 2 MiB, 128 KiB blocks | instructions | cond. branches | mispredicted |"
echo "|---|---|---|---|"
for side in ours ref; do
	valgrind --tool=callgrind --branch-sim=yes --toggle-collect=pass \
		--callgrind-out-file="$work/cg.$side" "$work/xz_bench" -n 1 -o "$side" "$work/s2" \
		2>&1 | awk -v s="$side" '/Collected/ { printf "| %s | %d | %d | %d |\n", s == "ours" ? "ours" : "liblzma", $4, $5, $6 }'
done
