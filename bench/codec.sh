#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# codec.sh — our zstd codec against libzstd in one process: size, compression and decoding speed per level, frame size and sample, as a Markdown table.
#
# usage: bench/codec.sh [--tree DIR] [--mb N] [--levels A-B] [--blocks S,S,...] [--runs N]
#                       [--min-time S] [--decode] [--raw FILE] [--workdir DIR]
#        bench/codec.sh --table RAW...   (the tables of earlier runs' raw lines, together)
#   --tree DIR    the benchmark tree of bench/mktree.sh (the "tree" sample; left out without it)
#   --mb N        MiB per sample (default 8)
#   --levels A-B  default 1-22; --blocks default 131072,1048576; --runs: best of N (default 3)
#   --min-time S  more passes until each side has spent S seconds (default 0.2): steadies the
#                 fast levels, whose passes last milliseconds
#   --decode      time both decoders on our frames instead of the compressors
#   --raw FILE    keep the harness's raw lines there
# Needs a build of ours (BUILD, default ./build: libzstdcodec.a, libsqutil.a) and libzstd-dev:
# bench/codec_bench.c is compiled here against both, never by the project's build. Samples:
#   tree  evenly spaced 1 MiB slices of the bench tree as a sorted tar stream (what mksquashfs sees)
#   text  C headers (/usr/include) then perl modules (/usr/share/perl*), in path order
#   bin   shared libraries (/usr/lib/x86_64-linux-gnu/*.so*) and executables (/usr/bin), 1 MiB slices
#   misc  python modules, locale catalogues and gcc's own binaries (/usr/lib/python3*,
#         /usr/share/locale, /usr/lib/gcc), 1 MiB slices
# A ratio is ours / libzstd's for size, libzstd's time / ours for speed (above 1: we are faster);
# times are CPU times of the one process, best of the runs, the two sides alternating.
set -eu
export LC_ALL=C
# Markdown tables from raw lines (codec_bench.c's format).
table() {
	awk '
	{ key = $2 SUBSEP $3 SUBSEP $1
	  if ($6 > 0) size[key] = $5 / $6
	  if ($8 > 0) c[key] = $7 / $8
	  if ($10 > 0) d[key] = $9 / $10
	  if (!($1 in seen_s)) { seen_s[$1] = 1; snames[++ns] = $1 }
	  if (!($2 in seen_b)) { seen_b[$2] = 1; bnames[++nb] = $2 }
	  if (!($3 in seen_l)) { seen_l[$3] = 1; lnames[++nl] = $3 }
	  if ($8 > 0) { tin[$2 SUBSEP $3] += $4; tours[$2 SUBSEP $3] += $5; tref[$2 SUBSEP $3] += $6; hasc[$2] = 1 }
	  if ($10 > 0) hasd[$2] = 1 }
	function mark(v, ok) { return sprintf("%s%s", v, ok ? "" : "*") }
	END {
	  for (b = 1; b <= nb; b++) {
	    blk = bnames[b]
	    if (hasc[blk]) {
	      printf "\n#### %d KiB frames: size and compression speed, ours / libzstd 1.5.4\n\n", blk / 1024
	      printf "| level |"; for (s = 1; s <= ns; s++) printf " %s size | %s C |", snames[s], snames[s]
	      printf " all: size |\n|---|"; for (s = 1; s <= ns; s++) printf "---|---|"; printf "---|\n"
	      for (l = 1; l <= nl; l++) {
	        lv = lnames[l]; printf "| %d |", lv
	        for (s = 1; s <= ns; s++) {
	          k = blk SUBSEP lv SUBSEP snames[s]
	          printf " %s | %s |", mark(sprintf("%.4f", size[k]), size[k] <= 1.0), mark(sprintf("%.2f", c[k]), c[k] >= 1.0)
	        }
	        printf " %.4f |\n", tours[blk SUBSEP lv] / tref[blk SUBSEP lv]
	      }
	    }
	    if (hasd[blk]) {
	      printf "\n#### %d KiB frames (ours): decoding speed, our decoder / libzstd 1.5.4\n\n", blk / 1024
	      printf "| level |"; for (s = 1; s <= ns; s++) printf " %s D |", snames[s]
	      printf "\n|---|"; for (s = 1; s <= ns; s++) printf "---|"; printf "\n"
	      for (l = 1; l <= nl; l++) {
	        lv = lnames[l]; k0 = blk SUBSEP lv SUBSEP snames[1]
	        if (!(k0 in d)) continue
	        printf "| %d |", lv
	        for (s = 1; s <= ns; s++) { k = blk SUBSEP lv SUBSEP snames[s]; printf " %s |", mark(sprintf("%.2f", d[k]), d[k] >= 1.1) }
	        printf "\n"
	      }
	    }
	  }
	}' "$@"
}

tree= mb=8 levels=1-22 blocks=131072,1048576 runs=3 min_time=0.2 decode= raw= work=
build=${BUILD:-./build}
while [ $# -gt 0 ]; do
	case $1 in
	--table) shift; table "$@"; exit 0 ;;
	--tree) tree=$2; shift 2 ;;
	--mb) mb=$2; shift 2 ;;
	--levels) levels=$2; shift 2 ;;
	--blocks) blocks=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--min-time) min_time=$2; shift 2 ;;
	--decode) decode=-d; shift ;;
	--raw) raw=$2; shift 2 ;;
	--workdir) work=$2; shift 2 ;;
	*) echo "codec.sh: unknown argument '$1' (see the header of bench/codec.sh)" >&2; exit 2 ;;
	esac
done
src=$(cd "$(dirname "$0")/.." && pwd)
for f in "$build/libzstdcodec.a" "$build/libsqutil.a"; do
	[ -r "$f" ] || { echo "codec.sh: $f: not built (make in BUILD=$build first)" >&2; exit 1; }
done
[ -r /usr/include/zstd.h ] || { echo "codec.sh: libzstd-dev is not installed (apt-get install libzstd-dev)" >&2; exit 1; }
if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/codec-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
fi
mkdir -p "$work"
${CC:-cc} -std=c11 -O2 -I"$src" -o "$work/codec_bench" "$src/bench/codec_bench.c" \
	"$build/libzstdcodec.a" "$build/libsqutil.a" -lzstd

# slices STREAM OUT: $mb evenly spaced 1 MiB slices of STREAM (all of it when it is smaller).
slices() {
	size=$(stat -c %s "$1")
	total=$((size / 1048576))
	if [ "$total" -le "$mb" ]; then
		cp "$1" "$2"
		return
	fi
	: > "$2"
	i=0
	while [ $i -lt "$mb" ]; do
		dd if="$1" bs=1048576 skip=$((i * total / mb)) count=1 status=none >> "$2"
		i=$((i + 1))
	done
}
files() { find "$@" -type f 2>/dev/null | sort; }

samples=
if [ -n "$tree" ]; then
	[ -f "$work/tree" ] || { tar -C "$tree" --sort=name -cf "$work/tree.tar" . && slices "$work/tree.tar" "$work/tree" && rm -f "$work/tree.tar"; }
	samples="$samples $work/tree"
fi
if [ ! -f "$work/text" ]; then
	{ files /usr/include -name '*.h'; files /usr/share/perl /usr/share/perl5 -name '*.pm'; } |
		xargs cat | head -c $((mb * 1048576)) > "$work/text"
fi
if [ ! -f "$work/bin" ]; then
	{ files /usr/lib/x86_64-linux-gnu -maxdepth 1 -name '*.so*' -size -20M; files /usr/bin -size -20M; } |
		xargs cat > "$work/bin.all"
	slices "$work/bin.all" "$work/bin"
	rm -f "$work/bin.all"
fi
if [ ! -f "$work/misc" ]; then
	{ files /usr/lib/python3* -name '*.py'; files /usr/share/locale -name '*.mo'; files /usr/lib/gcc -size -20M; } |
		xargs cat > "$work/misc.all"
	slices "$work/misc.all" "$work/misc"
	rm -f "$work/misc.all"
fi
samples="$samples $work/text $work/bin $work/misc"

out=${raw:-$work/raw}
# shellcheck disable=SC2086 # $samples is a list of paths without spaces
"$work/codec_bench" -L "$levels" -B "$blocks" -n "$runs" -t "$min_time" $decode $samples > "$out"

table "$out"
