#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# xz_decode.sh — builds the xz decoder fuzz target (ours against liblzma) with clang
# -fsanitize=fuzzer,address,undefined and runs it for FUZZ_SECONDS (default 60), seeded with xz's
# streams of text, binary and mixed data at several presets, dictionaries, checks and a BCJ filter.
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/fuzz/fuzz_lib.sh"
CLANG=${CLANG:-$(command -v clang-14 || command -v clang)}
[ -n "$CLANG" ] || skip "clang is not installed"
need_tools xz
pkg-config --exists liblzma || skip "liblzma-dev is not installed"
make_scratch
# FUZZ_CORPUS=DIR keeps (and grows) a corpus across runs instead of the scratch one.

S=$top_srcdir
fuzzer=$SCRATCH/xz_decode_fuzz
printf '#define _GNU_SOURCE 1\n' >"$SCRATCH/config.h"
# shellcheck disable=SC2046 # pkg-config's word list
if ! "$CLANG" -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I"$SCRATCH" -I"$S" -o "$fuzzer" "$S/tests/fuzz/xz_decode.c" "$S"/codecs/xz/*.c \
	$(pkg-config --libs liblzma) 2>"$SCRATCH/build.log"; then
	cat "$SCRATCH/build.log" >&2
	fail "the fuzz target does not build"
	finish
fi

# Each seed starts with the byte that picks the output room (1: 1000 bytes, 2: 128 KiB).
# Squashfs-sized dictionaries: xz's defaults (8-64 MiB) would cost liblzma an allocation that size
# on every run.
corpus=${FUZZ_CORPUS:-$SCRATCH/corpus}
mkdir -p "$corpus"
# sample KIND SIZE: text, binary, or both with a run of zeros between them.
sample() {
	case $1 in
	text) cat /usr/include/*.h 2>/dev/null ;;
	binary) cat /bin/sh ;;
	mixed) head -c 30000 /bin/sh; head -c 20000 /dev/zero; cat /usr/include/*.h 2>/dev/null ;;
	esac | head -c "$2"
}
n=0
for f in text binary mixed; do
	for size in 900 20000 60000; do
		room=2
		[ "$size" -le 1000 ] && room=1
		sample "$f" "$size" >"$SCRATCH/in"
		for opts in "--check=crc32 --lzma2=preset=0,dict=128KiB" \
			"--check=crc32 --lzma2=preset=6,dict=128KiB" \
			"--check=crc64 --lzma2=preset=9e,dict=64KiB" \
			"--check=none --lzma2=preset=6,dict=4KiB" \
			"--check=crc32 --lzma2=preset=6,dict=128KiB,lc=0,lp=2,pb=0" \
			"--x86 --lzma2=preset=6,dict=128KiB --check=crc32"; do
			# shellcheck disable=SC2086 # opts is a list of words
			{ printf "\\00$room"; xz -c $opts <"$SCRATCH/in"; } >"$corpus/seed$n" ||
				fail "xz $opts failed"
			n=$((n + 1))
		done
	done
done
log "seeded with $n xz streams"

fuzz_run "$fuzzer" "$corpus"
finish
