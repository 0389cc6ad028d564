#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# help_tty.sh — on a terminal (script(1) gives one): help text goes through $PAGER unless
# -no-pager, and the progress bar counts entries while the sources are scanned. Skips (77)
# without script(1).
. "$top_srcdir/tests/lib/common.sh"

need_tools "$MKSQUASHFS"
command -v script >/dev/null 2>&1 || skip "script (util-linux) is needed for a terminal"
make_scratch
S=$SCRATCH
M=$MKSQUASHFS

PAGER="sh -c 'cat >$S/paged'" script -qec "$M -help-section time" /dev/null >"$S/tty" 2>&1 ||
	fail "-help on a terminal failed"
grep -q '^-repro' "$S/paged" 2>/dev/null || fail "the help did not go through \$PAGER"
rm -f "$S/paged"
PAGER="sh -c 'cat >$S/paged'" script -qec "$M -no-pager -help-section time" /dev/null >"$S/tty" 2>&1
[ -e "$S/paged" ] && fail "-no-pager still used the pager"
grep -q -- '-repro' "$S/tty" || fail "-no-pager printed nothing"
PAGER= script -qec "$M -help-section time" /dev/null >"$S/tty" 2>&1
grep -q -- '-repro' "$S/tty" || fail "an empty PAGER: nothing printed"

mkdir -p "$S/src/a/b"
echo x >"$S/src/a/b/f"
script -qec "$M $S/src $S/img -noappend" /dev/null >"$S/tty" 2>&1 || fail "build on a terminal failed"
grep -q 'Scanning: [0-9]* entries' "$S/tty" || fail "no scan progress on a terminal"
grep -q '\] 1/1 100%' "$S/tty" || fail "no final progress bar: $(tr '\r' '\n' <"$S/tty" | tail -n 3)"
finish
