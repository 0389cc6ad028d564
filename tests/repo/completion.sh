#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# completion.sh — the bash completion files complete each program's options (read from its own
# -help), the compressors built in after -comp, and paths inside an image for unsquashfs.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@" # make check runs tests with $(SHELL)
. "$top_srcdir/tests/lib/common.sh"
command -v compgen >/dev/null || skip "bash's compgen is not available"
need_tools "$MKSQUASHFS" "$UNSQUASHFS"
make_scratch
PATH=$(dirname "$MKSQUASHFS"):$(dirname "$UNSQUASHFS"):$PATH
. "$top_srcdir/completion/mksquashfs"
. "$top_srcdir/completion/unsquashfs"

# complete FUNCTION WORD...: the completions of the last word.
complete_words() {
	local fn=$1
	shift
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	"$fn"
	printf '%s\n' "${COMPREPLY[@]}"
}

out=$(complete_words _mksquashfs mksquashfs dir img -co)
echo "$out" | grep -qx -- -comp || fail "mksquashfs -co does not complete to -comp: $out"
out=$(complete_words _mksquashfs mksquashfs dir img -no-)
echo "$out" | grep -qx -- -no-fragments || fail "-no- does not offer -no-fragments: $out"
out=$(complete_words _mksquashfs mksquashfs dir img -comp "")
for c in gzip zstd; do
	have_comp "$c" || continue # a --without-X build rightly leaves X out
	echo "$out" | grep -qx "$c" || fail "-comp does not offer $c: $out"
done
echo "$out" | grep -qx lzma && ! "$MKSQUASHFS" -help | grep -q $'^\t\t\t\tlzma$' &&
	fail "-comp offers lzma, which is not built in"
out=$(complete_words _unsquashfs unsquashfs -l)
echo "$out" | grep -qx -- -ll || fail "unsquashfs -l does not offer -ll: $out"

mkdir -p "$SCRATCH/src/dir"
echo x >"$SCRATCH/src/dir/file"
"$MKSQUASHFS" "$SCRATCH/src" "$SCRATCH/img" -noappend -quiet -no-progress >/dev/null ||
	die "mksquashfs failed"
out=$(complete_words _unsquashfs unsquashfs "$SCRATCH/img" di)
echo "$out" | grep -qx dir || fail "paths inside the image are not offered: $out"
out=$(complete_words _unsquashfs unsquashfs -d "$SCRATCH/x" -max-depth 3 "$SCRATCH/img" di)
echo "$out" | grep -qx dir || fail "the image is not found after options with values: $out"
out=$(complete_words _mksquashfs mksquashfs dir img -processors "")
[ -z "$out" ] || fail "a value of -processors is completed with: $out"
finish
