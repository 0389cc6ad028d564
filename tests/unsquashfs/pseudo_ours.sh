#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# pseudo_ours.sh — the full 4.6 pseudo round trip, xattrs included, through our own mksquashfs:
# `unsquashfs -pf - a.img | mksquashfs - b.img -pf -` mounts as the same tree for every
# compressor. Skips while our mksquashfs cannot read pseudo files.
. "$top_srcdir/tests/lib/common.sh"
need_root
need_tools "$REF_MKSQUASHFS" "$MKSQUASHFS" "$UNSQUASHFS" "$GENTREE" "$TREECMP"
"$MKSQUASHFS" -help 2>&1 | grep -q -- '-pf' || skip "our mksquashfs has no -pf yet"
make_scratch
make_tree src --small --seed 12
find "$SCRATCH/src" -name '*
*' -exec rm -rf {} + 2>/dev/null
for comp in gzip xz lzo lz4 zstd; do
	have_comp "$comp" || { log "$comp not built: left out"; continue; }
	img=$SCRATCH/$comp.sqfs
	"$REF_MKSQUASHFS" "$SCRATCH/src" "$img" -noappend -quiet -no-progress -comp "$comp" >/dev/null 2>&1 ||
		{ fail "$comp: the reference mksquashfs failed"; continue; }
	"$UNSQUASHFS" -pf - "$img" | "$MKSQUASHFS" - "$SCRATCH/back.sqfs" -pf - -noappend -quiet -no-progress \
		-comp "$comp" >/dev/null 2>"$SCRATCH/err.txt" ||
		{ fail "$comp: our mksquashfs refused the pseudo file: $(head -n 3 "$SCRATCH/err.txt")"; continue; }
	mount_ro "$img" "$SCRATCH/m1" && mount_ro "$SCRATCH/back.sqfs" "$SCRATCH/m2" &&
		compare "$comp round trip" "$SCRATCH/m1" "$SCRATCH/m2"
	umount_dir "$SCRATCH/m1"
	umount_dir "$SCRATCH/m2"
	rm -f "$SCRATCH/back.sqfs"
done
finish
