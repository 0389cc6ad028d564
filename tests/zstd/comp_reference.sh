#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# comp_reference.sh — our frames of every level decoded by the reference zstd CLI with the window limited to the input, also `zst -c` 4 KiB chunks.
. "$top_srcdir/tests/lib/common.sh"

command -v zstd >/dev/null 2>&1 || skip "the reference zstd CLI is not installed"
zst="$top_builddir/codecs/zstd/programs/zst"
need_tools "$top_builddir/tests/zstd/comp_roundtrip" "$zst"

# Every level on the generated inputs, through the reference decoder.
"$top_builddir/tests/zstd/comp_roundtrip" --reference || fail "comp_roundtrip --reference"

make_scratch
# Headers, a binary and noise: text, structured and incompressible blocks.
find /usr/include -maxdepth 1 -name '*.h' -type f | sort | head -n 100 | xargs cat | head -c 60000 \
	> "$SCRATCH/in"
head -c 40000 /bin/sh >> "$SCRATCH/in"
head -c 10000 /dev/urandom >> "$SCRATCH/in"

# Independent 4 KiB frames: each must decode alone within a 4 KiB window.
for level in 1 9 15 19 22; do
	if ! "$zst" -c -L "$level" -B 4096 < "$SCRATCH/in" > "$SCRATCH/out.zst"; then
		fail "zst -c -L $level -B 4096 failed"
		continue
	fi
	zstd -q -d --memory=4KB -c "$SCRATCH/out.zst" | cmp -s - "$SCRATCH/in" ||
		fail "zst -c -L $level -B 4096: reference zstd -d --memory=4KB disagrees"
done
# One frame of the whole input as a file argument.
"$zst" -c -L 3 -B 1M "$SCRATCH/in" "$SCRATCH/out2.zst" &&
	zstd -q -d --memory=1MB -c "$SCRATCH/out2.zst" | cmp -s - "$SCRATCH/in" ||
	fail "zst -c -B 1M IN OUT: reference zstd -d disagrees"
finish
