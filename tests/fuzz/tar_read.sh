#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_read.sh — builds the tar reader fuzz target with clang -fsanitize=fuzzer,address,undefined
# and runs it for FUZZ_SECONDS (default 60), seeded with small archives of GNU tar and bsdtar in
# every format (long names, pax xattrs, sparse maps, hard links, devices).
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/fuzz/fuzz_lib.sh"
CLANG=${CLANG:-$(command -v clang-14 || command -v clang)}
[ -n "$CLANG" ] || skip "clang is not installed"
need_tools /usr/bin/tar
[ -f "$top_builddir/libmksquashfs.a" ] || skip "build libmksquashfs.a first (make)"
make_scratch
S=$top_srcdir

cfg_flags=$(fuzz_codec_libs)
# The reader and the tree are instrumented; the rest of mksquashfs comes from the build.
sources="$S/mksquashfs/tar/reader.c $S/mksquashfs/tar/entry.c $S/mksquashfs/tar/place.c
	$S/mksquashfs/tar/member.c $S/mksquashfs/tar/stream.c $S/mksquashfs/tar/header.c
	$S/mksquashfs/tar/pax.c $S/mksquashfs/tar/sparse.c $S/mksquashfs/tree.c"
fuzzer=$SCRATCH/tar_read_fuzz
# shellcheck disable=SC2086 # word lists
if ! "$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -I"$top_builddir" -I"$S" -o "$fuzzer" \
	"$S/tests/fuzz/tar_read.c" $sources "$top_builddir/libmksquashfs.a" \
	"$top_builddir/libcommon.a" "$top_builddir/libcodecs.a" "$top_builddir/libzstdcodec.a" \
	"$top_builddir/libsqutil.a" $cfg_flags -lpthread 2>"$SCRATCH/build.log"; then
	cat "$SCRATCH/build.log" >&2
	fail "the fuzz target does not build"
	finish
fi

# Seeds: a tiny tree in each format.
corpus=${FUZZ_CORPUS:-$SCRATCH/corpus}
t=$SCRATCH/t
mkdir -p "$corpus" "$t/d/e"
printf 'hello' >"$t/a"
head -c 3000 /dev/urandom >"$t/d/r"
truncate -s 20000 "$t/d/sparse" && printf 'x' | dd of="$t/d/sparse" bs=1 seek=12000 conv=notrunc status=none
ln -s a "$t/l"
ln "$t/a" "$t/h"
mkfifo "$t/p"
mkdir -p "$t/$(printf '%0120d' 0)" && echo long >"$t/$(printf '%0120d' 0)/name"
setfattr -n user.x -v y "$t/a" 2>/dev/null
i=0
for opts in "--format=gnu" "--format=oldgnu" "--format=ustar" "--format=v7" \
	"--format=posix --xattrs" "--format=gnu --sparse" "--format=posix --sparse --sparse-version=0.0" \
	"--format=posix --sparse --sparse-version=0.1" "--format=posix --sparse --sparse-version=1.0"; do
	i=$((i + 1))
	# shellcheck disable=SC2086 # opts is a list of words
	(cd "$t" && tar $opts -cf "$corpus/seed$i" . 2>/dev/null)
done
command -v bsdtar >/dev/null && (cd "$t" && bsdtar --format=pax -cf "$corpus/seed-bsd" .)

export TMPDIR="$SCRATCH"
fuzz_run "$fuzzer" "$corpus"
finish
