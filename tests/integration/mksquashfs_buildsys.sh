# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_buildsys.sh — the command lines real build systems pass (OpenWrt, NixOS
# make-squashfs.nix, AppImage, Debian live-build, ChromeOS) on a generated tree: our mounted tree
# must equal the reference's, and both unsquashfs tools must extract ours into it.
. "$top_srcdir/tests/integration/sidebyside.sh"

BLOCKMAP=$top_builddir/tests/mksquashfs/blockmap
make_tree rootfs --small --seed 51
rm "$S/rootfs/hardlinks/b/symlink-link"

# OpenWrt (include/image.mk, built with SOURCE_DATE_EPOCH set): every image gets /dev and
# /dev/console from pseudo definitions.
have_comp xz && comp="-comp xz -b 256k" || comp=
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1700000000 PAD_BEFORE_MOUNT=1 same "OpenWrt" "" -- "$S/rootfs" IMG -nopad -root-owned $comp \
	-p '/dev d 755 0 0' -p '/dev/console c 600 0 0 5 1'

# NixOS nixos/lib/make-squashfs.nix (builds run with SOURCE_DATE_EPOCH=1): store paths as
# several sources kept as directories, no hard links, root-owned, root mode 0755.
have_comp xz && comp="-comp xz -Xdict-size 100%" || comp=
# shellcheck disable=SC2086
SOURCE_DATE_EPOCH=1 same "NixOS make-squashfs.nix" "" -- "$S/rootfs/files" "$S/rootfs/links" \
	"$S/rootfs/hardlinks" IMG -no-hardlinks -keep-as-directory -all-root -b 1048576 $comp \
	-root-mode 0755

# AppImage (appimagetool / type2-runtime): the image follows the runtime, -offset its size.
OFFSET=188392
same "AppImage -offset" "" -- "$S/rootfs" IMG -offset $OFFSET -root-owned -comp gzip
OFFSET=0

# Debian live-build (binary_rootfs): -sort with a generated sort file; the data order must be
# the reference's too.
big=$(cd "$S/rootfs/files" && ls | grep '^size-1048577-')
printf 'files/%s 32767\ndups/* 10\nsparse 5\n' "$big" >"$S/squashfs.sort"
have_comp xz && comp="-comp xz" || comp=
# shellcheck disable=SC2086
if both "live-build -sort" "$S/rootfs" IMG -sort "$S/squashfs.sort" $comp; then
	compare "live-build -sort: ours vs reference" "$S/ref" "$S/ours"
	extract_both "live-build -sort" "$S/ours.img" "$S/ref" ""
	done_both
	order() { "$BLOCKMAP" "$1" | awk '$1 ~ /^[0-9]+$/ && $1 != 0 { print $1, $4 }' | sort -n | awk '{ print $2 }'; }
	[ "$(order "$S/ours.img")" = "$(order "$S/ref.img")" ] ||
		fail "live-build -sort: data order differs from the reference's"
	expect "live-build -sort: first file" "/files/$big" "$(order "$S/ours.img" | head -n 1)"
fi

# ChromeOS (build_library): root mode 0755.
have_comp lzo && comp="-comp lzo" || comp=
# shellcheck disable=SC2086
same "ChromeOS" "" -- "$S/rootfs" IMG -root-mode 0755 -all-root -no-recovery $comp
finish
