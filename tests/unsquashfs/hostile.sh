#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# hostile.sh — hostile and broken images (made by patching reference images with sqpatch):
# each is refused with a message naming the problem, and nothing lands outside the destination.
. "$top_srcdir/tests/lib/common.sh"
SQPATCH=$top_builddir/tests/unsquashfs/sqpatch
need_tools "$REF_MKSQUASHFS" "$UNSQUASHFS" "$SQPATCH"
have_comp gzip || skip "built without gzip, which these checks' images use"
make_scratch

OUTSIDE=$SCRATCH/outside
mkdir -p "$OUTSIDE" "$SCRATCH/src/evil2" "$SCRATCH/src/sub/inner"
printf 'keep' >"$OUTSIDE/victim"
cd "$SCRATCH/src" || die "no src"
printf 'aa' >aa
printf 'ab' >a_b
ln -s "$OUTSIDE" evil1
printf 'pwned' >evil2/pwned
printf 'f' >sub/inner/f
head -c 5000 /dev/urandom >five
printf '%0100d' 0 >small
i=0
while [ $i -lt 200 ]; do
	echo "compressible line $i of text"
	i=$((i + 1))
done >text
cd - >/dev/null || die "cd"

base=$SCRATCH/base.sqfs
"$REF_MKSQUASHFS" "$SCRATCH/src" "$base" -noappend -quiet -no-progress -noI -noD -noF -noX -b 4K \
	-no-xattrs >/dev/null 2>&1 || die "reference mksquashfs failed"
"$UNSQUASHFS" -n -q -d "$SCRATCH/sane" "$base" >/dev/null 2>&1 || die "the unpatched image does not extract"

outside_untouched() {
	[ "$(ls -A "$OUTSIDE")" = victim ] && [ "$(cat "$OUTSIDE/victim")" = keep ]
}

cases=0
# refuse LABEL EXPECTED-MESSAGE-WORDS IMG [LISTING-MODES]: unsquashfs must exit 1 naming the
# problem when extracting, and fail in each listing mode given (default -l -ll -lc: structural
# damage; data-level damage is only seen by extraction or -ll), and with -pf.
refuse() {
	cases=$((cases + 1))
	dest=$SCRATCH/dest$cases
	"$UNSQUASHFS" -n -d "$dest" "$3" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	[ $rc -eq 1 ] || fail "$1: exit $rc, expected 1"
	grep -q -- "$2" "$SCRATCH/err" || fail "$1: message \"$(cat "$SCRATCH/err")\" lacks \"$2\""
	[ "$(wc -l <"$SCRATCH/err")" -le 1 ] || fail "$1: more than one line of error"
	outside_untouched || fail "$1: something was written outside the destination"
	for mode in ${4--l -ll -lc}; do
		"$UNSQUASHFS" $mode "$3" >/dev/null 2>&1 && fail "$1: $mode accepted the image"
	done
	# -pf reads every definition and every byte: it refuses too, and leaves no pseudo file.
	"$UNSQUASHFS" -pf "$SCRATCH/p.pf" "$3" >/dev/null 2>&1 && fail "$1: -pf accepted the image"
	[ -e "$SCRATCH/p.pf" ] && fail "$1: -pf left a partial pseudo file"
	rm -f "$SCRATCH/p.pf"
}

# patched LABEL sqpatch-args...: a fresh copy of the base image with one edit.
patched() {
	img=$SCRATCH/p$cases.sqfs
	cp "$base" "$img"
	"$SQPATCH" "$img" "$@" || die "sqpatch $* failed"
}

patched rename / aa ..
refuse "entry named .." "illegal entry name" "$img"
patched rename / a_b a/b
refuse "entry with a slash" "illegal entry name" "$img"
patched rename / evil2 evil1
refuse "symlink then directory of the same name" "duplicate entry" "$img"
patched rename / aa a_
refuse "unsorted names" "out of order" "$img"
patched copydir / sub/inner
refuse "directory containing its ancestor" "reached twice" "$img"
patched inode five 28 4 6000
refuse "file size past its blocks" "decodes to" "$img" ""
patched inode five 28 4 4294967295
refuse "4 GiB file whose block list runs out of the inode table" "outside the table" "$img" ""
patched inode small 20 4 1000
refuse "fragment index out of range" "fragment index 1000" "$img" ""
patched inode small 12 4 99999
refuse "inode number out of range" "out of range" "$img"
patched inode small 4 2 500
refuse "uid index out of range" "id index 500" "$img" -ll
patched inode five 0 2 77
refuse "unknown inode type" "unknown type 77" "$img"
patched inode five 0 2 6
refuse "entry type disagrees with its inode" "claims type 2 but its inode has type 6" "$img"
patched inode sub 24 2 60000
refuse "directory size past its listing" "directory inode" "$img"
patched inode evil1 20 4 0
refuse "empty symlink target" "symlink target length" "$img"
patched super 0 4 0
refuse "bad magic" "not a squashfs image" "$img"
patched super 22 2 13
refuse "block log disagrees with block size" "does not match" "$img"
patched super 64 8 99999999
refuse "inode table outside the image" "outside the image" "$img"
patched super 26 2 0
refuse "no ids" "id table" "$img"
img=$SCRATCH/trunc.sqfs
head -c $(($(file_size "$base") / 2)) "$base" >"$img"
refuse "truncated image" "truncated" "$img"
img=$SCRATCH/short.sqfs
head -c 50 "$base" >"$img"
refuse "image shorter than a superblock" "truncated" "$img"

# A compressed data block that does not decompress.
img=$SCRATCH/gz.sqfs
"$REF_MKSQUASHFS" "$SCRATCH/src" "$img" -noappend -quiet -no-progress -noI -b 4K -no-xattrs >/dev/null 2>&1 ||
	die "reference mksquashfs failed"
pos=$("$SQPATCH" "$img" datapos text) || die "datapos failed"
printf 'garbage!garbage!' | dd of="$img" bs=1 seek="$pos" conv=notrunc 2>/dev/null
cases=$((cases + 1))
"$UNSQUASHFS" -n -d "$SCRATCH/gzout" "$img" >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q "does not decompress" "$SCRATCH/err" || fail "corrupt gzip block: $(cat "$SCRATCH/err")"
"$UNSQUASHFS" -cat "$img" text >/dev/null 2>&1 && fail "corrupt gzip block: -cat succeeded"

# -f into a destination where symlinks wait in the way: they are replaced, never followed.
cases=$((cases + 1))
dest=$SCRATCH/planted
mkdir "$dest"
ln -s "$OUTSIDE" "$dest/evil2"
ln -s "$OUTSIDE/victim" "$dest/aa"
ln -s "$OUTSIDE" "$dest/sub"
"$UNSQUASHFS" -n -q -f -d "$dest" "$base" >/dev/null 2>"$SCRATCH/err" || fail "-f over planted symlinks: $(cat "$SCRATCH/err")"
outside_untouched || fail "-f over planted symlinks wrote outside the destination"
[ -d "$dest/evil2" ] && [ ! -L "$dest/evil2" ] && [ -f "$dest/evil2/pwned" ] || fail "-f: evil2 is not a real directory"
[ -f "$dest/aa" ] && [ ! -L "$dest/aa" ] && [ "$(cat "$dest/aa")" = aa ] || fail "-f: aa is not the image's file"
[ -L "$dest/evil1" ] || fail "-f: the image's own symlink evil1 is missing"

log "$cases hostile cases"
finish
