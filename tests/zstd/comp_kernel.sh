#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# comp_kernel.sh — images written with our zstd encoder at every level and block size (4K, 128K, 256K, 1M), mounted by the kernel and compared with their source.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$TREECMP"
grep -qw squashfs /proc/filesystems || modprobe squashfs 2>/dev/null || true
grep -qw squashfs /proc/filesystems || skip "the kernel has no squashfs"
make_scratch

# Text, binaries, runs, noise, and sizes around the block boundaries: each block size sees
# full blocks, fragments, RLE and raw blocks.
tree="$SCRATCH/tree"
mkdir -p "$tree/text" "$tree/bin"
i=0
while [ $i -lt 300 ]; do
	echo "line $i of a squashfs zstd kernel test: the quick brown fox $((i * 7919 % 1000))"
	i=$((i + 1))
done > "$tree/text/lines"
cat "$tree/text/lines" "$tree/text/lines" "$tree/text/lines" > "$tree/text/lines3"
for f in /bin/sh /bin/ls /usr/bin/env; do
	cp "$f" "$tree/bin/$(basename "$f")" || die "cannot copy $f"
done
find /usr/include -maxdepth 1 -name '*.h' -type f | sort | head -n 200 | xargs cat > "$tree/text/headers"
head -c 131072 /dev/zero > "$tree/zeros-128k"
head -c 131073 /dev/zero > "$tree/zeros-128k+1"
head -c 200000 /dev/urandom > "$tree/random"
(cat "$tree/text/lines3"; head -c 50000 /dev/urandom; cat "$tree/text/lines") > "$tree/mixed"
: > "$tree/empty"

level=1
while [ $level -le 22 ]; do
	for block in 4096 131072 262144 1048576; do
		img="$SCRATCH/img-$level-$block.sq"
		if ! "$MKSQUASHFS" "$tree" "$img" -comp zstd -Xcompression-level "$level" -b "$block" \
			-noappend -quiet -no-progress >"$SCRATCH/log" 2>&1; then
			fail "mksquashfs level $level block $block: $(tail -n 1 "$SCRATCH/log")"
			continue
		fi
		if mount_ro "$img" "$SCRATCH/mnt"; then
			compare "level $level block $block mounted by the kernel" "$tree" "$SCRATCH/mnt"
			umount_dir "$SCRATCH/mnt"
		fi
		rm -f "$img"
	done
	level=$((level + 1))
done
finish
