#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# write_refimage.sh — our mksquashfs and squashfs-tools' pack the same tree (every inode kind,
# hard links, xattrs with shared and large values, a 5000-entry directory) into byte-identical
# images for the layouts where the data stage matches too; a change in the table writer that
# breaks compatibility shows up as the first differing byte.
. "$top_srcdir/tests/mksquashfs/write_lib.sh"

ours="$top_builddir/mksquashfs/mksquashfs"
if [ "$(id -u)" != 0 ]; then
	echo "write_refimage: needs root to extract devices and owners" >&2
	exit 77
fi
for tool in unsquashfs mksquashfs; do
	if ! command -v $tool > /dev/null; then
		echo "write_refimage: reference $tool not installed" >&2
		exit 77
	fi
done
if [ ! -x "$ours" ]; then
	echo "write_refimage: $ours not built" >&2
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/write_refimage.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
	echo "write_refimage: FAIL: $*" >&2
	exit 1
}

make_image "$work" -comp gzip > /dev/null || fail "write_image"
unsquashfs -no-progress -d "$work/tree" "$work/img.sq" > "$work/log" 2>&1 || fail "unsquashfs -d"
n=0
for opts in "" "-noI -noX" "-noI -noD -noF -noX" "-no-fragments" "-b 4096" "-no-exports -no-xattrs" \
	"-comp lzo" "-comp lz4" "-Xcompression-level 6" "-no-duplicates"; do
	rm -f "$work/ours.sq" "$work/ref.sq"
	# gzip blocks are byte-identical only when zlib writes them (libdeflate's are smaller), lzo
	# blocks only when liblzo2 does (our encoder's are smaller).
	zlib=
	case " $opts " in *" -comp lzo "*) zlib=-Xliblzo2 ;; *" -comp "*) ;; *) zlib=-Xzlib ;; esac
	# shellcheck disable=SC2086
	"$ours" "$work/tree" "$work/ours.sq" -noappend -quiet -no-progress -mkfs-time 1000 $opts $zlib \
		> "$work/log" 2>&1 || fail "[$opts] our mksquashfs: $(tail -2 "$work/log")"
	# shellcheck disable=SC2086
	mksquashfs "$work/tree" "$work/ref.sq" -noappend -quiet -no-progress -mkfs-time 1000 $opts \
		> "$work/log" 2>&1 || fail "[$opts] reference mksquashfs: $(tail -2 "$work/log")"
	cmp "$work/ours.sq" "$work/ref.sq" || fail "[$opts] images differ"
	n=$((n + 1))
done
echo "write_refimage: $n layouts byte-identical to squashfs-tools"
