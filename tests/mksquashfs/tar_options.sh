#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_options.sh — sqfstar's command line and mksquashfs -tar, side by side with the reference
# sqfstar where it has the option (4.5.1: excludes, -force, -exports, ownership and time options,
# SOURCE_DATE_EPOCH, words after the image, duplicate members, directories listed after their
# contents) and against what upstream 4.6/4.7 documents where it has not (-default-mode/-uid/-gid,
# -ignore-zeros, -numeric-owner).
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/mksquashfs/tar_lib.sh"

tar_begin "$SQFSTAR" "$REF_SQFSTAR" /usr/bin/tar "$TREECMP"
mkdir -p "$S/src/d/e" "$S/src/k" && cd "$S/src" || die "cd"
echo one >d/e/f.txt && echo two >d/g.c && echo three >k/h.txt && echo four >top && ln top k/top-link
chown 1234:5678 d/g.c && chmod 0640 d/g.c && touch -d @1500000000 d/e/f.txt
tar --format=gnu -cf "$S/a.tar" . || die "tar"

# Both sqfstars with the same arguments, images mounted and compared.
same() {
	_label=$1
	shift
	tar_pair "$S/a.tar" "$_label" "$@"
	if [ "$REF_OK" != 1 ]; then
		fail "$_label: the reference failed: $(head -n 2 "$S/$_label.ref.log")"
		return
	fi
	mount_ro "$S/$_label.ours" "$S/m-$_label-o" && mount_ro "$S/$_label.ref" "$S/m-$_label-r" &&
		compare "$_label: reference vs ours" "$S/m-$_label-r" "$S/m-$_label-o" --ignore-root-mtime
	umount_dir "$S/m-$_label-o"
	umount_dir "$S/m-$_label-r"
}

# same_excl LABEL OPTION PATTERN...: one option word (or "") then the image then excludes.
same_excl() {
	_label=$1 _opt=$2
	shift 2
	rm -f "$S/$_label.ours" "$S/$_label.ref"
	"$SQFSTAR" -quiet -no-progress $_opt "$S/$_label.ours" "$@" <"$S/a.tar" ||
		fail "$_label: our sqfstar failed"
	"$REF_SQFSTAR" -quiet -no-progress $_opt "$S/$_label.ref" "$@" <"$S/a.tar" >/dev/null 2>&1 ||
		fail "$_label: the reference failed"
	mount_ro "$S/$_label.ours" "$S/m-$_label-o" && mount_ro "$S/$_label.ref" "$S/m-$_label-r" &&
		compare "$_label: reference vs ours" "$S/m-$_label-r" "$S/m-$_label-o" --ignore-root-mtime
	umount_dir "$S/m-$_label-o"
	umount_dir "$S/m-$_label-r"
}

same plain
same_excl excl-files "" 'd/e/f.txt' '... *.c'
same_excl excl-regex -regex '^k$'
# -ef (the reference 4.5.1 takes its file name for the image: checked on ours alone).
printf 'top\nd/g.c\n' >"$S/excl"
rm -f "$S/ef.img"
"$SQFSTAR" -quiet -no-progress -ef "$S/excl" "$S/ef.img" <"$S/a.tar" || fail "-ef"
"$UNSQUASHFS" -lc "$S/ef.img" >"$S/ef.list"
grep -q 'squashfs-root/top$\|squashfs-root/d/g.c$' "$S/ef.list" && fail "-ef: $(cat "$S/ef.list")"
grep -q 'squashfs-root/k/h.txt$' "$S/ef.list" || fail "-ef excluded too much: $(cat "$S/ef.list")"
same owners -all-root
same force-ids -force-uid 77 -force-gid 88
same alltime -all-time 1234567
same_excl words-after-image "" -comp xz   # exclude patterns after the image, not options
SOURCE_DATE_EPOCH=1400000000 same sde
same exports -exports
same nohardlinks -no-hardlinks
same rootmode -root-mode 0700

# Pseudo definitions and root ownership (squashfs-tools 4.6: 4.5.1's sqfstar lacks -p, and
# documents -root-uid/-root-gid without doing them).
rm -f "$S/p.img"
"$SQFSTAR" -quiet -no-progress -root-uid 12 -root-gid 34 -p 'dev d 755 0 0' \
	-p 'dev/console c 600 0 0 5 1' -p 'top m 600 7 8' "$S/p.img" <"$S/a.tar" || fail "-p"
mount_ro "$S/p.img" "$S/m-p" || die "mount"
[ "$(stat -c '%u %g' "$S/m-p")" = "12 34" ] || fail "-root-uid/-root-gid: $(stat -c '%u %g' "$S/m-p")"
[ "$(stat -c '%F %a %t:%T' "$S/m-p/dev/console")" = "character special file 600 5:1" ] ||
	fail "-p device: $(stat -c '%F %a %t:%T' "$S/m-p/dev/console")"
[ "$(stat -c '%a %u %g' "$S/m-p/top")" = "600 7 8" ] || fail "-p m on a member: $(stat -c '%a %u %g' "$S/m-p/top")"
umount_dir "$S/m-p"
same nofrag -no-fragments -noI -b 4K

# An excluded directory takes its contents with it (the reference 4.5.1 crashes here).
rm -f "$S/x.img"
"$SQFSTAR" -quiet -no-progress "$S/x.img" d <"$S/a.tar" || fail "excluding a directory"
"$UNSQUASHFS" -lc "$S/x.img" | grep -q 'squashfs-root/d' && fail "d/ not excluded"

# -exports is off unless asked for, as in the reference (-tar default).
"$REF_UNSQUASHFS" -s "$S/plain.ours" | grep -q 'not exportable' || fail "sqfstar image is exportable"
"$REF_UNSQUASHFS" -s "$S/exports.ours" | grep -q 'is exportable' || fail "-exports ignored"

# An existing image is kept without -force.
cp "$S/plain.ours" "$S/keep.img"
if "$SQFSTAR" -quiet -no-progress "$S/keep.img" <"$S/a.tar" 2>"$S/err"; then
	fail "an existing image was overwritten without -force"
fi
grep -q -- '-force' "$S/err" || fail "refusal does not name -force: $(cat "$S/err")"
cmp -s "$S/plain.ours" "$S/keep.img" || fail "the existing image was changed"
"$SQFSTAR" -quiet -no-progress -force "$S/keep.img" <"$S/a.tar" || fail "-force"

# mksquashfs -tar is sqfstar: the same image from "-" as the source.
rm -f "$S/m.img"
"$MKSQUASHFS" - "$S/m.img" -tar -quiet -no-progress -mkfs-time 5 <"$S/a.tar" || fail "-tar"
rm -f "$S/s.img"
"$SQFSTAR" -quiet -no-progress -mkfs-time 5 "$S/s.img" <"$S/a.tar" || fail "sqfstar"
mount_ro "$S/m.img" "$S/m-m" && mount_ro "$S/s.img" "$S/m-s" &&
	compare "mksquashfs -tar vs sqfstar" "$S/m-s" "$S/m-m" --ignore-root-mtime
umount_dir "$S/m-m"
umount_dir "$S/m-s"
"$MKSQUASHFS" "$S/src" "$S/bad.img" -tar -noappend </dev/null 2>"$S/err" &&
	fail "-tar with a source directory accepted"
grep -q 'give - as the only source' "$S/err" || fail "-tar source message: $(cat "$S/err")"

# Help and option tables: sqfstar's own.
"$SQFSTAR" -help >"$S/help" || fail "sqfstar -help"
grep -q '^SYNTAX:sqfstar' "$S/help" || fail "sqfstar -help syntax line"
for o in -default-mode -default-uid -default-gid -ignore-zeros -force -numeric-owner; do
	grep -q -- "^$o" "$S/help" || fail "sqfstar -help lacks $o"
done
for o in -keep-as-directory -tar -noappend -cpiostyle; do
	grep -q -- "^$o\b" "$S/help" && fail "sqfstar -help lists $o"
done
"$SQFSTAR" -keep-as-directory "$S/y.img" </dev/null 2>"$S/err" && fail "-keep-as-directory accepted"
grep -q 'invalid option -keep-as-directory' "$S/err" || fail "message: $(cat "$S/err")"
[ -e "$S/y.img" ] && fail "image left after a bad option"

# Members without their directories: made-up directories 0755 (root 0777), the running user's,
# the build time; -default-* set them, the root included (upstream 4.6).
mkdir -p "$S/n/p/q" && echo x >"$S/n/p/q/file" && chmod 0700 "$S/n/p"
(cd "$S/n" && tar --format=gnu --no-recursion -cf "$S/nodirs.tar" p/q/file) || die "tar"
SOURCE_DATE_EPOCH=1000000 tar_pair "$S/nodirs.tar" nodirs
mount_ro "$S/nodirs.ours" "$S/m-nd" && mount_ro "$S/nodirs.ref" "$S/m-ndr" &&
	compare "made-up directories: reference vs ours" "$S/m-ndr" "$S/m-nd"
[ "$(stat -c '%a %u %g %Y' "$S/m-nd/p")" = "755 $(id -u) $(id -g) 1000000" ] ||
	fail "made-up directory p: $(stat -c '%a %u %g %Y' "$S/m-nd/p")"
umount_dir "$S/m-nd"
umount_dir "$S/m-ndr"
rm -f "$S/dm.img"
"$SQFSTAR" -quiet -no-progress -default-mode 0750 -default-uid 123 -default-gid 456 \
	"$S/dm.img" <"$S/nodirs.tar" || fail "-default-*"
mount_ro "$S/dm.img" "$S/m-dm" || die "mount"
for d in "" /p /p/q; do
	[ "$(stat -c '%a %u %g' "$S/m-dm$d")" = "750 123 456" ] ||
		fail "-default-* on '$d': $(stat -c '%a %u %g' "$S/m-dm$d")"
done
umount_dir "$S/m-dm"
"$SQFSTAR" -default-mode 8888 "$S/bad.img" </dev/null 2>/dev/null && fail "-default-mode 8888"

# -ignore-zeros: concatenated archives are read through; without it the first one ends it.
(cd "$S/n" && tar --format=gnu -cf "$S/second.tar" p) || die "tar"
cat "$S/a.tar" "$S/second.tar" >"$S/cat.tar"
rm -f "$S/c1.img" "$S/c2.img"
"$SQFSTAR" -quiet -no-progress "$S/c1.img" <"$S/cat.tar" || fail "concatenated"
"$SQFSTAR" -quiet -no-progress -ignore-zeros "$S/c2.img" <"$S/cat.tar" || fail "-ignore-zeros"
"$UNSQUASHFS" -lc "$S/c1.img" | grep -q 'p/q/file' && fail "read past the first archive's end"
"$UNSQUASHFS" -lc "$S/c2.img" | grep -q 'squashfs-root/p/q/file' || fail "-ignore-zeros lost p/q/file"
"$UNSQUASHFS" -lc "$S/c2.img" | grep -q 'squashfs-root/top' || fail "-ignore-zeros lost top"

# Owner names win over numbers unless -numeric-owner (upstream 4.7.5).
(cd "$S/src" && tar --format=gnu --owner=nobody:1234 --group=nogroup:5678 -cf "$S/own.tar" top) ||
	die "tar --owner"
rm -f "$S/o1.img" "$S/o2.img"
"$SQFSTAR" -quiet -no-progress "$S/o1.img" <"$S/own.tar" &&
	"$SQFSTAR" -quiet -no-progress -numeric-owner "$S/o2.img" <"$S/own.tar" || fail "owners"
mount_ro "$S/o1.img" "$S/m-o1" && mount_ro "$S/o2.img" "$S/m-o2" || die "mount"
[ "$(stat -c '%u %g' "$S/m-o1/top")" = "$(id -u nobody) $(getent group nogroup | cut -d: -f3)" ] ||
	fail "names not used: $(stat -c '%u %g' "$S/m-o1/top")"
[ "$(stat -c '%u %g' "$S/m-o2/top")" = "1234 5678" ] || fail "-numeric-owner: $(stat -c '%u %g' "$S/m-o2/top")"
umount_dir "$S/m-o1"
umount_dir "$S/m-o2"

# A name given twice keeps the first (with a warning); a directory listed after its contents
# takes its own metadata: as the reference.
(cd "$S/src" && tar --format=gnu -cf "$S/twice.tar" top d/e/f.txt top d/e d) || die "tar"
tar_pair "$S/twice.tar" twice
"$SQFSTAR" -no-progress "$S/twice2.img" <"$S/twice.tar" 2>&1 >/dev/null | grep -q '"top".*ignored' ||
	fail "no warning for a name given twice"
if [ "$REF_OK" = 1 ]; then
	mount_ro "$S/twice.ours" "$S/m-t" && mount_ro "$S/twice.ref" "$S/m-tr" &&
		compare "twice: reference vs ours" "$S/m-tr" "$S/m-t" --ignore-root-mtime
	umount_dir "$S/m-t"
	umount_dir "$S/m-tr"
else
	fail "the reference refused twice.tar"
fi

# -xattrs-exclude and -xattrs-include filter an archive's xattrs as they filter a directory's
# (upstream 4.6; the reference 4.5.1 lacks both, so the result is checked by name).
mkdir -p "$S/xsrc" && echo x >"$S/xsrc/f" || die "mkdir"
setfattr -n user.keep -v 1 "$S/xsrc/f" && setfattr -n user.drop -v 2 "$S/xsrc/f" &&
	setfattr -n trusted.t -v 3 "$S/xsrc/f" || die "cannot set xattrs in $S (tar_gnu needs them too)"
(cd "$S/xsrc" && tar --format=posix --xattrs --xattrs-include='*' -cf "$S/x.tar" f) || die "tar"
rm -f "$S/x1.img" "$S/x2.img"
"$SQFSTAR" -quiet -no-progress -xattrs-exclude '^user\.drop' "$S/x1.img" <"$S/x.tar" &&
	"$SQFSTAR" -quiet -no-progress -xattrs-include '^user\.' "$S/x2.img" <"$S/x.tar" ||
	fail "xattr filters"
mount_ro "$S/x1.img" "$S/m-x1" && mount_ro "$S/x2.img" "$S/m-x2" || die "mount"
_x1=$(getfattr -m - -d --absolute-names "$S/m-x1/f" | grep '=' | cut -d= -f1 | sort | tr '\n' ' ')
_x2=$(getfattr -m - -d --absolute-names "$S/m-x2/f" | grep '=' | cut -d= -f1 | sort | tr '\n' ' ')
[ "$_x1" = "trusted.t user.keep " ] || fail "-xattrs-exclude on an archive kept: $_x1"
[ "$_x2" = "user.drop user.keep " ] || fail "-xattrs-include on an archive kept: $_x2"
umount_dir "$S/m-x1"
umount_dir "$S/m-x2"
finish
