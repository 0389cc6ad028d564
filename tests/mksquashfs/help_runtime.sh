#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# help_runtime.sh — the help system (every option of the tables in -help and -help-all, -cols
# wrapping, sections by name and regex, compressors, one-line refusals), -version's first line,
# -percentage's output, -info-file, -fix refusals. No root needed.
. "$top_srcdir/tests/lib/common.sh"

need_tools "$MKSQUASHFS"
make_scratch
S=$SCRATCH
M=$MKSQUASHFS

# Every option entry (-help-option . lists them all) is in -help and in -help-all.
"$M" -help-option . >"$S/all-entries" || fail "-help-option . failed"
sed -n 's/^\(-[A-Za-z0-9-]*\).*/\1/p' "$S/all-entries" | sort -u >"$S/names"
[ "$(wc -l <"$S/names")" -gt 70 ] || fail "-help-option . lists $(wc -l <"$S/names") options"
"$M" -help >"$S/help" || fail "-help failed"
"$M" -help-all >"$S/help-all" || fail "-help-all failed"
while read -r n; do
	grep -q -- "^$n\\b" "$S/help" || fail "-help lacks $n"
	grep -q -- "^$n\\b" "$S/help-all" || fail "-help-all lacks $n"
done <"$S/names"
for word in "Compressors available" "SOURCE_DATE_EPOCH" "-help-section <section-name>"; do
	grep -q -- "$word" "$S/help" || fail "-help lacks \"$word\""
done
for word in "Pseudo file definition format:" "Exit status:" "Symbolic mode specification:"; do
	grep -q -- "$word" "$S/help-all" || fail "-help-all lacks \"$word\""
done
cmp -s "$S/help" "$("$M" -h >"$S/h"; echo "$S/h")" || fail "-h differs from -help"
"$M" --help | cmp -s - "$S/help" || fail "--help differs from -help"
"$M" -ha | cmp -s - "$S/help-all" || fail "-ha differs from -help-all"

# -cols: descriptions wrap within the width (tabs at 8 columns).
"$M" -help-option . -cols 60 | expand -t 8 | awk 'length > 60 { print; bad = 1 } END { exit bad }' ||
	fail "-cols 60 left longer lines"
[ "$("$M" -ho '^-xattrs-add' -cols 200 | wc -l)" -lt "$("$M" -ho '^-xattrs-add' -cols 50 | wc -l)" ] ||
	fail "-cols does not change the wrapping"

# Sections.
[ "$("$M" -help-section list | grep -c '^	[a-z]')" -eq 19 ] || fail "-help-section list: not 19 sections"
"$M" -help-section compression | head -n 1 | grep -qx 'Filesystem compression options:' ||
	fail "-help-section compression"
"$M" -hs 'comp|time' | grep -q '^Filesystem time options:' || fail "-hs with a regex"
"$M" -hs actions | grep -q 'actions are not supported' || fail "-hs actions says nothing"
"$M" -hs nosuch 2>"$S/err" >/dev/null && fail "-hs nosuch accepted"
[ "$(wc -l <"$S/err")" -eq 1 ] && grep -q 'no section matches "nosuch"' "$S/err" ||
	fail "-hs nosuch: $(cat "$S/err")"
"$M" -ho '(' 2>"$S/err" >/dev/null && fail "-ho ( accepted"
grep -q 'invalid regex' "$S/err" || fail "-ho (: $(cat "$S/err")"

# Compressors.
# lzma comes with liblzma, as xz does; built out it is only "not built in".
if have_comp xz; then
	"$M" -help-comp list | grep -q 'lzma (no kernel support)$' || fail "-help-comp list lacks lzma's note"
else
	"$M" -help-comp list | grep -q 'lzma (not built in)$' || fail "-help-comp list: lzma not marked as built out"
fi
"$M" -help-comp zstd | head -n 1 | grep -qx 'mksquashfs: compressor "zstd".  Options supported:' ||
	fail "-help-comp zstd"
"$M" -help-comp nosuch 2>"$S/err" >/dev/null && fail "-help-comp nosuch accepted"
"$M" -comp zstd -Xhelp | grep -q Xcompression-level || fail "-comp zstd -Xhelp"

# -version: the line scripts parse.
"$M" -version | head -n 1 | grep -Eqx 'mksquashfs version 4\.7\.5 \(squashfs-toolkit [0-9]+\.[0-9]+\.[0-9]+\)' ||
	fail "-version: $("$M" -version | head -n 1)"
[ "$("$M" -mem-default)" -gt 0 ] 2>/dev/null || fail "-mem-default: $("$M" -mem-default)"

# -percentage: bare rising percentages ending at 100, even off a terminal.
mkdir -p "$S/src/d"
head -c 300000 /dev/urandom >"$S/src/big"
echo small >"$S/src/d/small"
"$M" "$S/src" "$S/p.img" -noappend -percentage -b 4K >"$S/pct" || fail "-percentage build failed"
grep -E '^[0-9]+$' "$S/pct" >"$S/nums"
[ "$(tail -n 1 "$S/nums")" = 100 ] || fail "-percentage does not end at 100: $(tr '\n' ' ' <"$S/nums")"
sort -n -c "$S/nums" 2>/dev/null || fail "-percentage goes back: $(tr '\n' ' ' <"$S/nums")"
[ "$(sort -u "$S/nums" | wc -l)" -eq "$(wc -l <"$S/nums")" ] || fail "-percentage repeats a value"

# -info-file: the -info listing, in a file that must not exist yet.
"$M" "$S/src" "$S/i.img" -noappend -quiet -info >"$S/info.out" || fail "-info failed"
"$M" "$S/src" "$S/i.img" -noappend -quiet -info-file "$S/info.txt" || fail "-info-file failed"
cmp -s "$S/info.out" "$S/info.txt" || fail "-info-file differs from -info"
grep -q '^directory / inode 0x' "$S/info.txt" || fail "-info does not list the root"
"$M" "$S/src" "$S/i.img" -noappend -quiet -info-file "$S/info.txt" 2>"$S/err" &&
	fail "-info-file overwrote an existing file"

# -fix refuses what is not a streamed image.
"$M" -fix "$S/i.img" 2>"$S/err" && fail "-fix accepted a normal image"
grep -q 'not a streamed Squashfs file' "$S/err" || fail "-fix: $(cat "$S/err")"
"$M" "$S/src" - -stream >"$S/s.img" || fail "-stream failed"
head -c 5000 "$S/s.img" >"$S/cut.img"
"$M" -fix "$S/cut.img" 2>"$S/err" && fail "-fix accepted a truncated stream"
"$M" -fix "$S/s.img" && "$M" "$S/src" "$S/n.img" -noappend -quiet -no-duplicates \
	-mkfs-time "$(od -An -tu4 -j8 -N4 "$S/s.img" | tr -d ' ')" || fail "-fix failed"
cmp -s "$S/s.img" "$S/n.img" || fail "a fixed stream differs from the same build with -no-duplicates"
# Through a pipe (nothing seekable), and into a file inside the source (left out of the image).
"$M" "$S/src" - -stream -mkfs-time 9 | cat >"$S/pipe.img" || fail "-stream into a pipe failed"
"$M" -fix "$S/pipe.img" && "$M" "$S/src" "$S/n.img" -noappend -quiet -no-duplicates -mkfs-time 9 &&
	cmp -s "$S/pipe.img" "$S/n.img" || fail "a stream through a pipe differs once fixed"
"$M" "$S/src" - -stream -mkfs-time 9 -inode-time 9 >"$S/src/inside.img" ||
	fail "-stream into the source failed"
mv "$S/src/inside.img" "$S/inside.img"
"$M" -fix "$S/inside.img" &&
	"$M" "$S/src" "$S/n.img" -noappend -quiet -no-duplicates -mkfs-time 9 -inode-time 9 &&
	cmp -s "$S/inside.img" "$S/n.img" ||
	fail "a stream written inside its source holds itself"
finish
