#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# pseudo_ref.sh — unsquashfs -pf: for an image of every compressor (devices, hard links,
# xattrs, sparse files, odd names), `unsquashfs -pf - a.img | mksquashfs - b.img -pf -` with
# the reference mksquashfs (through a file: 4.5.1 has no -pf -) gives the same mounted tree;
# on a plain tree our output is the
# reference unsquashfs's byte for byte once put in its 4.5.1 form.
. "$top_srcdir/tests/lib/common.sh"
need_root
need_tools "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$UNSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
make_tree src --small --seed 11
# A name with a newline cannot be written in a pseudo file (checked below, on its own).
find "$SCRATCH/src" -name '*
*' -exec rm -rf {} + 2>/dev/null

# squashfs-tools 4.6 added the sparse field of "R" and the "x" (xattr) definitions; the
# reference mksquashfs is 4.5.1, so its input drops them (the xattrs are compared separately).
to_451() {
	sed -E '/^# START OF DATA - DO NOT MODIFY$/,$!{/^((\\.|[^\\ ])+) x /d;s/^((\\.|[^\\ ])+) R (.*) [01]$/\1 R \3/}'
}

# The "x" definitions as key=0xHEX lines, as getfattr -e hex prints them ("0t" values decoded).
xattr_pairs() {
	sed -n '/^# START OF DATA - DO NOT MODIFY$/q; s/^\(\\.\|[^\\ ]\)* x //p' | LC_ALL=C awk '
	BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
	{
		eq = index($0, "="); key = substr($0, 1, eq - 1); v = substr($0, eq + 1); hex = ""
		if (substr(v, 1, 2) == "0t") {
			v = substr(v, 3)
			for (i = 1; i <= length(v); i++) {
				c = substr(v, i, 1)
				if (c == "\\") {
					hex = hex sprintf("%02x", (substr(v, i + 1, 1) * 64) + (substr(v, i + 2, 1) * 8) + substr(v, i + 3, 1))
					i += 3
				} else
					hex = hex sprintf("%02x", ord[c])
			}
		} else
			for (i = 1; i <= length(v); i++) hex = hex sprintf("%02x", ord[substr(v, i, 1)])
		print key "=0x" hex
	}'
}

for comp in gzip xz lzo lz4 zstd; do
	img=$SCRATCH/$comp.sqfs
	"$REF_MKSQUASHFS" "$SCRATCH/src" "$img" -noappend -quiet -no-progress -comp "$comp" >/dev/null 2>&1 ||
		{ fail "$comp: the reference mksquashfs failed"; continue; }
	"$UNSQUASHFS" -pf - "$img" >"$SCRATCH/p.txt" 2>"$SCRATCH/err.txt" ||
		{ fail "$comp: unsquashfs -pf failed: $(head -n 3 "$SCRATCH/err.txt")"; continue; }
	[ -s "$SCRATCH/err.txt" ] && fail "$comp: -pf - wrote to stderr: $(head -n 2 "$SCRATCH/err.txt")"
	# Every xattr of the image is in the pseudo file, value for value (as key=hex pairs: the
	# reference mksquashfs 4.5.1 cannot read them back, so the round trip below leaves them out).
	mount_ro "$img" "$SCRATCH/m1" || continue
	getfattr -R -h -d -m - -e hex "$SCRATCH/m1" 2>/dev/null | grep '=' | sort >"$SCRATCH/want.x"
	umount_dir "$SCRATCH/m1"
	xattr_pairs <"$SCRATCH/p.txt" | sort >"$SCRATCH/got.x"
	[ -s "$SCRATCH/want.x" ] || fail "$comp: the test image has no xattrs"
	cmp -s "$SCRATCH/want.x" "$SCRATCH/got.x" ||
		fail "$comp: xattrs differ from the image's: $(diff "$SCRATCH/want.x" "$SCRATCH/got.x" | head -n 4)"
	# 4.5.1 reads pseudo files from a file only (4.6 added -pf -).
	to_451 <"$SCRATCH/p.txt" >"$SCRATCH/p451.txt"
	"$REF_MKSQUASHFS" - "$SCRATCH/back.sqfs" -pf "$SCRATCH/p451.txt" -noappend -quiet -no-progress \
		-comp "$comp" >/dev/null 2>"$SCRATCH/err.txt" ||
		{ fail "$comp: mksquashfs - -pf - refused our pseudo file: $(head -n 3 "$SCRATCH/err.txt")"; continue; }
	mount_ro "$img" "$SCRATCH/m1" && mount_ro "$SCRATCH/back.sqfs" "$SCRATCH/m2" &&
		compare "$comp round trip" "$SCRATCH/m1" "$SCRATCH/m2" --no-xattrs
	umount_dir "$SCRATCH/m1"
	umount_dir "$SCRATCH/m2"
	rm -f "$SCRATCH/back.sqfs"
done

# Byte for byte with the reference's -pf on a tree whose names and ids 4.5.1 writes as 4.6
# does (4.5.1 escapes ' but not tabs, and prints ids over 2^31 as negative numbers).
mkdir -p "$SCRATCH/plain/d/e"
printf 'hello\n' >"$SCRATCH/plain/a"
ln "$SCRATCH/plain/a" "$SCRATCH/plain/d/hard"
ln -s ../a "$SCRATCH/plain/d/sym"
mknod "$SCRATCH/plain/d/e/null" c 1 3
mknod "$SCRATCH/plain/d/e/blk" b 8 1
mkfifo "$SCRATCH/plain/fifo"
printf 'with space\n' >"$SCRATCH/plain/with space"
head -c 300000 /dev/urandom >"$SCRATCH/plain/big"
truncate -s 1M "$SCRATCH/plain/holes"
chown 1000:100 "$SCRATCH/plain/a"
chmod 4755 "$SCRATCH/plain/big"
"$REF_MKSQUASHFS" "$SCRATCH/plain" "$SCRATCH/plain.sqfs" -noappend -quiet -no-progress -no-xattrs >/dev/null 2>&1
"$UNSQUASHFS" -pf "$SCRATCH/ours.pf" "$SCRATCH/plain.sqfs" >/dev/null 2>&1 || fail "-pf FILE failed"
"$REF_UNSQUASHFS" -pf "$SCRATCH/ref.pf" "$SCRATCH/plain.sqfs" >/dev/null 2>&1
to_451 <"$SCRATCH/ours.pf" | cmp -s - "$SCRATCH/ref.pf" ||
	fail "-pf differs from the reference's: $(to_451 <"$SCRATCH/ours.pf" | diff - "$SCRATCH/ref.pf" | head -n 5)"
"$UNSQUASHFS" -pseudo-file - "$SCRATCH/plain.sqfs" | cmp -s - "$SCRATCH/ours.pf" ||
	fail "-pseudo-file - differs from -pf FILE"
grep -q '^holes R .* 1$' "$SCRATCH/ours.pf" || fail "the sparse file is not marked sparse"
grep -q '^big R .* 0$' "$SCRATCH/ours.pf" || fail "a full file is marked sparse"
# With a selection and an exclude, as the reference.
"$UNSQUASHFS" -pf "$SCRATCH/ours.pf" -ex d/e \; "$SCRATCH/plain.sqfs" d a >/dev/null 2>&1
"$REF_UNSQUASHFS" -pf "$SCRATCH/ref.pf" -ex d/e \; "$SCRATCH/plain.sqfs" d a >/dev/null 2>&1
to_451 <"$SCRATCH/ours.pf" | cmp -s - "$SCRATCH/ref.pf" || fail "-pf with paths and -ex differs from the reference's"

# xattrs are "x" definitions; values that are not plain text are written 0t-encoded.
mkdir "$SCRATCH/xt"
printf 'x' >"$SCRATCH/xt/f"
setfattr -n user.text -v hello "$SCRATCH/xt/f"
setfattr -n user.bin -v 0x00ff5c41 "$SCRATCH/xt/f"
setfattr -n user.looks -v 0xabc "$SCRATCH/xt/f" 2>/dev/null
setfattr -n trusted.t -v secret "$SCRATCH/xt/f"
"$REF_MKSQUASHFS" "$SCRATCH/xt" "$SCRATCH/xt.sqfs" -noappend -quiet -no-progress >/dev/null 2>&1
"$UNSQUASHFS" -pf - "$SCRATCH/xt.sqfs" >"$SCRATCH/xt.pf"
grep -q '^f x user.text=hello$' "$SCRATCH/xt.pf" || fail "plain xattr value not written as is"
grep -q '^f x user.bin=0t\\000\\377\\134A$' "$SCRATCH/xt.pf" || fail "binary xattr value not 0t-encoded"
grep -q '^f x trusted.t=secret$' "$SCRATCH/xt.pf" || fail "trusted xattr missing"
"$UNSQUASHFS" -pf - -xattrs-exclude '^trusted' "$SCRATCH/xt.sqfs" | grep -q trusted && fail "-xattrs-exclude ignored by -pf"
"$UNSQUASHFS" -pf - -no-xattrs "$SCRATCH/xt.sqfs" | grep -q ' x ' && fail "-no-xattrs ignored by -pf"

# A name with a newline: left out with a message naming it, exit 2, the rest still written.
mkdir "$SCRATCH/nl"
printf 'a' >"$SCRATCH/nl/ok"
printf 'b' >"$SCRATCH/nl/new
line"
"$REF_MKSQUASHFS" "$SCRATCH/nl" "$SCRATCH/nl.sqfs" -noappend -quiet -no-progress >/dev/null 2>&1
"$UNSQUASHFS" -pf - "$SCRATCH/nl.sqfs" >"$SCRATCH/nl.pf" 2>"$SCRATCH/err.txt"
rc=$?
[ $rc -eq 2 ] && grep -q 'newline' "$SCRATCH/err.txt" && grep -q '^ok R ' "$SCRATCH/nl.pf" ||
	fail "a name with a newline: exit $rc, $(head -n 1 "$SCRATCH/err.txt")"

# A pseudo file that cannot be written: exit 1 naming it, nothing left behind.
"$UNSQUASHFS" -pf "$SCRATCH/no/such/dir/p" "$SCRATCH/plain.sqfs" >/dev/null 2>"$SCRATCH/err.txt"
rc=$?
[ $rc -eq 1 ] && grep -q 'no/such/dir/p' "$SCRATCH/err.txt" || fail "unwritable -pf: exit $rc"
# A corrupt image: a partial regular pseudo file is removed, but a device given as the pseudo
# file (-pf /dev/null) is never unlinked (a node made in the scratch folder stands in for it).
cp "$SCRATCH/plain.sqfs" "$SCRATCH/bad.sqfs"
itab=$(od -An -tu8 -j 64 -N 8 "$SCRATCH/bad.sqfs" | tr -d ' ')
printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' |
	dd of="$SCRATCH/bad.sqfs" bs=1 seek=$((itab + 2)) conv=notrunc status=none
"$UNSQUASHFS" -pf "$SCRATCH/bad.pf" "$SCRATCH/bad.sqfs" >/dev/null 2>&1 && fail "-pf of a corrupt image succeeded"
[ -e "$SCRATCH/bad.pf" ] && fail "-pf of a corrupt image left $SCRATCH/bad.pf behind"
mknod -m 666 "$SCRATCH/null" c 1 3 || die "mknod"
"$UNSQUASHFS" -pf "$SCRATCH/null" "$SCRATCH/bad.sqfs" >/dev/null 2>&1 && fail "-pf DEVICE of a corrupt image succeeded"
[ -c "$SCRATCH/null" ] || fail "-pf DEVICE of a corrupt image removed the device"
finish
