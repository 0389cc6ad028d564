# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_mount_lzo.sh — lzo images of gentree trees and of real text and binaries (our LZO1X encoder): loop mount and reference extraction match the source.
COMP=lzo SEED=3
TREE_OPTS=--no-huge
# Our encoder writes lzo1x_999's blocks (levels 8 and 9): system headers and programs give it
# matches of every kind and distance, and long runs; -Xliblzo2 is liblzo2's encoder again, and
# lzo1x_1 never was ours.
comp_cases() {
	mkdir -p "$SCRATCH/real/bin" "$SCRATCH/real/runs"
	for d in /usr/include/linux /usr/include/x86_64-linux-gnu /usr/share/perl5; do
		[ -d "$d" ] && cp -a "$d" "$SCRATCH/real/" 2>/dev/null
	done
	for f in /usr/bin/bash /usr/bin/tar /usr/bin/gdb /usr/bin/perl; do
		[ -f "$f" ] && cp "$f" "$SCRATCH/real/bin/" 2>/dev/null
	done
	head -c 3000000 /dev/zero >"$SCRATCH/real/runs/zeros"
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%d %s\n", i % 97, (i % 5 ? "ab" : "abcdefgh") }' \
		>"$SCRATCH/real/runs/periodic"
	run_case real "" ""
	run_case real "-Xcompression-level 9 -b 1M" ""
	run_case real "-Xliblzo2 -b 64K" ""
	run_case real "-Xalgorithm lzo1x_1" ""
	rm -rf "$SCRATCH/real"
}
. "$top_srcdir/tests/integration/mount-case.sh"
