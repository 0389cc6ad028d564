#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# dereference.sh — -dereference, -deref keep|delete and -deref-path (squashfs-tools 4.7.6): links
# to files and directories are stored as what they point to; dangling links and links back into
# the tree being scanned are left out (or kept with -deref keep); -deref-path follows one link.
# Read back with our unsquashfs listing; no root needed.
. "$top_srcdir/tests/lib/common.sh"

need_tools "$MKSQUASHFS" "$UNSQUASHFS"
make_scratch
S=$SCRATCH
T=$S/t
mkdir -p "$T/real/sub"
echo data >"$T/real/sub/file"
ln -s real "$T/ldir"
ln -s real/sub/file "$T/lfile"
ln -s nowhere "$T/dangling"
ln -s .. "$T/real/up"
ln -s ../../real "$T/real/sub/loop"

# list WORDS: "type path" lines of our image built with WORDS.
list() {
	rm -f "$S/img"
	"$MKSQUASHFS" "$T" "$S/img" -noappend -no-progress -quiet "$@" || { fail "$*: build failed"; return; }
	"$UNSQUASHFS" -lln "$S/img" | awk '{ print substr($1, 1, 1), $6 }' |
		sed 's|squashfs-root||' >"$S/list"
}
has() { grep -qx -- "$1" "$S/list" || fail "$label: no \"$1\" in: $(tr '\n' ' ' <"$S/list")"; }
hasnt() { grep -q -- "^. $1\$" "$S/list" && fail "$label: \"$1\" should not be there"; }

label=-dereference
list -dereference
has "d /ldir"
has "- /ldir/sub/file"
has "- /lfile"
hasnt /dangling
hasnt /real/up
hasnt /real/sub/loop
[ "$(grep -c '^l' "$S/list")" -eq 0 ] || fail "-dereference left links: $(grep '^l' "$S/list")"

label="-deref keep"
list -deref keep
has "d /ldir"
has "l /dangling"
has "l /real/up"
has "l /real/sub/loop"

label="-deref delete"
list -deref delete
hasnt /dangling

label="-deref-path ldir"
list -deref-path ldir -deref-path /real/sub/loop
has "d /ldir"
has "l /lfile"
has "l /dangling"
hasnt /real/sub/loop

label="no dereferencing"
list
has "l /ldir"
has "l /lfile"
"$MKSQUASHFS" "$T" "$S/img" -noappend -quiet -deref sometimes 2>"$S/err" && fail "-deref sometimes accepted"
grep -q 'keep or delete' "$S/err" || fail "-deref sometimes: $(cat "$S/err")"
finish
