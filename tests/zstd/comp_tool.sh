#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# comp_tool.sh — the `zst` tool: -c chunks round trip through -d, files as arguments, bad options and missing inputs refused with a message.
. "$top_srcdir/tests/lib/common.sh"

zst="$top_builddir/codecs/zstd/programs/zst"
[ -x "$zst" ] || die "$zst is not built"
make_scratch
i=0
while [ $i -lt 2000 ]; do
	echo "chunked input line $i $((i * 31 % 97))"
	i=$((i + 1))
done > "$SCRATCH/in"
head -c 10000 /dev/urandom >> "$SCRATCH/in"

for level in 1 9 19; do
	for block in 4096 131072; do
		if ! "$zst" -c -L "$level" -B "$block" < "$SCRATCH/in" > "$SCRATCH/out.zst"; then
			fail "zst -c -L $level -B $block failed"
			continue
		fi
		"$zst" -d "$SCRATCH/out.zst" | cmp -s - "$SCRATCH/in" ||
			fail "zst -c -L $level -B $block: zst -d disagrees"
	done
done
"$zst" -c -L 3 -C "$SCRATCH/in" "$SCRATCH/out2.zst" && "$zst" -d "$SCRATCH/out2.zst" "$SCRATCH/back" &&
	cmp -s "$SCRATCH/back" "$SCRATCH/in" || fail "zst -c -C IN OUT, zst -d IN OUT"
: > "$SCRATCH/empty"
"$zst" -c "$SCRATCH/empty" "$SCRATCH/empty.zst" && "$zst" -d "$SCRATCH/empty.zst" "$SCRATCH/back" &&
	[ ! -s "$SCRATCH/back" ] && [ -s "$SCRATCH/empty.zst" ] || fail "empty input: one empty frame"
for bad in "-L 0" "-L 23" "-B 0" "-Q"; do
	# shellcheck disable=SC2086 # $bad is an option and its value
	if "$zst" -c $bad < "$SCRATCH/in" > /dev/null 2> "$SCRATCH/err" || [ ! -s "$SCRATCH/err" ]; then
		fail "zst -c $bad was accepted silently"
	fi
done
"$zst" -c "$SCRATCH/missing" "$SCRATCH/x" 2> "$SCRATCH/err" && fail "missing input accepted"
grep -q missing "$SCRATCH/err" || fail "missing input not named in the error"
head -c 100 "$SCRATCH/out.zst" > "$SCRATCH/trunc.zst"
"$zst" -d "$SCRATCH/trunc.zst" "$SCRATCH/x" 2> "$SCRATCH/err" && fail "truncated frame accepted"
[ "$(wc -l < "$SCRATCH/err")" -eq 1 ] || fail "truncated frame: not a one-line message"
finish
