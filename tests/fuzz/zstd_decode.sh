#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# zstd_decode.sh — build the zstd decoder fuzz target with libFuzzer+ASan+UBSan and run it for a bounded time.
# Usage: zstd_decode.sh [SECONDS]  (or FUZZ_SECONDS; default 60). Exit non-zero on a crash.
set -u
FUZZ_SECONDS_ARG=${1:-}
. "$(dirname "$0")/zstd_fuzz_lib.sh"
zf_setup zstd-fuzz
zf_build zstd_decode_fuzz -O1 "$top_srcdir/tests/fuzz/zstd_decode.c" "$z"/decompress/*.c

# Seeds: corpus frames, each prefixed by the byte that picks the output room (roomy, no limit).
corpus="${ZSTD_CORPUS:-$top_srcdir/../shared/zstd-corpus}"
if [ -d "$corpus" ]; then
	n=0
	for f in "$corpus"/small/zst/*.zst "$corpus"/golden/golden-decompression*/*.zst; do
		[ -f "$f" ] || continue
		{ printf '\002'; cat "$f"; } > "$work/corpus/seed$n"
		n=$((n + 1))
	done
	echo "seeded with $n corpus frames" >&2
else
	echo "zstd corpus not found at $corpus: fuzzing from scratch" >&2
fi

# Seeds: our own encoder's frames at levels across every strategy, on text, binary and mixed
# data, 4 KiB to 128 KiB (one frame each), so the fuzzer starts from what mksquashfs writes.
if "$cc" -std=c11 -O1 -I"$work" -I"$top_srcdir" -o "$work/zst" "$z"/programs/*.c "$z"/common/*.c \
	"$z"/decompress/*.c "$z"/compress/*.c "$top_srcdir"/common/util/xxhash64.c; then
	mkdir -p "$work/data"
	find /usr/include -maxdepth 1 -name '*.h' -type f | sort | head -n 300 | xargs cat 2>/dev/null |
		head -c 131072 > "$work/data/text"
	head -c 131072 /bin/sh > "$work/data/binary"
	{ head -c 40000 "$work/data/text"; head -c 20000 /dev/zero; head -c 30000 "$work/data/binary"; } \
		> "$work/data/mixed"
	n=0
	for level in 1 3 5 7 9 12 13 15 16 19 22; do
		for f in text binary mixed; do
			for size in 4096 131072; do
				head -c "$size" "$work/data/$f" > "$work/data/in"
				{ printf '\002'; "$work/zst" -c -L "$level" -B "$size" < "$work/data/in"; } \
					> "$work/corpus/ours-$level-$f-$size" && n=$((n + 1))
			done
		done
	done
	echo "seeded with $n frames of our encoder" >&2
else
	echo "FAIL: could not build the zst tool for seeds" >&2
	exit 1
fi

zf_run zstd_decode_fuzz -max_len=140000 -timeout=10 -rss_limit_mb=2048
