# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_pseudo.sh — every pseudo definition type, side by side with the reference 4.5.1
# (same arguments, both images mounted and compared, ours extracted by both unsquashfs), and the
# 4.6/4.7 additions 4.5.1 lacks (x, h, -pd, -pseudo-override) against the upstream manual.
. "$top_srcdir/tests/integration/sidebyside.sh"

make_tree src --small --seed 31
# Hard-linked symlinks are split at random by the reference 4.5.1 (see common.sh).
rm "$S/src/hardlinks/b/symlink-link"
printf 'outside\n' >"$S/outside"
ln -s outside "$S/outside-link"
touch -d @1500000000 "$S/outside"

# Lower-case definitions are stamped with the build time: SOURCE_DATE_EPOCH (in the past) makes
# that the same second for both tools (and clamps the source's times alike).
SOURCE_DATE_EPOCH=1200000000
export SOURCE_DATE_EPOCH
same "d m b c f s i l L" "" -- "$S/src" IMG \
	-p 'dev d 755 0 0' -p 'dev/console c 600 0 0 5 1' -p 'dev/sda b 660 0 6 8 0' \
	-p 'dev/big c 600 0 0 4095 1048575' \
	-p 'dev/fifo i 644 1 2 f' -p 'dev/sock i 777 3 4 s' \
	-p 'etc d 750 root root' -p 'etc/issue f 644 0 0 printf "hello %s\n" world' \
	-p 'etc/big f 600 7 7 seq 1 60000' -p 'etc/empty f 644 0 0 true' \
	-p 'etc/issue.net L etc/issue' -p 'etc/console-link L /dev/console' \
	-p 'etc/link s 0 0 0 ../dev/console' -p 'etc/link2 s 777 1 1   spaced target  ' \
	-p 'files m 700 5 6' -p 'modes/file-0400 m 4755 9 9' \
	-p 'hostlink l '"$S/outside" \
	-p 'srclink l '"$S/src/dups/frag-1" \
	-p '"quoted name" d 711 1 1' -p 'back\ slash\"q d 700 0 0' -p 'quoted\ name/x i 600 0 0 f' \
	-p 'dups/frag-1 f 644 0 0 echo ignored: the source has it' \
	-p 'dups d 711 1 1' -p 'dups/merged c 600 0 0 1 1' -p '/ d 700 9 9'
unset SOURCE_DATE_EPOCH

same "timed D M B C F S I" "" -- "$S/src" IMG \
	-p 'tdir D 1000000000 755 1 1' -p 'tdir/blk B 1100000000 600 0 0 1 2' \
	-p 'tdir/chr C 1200000000 600 0 0 3 4' -p 'tdir/cmd F 1300000000 644 2 2 echo timed' \
	-p 'tdir/sym S 1400000000 777 3 3 target' -p 'tdir/fifo I 1500000000 644 4 4 f' \
	-p 'files M 1600000000 700 5 5' -p 'tdir/date D "1 jan 2001 UTC" 755 0 0'

# A pseudo file (-pf) with comments, continuations and R data (unsquashfs -pf output), and
# the same from standard input.
cat >"$S/defs" <<'EOF'
# a comment, then a blank line

/ D 1000000000 755 0 0
dir D 1100000000 700 1 2
  # an indented comment
dir/cmd F 1200000000 644 0 0 echo one; \
echo two
dir/reg R 1300000000 640 3 4 12 0
dir/reg2 R 1300000001 640 3 4 5 6
dir/dev C 1400000000 600 0 0 10 \
 20
#
# START OF DATA - DO NOT MODIFY
#
Hello World
EOF
same "-pf with R data, no source" "" -- - IMG -pf "$S/defs"
# Standard input: the data section comes through a pipe (spooled).
if cat "$S/defs" | "$MKSQUASHFS" - "$S/pipe.img" -noappend -no-progress -pf - >"$S/mk.log" 2>&1; then
	if mount_at "$S/pipe.img" "$S/ours" && mount_at "$S/ref.img" "$S/ref"; then
		compare "-pf - from a pipe" "$S/ref" "$S/ours"
		done_both
	fi
else
	fail "-pf -: $(tail -n 2 "$S/mk.log")"
fi

# The reference unsquashfs -pf output of an image fed back (4.5's "convert without
# unpacking"): R definitions into a 5 MB data section. 4.5.1's unsquashfs -pf writes names with
# a newline or a tab unescaped, gids over 2^31 and minors over 255 of large majors wrongly, so
# those entries are left out of this tree.
cp -a "$S/src" "$S/rt"
rm -rf "$S/rt/owners" "$S/rt/names/new"* "$S/rt/names/tab"* "$S/rt/special/block-259"* \
	"$S/rt/special/char-4095"*
"$REF_MKSQUASHFS" "$S/rt" "$S/rt.img" -noappend -no-progress >/dev/null 2>&1 &&
	"$REF_UNSQUASHFS" -pf "$S/rt.pf" "$S/rt.img" >/dev/null 2>&1 || die "cannot make $S/rt.pf"
same "unsquashfs -pf output back in" "" -- - IMG -pf "$S/rt.pf"
# ... from standard input redirected from the file (read in place, not spooled).
if "$MKSQUASHFS" - "$S/stdin.img" -noappend -no-progress -pf - <"$S/rt.pf" >"$S/mk.log" 2>&1; then
	if mount_at "$S/stdin.img" "$S/ours" && mount_at "$S/ref.img" "$S/ref"; then
		compare "-pf - from a file" "$S/ref" "$S/ours"
		done_both
	fi
else
	fail "-pf - <file: $(tail -n 2 "$S/mk.log")"
fi
rm -rf "$S/rt" "$S/rt.img" "$S/rt.pf" "$S/stdin.img"

# Several sources (made-up root) with pseudo definitions at the top and inside a source.
SOURCE_DATE_EPOCH=1200000000
export SOURCE_DATE_EPOCH
same "several sources" "" -- "$S/src/files" "$S/src/links" IMG \
	-p 'files/new c 600 0 0 1 1' -p 'top d 700 0 0' -p 'top/f f 644 0 0 echo top'
# -all-root and -force-uid apply to pseudo entries too (4.5.1 and the 4.7 manual).
same "-all-root with pseudo" "" -- "$S/src" IMG -all-root -p 'dev d 755 5 5' \
	-p 'dev/null c 666 7 7 1 3' -p 'files m 700 8 8'
same "-force-uid -force-gid with pseudo" "" -- "$S/src" IMG -force-uid 11 -force-gid 12 \
	-p 'dev d 755 5 5' -p 'files m 700 8 8'
same "-no-hardlinks with l and L" "" -- "$S/src" IMG -no-hardlinks \
	-p 'a c 600 0 0 1 1' -p 'b L a' -p 'c l '"$S/src/dups/frag-1"
unset SOURCE_DATE_EPOCH

# ---- 4.6/4.7 additions (not in 4.5.1): checked against the upstream manual ----
SOURCE_DATE_EPOCH=1200000000
export SOURCE_DATE_EPOCH
# x: "filename x name=val" adds the xattr; val plain, 0s base64, 0x hex, 0t with \ooo.
if ours "x definitions" "$S/src" IMG -p 'files x user.plain=hello world' \
	-p 'files x user.b64=0saGVsbG8gd29ybGQ=' -p 'files x user.hex=0x68656c6c6f' \
	-p 'files x trusted.t=0thello\000world' -p 'dev d 755 0 0' -p 'dev x security.s=0x01' \
	-p '/ x user.root=top'; then
	expect "x plain" "hello world" "$(getfattr --absolute-names --only-values -n user.plain "$S/ours/files")"
	expect "x base64" "hello world" "$(getfattr --absolute-names --only-values -n user.b64 "$S/ours/files")"
	expect "x hex" "hello" "$(getfattr --absolute-names --only-values -n user.hex "$S/ours/files")"
	expect "x 0t" "68656c6c6f00776f726c64" \
		"$(getfattr --absolute-names --only-values -n trusted.t "$S/ours/files" | od -An -tx1 | tr -d ' \n')"
	expect "x on a pseudo dir" "01" \
		"$(getfattr --absolute-names --only-values -n security.s "$S/ours/dev" | od -An -tx1 | tr -d ' \n')"
	expect "x on the root" "top" "$(getfattr --absolute-names --only-values -n user.root "$S/ours")"
	extract_both "x definitions" "$S/ours.img" "$S/ours" ""
	umount_dir "$S/ours"
fi
# h follows a symlink to its target, l does not (4.5.1 stores an l to a symlink outside the
# sources with an empty target, which its own unsquashfs then refuses).
if ours "h and l" "$S/src" IMG -p 'viah h '"$S/outside-link" -p 'vial l '"$S/outside-link"; then
	expect "h follows" "regular file" "$(stat -c %F "$S/ours/viah")"
	expect "h content" "outside" "$(cat "$S/ours/viah")"
	expect "l keeps the symlink" "symbolic link" "$(stat -c %F "$S/ours/vial")"
	extract_both "h and l" "$S/ours.img" "$S/ours" ""
	umount_dir "$S/ours"
fi
# -pd: missing directories on the way get the default directory's attributes.
if ours "-pd" - IMG -pd 'D 1000 711 3 4' -p 'a/b/c/file f 644 0 0 echo deep' \
	-p 'a/b d 700 5 5'; then
	expect "-pd root" "711 3 4 1000" "$(stat -c '%a %u %g %Y' "$S/ours")"
	expect "-pd a" "711 3 4 1000" "$(stat -c '%a %u %g %Y' "$S/ours/a")"
	expect "-pd b defined" "700 5 5" "$(stat -c '%a %u %g' "$S/ours/a/b")"
	expect "-pd file" "deep" "$(cat "$S/ours/a/b/c/file")"
	extract_both "-pd" "$S/ours.img" "$S/ours" ""
	umount_dir "$S/ours"
fi
# -pseudo-override: pseudo owners win over -all-root/-force-*, source entries are still forced.
if ours "-pseudo-override" "$S/src" IMG -all-root -pseudo-override -p 'dev d 755 5 6' \
	-p 'files m 700 7 8'; then
	expect "override pseudo dir" "5 6" "$(stat -c '%u %g' "$S/ours/dev")"
	expect "override m" "7 8" "$(stat -c '%u %g' "$S/ours/files")"
	expect "override source" "0 0" "$(stat -c '%u %g' "$S/ours/links")"
	umount_dir "$S/ours"
fi
unset SOURCE_DATE_EPOCH
finish
