#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# codec.sh — our zstd encoder against the reference on independent 128 KiB chunks: ratio and speed per level.
#
# usage: bench/codec.sh FILE [FIRST [LAST]]   (levels 1..22 by default)
# ZST names our codec tool (default: $top_builddir/codecs/zstd/programs/zst, else ./codecs/zstd/programs/zst).
# Single-threaded on both sides; the machine may be shared, so compare the ratios of a run.
set -u
file=${1:?usage: bench/codec.sh FILE [FIRST [LAST]]}
first=${2:-1}
last=${3:-22}
zst=${ZST:-${top_builddir:-.}/codecs/zstd/programs/zst}
chunk=131072

[ -r "$file" ] || { echo "codec.sh: $file: cannot read" >&2; exit 1; }
[ -x "$zst" ] || { echo "codec.sh: $zst: not built (make codecs/zstd/programs/zst, or set ZST)" >&2; exit 1; }
command -v zstd >/dev/null 2>&1 || { echo "codec.sh: the reference zstd CLI is not installed" >&2; exit 1; }

# One field of our line: " N#name :  IN ->  OUT (xR), C MB/s, D MB/s"
ours() { "$zst" -b -L "$1" -B "$chunk" "$file"; }
# The reference prints progress with carriage returns; its last "MB/s," line is the result.
theirs() { zstd -b"$1" -B"$chunk" -T1 "$file" 2>&1 | tr '\r' '\n' | grep -a 'MB/s,' | tail -n 1; }

printf '%5s %10s %10s %8s | %8s %8s %7s | %8s %8s\n' level ours ref size% 'ourC' 'refC' 'speed' 'ourD' 'refD'
level=$first
while [ "$level" -le "$last" ]; do
	o=$(ours "$level") || { echo "codec.sh: level $level: our benchmark failed" >&2; exit 1; }
	t=$(theirs "$level")
	# Fields after "->": size, (xratio), C, MB/s, D, MB/s
	o_size=$(echo "$o" | sed 's/.*-> *\([0-9]*\).*/\1/')
	t_size=$(echo "$t" | sed 's/.*-> *\([0-9]*\).*/\1/')
	o_c=$(echo "$o" | sed 's/.*), *\([0-9.]*\) MB\/s,.*/\1/')
	t_c=$(echo "$t" | sed 's/.*), *\([0-9.]*\) MB\/s,.*/\1/')
	o_d=$(echo "$o" | sed 's/.*MB\/s, *\([0-9.]*\) MB\/s.*/\1/')
	t_d=$(echo "$t" | sed 's/.*MB\/s, *\([0-9.]*\) MB\/s.*/\1/')
	awk -v l="$level" -v os="$o_size" -v ts="$t_size" -v oc="$o_c" -v tc="$t_c" -v od="$o_d" -v td="$t_d" \
	    'BEGIN { printf "%5d %10d %10d %7.2f%% | %8.2f %8.2f %6.2fx | %8.1f %8.1f\n", l, os, ts,
		     (ts > 0 ? 100 * os / ts : 0), oc, tc, (tc > 0 ? oc / tc : 0), od, td }'
	level=$((level + 1))
done
