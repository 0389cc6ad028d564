#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# cli.sh — the command line without root: help (whole, by option, by section), -version's
# first line, one-line errors naming the bad option or value, "IMG: not a squashfs image", and
# the man pages documenting every option -help lists.
. "$top_srcdir/tests/lib/common.sh"
need_tools "$UNSQUASHFS"
have_comp gzip || skip "built without gzip, which these checks' images use"
make_scratch
U=$UNSQUASHFS

for opt in -h -help --help -help-all -ha; do
	"$U" $opt >"$SCRATCH/help.txt" 2>&1 || fail "$opt: exit $?"
	head -n 1 "$SCRATCH/help.txt" | grep -q '^SYNTAX: unsquashfs' || fail "$opt: no SYNTAX line"
done
for opt in -v -version --version; do
	out=$("$U" $opt) || fail "$opt: exit $?"
	printf '%s\n' "$out" | head -n 1 | grep -Eq '^unsquashfs version 4\.[0-9]+(\.[0-9]+)? \(squashfs-toolkit [^)]*\)$' ||
		fail "$opt: first line \"$(printf '%s\n' "$out" | head -n 1)\""
done
"$U" -help-option 'file' >"$SCRATCH/ho.txt" || fail "-help-option file: exit $?"
for o in -extract-file -exclude-file -pf -pseudo-file; do
	grep -q -- "^  $o" "$SCRATCH/ho.txt" || fail "-help-option file does not show $o"
done
grep -q -- '^  -ls' "$SCRATCH/ho.txt" && fail "-help-option file shows -ls"
"$U" -ho nosuchoption >/dev/null 2>&1 && fail "-help-option with no match exits 0"
"$U" -help-section list | grep -q '^extraction' || fail "-help-section list"
"$U" -hs runtime | head -n 1 | grep -q 'runtime options:' || fail "-help-section runtime"
[ "$("$U" -hs 'misc|decomp' | grep -c ':$')" = 2 ] || fail "-help-section as a regular expression"
"$U" -hs nosuch >/dev/null 2>&1 && fail "-help-section nosuch exits 0"
"$U" -cols 60 -help | awk 'length > 60 && !/^  -/ && !/^SYNTAX/ { bad = 1 } END { exit bad }' || fail "-cols 60 not honoured"
"$U" -mem-default | grep -Eqx '[0-9]+' || fail "-mem-default"

# Every option of -help is in the man page (and sqfscat's in its own).
"$U" -help | sed -n 's/^  \(-[^ ]*\).*/\1/p' | sed 's/\[.*//' | sort -u >"$SCRATCH/opts"
[ "$(wc -l <"$SCRATCH/opts")" -gt 60 ] || fail "-help lists only $(wc -l <"$SCRATCH/opts") options"
while read -r o; do
	pat=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	grep -q -- "$pat" "$top_srcdir/man/unsquashfs.1" || fail "man/unsquashfs.1 does not document $o"
done <"$SCRATCH/opts"
ln -s "$U" "$SCRATCH/sqfscat"
"$SCRATCH/sqfscat" -help | sed -n 's/^  \(-[^ ]*\).*/\1/p' | sed 's/\[.*//' | sort -u >"$SCRATCH/catopts"
while read -r o; do
	pat=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	grep -q -- "$pat" "$top_srcdir/man/sqfscat.1" || fail "man/sqfscat.1 does not document $o"
done <"$SCRATCH/catopts"

# One-line errors naming what is wrong, exit 1.
printf 'not an image at all, just text\n' >"$SCRATCH/text"
: >"$SCRATCH/empty"
errcase() {
	want=$1
	shift
	"$U" "$@" >/dev/null 2>"$SCRATCH/err"
	rc=$?
	[ $rc -eq 1 ] || fail "$*: exit $rc, expected 1"
	[ "$(wc -l <"$SCRATCH/err")" -eq 1 ] || fail "$*: $(wc -l <"$SCRATCH/err") lines of error"
	grep -qF -- "$want" "$SCRATCH/err" || fail "$*: message \"$(cat "$SCRATCH/err")\" lacks \"$want\""
}
errcase "unknown option -bogus" -bogus "$SCRATCH/text"
errcase "unknown option --frobnicate" --frobnicate
errcase "-d: missing value" -d
errcase "-p: missing value" -p
errcase "-p: bad number of processors \"0\"" -p 0 "$SCRATCH/text"
errcase "-max-files: bad number of files" -max-files x "$SCRATCH/text"
errcase "-mem: 1K is less than 2 Mbytes" -mem 1K "$SCRATCH/text"
errcase "-mem-percent: bad percentage \"90\"" -mem-percent 90 "$SCRATCH/text"
errcase "-o: bad offset" -o 12Q "$SCRATCH/text"
errcase "-ex: the list of excludes has no terminating" -ex a b
errcase "extract file" -ef "$SCRATCH/nonexistent" "$SCRATCH/text"
errcase "-regex and -no-wildcards" -r -no-wild "$SCRATCH/text"
if [ -x "$REF_MKSQUASHFS" ]; then
	mkdir "$SCRATCH/tree"
	"$REF_MKSQUASHFS" "$SCRATCH/tree" "$SCRATCH/img" -noappend -quiet -no-progress >/dev/null 2>&1
	errcase "bad regular expression \"a[\"" -r -l "$SCRATCH/img" "a["
	errcase "bad regular expression \"(\"" -r -l -excludes "$SCRATCH/img" "("
fi
errcase "$SCRATCH/text: not a squashfs image" "$SCRATCH/text"
errcase "$SCRATCH/empty: not a squashfs image" -l "$SCRATCH/empty"
errcase "cannot open image" -s "$SCRATCH/nonexistent"
errcase "no image given" -l
errcase "-cat needs at least one file name" -cat "$SCRATCH/text"
"$SCRATCH/sqfscat" "$SCRATCH/text" a >/dev/null 2>"$SCRATCH/err"
[ $? -eq 1 ] && grep -q '^sqfscat: .*text: not a squashfs image$' "$SCRATCH/err" || fail "sqfscat on a text file: $(cat "$SCRATCH/err")"
finish
