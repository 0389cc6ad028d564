#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# write_reference.sh — the reference unsquashfs (squashfs-tools) reads what the table writer
# wrote: superblock fields, the full listing, and the extracted files and metadata.
. "$top_srcdir/tests/mksquashfs/write_lib.sh"

if [ -f "$top_builddir/config.h" ] && ! grep -q "^#define HAVE_ZLIB 1" "$top_builddir/config.h"; then
	echo "write_reference: built without gzip, which this check's image uses" >&2
	exit 77
fi
if ! command -v unsquashfs > /dev/null; then
	echo "write_reference: reference unsquashfs not installed" >&2
	exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/write_reference.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
fail() {
	echo "write_reference: FAIL: $*" >&2
	exit 1
}

# le64 FILE OFFSET: an unsigned little-endian u64 from the image, in hex
le64() {
	od -An -t x8 -j "$2" -N 8 "$1" | tr -d ' '
}
le16() {
	od -An -t x2 -j "$2" -N 2 "$1" | tr -d ' '
}

make_image "$work" -comp gzip > /dev/null || fail "write_image"
img="$work/img.sq"
unsquashfs -s "$img" > "$work/s" 2>&1 || fail "unsquashfs -s"
for want in "Compression gzip" "Block size 131072" "Filesystem is exportable via NFS" \
	"Number of inodes 5081" "Number of ids 14" "Number of xattr ids 7" \
	"Number of fragments 1" "Duplicates are removed"; do
	grep -qx "$want" "$work/s" || fail "unsquashfs -s lacks '$want'"
done
# flags: DUPLICATES | EXPORTABLE | UNCOMPRESSED_DATA (write_image stores its data raw)
[ "$(le16 "$img" 24)" = "00c2" ] || fail "superblock flags $(le16 "$img" 24), expected 00c2"
# Table order as squashfs-tools: inode < directory < fragment < export < id < xattr < end.
prev=0
for off in 64 72 80 88 48 56 40; do
	v=$((0x$(le64 "$img" $off)))
	[ "$v" -gt "$prev" ] || fail "superblock table at offset $off out of order"
	prev=$v
done
[ $(( $(stat -c %s "$img") % 4096 )) -eq 0 ] || fail "image not padded"

unsquashfs -ll "$img" > "$work/ll" 2> "$work/ll.err" || fail "unsquashfs -ll: $(cat "$work/ll.err")"
entries=$(grep -vc '^[LX]|' "$work/manifest")
[ "$(wc -l < "$work/ll")" -eq "$entries" ] || fail "unsquashfs -ll lists $(wc -l < "$work/ll"), expected $entries"
grep -q '^brw-rw---- [^ ]* .*1118508,112 .*/blkdev$' "$work/ll" ||
	fail "block device 300:70000 not listed as squashfs-tools encodes it"
grep -q '^-rw-r--r-- 100000/200000 .*/owner$' "$work/ll" || fail "large owner ids"
grep -q '^-rwsr-xr-x [^ ]* .*/suid$' "$work/ll" || fail "setuid file"
grep -q '^drwxrwxrwt root/root .*/sub$' "$work/ll" || fail "sticky directory"
grep -q '/symlink -> small$' "$work/ll" || fail "symlink target"
grep -q '^srwxr-xr-x .*/socket$' "$work/ll" || fail "socket"
grep -q '^prw------- [^ ]* .*/fifo$' "$work/ll" || fail "fifo"

# Without xattrs or exports: those tables are absent (all ones), the fragment table is not.
make_image "$work" -comp gzip -no-xattrs -no-exports > /dev/null || fail "write_image"
[ "$(le64 "$img" 56)" = ffffffffffffffff ] || fail "xattr table present with -no-xattrs"
[ "$(le64 "$img" 88)" = ffffffffffffffff ] || fail "export table present with -no-exports"
[ "$(le64 "$img" 80)" != ffffffffffffffff ] || fail "fragment table absent"
[ "$(le16 "$img" 24)" = "0242" ] || fail "flags $(le16 "$img" 24) with -no-xattrs -no-exports"
unsquashfs -ll "$img" > /dev/null 2>&1 || fail "unsquashfs -ll without xattrs/exports"

make_image "$work" -comp gzip > /dev/null || fail "write_image"
if [ "$(id -u)" = 0 ]; then
	unsquashfs -no-progress -d "$work/out" "$img" > "$work/log" 2>&1 || fail "unsquashfs -d: $(tail -3 "$work/log")"
	check_meta "$work/out" "$work/manifest" relaxed || fail "metadata after extraction"
	check_symlinks "$work/out" "$work/manifest" || fail "symlinks after extraction"
else
	# Not root: devices cannot be made, so extract the regular files only.
	files=$(cd "$work/expect" && find . -type f | sed 's#^\./##')
	# shellcheck disable=SC2086
	unsquashfs -no-progress -no-xattrs -d "$work/out" "$img" $files > "$work/log" 2>&1 ||
		fail "unsquashfs -d: $(tail -3 "$work/log")"
fi
check_contents "$work/out" "$work/expect" || fail "contents after extraction"
echo "write_reference: pass"
