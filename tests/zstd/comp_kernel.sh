#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# comp_kernel.sh — images written with our zstd encoder at several levels and block sizes, mounted by the kernel and compared.
set -u
top_builddir=${top_builddir:-.}
mksq="$top_builddir/mksquashfs/mksquashfs"

skip() { echo "SKIP: $*" >&2; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root for loop mounts"
[ -x "$mksq" ] || skip "$mksq not built"
grep -qw squashfs /proc/filesystems || modprobe squashfs 2>/dev/null || true
grep -qw squashfs /proc/filesystems || skip "the kernel has no squashfs"

work=$(mktemp -d "${TMPDIR:-/tmp}/comp_kernel.XXXXXX") || exit 1
mnt="$work/mnt"
mounted=0
cleanup() {
	[ "$mounted" = 1 ] && umount "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

# A tree with text, binaries, runs, noise, and sizes around the block boundaries.
tree="$work/tree"
mkdir -p "$tree/text" "$tree/bin" "$mnt"
i=0
while [ $i -lt 300 ]; do
	echo "line $i of a squashfs zstd kernel test: the quick brown fox $((i * 7919 % 1000))"
	i=$((i + 1))
done > "$tree/text/lines"
cat "$tree/text/lines" "$tree/text/lines" "$tree/text/lines" > "$tree/text/lines3"
for f in /bin/sh /bin/ls /usr/bin/env; do
	[ -r "$f" ] && cp "$f" "$tree/bin/$(basename "$f")"
done
head -c 131072 /dev/zero > "$tree/zeros-128k"
head -c 131073 /dev/zero > "$tree/zeros-128k+1"
head -c 200000 /dev/urandom > "$tree/random"
(cat "$tree/text/lines3"; head -c 50000 /dev/urandom; cat "$tree/text/lines") > "$tree/mixed"
: > "$tree/empty"

fails=0
for spec in "1 131072" "3 131072" "15 131072" "19 131072" "22 131072" "15 4096" "19 1048576"; do
	set -- $spec
	level=$1
	block=$2
	img="$work/img-$level-$block.sq"
	if ! "$mksq" "$tree" "$img" -comp zstd -Xcompression-level "$level" -b "$block" \
		-noappend -quiet >"$work/log" 2>&1; then
		echo "FAIL: mksquashfs level $level block $block: $(tail -n 1 "$work/log")" >&2
		fails=$((fails + 1))
		continue
	fi
	if ! mount -o loop,ro -t squashfs "$img" "$mnt" 2>"$work/log"; then
		echo "FAIL: kernel refused the level $level block $block image: $(cat "$work/log")" >&2
		fails=$((fails + 1))
		continue
	fi
	mounted=1
	if ! diff -r "$tree" "$mnt" >"$work/log" 2>&1; then
		echo "FAIL: level $level block $block: contents differ: $(head -n 3 "$work/log")" >&2
		fails=$((fails + 1))
	else
		echo "ok: level $level block $block ($(wc -c < "$img") bytes)"
	fi
	umount "$mnt"
	mounted=0
done
[ "$fails" = 0 ]
