#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# xz_decode_only.sh — a build without liblzma (configure --without-xz) still reads xz images with
# our own decoder: unsquashfs extracts the reference's xz image as the reference does, -s lists
# its options, sqfscat prints a file; mksquashfs refuses -comp xz and appending to the image,
# which it leaves unchanged. Runs in CI's --without-xz build; a build with liblzma skips it.
. "$top_srcdir/tests/lib/common.sh"
if have_comp xz; then
	skip "this build has liblzma: the decode-only xz codec is tested by tests/codecs/xz_decode_only here, this script in a --without-xz build"
fi
need_root
need_tools "$UNSQUASHFS" "$MKSQUASHFS" "$REF_MKSQUASHFS" "$REF_UNSQUASHFS"
make_scratch
make_tree src --small

"$REF_MKSQUASHFS" "$SCRATCH/src" "$SCRATCH/x.img" -comp xz -Xdict-size 50% -noappend \
	-no-progress >/dev/null 2>&1 || die "reference mksquashfs -comp xz failed"
"$UNSQUASHFS" -no-progress -d "$SCRATCH/ours" "$SCRATCH/x.img" >/dev/null 2>"$SCRATCH/err" ||
	fail "unsquashfs of an xz image: exit $? ($(head -n 1 "$SCRATCH/err"))"
"$REF_UNSQUASHFS" -no-progress -d "$SCRATCH/ref" "$SCRATCH/x.img" >/dev/null 2>&1 ||
	die "reference unsquashfs failed"
compare "extraction" "$SCRATCH/ref" "$SCRATCH/ours"

"$UNSQUASHFS" -s "$SCRATCH/x.img" | grep -A2 '^Compression' >"$SCRATCH/s.ours"
"$REF_UNSQUASHFS" -s "$SCRATCH/x.img" | grep -A2 '^Compression' >"$SCRATCH/s.ref"
cmp -s "$SCRATCH/s.ours" "$SCRATCH/s.ref" || fail "-s: \"$(cat "$SCRATCH/s.ours")\" against \"$(cat "$SCRATCH/s.ref")\""
"$UNSQUASHFS" -help 2>&1 | sed -n '/^Decompressors available/,$p' | grep -qx '  xz' ||
	fail "-help does not list xz among the decompressors"

f=$(cd "$SCRATCH/src" && find . -type f -size +1k | head -n 1 | cut -c3-)
[ -n "$f" ] || die "no file over 1 KiB in the tree"
"$top_builddir/unsquashfs/sqfscat" "$SCRATCH/x.img" "$f" >"$SCRATCH/cat.out" ||
	fail "sqfscat $f: exit $?"
cmp -s "$SCRATCH/cat.out" "$SCRATCH/src/$f" || fail "sqfscat $f: wrong bytes"

"$MKSQUASHFS" "$SCRATCH/src" "$SCRATCH/new.img" -comp xz -noappend -no-progress \
	>/dev/null 2>"$SCRATCH/err" && fail "mksquashfs -comp xz succeeded without liblzma"
grep -q 'xz' "$SCRATCH/err" || fail "-comp xz: message \"$(cat "$SCRATCH/err")\" does not name xz"
cp "$SCRATCH/x.img" "$SCRATCH/app.img"
"$MKSQUASHFS" "$SCRATCH/src" "$SCRATCH/app.img" -no-progress >/dev/null 2>"$SCRATCH/err" &&
	fail "appending to an xz image succeeded without liblzma"
[ "$(wc -l <"$SCRATCH/err")" -eq 1 ] && grep -q 'cannot write' "$SCRATCH/err" ||
	fail "append: message \"$(cat "$SCRATCH/err")\""
cmp -s "$SCRATCH/x.img" "$SCRATCH/app.img" || fail "the refused append changed the image"
finish
