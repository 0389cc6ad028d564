#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# zstd_decode.sh — decode speed of our zstd decoder vs the reference on 128 KiB level-15 frames of real data.
# Usage: bench/zstd_decode.sh [BUILDDIR] [MEGABYTES]  (BUILDDIR holds codecs/zstd/programs/zst; default 32 MB of data)
set -u

build=${1:-${top_builddir:-.}}
mb=${2:-32}
zst="$build/codecs/zstd/programs/zst"
command -v zstd >/dev/null 2>&1 || { echo "reference zstd CLI not installed" >&2; exit 1; }
[ -x "$zst" ] || { echo "$zst not built" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/zst-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# Real data as squashfs sees it: shared libraries and headers, cut into 128 KiB blocks.
{
	find /usr/lib/x86_64-linux-gnu -maxdepth 1 -name '*.so*' -type f 2>/dev/null | sort | xargs cat 2>/dev/null
	find /usr/include -type f 2>/dev/null | sort | xargs cat 2>/dev/null
} | head -c $((mb * 1024 * 1024)) > "$work/data"
mkdir "$work/blocks"
split -b 131072 -a 5 "$work/data" "$work/blocks/b."
# One independent frame per block, as mksquashfs -comp zstd writes (level 15, no checksum).
find "$work/blocks" -name 'b.*' | xargs -n 64 -P 2 zstd -q -15 --no-check -f
set -- "$work"/blocks/*.zst
echo "$# frames of 128 KiB, level 15, from $(wc -c < "$work/data") bytes" >&2

ours=$("$zst" -D "$@" | sed -n 's/.*decode \([0-9.]*\) MB\/s.*/\1/p')
# The reference's in-memory benchmark on the same data, same block size and level.
ref=$(zstd -b15 -B131072 -i3 "$work/data" 2>&1 | tr '\r' '\n' | grep -o '[0-9.]* MB/s' | tail -n 1 |
	sed 's/ MB\/s//')
[ -n "$ours" ] && [ -n "$ref" ] || { echo "could not measure (ours='$ours' ref='$ref')" >&2; exit 1; }
echo "decode MB/s: ours $ours, reference $ref, ratio $(echo "$ours $ref" | awk '{printf "%.2f", $1 / $2}')"
