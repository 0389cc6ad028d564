#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_bsd.sh — archives bsdtar (libarchive) makes of a generated tree: its default format
# (restricted pax), pax (LIBARCHIVE.xattr and SCHILY.xattr), gnutar, ustar, and a sparse tree
# (GNU sparse 1.0); our sqfstar's image mounted and compared with the source tree and with the
# reference sqfstar's where the reference reads the archive (4.5.1 fails on some libarchive pax
# headers and on sparse members).
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/mksquashfs/tar_lib.sh"

tar_begin "$SQFSTAR" "$REF_SQFSTAR" /usr/bin/bsdtar "$TREECMP" "$GENTREE"
tar_tree src --small --seed 17

for fmt in default pax; do
	opt=
	[ $fmt = pax ] && opt=--format=pax
	# shellcheck disable=SC2086 # opt is one word or none
	(cd "$S/src" && bsdtar $opt -cf "$S/$fmt.tar" .) || fail "bsdtar $fmt"
	tar_pair "$S/$fmt.tar" "bsd-$fmt"
	tar_check "bsd-$fmt" "$S/src"
done

# gnutar: no xattrs, no device numbers over 21 bits; ustar: its usual limits.
cp -a "$S/src" "$S/src-gnu"
rm -f "$S/src-gnu/special/block-259-1048575" "$S/src-gnu/special/char-4095-1048575"
(cd "$S/src-gnu" && bsdtar --format=gnutar -cf "$S/gnutar.tar" .) || fail "bsdtar gnutar"
tar_pair "$S/gnutar.tar" bsd-gnutar
tar_check bsd-gnutar "$S/src-gnu" --no-xattrs
cp -a "$S/src-gnu" "$S/src-ustar"
tar_restrict "$S/src-ustar"
(cd "$S/src-ustar" && bsdtar --format=ustar -cf "$S/ustar.tar" .) || fail "bsdtar ustar"
tar_pair "$S/ustar.tar" bsd-ustar
tar_check bsd-ustar "$S/src-ustar" --no-xattrs

# Sparse files: libarchive finds the holes and writes GNU sparse 1.0 members.
mkdir -p "$S/sparse" && cp -a --sparse=always "$S/src/sparse" "$S/src/files" "$S/sparse/" &&
	touch -r "$S/src" "$S/sparse" || die "copy"
(cd "$S/sparse" && bsdtar --format=pax -cf "$S/sparse.tar" .) || fail "bsdtar sparse"
grep -q 'GNU.sparse.major' "$S/sparse.tar" || fail "bsdtar wrote no sparse member"
tar_pair "$S/sparse.tar" bsd-sparse
tar_check bsd-sparse "$S/sparse"
finish
