#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# reference.sh — each codec test's comparisons with the reference squashfs-tools (options blocks
# byte for byte, what unsquashfs -s prints, options the reference refuses): the tests run with
# --reference. Skips when the reference tools are absent.
. "$top_srcdir/tests/lib/common.sh"
need_tools "$REF_MKSQUASHFS" "$REF_UNSQUASHFS"
ran=0
for t in gzip xz lzo lz4 zstd registry; do
	prog=$top_builddir/tests/codecs/$t
	[ -x "$prog" ] || continue # a codec built out
	ran=$((ran + 1))
	"$prog" --reference || fail "$t: the comparisons with the reference failed"
done
[ "$ran" -gt 0 ] || fail "no codec test program was built"
finish
