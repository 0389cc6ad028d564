#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# write_mount.sh — images from the table writer, loop-mounted by the kernel and extracted by the
# reference unsquashfs, must hold exactly the hand-built tree (every inode kind, xattrs, links).
. "$top_srcdir/tests/mksquashfs/write_lib.sh"

write_start write_mount "for loop mounts" unsquashfs getfattr
mnt="$work/mnt"
mkdir "$mnt"
cleanup() {
	umount "$mnt" 2> /dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# run_case NAME [write_image options]: mount, check, unmount; extract with unsquashfs, check.
run_case() {
	name=$1
	shift
	echo "== $name: $*"
	make_image "$work" "$@" || fail "$name: write_image failed"
	size=$(stat -c %s "$work/img.sq")
	case " $* " in
	*" -nopad "*)
		# Unpadded images end inside a sector and cannot be loop-mounted (squashfs-tools'
		# are no different): only the reference unsquashfs reads this one.
		[ $((size % 4096)) -ne 0 ] || fail "$name: -nopad image is padded"
		check_unsquashfs "$name" "$@"
		return 0
		;;
	esac
	[ $((size % 4096)) -eq 0 ] || fail "$name: image of $size bytes is not padded to 4 KiB"
	mount -o loop,ro "$work/img.sq" "$mnt" || fail "$name: the kernel refuses to mount the image"
	check_meta "$mnt" "$work/manifest" || fail "$name: metadata on the mount"
	check_symlinks "$mnt" "$work/manifest" || fail "$name: symlinks on the mount"
	case " $* " in
	*" -no-xattrs "*) ;;
	*) check_xattrs "$mnt" "$work/manifest" || fail "$name: xattrs on the mount" ;;
	esac
	check_contents "$mnt" "$work/expect" || fail "$name: contents on the mount"
	# Lookups by name in the big directory go through the directory index.
	for i in 00000 01234 02499 04999 03333; do
		stat "$mnt/big/entry_${i}_with_a_longer_name" > /dev/null ||
			fail "$name: lookup of entry_$i in the big directory"
	done
	[ ! -e "$mnt/big/entry_05000_with_a_longer_name" ] || fail "$name: phantom entry"
	umount "$mnt" || fail "$name: umount"
	check_unsquashfs "$name" "$@"
}

check_unsquashfs() {
	name=$1
	shift

	unsquashfs -ll "$work/img.sq" > "$work/ll" 2> "$work/ll.err" || {
		cat "$work/ll.err" >&2
		fail "$name: reference unsquashfs -ll"
	}
	entries=$(grep -vc '^[LX]|' "$work/manifest")
	[ "$(wc -l < "$work/ll")" -eq "$entries" ] || fail "$name: unsquashfs -ll lists $(wc -l < "$work/ll") entries, expected $entries"
	# Extraction writes 5000 files: done for a few cases only, to keep the suite quick.
	[ -n "${EXTRACT:-}" ] || return 0
	rm -rf "$work/out"
	unsquashfs -no-progress -d "$work/out" "$work/img.sq" > "$work/unsq.log" 2>&1 || {
		tail -5 "$work/unsq.log" >&2
		fail "$name: reference unsquashfs -d"
	}
	check_meta "$work/out" "$work/manifest" relaxed || fail "$name: metadata after unsquashfs -d"
	check_symlinks "$work/out" "$work/manifest" || fail "$name: symlinks after unsquashfs -d"
	check_contents "$work/out" "$work/expect" || fail "$name: contents after unsquashfs -d"
	rm -rf "$work/out"
	# Our own unsquashfs, when built, must read the same tree back (xattrs included).
	ours="$top_builddir/unsquashfs/unsquashfs"
	[ -x "$ours" ] && [ "$EXTRACT" = both ] || return 0
	"$ours" -d "$work/out" "$work/img.sq" > "$work/unsq.log" 2>&1 || {
		tail -5 "$work/unsq.log" >&2
		fail "$name: our unsquashfs -d"
	}
	check_meta "$work/out" "$work/manifest" relaxed || fail "$name: metadata after our unsquashfs"
	check_symlinks "$work/out" "$work/manifest" || fail "$name: symlinks after our unsquashfs"
	case " $* " in
	*" -no-xattrs "*) ;;
	*) check_xattrs "$work/out" "$work/manifest" || fail "$name: xattrs after our unsquashfs" ;;
	esac
	check_contents "$work/out" "$work/expect" || fail "$name: contents after our unsquashfs"
	rm -rf "$work/out"
}

EXTRACT=both run_case gzip -comp gzip
EXTRACT=reference run_case uncompressed -comp gzip -noI -noX -noF -nopad
EXTRACT=reference run_case no-exports-no-xattrs -comp gzip -no-exports -no-xattrs
for comp in xz lzo lz4 zstd; do
	EXTRACT= run_case "$comp" -comp $comp -b 65536
done
EXTRACT= run_case huge -comp gzip -huge
echo "write_mount: all cases pass"
