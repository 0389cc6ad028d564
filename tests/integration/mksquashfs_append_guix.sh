# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_append_guix.sh — the sequence `guix pack -f squashfs` runs, side by side with the
# reference: the store items into a new image, then `mksquashfs .empty IMAGE -root-becomes DIR`
# once per component of the store prefix (three here), all with SOURCE_DATE_EPOCH=1 as Guix
# sets it. The mounted trees must be equal, and so must two runs of ours, byte for byte. (The
# last Guix step appends pseudo symlinks: mksquashfs_append_guix_pseudo.sh.)
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
S=$SCRATCH
make_tree items --small --seed 51
rm "$S/items/hardlinks/b/symlink-link"
mkdir -p "$S/profile/bin" && ln -s ../../items/files "$S/profile/bin/files" &&
	: >"$S/.empty" || die "cannot make the profile"
export SOURCE_DATE_EPOCH=1

# guix TOOL IMAGE: the sequence (from $S, where .empty is).
guix() {
	_tool=$1 _img=$2
	rm -f "$_img"
	(cd "$S" && "$_tool" items/dups items/links items/hardlinks items/xattrs profile "$_img" \
		-no-duplicates -comp gzip -no-progress) >"$S/mk.log" 2>&1 || return 1
	for _dir in store gnu top; do
		(cd "$S" && "$_tool" .empty "$_img" -root-becomes $_dir -no-progress -no-recovery) \
			>"$S/mk.log" 2>&1 || return 1
	done
}

guix "$MKSQUASHFS" "$S/ours.img" || fail "our mksquashfs failed: $(tail -n 2 "$S/mk.log")"
guix "$REF_MKSQUASHFS" "$S/ref.img" || die "reference mksquashfs failed: $(tail -n 2 "$S/mk.log")"
guix "$MKSQUASHFS" "$S/ours2.img" || fail "our mksquashfs failed: $(tail -n 2 "$S/mk.log")"
cmp -s "$S/ours.img" "$S/ours2.img" || fail "two runs of the sequence differ"
if mount_ro "$S/ours.img" "$S/ours" && mount_ro "$S/ref.img" "$S/ref"; then
	compare "Guix sequence: ours vs reference" "$S/ref" "$S/ours"
	for d in dups links hardlinks xattrs; do
		compare "Guix sequence: $d vs source" "$S/items/$d" "$S/ours/top/gnu/store/$d" \
			--no-mtime
	done
	[ -f "$S/ours/.empty" ] && [ -f "$S/ours/top/.empty" ] && [ -f "$S/ours/top/gnu/.empty" ] ||
		fail "Guix sequence: .empty missing somewhere: $(ls -a "$S/ours" "$S/ours/top")"
fi
report_size "append: Guix sequence" "$S/ours.img" "$S/ref.img"
finish
