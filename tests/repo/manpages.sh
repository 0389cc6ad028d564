#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# manpages.sh — every option a program's -help lists appears in its manual page, and each
# manual page has a section on how we differ from squashfs-tools. A planted option missing
# from a page proves the check can fail.
. "$top_srcdir/tests/lib/common.sh"

# options PROGRAM: the option words its -help lists (at a line start, or indented for
# unsquashfs), in full where -help brackets the optional part ("-no-wild[cards]").
options() {
	"$1" -help 2>/dev/null |
		sed -n 's/^[[:space:]]*\(-[A-Za-z0-9][][A-Za-z0-9_-]*\).*/\1/p' | tr -d '[]' | sort -u
}

# missing PAGE WORDS...: the words absent from the page (roff escapes of '-' undone).
missing() {
	_page=$1
	shift
	_text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$_page")
	for _o in "$@"; do
		printf '%s\n' "$_text" | grep -q -- "$_o\([^A-Za-z0-9_-]\|$\)" || echo "$_o"
	done
}

check_program() { # PROGRAM PAGE
	need_tools "$1"
	[ -f "$2" ] || { fail "$2 does not exist"; return; }
	_opts=$(options "$1")
	[ -n "$_opts" ] || { fail "$1 -help lists no option"; return; }
	# shellcheck disable=SC2086 # a list of words
	_gone=$(missing "$2" $_opts)
	[ -z "$_gone" ] || fail "$(basename "$2") lacks options of $(basename "$1") -help:" $_gone
	grep -q '^\.SH DIFFERENCES FROM SQUASHFS-TOOLS' "$2" ||
		fail "$(basename "$2") has no DIFFERENCES FROM SQUASHFS-TOOLS section"
}

check_program "$MKSQUASHFS" "$top_srcdir/man/mksquashfs.1"
check_program "$UNSQUASHFS" "$top_srcdir/man/unsquashfs.1"
for alias in sqfstar sqfscat; do
	[ -f "$top_srcdir/man/$alias.1" ] || continue
	prog=$(dirname "$MKSQUASHFS")/$alias
	[ "$alias" = sqfscat ] && prog=$(dirname "$UNSQUASHFS")/$alias
	[ -x "$prog" ] && check_program "$prog" "$top_srcdir/man/$alias.1"
done

make_scratch
printf '.TH X 1\n.SH OPTIONS\n\\-alpha\n' >"$SCRATCH/x.1"
[ "$(missing "$SCRATCH/x.1" -alpha -beta)" = -beta ] || fail "a planted missing option was not caught"
finish
