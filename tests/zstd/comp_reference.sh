#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# comp_reference.sh — every level's frames decoded by the reference zstd CLI (window limited to the input), and `zst -c` chunking.
set -u
top_builddir=${top_builddir:-.}
"$top_builddir/tests/zstd/comp_roundtrip" --reference
rc=$?
[ $rc = 0 ] || exit $rc

zst="$top_builddir/codecs/zstd/zst"
if [ ! -x "$zst" ]; then
	echo "note: $zst not built: zst -c checks skipped" >&2
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/comp_reference.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
fails=0
i=0
while [ $i -lt 2000 ]; do
	echo "chunked input line $i $((i * 31 % 97))"
	i=$((i + 1))
done > "$work/in"
head -c 10000 /dev/urandom >> "$work/in"

# Independent 4 KiB frames: each must decode alone within a 4 KiB window.
for level in 1 9 19; do
	if ! "$zst" -c -L "$level" -B 4096 < "$work/in" > "$work/out.zst"; then
		echo "FAIL: zst -c -L $level -B 4096 failed" >&2
		fails=$((fails + 1))
		continue
	fi
	if ! zstd -q -d --memory=4KB -c "$work/out.zst" | cmp -s - "$work/in"; then
		echo "FAIL: zst -c -L $level -B 4096: reference zstd -d disagrees" >&2
		fails=$((fails + 1))
	fi
	if ! "$zst" -d "$work/out.zst" | cmp -s - "$work/in"; then
		echo "FAIL: zst -c -L $level -B 4096: zst -d disagrees" >&2
		fails=$((fails + 1))
	fi
done
# Files as arguments, and bad options refused with a message and a non-zero status.
"$zst" -c -L 3 "$work/in" "$work/out2.zst" && zstd -q -d -c "$work/out2.zst" | cmp -s - "$work/in" ||
	{ echo "FAIL: zst -c IN OUT" >&2; fails=$((fails + 1)); }
for bad in "-L 0" "-L 23" "-B 0" "-Q"; do
	if "$zst" -c $bad < "$work/in" > /dev/null 2> "$work/err" || [ ! -s "$work/err" ]; then
		echo "FAIL: zst -c $bad was accepted silently" >&2
		fails=$((fails + 1))
	fi
done
"$zst" -c "$work/missing" "$work/x" 2> "$work/err" && { echo "FAIL: missing input accepted" >&2; fails=$((fails + 1)); }
grep -q missing "$work/err" || { echo "FAIL: missing input not named in the error" >&2; fails=$((fails + 1)); }
[ $fails = 0 ]
