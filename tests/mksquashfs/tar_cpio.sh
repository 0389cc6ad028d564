#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_cpio.sh — sources that keep their whole path. -no-strip / -tarstyle against the reference
# mksquashfs (relative and absolute sources). -cpiostyle and -cpiostyle0 (names on standard
# input; the reference 4.5.1 hangs on them, so the whole list of `find` is compared with the
# reference's -no-strip image of the same directory, and a partial list with what it names).
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$TREECMP" "$GENTREE"
make_scratch
S=$SCRATCH
make_tree gen --small --seed 5
# Images, mounts and logs go below work/, so that making them does not change the mtime of
# the directories on the sources' paths ($S is one of them for absolute sources).
mkdir -p "$S/work" || die "mkdir"
rm -f "$S/gen/special/socket"
# A name with a newline cannot be in a line-per-name list: -cpiostyle0 gets its own check.
rm -f "$S/gen/names/new
line"
mkdir -p "$S/nl" && echo x >"$S/nl/new
line" || die "mkdir"
cd "$S" || die "cd"

# compare_kept LABEL REF OURS: with absolute sources the image holds the directories on $S's
# path, whose times other tests running beside this one change between the two builds (they
# make and remove their scratch folders there): those are compared without times, and $S's
# own subtree with them.
compare_kept() {
	if [ -d "$2$S" ]; then
		compare "$1: reference vs ours, without times" "$2" "$3" --no-mtime
		compare "$1: reference vs ours below $S" "$2$S" "$3$S"
	else
		compare "$1: reference vs ours" "$2" "$3" --ignore-root-mtime
	fi
}

# pair LABEL CMD_WORDS...: the same sources and options to both tools, mounted and compared.
pair() {
	_label=$1
	shift
	rm -f "$S/work/$_label.ours" "$S/work/$_label.ref"
	"$MKSQUASHFS" "$@" "$S/work/$_label.ours" -quiet -no-progress -noappend -no-strip >/dev/null 2>"$S/work/err" ||
		fail "$_label: ours failed: $(cat "$S/work/err")"
	"$REF_MKSQUASHFS" "$@" "$S/work/$_label.ref" -quiet -no-progress -noappend -no-strip >/dev/null 2>&1 ||
		fail "$_label: the reference failed"
	mount_ro "$S/work/$_label.ours" "$S/work/m-$_label-o" && mount_ro "$S/work/$_label.ref" "$S/work/m-$_label-r" &&
		compare_kept "$_label" "$S/work/m-$_label-r" "$S/work/m-$_label-o"
	umount_dir "$S/work/m-$_label-o"
	umount_dir "$S/work/m-$_label-r"
}
pair relative gen/hardlinks/a gen/links ./gen/times
pair absolute "$S/gen/modes" "$S/gen/xattrs"
pair nested gen/dirs gen/dirs/empty gen/files/extra

# A "." or ".." inside a source path is refused, as by the reference.
"$MKSQUASHFS" gen/files/../links "$S/work/dd.img" -no-strip -noappend 2>"$S/work/err" && fail "../ accepted"
grep -q '"\.\."' "$S/work/err" || fail "message: $(cat "$S/work/err")"

# The whole of find's list is the directory, as -no-strip makes it.
rm -f "$S/work/cpio.img" "$S/work/cpio0.img" "$S/work/nostrip.ref"
find gen | timeout 300 "$MKSQUASHFS" - "$S/work/cpio.img" -cpiostyle -quiet -no-progress ||
	fail "-cpiostyle"
find gen -print0 | timeout 300 "$MKSQUASHFS" - "$S/work/cpio0.img" -cpiostyle0 -quiet -no-progress ||
	fail "-cpiostyle0"
"$REF_MKSQUASHFS" gen "$S/work/nostrip.ref" -no-strip -quiet -no-progress -noappend >/dev/null 2>&1 ||
	fail "reference -no-strip"
mount_ro "$S/work/nostrip.ref" "$S/work/m-ref" || die "mount"
for img in cpio cpio0; do
	mount_ro "$S/work/$img.img" "$S/work/m-$img" &&
		compare "-$img list vs the reference's -no-strip" "$S/work/m-ref" "$S/work/m-$img" --ignore-root-mtime
done
umount_dir "$S/work/m-cpio"
umount_dir "$S/work/m-cpio0"
umount_dir "$S/work/m-ref"
# Names with a newline pass in NUL-terminated lists.
rm -f "$S/work/nl.img"
find nl -print0 | "$MKSQUASHFS" - "$S/work/nl.img" -cpiostyle0 -quiet -no-progress || fail "nl list"
"$UNSQUASHFS" -lc "$S/work/nl.img" | grep -q '^squashfs-root/nl/new$' ||
	fail "-cpiostyle0 lost a name with a newline: $("$UNSQUASHFS" -lc "$S/work/nl.img")"

# A partial list: only what is named, with the directories on the way (not their contents).
rm -f "$S/work/part.img"
printf 'gen/files/extra\ngen/dups/sub/frag-2\n\ngen/links/short\n' |
	"$MKSQUASHFS" - "$S/work/part.img" -cpiostyle -quiet -no-progress || fail "partial list"
"$UNSQUASHFS" -lc "$S/work/part.img" | sed 's,^squashfs-root,,' | sort >"$S/work/part.list"
printf '%s\n' /gen/dups/sub/frag-2 /gen/files/extra /gen/links/short >"$S/work/part.want"
cmp -s "$S/work/part.list" "$S/work/part.want" || fail "partial list: $(cat "$S/work/part.list")"
mount_ro "$S/work/part.img" "$S/work/m-part" || die "mount"
[ "$(stat -c '%a %Y' "$S/work/m-part/gen/dups")" = "$(stat -c '%a %Y' gen/dups)" ] ||
	fail "directory on the way lost its metadata"
umount_dir "$S/work/m-part"
"$MKSQUASHFS" gen "$S/work/bad.img" -cpiostyle -noappend </dev/null 2>"$S/work/err" &&
	fail "-cpiostyle with a source directory accepted"
finish
