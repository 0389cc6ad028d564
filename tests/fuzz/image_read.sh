#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# image_read.sh — builds the image reader fuzz target with clang -fsanitize=fuzzer,address,undefined
# and runs it for FUZZ_SECONDS (default 60), seeded with small reference images of every compressor.
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/fuzz/fuzz_lib.sh"
CLANG=${CLANG:-$(command -v clang-14 || command -v clang)}
[ -n "$CLANG" ] || skip "clang is not installed"
need_tools "$REF_MKSQUASHFS"
make_scratch
# FUZZ_CORPUS=DIR keeps (and grows) a corpus across runs instead of the scratch one.

cfg_flags=$(fuzz_codec_libs)
S=$top_srcdir
# Our reader and our zstd and xz decoders are instrumented; the zstd encoder (referenced by the codec
# table, never run here) comes from the build's library.
sources=$(ls "$S"/common/super.c "$S"/common/util/*.c "$S"/common/*_read.c \
	"$S"/codecs/codec_parse.c "$S"/codecs/codec_util.c "$S"/codecs/registry.c "$S"/codecs/zstd.c \
	"$S"/codecs/gzip.c "$S"/codecs/xz.c "$S"/codecs/xz_image.c "$S"/codecs/xz/*.c \
	"$S"/codecs/lzma.c "$S"/codecs/lzo.c "$S"/codecs/lzo/*.c "$S"/codecs/lz4.c \
	"$S"/codecs/zstd/common/*.c "$S"/codecs/zstd/decompress/*.c \
	"$S"/unsquashfs/walk.c "$S"/unsquashfs/select.c "$S"/unsquashfs/numset.c "$S"/unsquashfs/list.c \
	"$S"/unsquashfs/pseudo.c "$S"/unsquashfs/resolve.c "$S"/unsquashfs/sink.c "$S"/unsquashfs/meter.c 2>/dev/null)
[ -f "$top_builddir/libzstdcodec.a" ] || skip "build libzstdcodec.a first (make)"
fuzzer=$SCRATCH/image_read_fuzz
# shellcheck disable=SC2086 # word lists
if ! "$CLANG" -std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$top_builddir" -I"$S" -I/usr/include/lzo -o "$fuzzer" "$S/tests/fuzz/image_read.c" $sources \
	"$top_builddir/libzstdcodec.a" $cfg_flags 2>"$SCRATCH/build.log"; then
	cat "$SCRATCH/build.log" >&2
	fail "the fuzz target does not build"
	finish
fi

# Seeds: a tiny tree with every kind of entry, packed with each compressor and layout.
corpus=${FUZZ_CORPUS:-$SCRATCH/corpus}
mkdir -p "$corpus" "$SCRATCH/t/d/e"
printf 'hello' >"$SCRATCH/t/a"
head -c 9000 /dev/urandom >"$SCRATCH/t/d/r"
printf '%05000d' 0 >"$SCRATCH/t/d/e/z"
ln -s a "$SCRATCH/t/l"
ln "$SCRATCH/t/a" "$SCRATCH/t/h"
mkfifo "$SCRATCH/t/p"
setfattr -n user.x -v y "$SCRATCH/t/a" 2>/dev/null
i=0
for opts in "-comp gzip" "-comp xz" "-comp lzo" "-comp lz4" "-comp zstd" "-noI -noD -noF -noX" \
	"-b 4K -no-fragments" "-always-use-fragments -comp lz4 -Xhc"; do
	i=$((i + 1))
	# shellcheck disable=SC2086 # opts is a list of words
	"$REF_MKSQUASHFS" "$SCRATCH/t" "$corpus/seed$i" -noappend -quiet -no-progress -nopad $opts \
		>/dev/null 2>&1 || fail "reference mksquashfs $opts failed"
done

fuzz_run "$fuzzer" "$corpus"
finish
