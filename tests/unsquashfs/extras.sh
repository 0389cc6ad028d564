#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# extras.sh — what the reference 4.5.1 lacks or gets wrong, against the documented result:
# -follow-symlinks through links, symlinks already in the destination, non-anchored excludes,
# -match, the xattr filters, -force-uid/-gid/-file-mode/-dir-mode, -all-time,
# -full-precision, -percentage, -max-files; and sqfscat beside the reference's.
. "$top_srcdir/tests/unsquashfs/ref_lib.sh"
S=$SCRATCH/src
mkdir -p "$S/a/b/c" "$S/t" "$S/x/deep/er"
printf 'hello\n' >"$S/a/b/c/hello"
printf 'o\n' >"$S/a/b/c/other.o"
printf 'o\n' >"$S/x/deep/er/z.o"
printf 'gz\n' >"$S/t/data.gz"
printf 'gz2\n' >"$S/t/x.gz"
ln -s b/c/hello "$S/a/sym1"
ln -s b/c "$S/a/sym2"
ln -s ../a "$S/x/up"
ln -s /a/b "$S/abs"
ln -s nowhere "$S/dangling"
setfattr -n user.keep -v 1 "$S/t/data.gz"
setfattr -n user.drop -v 2 "$S/t/data.gz"
setfattr -n trusted.t -v 3 "$S/t/data.gz"
chmod 640 "$S/t/x.gz"
touch -d '@1234567890' "$S/t/x.gz"
IMG=$SCRATCH/img.sqfs
"$REF_MKSQUASHFS" "$S" "$IMG" -noappend -quiet -no-progress >/dev/null 2>&1 || die "reference mksquashfs failed"

# expect_list LABEL EXPECTED ARGS...: -lc with ARGS lists exactly EXPECTED (space-separated).
expect_list() {
	label=$1 want=$2
	shift 2
	got=$("$UNSQUASHFS" -lc -d "" "$@" 2>/dev/null | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || fail "$label: listed \"$got\", expected \"$want\""
}

# -follow-symlinks: the link, what it leads to, and links on the way (4.6's documented result;
# 4.5.1's loop check trips on every link).
expect_list "-follow leaf link" "/a/b/c/hello /a/sym1" -follow "$IMG" a/sym1
expect_list "-follow link on the way" "/a/b/c/hello /a/sym2" -follow "$IMG" a/sym2/hello
expect_list "-L link to a link's dir" "/a/b/c/hello /a/b/c/other.o /x/up" -L "$IMG" x/up/b
expect_list "-follow absolute link" "/a/b/c/hello /a/b/c/other.o /abs" -follow "$IMG" abs/c
expect_list "-follow .." "/t/data.gz /t/x.gz" -follow "$IMG" a/../t
expect_list "without -follow" "" "$IMG" a/sym2/hello
"$UNSQUASHFS" -lc -missing "$IMG" dangling >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q "dangling" "$SCRATCH/err" || fail "-missing on a dangling link: not fatal"
"$UNSQUASHFS" -lc -follow "$IMG" dangling >/dev/null 2>"$SCRATCH/err"
[ $? -eq 0 ] && grep -q "can't be resolved" "$SCRATCH/err" || fail "-follow on a dangling link: no warning"

# Non-anchored excludes ("... pattern", 4.6) match at any depth.
expect_list "... *.o" "/a/b/c/hello /a/sym1 /a/sym2 /abs /dangling /t/data.gz /t/x.gz /x/up" -excludes "$IMG" "... *.o"
expect_list "... deep/er" "/a/b/c/hello /a/b/c/other.o /a/sym1 /a/sym2 /x/up" -ex "... deep/er" \; "$IMG" a x

# -match: a pathname that selects nothing is an error before anything is written.
"$UNSQUASHFS" -n -match -d "$SCRATCH/m1" "$IMG" a nosuch >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q '"nosuch"' "$SCRATCH/err" && [ ! -e "$SCRATCH/m1/a" ] || fail "-match with an unmatched extract"
"$UNSQUASHFS" -lc -match -excludes "$IMG" "t/*.zip" >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q 't/\*.zip' "$SCRATCH/err" || fail "-match with an unmatched exclude"
"$UNSQUASHFS" -n -q -match -d "$SCRATCH/m2" "$IMG" a "t/*.gz" >/dev/null 2>&1 || fail "-match with every path matching"

# Symlinks already in the destination are never followed (the reference writes through them).
mkdir -p "$SCRATCH/outside" "$SCRATCH/d1/t"
ln -s "$SCRATCH/outside" "$SCRATCH/d1/a"
ln -s "$SCRATCH/outside/victim" "$SCRATCH/d1/t/x.gz"
"$UNSQUASHFS" -n -d "$SCRATCH/d1" "$IMG" >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] || fail "a symlink in the way without -f was not refused"
grep -q 'use -f' "$SCRATCH/err" || fail "the refusal does not mention -f: $(cat "$SCRATCH/err")"
[ -z "$(ls -A "$SCRATCH/outside")" ] || fail "something was written through a symlink in the destination"
"$UNSQUASHFS" -n -f -d "$SCRATCH/d1" "$IMG" >/dev/null 2>"$SCRATCH/err" || fail "-f over symlinks: $(cat "$SCRATCH/err")"
[ -z "$(ls -A "$SCRATCH/outside")" ] || fail "-f wrote through a symlink in the destination"
[ -d "$SCRATCH/d1/a" ] && [ ! -L "$SCRATCH/d1/a" ] && [ -f "$SCRATCH/d1/t/x.gz" ] && [ ! -L "$SCRATCH/d1/t/x.gz" ] ||
	fail "-f did not replace the symlinks"
mount_ro "$IMG" "$SCRATCH/mnt" && compare "-f over symlinks" "$SCRATCH/mnt" "$SCRATCH/d1" --ignore-root
umount_dir "$SCRATCH/mnt"
# "." as the destination is the current directory.
mkdir "$SCRATCH/here"
(cd "$SCRATCH/here" && "$UNSQUASHFS" -n -q -d . "$IMG" t >/dev/null 2>&1) && [ -f "$SCRATCH/here/t/x.gz" ] ||
	fail "-d . did not extract into the current directory"

# xattr filters.
"$UNSQUASHFS" -n -q -xattrs-include '^user\.k' -d "$SCRATCH/xi" "$IMG" t >/dev/null 2>&1
getfattr -d -m - "$SCRATCH/xi/t/data.gz" 2>/dev/null | grep -c '=' | grep -qx 1 || fail "-xattrs-include kept other xattrs"
"$UNSQUASHFS" -n -q -xattrs-exclude '^user\.d' -d "$SCRATCH/xe" "$IMG" t >/dev/null 2>&1
x=$(getfattr -d -m - "$SCRATCH/xe/t/data.gz" 2>/dev/null | grep '=' | cut -d= -f1 | sort | tr '\n' ' ')
[ "$x" = "trusted.t user.keep " ] || fail "-xattrs-exclude left: $x"
"$UNSQUASHFS" -n -q -xattrs-include '(' -d "$SCRATCH/xb" "$IMG" >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q 'xattrs-include' "$SCRATCH/err" || fail "a bad -xattrs-include regex was accepted"

# The 4.7.6 permission options and -all-time.
"$UNSQUASHFS" -n -q -force-uid 1234 -force-gid nogroup -d "$SCRATCH/fo" "$IMG" >/dev/null 2>&1
compare "-force-uid/-force-gid" "$S" "$SCRATCH/fo" --owner "1234:$(getent group nogroup | cut -d: -f3)" --ignore-root-mtime
"$UNSQUASHFS" -n -q -force-uid root -force-file-mode 0600 -force-dir-mode u=rwx,go=rx -d "$SCRATCH/fm" "$IMG" >/dev/null 2>&1
[ "$(stat -c %a "$SCRATCH/fm/t/x.gz")" = 600 ] && [ "$(stat -c %a "$SCRATCH/fm/a/b")" = 755 ] ||
	fail "-force-file-mode 0600 / -force-dir-mode u=rwx,go=rx: $(stat -c %a "$SCRATCH/fm/t/x.gz") $(stat -c %a "$SCRATCH/fm/a/b")"
"$UNSQUASHFS" -n -q -force-file-mode 'go-r,u+x' -d "$SCRATCH/fs" "$IMG" t >/dev/null 2>&1
[ "$(stat -c %a "$SCRATCH/fs/t/x.gz")" = 700 ] || fail "-force-file-mode go-r,u+x on 640 gave $(stat -c %a "$SCRATCH/fs/t/x.gz")"
"$UNSQUASHFS" -n -q -force-file-mode 'a+X' -d "$SCRATCH/fx" "$IMG" t >/dev/null 2>&1
[ "$(stat -c %a "$SCRATCH/fx/t/x.gz")" = 640 ] || fail "-force-file-mode a+X on a non-executable file changed it"
"$UNSQUASHFS" -n -q -force-file-mode 'u+z' -d "$SCRATCH/fz" "$IMG" >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q 'force-file-mode' "$SCRATCH/err" || fail "a bad mode was accepted"
"$UNSQUASHFS" -n -q -all-time 1000000000 -d "$SCRATCH/at" "$IMG" >/dev/null 2>&1
compare "-all-time" "$S" "$SCRATCH/at" --mtime 1000000000 --ignore-root
"$UNSQUASHFS" -n -q -all-time "2001-09-09 01:46:40 UTC" -d "$SCRATCH/at2" "$IMG" >/dev/null 2>&1
compare "-all-time as a date" "$S" "$SCRATCH/at2" --mtime 1000000000 --ignore-root
"$UNSQUASHFS" -n -q -all-time "not a date at all" -d "$SCRATCH/at3" "$IMG" >/dev/null 2>&1 && fail "a bad -all-time was accepted"

# -full-precision adds seconds and nothing else.
"$UNSQUASHFS" -lls -full-precision "$IMG" t/x.gz >"$SCRATCH/full.txt"
grep -q '2009-02-13 23:31:30 squashfs-root/t/x.gz' "$SCRATCH/full.txt" || fail "-full-precision: $(cat "$SCRATCH/full.txt")"
sed 's/\( [0-9][0-9]:[0-9][0-9]\):[0-9][0-9] / \1 /; s/  */ /g' "$SCRATCH/full.txt" >"$SCRATCH/a.txt"
"$REF_UNSQUASHFS" -lls "$IMG" t/x.gz | sed 's/  */ /g' >"$SCRATCH/b.txt"
cmp -s "$SCRATCH/a.txt" "$SCRATCH/b.txt" || fail "-full-precision changed more than the seconds"

# -percentage: numbers rising to 100, nothing else; -max-files 1 gives the same tree.
"$UNSQUASHFS" -percentage -q -d "$SCRATCH/pc" "$IMG" >"$SCRATCH/pc.txt" 2>&1
grep -qv '^[0-9]*$' "$SCRATCH/pc.txt" && fail "-percentage printed more than numbers"
[ "$(tail -n 1 "$SCRATCH/pc.txt")" = 100 ] || fail "-percentage does not end at 100"
"$UNSQUASHFS" -n -q -max-files 1 -p 4 -d "$SCRATCH/mf" "$IMG" >/dev/null 2>&1 || fail "-max-files 1 failed"
compare "-max-files 1" "$SCRATCH/pc" "$SCRATCH/mf"

# sqfscat is unsquashfs by that name: byte for byte with the reference's where it works.
ln -s "$UNSQUASHFS" "$SCRATCH/sqfscat"
for args in "a/b/c/hello" "t/*.gz" "a/b/c/hello t/x.gz" "nosuch" "a/nosuch" "a" "t/*.gz a"; do
	# shellcheck disable=SC2086 # word lists
	(set -f; "$SCRATCH/sqfscat" "$IMG" $args >"$SCRATCH/ours.out" 2>"$SCRATCH/ours.err"; echo $? >"$SCRATCH/ours.rc")
	# shellcheck disable=SC2086
	(set -f; /usr/bin/sqfscat "$IMG" $args >"$SCRATCH/ref.out" 2>"$SCRATCH/ref.err"; echo $? >"$SCRATCH/ref.rc")
	cmp -s "$SCRATCH/ours.out" "$SCRATCH/ref.out" && cmp -s "$SCRATCH/ours.err" "$SCRATCH/ref.err" &&
		cmp -s "$SCRATCH/ours.rc" "$SCRATCH/ref.rc" || fail "sqfscat $args differs from the reference's"
done
"$SCRATCH/sqfscat" -r "$IMG" '^t$/^d' | cmp -s - "$S/t/data.gz" || fail "sqfscat -regex"
"$SCRATCH/sqfscat" "$IMG" a/sym2/hello | cmp -s - "$S/a/b/c/hello" || fail "sqfscat through a link to a directory"
"$SCRATCH/sqfscat" "$IMG" abs/c/hello | cmp -s - "$S/a/b/c/hello" || fail "sqfscat through an absolute link"
"$SCRATCH/sqfscat" "$IMG" dangling 2>"$SCRATCH/err"
[ $? -eq 2 ] && grep -q 'cat: /dangling failed to resolve symbolic link' "$SCRATCH/err" || fail "sqfscat of a dangling link"
# Links that loop, or chain further than the kernel's 40: reported, never followed forever.
mkdir -p "$SCRATCH/loops/c"
ln -s b "$SCRATCH/loops/a"
ln -s a "$SCRATCH/loops/b"
ln -s . "$SCRATCH/loops/self"
printf 'end\n' >"$SCRATCH/loops/c/l0"
i=1
while [ $i -le 41 ]; do
	ln -s "l$((i - 1))" "$SCRATCH/loops/c/l$i"
	i=$((i + 1))
done
"$REF_MKSQUASHFS" "$SCRATCH/loops" "$SCRATCH/loops.sqfs" -noappend -quiet -no-progress >/dev/null 2>&1
for name in a self/self/a c/l41; do
	"$SCRATCH/sqfscat" "$SCRATCH/loops.sqfs" "$name" >/dev/null 2>"$SCRATCH/err"
	[ $? -eq 2 ] && grep -q 'failed to resolve symbolic link' "$SCRATCH/err" || fail "sqfscat $name: $(cat "$SCRATCH/err")"
	"$UNSQUASHFS" -lc -follow "$SCRATCH/loops.sqfs" "$name" >/dev/null 2>"$SCRATCH/err" &&
		grep -q "can't be resolved" "$SCRATCH/err" || fail "-follow $name: $(cat "$SCRATCH/err")"
done
"$SCRATCH/sqfscat" "$SCRATCH/loops.sqfs" c/l40 | grep -q '^end$' || fail "sqfscat through 40 links"
"$SCRATCH/sqfscat" "$SCRATCH/loops.sqfs" self/self/self/c/l0 | grep -q '^end$' || fail "sqfscat through a link to ."
"$SCRATCH/sqfscat" -l "$IMG" a 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q 'unknown option -l' "$SCRATCH/err" || fail "sqfscat accepted -l"
"$SCRATCH/sqfscat" -help | head -n 1 | grep -q '^SYNTAX: sqfscat' || fail "sqfscat -help"
# Every option of the reference sqfscat's -help is one ours knows.
/usr/bin/sqfscat -help 2>&1 | sed -n 's/^\t\(-[^ \t]*\).*/\1/p' >"$SCRATCH/catnames"
[ -s "$SCRATCH/catnames" ] || fail "cannot read the reference sqfscat's options"
while read -r spec; do
	for opt in $(printf '%s' "$spec" | sed 's/\[.*//') $(printf '%s' "$spec" | tr -d '[]'); do
		"$SCRATCH/sqfscat" "$opt" 2>&1 </dev/null | grep -q 'unknown option' && fail "sqfscat does not know $opt"
	done
done <"$SCRATCH/catnames"
"$SCRATCH/sqfscat" -o 0 -p 1 -ig -no-exit -da 8 -fr 8 -no-wild "$IMG" "t/x.gz" | cmp -s - "$S/t/x.gz" ||
	fail "sqfscat with the reference's options"
"$SCRATCH/sqfscat" -version | head -n 1 | grep -Eq '^sqfscat version [0-9]+\.[0-9]+' || fail "sqfscat -version"
finish
