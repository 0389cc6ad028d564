#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# xz_decode.sh — build the xz decoder fuzz target (ours against liblzma) with libFuzzer+ASan+UBSan
# and run it for a bounded time. Usage: xz_decode.sh [SECONDS] (or FUZZ_SECONDS; default 60).
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
seconds=${1:-${FUZZ_SECONDS:-60}}
cc=${CLANG:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "clang not installed: skipped" >&2
	exit 77
fi
if ! command -v xz >/dev/null 2>&1 || ! pkg-config --exists liblzma; then
	echo "xz or liblzma-dev not installed: skipped" >&2
	exit 77
fi

work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/xz-fuzz.XXXXXX")} || exit 1
mkdir -p "$work/corpus" "$work/artifacts" "$work/data"
printf '#define _GNU_SOURCE 1\n' > "$work/config.h"

if ! "$cc" -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$work" -I"$top_srcdir" -o "$work/xz_decode_fuzz" "$top_srcdir/tests/fuzz/xz_decode.c" \
	"$top_srcdir"/codecs/xz/*.c $(pkg-config --libs liblzma); then
	echo "FAIL: could not build the fuzz target (libfuzzer-14-dev installed?)" >&2
	exit 1
fi

# Seeds: xz's streams of text, binary and mixed data, small and squashfs-sized, at several
# presets, dictionaries and checks, and with a BCJ filter (which ours leaves to liblzma). Each is
# prefixed by the byte that picks the output room (1: 1000 bytes, 2: 128 KiB).
find /usr/include -maxdepth 1 -name '*.h' -type f | sort | head -n 300 | xargs cat 2>/dev/null |
	head -c 131072 > "$work/data/text"
head -c 131072 /bin/sh > "$work/data/binary"
{ head -c 40000 "$work/data/text"; head -c 20000 /dev/zero; head -c 30000 "$work/data/binary"; } \
	> "$work/data/mixed"
n=0
for f in text binary mixed; do
	for size in 900 20000 131072; do
		[ "$size" -le 1000 ] && room='\001' || room='\002'
		head -c "$size" "$work/data/$f" > "$work/data/in"
		# Squashfs-sized dictionaries: xz's defaults (8-64 MiB) would cost liblzma an
		# allocation that size on every run.
		for opts in "--check=crc32 --lzma2=preset=0,dict=128KiB" \
			"--check=crc32 --lzma2=preset=6,dict=128KiB" \
			"--check=crc64 --lzma2=preset=9e,dict=64KiB" \
			"--check=none --lzma2=preset=6,dict=4KiB" \
			"--check=crc32 --lzma2=preset=6,dict=128KiB,lc=0,lp=2,pb=0" \
			"--x86 --lzma2=preset=6,dict=128KiB --check=crc32"; do
			# shellcheck disable=SC2086
			{ printf "$room"; xz -c $opts < "$work/data/in"; } > "$work/corpus/seed$n" &&
				n=$((n + 1))
		done
	done
done
echo "seeded with $n xz streams" >&2

"$work/xz_decode_fuzz" -max_total_time="$seconds" -max_len=140000 -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/corpus" 2> "$work/fuzz.log"
rc=$?
tail -n 25 "$work/fuzz.log" >&2
if [ "$rc" -ne 0 ]; then
	echo "FAIL: fuzzer found a problem (exit $rc); artifacts in $work/artifacts" >&2
	exit 1
fi
[ -n "${FUZZ_WORKDIR:-}" ] || rm -rf "$work"
exit 0
