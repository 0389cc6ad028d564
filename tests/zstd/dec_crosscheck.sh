#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# dec_crosscheck.sh — frames made by the reference zstd CLI (many data kinds, levels, flags) decode exactly with `zst -d`.
set -u

zst="${top_builddir:-.}/codecs/zstd/programs/zst"
if ! command -v zstd >/dev/null 2>&1; then
	echo "reference zstd CLI not installed: skipped" >&2
	exit 77
fi
if [ ! -x "$zst" ]; then
	echo "FAIL: $zst not built" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/zst-xcheck.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || exit 1

# Data of many kinds, generated here: text, binaries, zeros, random, a mix, tiny inputs.
find /usr/include -type f -name '*.h' 2>/dev/null | sort | head -400 | xargs cat 2>/dev/null | head -c 300000 > text
for f in /usr/bin/bash /usr/bin/ls /usr/bin/tar /usr/bin/find; do
	[ -f "$f" ] && head -c 100000 "$f"
done > binary
head -c 200000 /dev/zero > zeros
head -c 150000 /dev/urandom > random
{ head -c 40000 text; head -c 30000 random; head -c 50000 zeros; head -c 60000 binary; head -c 20000 text; } > mixed
printf '' > tiny0
printf 'a' > tiny1
printf 'abcabcabcabcabcabcabc' > tiny21
head -c 1000 text > tiny1000
for f in text binary zeros random mixed tiny0 tiny1 tiny21 tiny1000; do
	[ "$f" = tiny0 ] || [ -s "$f" ] || { echo "FAIL: could not generate $f" >&2; exit 1; }
done

pass=0
fail=0
check() { # name of original, compressed file, description
	if "$zst" -d "$2" out 2>err && cmp -s "$1" out; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $3: $(cat err)" >&2
	fi
}

for f in text binary zeros random mixed tiny0 tiny1 tiny21 tiny1000; do
	for lvl in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
		zstd -q -f -"$lvl" --no-check "$f" -o c.zst && check "$f" c.zst "$f level $lvl"
	done
	for lvl in 3 19; do
		zstd -q -f -"$lvl" --check "$f" -o c.zst && check "$f" c.zst "$f level $lvl --check"
	done
	zstd -q -f --ultra -22 --check "$f" -o c.zst && check "$f" c.zst "$f --ultra -22"
	# From a pipe the CLI writes no content size.
	zstd -q -c -5 < "$f" > c.zst && check "$f" c.zst "$f via stdin (no content size)"
	"$zst" -d < c.zst > out2 2>err && cmp -s "$f" out2 && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: $f: zst -d stdin to stdout: $(cat err)" >&2; }
	# Small windows make the offset/window checks bite on valid data.
	zstd -q -f -9 --zstd=wlog=10 "$f" -o c.zst && check "$f" c.zst "$f wlog=10"
	zstd -q -f -19 --zstd=wlog=17,clog=17 --no-content-size "$f" -o c.zst &&
		check "$f" c.zst "$f wlog=17 no content size"
done

# Larger input: long-distance matching, multithreaded jobs with -B, concatenated frames.
{ cat text binary mixed text binary; } > big
cat big big big > big3
zstd -q -f --long=24 -3 big3 -o c.zst && check big3 c.zst "big3 --long=24"
zstd -q -f --long -19 big3 -o c.zst && check big3 c.zst "big3 --long -19"
for b in 512K 1M; do
	zstd -q -f -T2 -B"$b" -6 big3 -o c.zst && check big3 c.zst "big3 -T2 -B$b"
done
zstd -q -f -3 text -o a.zst && zstd -q -f -19 --check binary -o b.zst &&
	cat a.zst b.zst a.zst > cat.zst && cat text binary text > cat.orig && check cat.orig cat.zst "concatenated frames"

# A corrupt frame: one-line error, exit status 1.
zstd -q -f -3 --check text -o c.zst
size=$(wc -c < c.zst)
head -c $((size / 2)) c.zst > trunc.zst
"$zst" -d trunc.zst out 2>err
rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l < err)" -eq 1 ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: truncated frame gave exit $rc and: $(cat err)" >&2
fi

echo "$pass cross-checks passed, $fail failed" >&2
[ "$fail" -eq 0 ]
