#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# lzo.sh — our LZO1X encoder against liblzo2's lzo1x_999 in one process: size and CPU time per sample, 128 KiB blocks.
#
# usage: bench/lzo.sh [--runs N] [--level L] [--block SIZE] FILE...
#   Each FILE is a sample (e.g. 16 MiB of the bench tree as a tar stream); prints one line per
#   sample: size ratio ours / liblzo2 (blocks stored raw count their own size), speed ratio
#   (liblzo2's CPU time / ours: above 1 we are faster), both MB/s, and the blocks where ours is
#   larger. --level: lzo1x_999's level on both sides (ours: 8 and below, or 9; default 8).
#   bench/lzo_bench.c is compiled here against liblzo2-dev and our sources.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=3 level=8 block=131072
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--level) level=$2; shift 2 ;;
	--block) block=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || { echo "usage: bench/lzo.sh [--runs N] [--level L] [--block SIZE] FILE..." >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/lzo_bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
printf '#define HAVE_LZO 1\n' > "$work/config.h"
cc -O2 -std=c11 -I "$work" -I "$top" -o "$work/lzo_bench" "$top/bench/lzo_bench.c" \
	"$top/codecs/lzo/lzo1x_enc.c" "$top/codecs/lzo/match_tree.c" -llzo2
echo "| sample | size ours / liblzo2 | speed ours / liblzo2 | ours MB/s | liblzo2 MB/s | blocks larger |"
echo "|---|---|---|---|---|---|"
nice -n 10 "$work/lzo_bench" -n "$runs" -L "$level" -B "$block" "$@" |
	awk '{ printf "| %s | %.4f | %.2f | %s | %s | %s of %d |\n", $1, $4 / $5, $6 / $7, $6, $7, $8, ($3 + $2 - 1) / $2 }'
