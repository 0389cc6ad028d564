# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_append_guix_pseudo.sh — the last step of `guix pack -f squashfs`: symlinks and mount
# points appended as pseudo definitions (`mksquashfs .empty IMAGE -p "bin s 777 0 0 TARGET" ...`)
# to an image made by the root-becomes sequence; the mounted tree must equal the reference's.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$TREECMP"
"$MKSQUASHFS" -help 2>&1 | grep -q -- '^-p ' || skip "$MKSQUASHFS has no -p (pseudo definitions)"
make_scratch
S=$SCRATCH
mkdir -p "$S/items/abc-hello/bin" "$S/items/def-lib/lib" || die "cannot make the items"
echo '#!/bin/sh' >"$S/items/abc-hello/bin/hello"
echo lib >"$S/items/def-lib/lib/libx.so"
: >"$S/.empty"
export SOURCE_DATE_EPOCH=1

guix() {
	_tool=$1 _img=$2
	rm -f "$_img"
	(cd "$S" && "$_tool" items/abc-hello items/def-lib "$_img" -no-duplicates -comp gzip \
		-no-progress) >"$S/mk.log" 2>&1 || return 1
	for _dir in store gnu; do
		(cd "$S" && "$_tool" .empty "$_img" -root-becomes $_dir -no-progress -no-recovery) \
			>"$S/mk.log" 2>&1 || return 1
	done
	(cd "$S" && "$_tool" .empty "$_img" -no-progress -no-recovery \
		-p "/bin s 777 0 0 gnu/store/abc-hello/bin" \
		-p "/lib s 777 0 0 gnu/store/def-lib/lib" \
		-p "/dev d 755 0 0" -p "/proc d 755 0 0") >"$S/mk.log" 2>&1
}

guix "$MKSQUASHFS" "$S/ours.img" || fail "our mksquashfs failed: $(tail -n 2 "$S/mk.log")"
guix "$REF_MKSQUASHFS" "$S/ref.img" || die "reference mksquashfs failed: $(tail -n 2 "$S/mk.log")"
if mount_ro "$S/ours.img" "$S/ours" && mount_ro "$S/ref.img" "$S/ref"; then
	compare "Guix sequence with pseudo symlinks: ours vs reference" "$S/ref" "$S/ours"
	[ "$(readlink "$S/ours/bin")" = gnu/store/abc-hello/bin ] || fail "/bin is not the symlink"
fi
finish
