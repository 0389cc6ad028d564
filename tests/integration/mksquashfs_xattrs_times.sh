#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_xattrs_times.sh — the 4.6/4.7 xattr and time options against the reference 4.5.1,
# which has neither: our -xattrs-exclude/-include/-add image equals the reference's image of a copy
# of the source whose xattrs were changed the same way by setfattr; the 4.7 manual's -xattrs-add
# spellings give identical images; -mkfs-time/-inode-time inode, -repro and -repro-time equal the
# reference's -mkfs-time/-root-time/-all-time with the times they stand for.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$TREECMP" setfattr
make_scratch
S=$SCRATCH

# A source with xattrs in three namespaces on every kind of entry that takes them.
X=$S/x
mkdir -p "$X/dir/sub"
echo one >"$X/file"
echo two >"$X/dir/sub/file2"
ln -s file "$X/link"
mkfifo "$X/fifo"
mknod "$X/chr" c 1 3
for f in "$X" "$X/dir" "$X/dir/sub" "$X/file" "$X/dir/sub/file2"; do
	setfattr -n user.a -v 1 "$f" && setfattr -n user.b -v 2 "$f" &&
		setfattr -n trusted.t -v 3 "$f" && setfattr -n security.s -v 4 "$f" ||
		skip "the scratch filesystem does not take user/trusted/security xattrs"
done
for f in "$X/link" "$X/fifo" "$X/chr"; do
	setfattr -h -n trusted.t -v 5 "$f" || skip "no trusted xattrs on special files here"
done
touch -h -d '2021-06-01 UTC' "$X/link"
touch -d '2021-06-02 UTC' "$X/file" "$X/fifo" "$X/chr" "$X/dir/sub/file2" "$X/dir/sub" "$X/dir" "$X"

# copy_with NAME CMD...: a copy of $X as $S/NAME, CMD run on every entry (path appended).
copy_with() {
	_name=$1
	shift
	rm -rf "${S:?}/$_name"
	cp -a "$X" "$S/$_name" || die "cp -a failed"
	find "$S/$_name" | while read -r _p; do
		"$@" "$_p" 2>/dev/null || true
	done
	# setfattr moved directory times: put them back.
	find "$X" -printf '%P\n' | while read -r _p; do
		touch -h -r "$X/$_p" "$S/$_name/$_p"
	done
}

# same LABEL "OUR SOURCES" "OUR WORDS" "REFERENCE SOURCES" "REFERENCE WORDS": byte-identical
# images, else equal mounted trees. (Sources are words: scratch paths hold no blanks.)
same() {
	_l=$1 _so=$2 _wo=$3 _sr=$4 _wr=$5
	rm -f "$S/ours.img" "$S/ref.img"
	# shellcheck disable=SC2086 # the words are lists
	eval "\"\$MKSQUASHFS\" $_so \"\$S/ours.img\" -noappend -no-progress -quiet $_wo" ||
		{ fail "$_l: our build failed"; return; }
	eval "\"\$REF_MKSQUASHFS\" $_sr \"\$S/ref.img\" -noappend -no-progress -quiet $_wr" ||
		die "$_l: the reference failed"
	cmp -s "$S/ours.img" "$S/ref.img" && return
	mount_ro "$S/ours.img" "$S/m-ours" || return
	if mount_ro "$S/ref.img" "$S/m-ref"; then
		compare "$_l" "$S/m-ref" "$S/m-ours"
		umount_dir "$S/m-ref"
	fi
	umount_dir "$S/m-ours"
}

# ---- xattr filters: the reference gets a copy with the same xattrs removed. ----
copy_with nouser sh -c 'setfattr -h -x user.a "$0"; setfattr -h -x user.b "$0"'
same "-xattrs-exclude '^user\\.'" "$X" "-mkfs-time 1 -xattrs-exclude '^user\\.'" \
	"$S/nouser" "-mkfs-time 1"
copy_with onlyuser sh -c 'setfattr -h -x trusted.t "$0"; setfattr -h -x security.s "$0"'
same "-xattrs-include '^user\\.'" "$X" "-mkfs-time 1 -xattrs-include '^user\\.'" \
	"$S/onlyuser" "-mkfs-time 1"
copy_with mixed sh -c 'setfattr -h -x user.b "$0"; setfattr -h -x security.s "$0"'
same "-xattrs-include and -xattrs-exclude" "$X" \
	"-mkfs-time 1 -xattrs-include '^(user|trusted)\\.' -xattrs-exclude '^user\\.b\$'" \
	"$S/mixed" "-mkfs-time 1"

# ---- -xattrs-add: user xattrs on regular files and directories, others on everything. ----
copy_with added sh -c '[ -f "$0" ] || [ -d "$0" ] || exit 0; setfattr -n user.comment -v "hello world" "$0"'
same "-xattrs-add user.comment" "$X" "-mkfs-time 1 -xattrs-add 'user.comment=hello world'" \
	"$S/added" "-mkfs-time 1"
copy_with addedt sh -c 'setfattr -h -n trusted.new -v 0x00ff "$0"'
same "-xattrs-add trusted.new" "$X" "-mkfs-time 1 -xattrs-add 'trusted.new=0x00ff'" \
	"$S/addedt" "-mkfs-time 1"

# The manual's equivalent spellings make identical images.
n=0
for v in "hello world" "0saGVsbG8gd29ybGQ=" "0x68656c6c6f20776f726c64" "0thello world" \
	"0thello\\000world" "0saGVsbG8Ad29ybGQ=" "0x68656c6c6f00776f726c64"; do
	n=$((n + 1))
	"$MKSQUASHFS" "$X" "$S/sp$n.img" -noappend -no-progress -quiet -mkfs-time 1 \
		-xattrs-add "user.comment=$v" || fail "-xattrs-add user.comment=$v refused"
done
cmp -s "$S/sp1.img" "$S/sp2.img" && cmp -s "$S/sp1.img" "$S/sp3.img" &&
	cmp -s "$S/sp1.img" "$S/sp4.img" || fail "the four spellings of \"hello world\" differ"
cmp -s "$S/sp5.img" "$S/sp6.img" && cmp -s "$S/sp5.img" "$S/sp7.img" ||
	fail "the three spellings of \"hello\\000world\" differ"
if mount_ro "$S/sp5.img" "$S/m"; then
	v=$(getfattr --only-values -n user.comment "$S/m/file" | od -An -c | tr -s ' ')
	[ "$v" = " h e l l o \\0 w o r l d" ] || fail "user.comment is \"$v\""
	umount_dir "$S/m"
fi
"$MKSQUASHFS" "$X" "$S/dup.img" -noappend -no-progress -quiet -xattrs-add user.a=9 \
	2>"$S/dup.err" && fail "-xattrs-add of a name the files have was accepted"
grep -q 'Duplicate xattr name user.a' "$S/dup.err" || fail "duplicate: $(cat "$S/dup.err")"

# ---- times: "inode" is the latest source time; the reference is given that time. ----
T=$(find "$X" -printf '%T@\n' | sed 's/\..*//' | sort -n | tail -n 1)
same "-mkfs-time inode" "$X" "-mkfs-time inode" "$X" "-mkfs-time $T"
same "-inode-time inode" "$X" "-mkfs-time 1 -inode-time inode" "$X" "-mkfs-time 1 -all-time $T"
same "-repro" "$X" "-repro" "$X" "-mkfs-time $T"
# Two sources: the made-up root gets the latest time too (the manual: no -root-time needed).
TF=$(stat -c %Y "$X/dir/sub")
same "-repro, two sources" "$X/dir/sub $X/file" "-repro" "$X/dir/sub $X/file" \
	"-mkfs-time $TF -root-time $TF"
same "-repro-time with a date" "$X" "-repro-time '2001-01-01 12:00 UTC'" "$X" \
	"-mkfs-time 978350400 -all-time 978350400"
same "-mkfs-time with a date" "$X" "-mkfs-time 'Wed Feb 15 21:02:39 GMT 2023'" "$X" \
	"-mkfs-time 1676494959"
"$MKSQUASHFS" "$X/dir/sub" "$X/file" "$S/r1.img" -noappend -no-progress -quiet -repro || fail "-repro"
sleep 1
"$MKSQUASHFS" "$X/dir/sub" "$X/file" "$S/r2.img" -noappend -no-progress -quiet -repro || fail "-repro"
cmp -s "$S/r1.img" "$S/r2.img" || fail "-repro: two builds a second apart differ"
before=$(date +%s)
"$MKSQUASHFS" "$X" "$S/now.img" -noappend -no-progress -quiet -mkfs-time now || fail "-mkfs-time now"
after=$(date +%s)
t=$(od -An -tu4 -j8 -N4 "$S/now.img" | tr -d ' ')
[ "$t" -ge "$before" ] && [ "$t" -le "$after" ] || fail "-mkfs-time now gave $t ($before..$after)"
for o in "-repro" "-mkfs-time inode" "-inode-time 5"; do
	# shellcheck disable=SC2086
	SOURCE_DATE_EPOCH=5 "$MKSQUASHFS" "$X" "$S/sde.img" -noappend -quiet $o 2>"$S/sde.err" &&
		fail "SOURCE_DATE_EPOCH with $o was accepted"
	grep -q "SOURCE_DATE_EPOCH and command line options can't be used" "$S/sde.err" ||
		fail "SOURCE_DATE_EPOCH with $o: $(cat "$S/sde.err")"
done
finish
