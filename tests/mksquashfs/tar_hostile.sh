#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_hostile.sh — bad archives: truncated (in data, in a header, after an extension header),
# a header checksum error, "." and ".." path components, a hard link to a name not seen before,
# sizes that overflow (base-256, pax, sparse maps), a huge extension header, a name that is both
# a directory and a file, empty input. Each must end with exit 1, one line on stderr naming the
# entry and its offset, and no image; nothing may crash or hang. Leading "/" and "../" are
# stripped, as the reference does (both images compared).
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/mksquashfs/tar_lib.sh"

need_tools "$SQFSTAR" /usr/bin/tar
make_scratch
S=$SCRATCH

# set_field FILE OFFSET TEXT: overwrite bytes (printf escapes allowed) without truncating.
set_field() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# fix_checksum FILE HEADER_OFFSET: recompute a header's checksum after set_field.
fix_checksum() {
	set_field "$1" $(($2 + 148)) '        '
	_sum=$(od -An -tu1 -v -j "$2" -N 512 "$1" | awk '{ for (i = 1; i <= NF; i++) s += $i } END { print s }')
	set_field "$1" $(($2 + 148)) "$(printf '%06o' "$_sum")\\000 "
}

# refused LABEL ARCHIVE PATTERN: sqfstar must fail with one stderr line matching PATTERN.
refused() {
	rm -f "$S/img"
	timeout 120 "$SQFSTAR" -quiet -no-progress "$S/img" <"$2" >"$S/out" 2>"$S/err"
	_rc=$?
	[ $_rc -eq 1 ] || fail "$1: exit $_rc, expected 1 ($(head -c 200 "$S/err"))"
	[ "$(wc -l <"$S/err")" -eq 1 ] || fail "$1: expected one line on stderr, got: $(cat "$S/err")"
	grep -q -- "$3" "$S/err" || fail "$1: message does not say \"$3\": $(cat "$S/err")"
	no_valid_image "$S/img" || fail "$1: an image was left behind"
	[ -e "$S/img" ] && fail "$1: $S/img left behind"
	log "$1: $(cat "$S/err")"
}

mkdir -p "$S/t/d" && cd "$S/t" || die "cd"
head -c 5000 /dev/urandom >d/file
echo small >d/small
# d/file's header at 0, its data at 512; d/small's header at 5632, its data at 6144.
tar --format=gnu -cf "$S/good.tar" d/file d/small || die "tar"
head -c 3000 "$S/good.tar" >"$S/cut-data.tar"
refused "truncated in file data" "$S/cut-data.tar" '"d/file" (header at offset 0).*truncated'
head -c 5700 "$S/good.tar" >"$S/cut-header.tar"
refused "truncated in a header" "$S/cut-header.tar" 'offset 5632.*truncated'

cp "$S/good.tar" "$S/bad-sum.tar"
set_field "$S/bad-sum.tar" 5634 'X'
refused "header checksum error" "$S/bad-sum.tar" 'offset 5632.*checksum'
head -c 1048576 /dev/urandom >"$S/random.tar"
refused "not a tar archive" "$S/random.tar" 'offset 0.*checksum'
: >"$S/empty.tar"
refused "empty input" "$S/empty.tar" 'empty'

tar -P --format=gnu -cf "$S/dotdot.tar" d/../d/small 2>/dev/null || die "tar -P"
refused "a .. component" "$S/dotdot.tar" '"d/../d/small" (header at offset 0).*"\.\."'
tar -P --format=gnu -cf "$S/dot.tar" d/./small 2>/dev/null || die "tar -P"
refused "a . component" "$S/dot.tar" '"d/./small" (header at offset 0)'

# A hard link whose target was deleted from the archive.
ln d/small d/link
tar --format=gnu -cf "$S/link.tar" d/small d/link && tar --delete -f "$S/link.tar" d/small ||
	die "tar --delete"
refused "hard link to a name not seen" "$S/link.tar" '"d/link" (header at offset 0).*hard link to "d/small"'
rm d/link

# A file, then a member below it as if it were a directory.
echo inner >e
tar --format=gnu -cf "$S/clash.tar" d/small e --transform='s,^e$,d/small/inner,' || die "tar"
refused "a file used as a directory" "$S/clash.tar" '"d/small/inner" (header at offset 1024).*not a directory'

# Sizes: base-256 over 63 bits; near 2^63 (no such data follows); over 64 bits in pax.
cp "$S/good.tar" "$S/b256.tar"
set_field "$S/b256.tar" 124 '\200\377\377\377\377\377\377\377\377\377\377\377'
fix_checksum "$S/b256.tar" 0
refused "base-256 size over 63 bits" "$S/b256.tar" 'offset 0.*bad size field'
cp "$S/good.tar" "$S/b256big.tar"
set_field "$S/b256big.tar" 124 '\200\000\000\000\177\377\377\377\377\377\377\377'
fix_checksum "$S/b256big.tar" 0
refused "size near 2^63" "$S/b256big.tar" '"d/file" (header at offset 0)'

# A pax 'x' header with a 17-byte comment gives a 29-byte record, the length of
# "29 size=99999999999999999999\n": swap one for the other.
tar --format=posix --pax-option='comment=AAAAAAAAAAAAAAAAA' -cf "$S/paxsize.tar" d/small ||
	die "tar"
at=$(grep -boa '29 comment=AAAAAAAAAAAAAAAAA' "$S/paxsize.tar" | head -n 1 | cut -d: -f1)
[ -n "$at" ] || die "no comment record in GNU tar's pax header"
set_field "$S/paxsize.tar" "$at" '29 size=99999999999999999999'
refused "pax size over 64 bits" "$S/paxsize.tar" 'header at offset 0.*bad pax size'
# The same header claiming 20,000,000 bytes: over the limit, refused before any is read.
set_field "$S/paxsize.tar" 124 '00114226400'
fix_checksum "$S/paxsize.tar" 0
refused "extension header over the limit" "$S/paxsize.tar" 'offset 0.*extension header of 20000000 bytes'

# Old GNU sparse: a map segment past the real size.
truncate -s 200000 sp && printf 'x' | dd of=sp bs=1 seek=150000 conv=notrunc status=none
tar --format=gnu --sparse -cf "$S/sparse.tar" sp || die "tar --sparse"
set_field "$S/sparse.tar" 483 '00000001000'
fix_checksum "$S/sparse.tar" 0
refused "sparse map past the real size" "$S/sparse.tar" '"sp" (header at offset 0).*sparse map'

# Leading "/" and "../" are dropped (as the reference does): the member lands inside the image.
tar -P --format=gnu -cf "$S/abs.tar" "$S/t/d/small" ../t/d/small 2>/dev/null || die "tar -P"
rm -f "$S/abs.img"
if "$SQFSTAR" -quiet -no-progress "$S/abs.img" <"$S/abs.tar" 2>"$S/err"; then
	"$UNSQUASHFS" -lc "$S/abs.img" >"$S/list" 2>&1
	grep -q "squashfs-root$S/t/d/small\$" "$S/list" ||
		fail "absolute path not stored below the root: $(cat "$S/list")"
	grep -q 'squashfs-root/t/d/small$' "$S/list" || fail "../ not dropped: $(cat "$S/list")"
else
	fail "absolute and ../ paths refused: $(cat "$S/err")"
fi
finish
