#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# write_refcompare.sh — for the same tree, the table writer's directory table must be
# byte-identical to squashfs-tools': same inode numbering, inode sizes and order, listing
# headers and directory index. The tree is write_image's, extracted by the reference unsquashfs
# and packed again by the reference mksquashfs.
. "$top_srcdir/tests/mksquashfs/write_lib.sh"

write_start write_refcompare "to extract devices and owners" unsquashfs mksquashfs
u32() {
	echo $((0x$(od -An -t x4 -j "$2" -N 4 "$1" | tr -d ' ')))
}
u64() {
	echo $((0x$(od -An -t x8 -j "$2" -N 8 "$1" | tr -d ' ')))
}
# dir_table IMAGE OUT: the directory table's stored bytes, which run from the superblock's
# directory_table to the first fragment table block (-noI keeps them uncompressed).
dir_table() {
	start=$(u64 "$1" 72)
	frag_list=$(u64 "$1" 80)
	end=$(u64 "$1" "$frag_list")
	[ "$end" -gt "$start" ] || fail "$1: no directory table before the fragment table"
	tail -c +$((start + 1)) "$1" | head -c $((end - start)) > "$2"
}

make_image "$work" -comp gzip -noI > /dev/null || fail "write_image"
unsquashfs -no-progress -d "$work/tree" "$work/img.sq" > "$work/log" 2>&1 || fail "unsquashfs -d"
mksquashfs "$work/tree" "$work/ref.sq" -noappend -no-progress -quiet -noI > "$work/log" 2>&1 ||
	fail "reference mksquashfs: $(tail -3 "$work/log")"
dir_table "$work/img.sq" "$work/ours.dir"
dir_table "$work/ref.sq" "$work/ref.dir"
[ "$(u32 "$work/img.sq" 4)" = "$(u32 "$work/ref.sq" 4)" ] || fail "inode counts differ"
[ "$(u64 "$work/img.sq" 32)" = "$(u64 "$work/ref.sq" 32)" ] || fail "root inode references differ"
cmp "$work/ours.dir" "$work/ref.dir" || fail "directory tables differ"
echo "write_refcompare: directory tables identical ($(stat -c %s "$work/ours.dir") bytes)"
