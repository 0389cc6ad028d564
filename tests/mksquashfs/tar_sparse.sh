#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_sparse.sh — sparse files and files over 8 GiB through sqfstar. GNU tar's sparse formats
# (old GNU 'S', pax 0.0, 0.1 and 1.0) of a tree of sparse files: each image mounted and compared
# with the source, and its sparse layout (blocks the kernel counts on the mount) equal to the
# image our mksquashfs makes of the source directory (the reference sqfstar 4.5.1 refuses sparse
# members). A 9 GiB sparse file: as a GNU sparse member through a pipe (base-256 real size), and
# stored whole in a gnu archive (base-256 size; 9 GiB of stream, whose zeros stay holes in the
# spool; the archive is made sparse on disk, from GNU tar's header, so the test stays fast).
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/mksquashfs/tar_lib.sh"

tar_begin "$SQFSTAR" "$MKSQUASHFS" /usr/bin/tar "$TREECMP" "$GENTREE"
tar_tree gen --small --seed 21
mkdir -p "$S/src" && cp -a --sparse=always "$S/gen/sparse" "$S/gen/files" "$S/src/" ||
	die "copy"
touch -r "$S/gen" "$S/src"

# Our data stage makes zero blocks sparse as the reference does, but also an all-zero tail
# (the reference stores it in a fragment): compared with our own directory image.
"$MKSQUASHFS" "$S/src" "$S/ref-dir.img" -quiet -no-progress -noappend >/dev/null 2>&1 ||
	die "mksquashfs of the source failed"
mount_ro "$S/ref-dir.img" "$S/mnt-ref" || die "mount"
blocks_of "$S/mnt-ref" >"$S/ref-blocks"
umount_dir "$S/mnt-ref"

check_sparse() {
	_label=$1
	mount_ro "$S/$_label.ours" "$S/mnt-$_label" || return
	compare "$_label: source vs our sqfstar" "$S/src" "$S/mnt-$_label" --ignore-root
	blocks_of "$S/mnt-$_label" >"$S/$_label-blocks"
	cmp -s "$S/ref-blocks" "$S/$_label-blocks" ||
		fail "$_label: sparse layout differs from the directory image's: $(diff "$S/ref-blocks" "$S/$_label-blocks" | head -n 6)"
	umount_dir "$S/mnt-$_label"
}

(cd "$S/src" && tar --format=gnu --sparse -cf "$S/oldgnu.tar" .) || fail "tar --sparse"
tar_pair "$S/oldgnu.tar" oldgnu
check_sparse oldgnu
for v in 0.0 0.1 1.0; do
	(cd "$S/src" && tar --format=posix --sparse --sparse-version=$v -cf "$S/pax-$v.tar" .) ||
		fail "tar --sparse-version=$v"
	grep -q 'GNU.sparse' "$S/pax-$v.tar" || fail "pax $v: GNU tar wrote no sparse member"
	tar_pair "$S/pax-$v.tar" "pax-$v"
	check_sparse "pax-$v"
done

# 9 GiB + a little: data at the start, past 4 GiB and at the end.
mkdir -p "$S/big" && truncate -s 9G "$S/big/huge" || die "truncate"
printf 'head' | dd of="$S/big/huge" conv=notrunc status=none
printf 'middle' | dd of="$S/big/huge" bs=1 seek=5000000000 conv=notrunc status=none
printf 'tail' >>"$S/big/huge"
check_big() {
	_label=$1
	mount_ro "$S/$_label.img" "$S/mnt-$_label" || return
	_f="$S/mnt-$_label/huge"
	[ "$(stat -c %s "$_f")" = "$(stat -c %s "$S/big/huge")" ] ||
		fail "$_label: size $(stat -c %s "$_f")"
	for at in 0 4999999990 9663676410; do
		cmp -s -n 32 -i "$at:$at" "$S/big/huge" "$_f" || fail "$_label: bytes at $at differ"
	done
	# Stored: 3 blocks of 128 KiB at most; the rest are sparse blocks.
	[ "$(stat -c %b "$_f")" -le 768 ] || fail "$_label: $(stat -c %b "$_f") blocks stored"
	umount_dir "$S/mnt-$_label"
}
(cd "$S/big" && tar --format=gnu --sparse -cf - huge) |
	"$SQFSTAR" -quiet -no-progress "$S/big-sparse.img" || fail "9 GiB sparse member"
check_big big-sparse
size=$(stat -c %s "$S/big/huge")
(cd "$S/big" && tar --format=gnu -cf - huge 2>/dev/null) | head -c 512 >"$S/whole.tar"
truncate -s $((512 + (size + 511) / 512 * 512 + 1024)) "$S/whole.tar"
for at in 0 5000000000 $((size - 4)); do
	dd if="$S/big/huge" of="$S/whole.tar" bs=1 skip=$at seek=$((512 + at)) count=16 \
		conv=notrunc status=none
done
"$SQFSTAR" -quiet -no-progress "$S/big-whole.img" <"$S/whole.tar" || fail "9 GiB member stored whole"
check_big big-whole
finish
