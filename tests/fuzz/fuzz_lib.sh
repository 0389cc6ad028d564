# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# fuzz_lib.sh — running a built libFuzzer target for a bounded time and keeping what it finds.
# Source after tests/lib/common.sh (make_scratch done).

# fuzz_codec_libs: the linker flags of the codec libraries the build was configured with (config.h).
fuzz_codec_libs() {
	_h=$top_builddir/config.h
	grep -q '^#define HAVE_ZLIB 1' "$_h" && printf ' %s' "$(pkg-config --libs zlib)"
	grep -q '^#define HAVE_LIBDEFLATE 1' "$_h" && printf ' %s' -ldeflate
	grep -q '^#define HAVE_LZMA 1' "$_h" && printf ' %s' "$(pkg-config --libs liblzma)"
	grep -q '^#define HAVE_LZO 1' "$_h" && printf ' %s' -llzo2
	grep -q '^#define HAVE_LZ4 1' "$_h" && printf ' %s' "$(pkg-config --libs liblz4)"
	return 0
}

# fuzz_run FUZZER CORPUS: FUZZ_SECONDS (default 60) of fuzzing from CORPUS; on a crash, timeout,
# leak or out-of-memory, the artifacts are copied to $top_builddir/tests/fuzz and the test fails.
fuzz_run() {
	_seconds=${FUZZ_SECONDS:-60}
	log "fuzzing for $_seconds s"
	"$1" -max_total_time="$_seconds" -timeout=10 -rss_limit_mb=1024 -max_len=65536 \
		-artifact_prefix="$SCRATCH/" "$2" >"$SCRATCH/fuzz.log" 2>&1
	_rc=$?
	log "last status: $(grep -E '^#[0-9]+' "$SCRATCH/fuzz.log" | tail -n 1)"
	[ $_rc -eq 0 ] && return 0
	tail -n 40 "$SCRATCH/fuzz.log" >&2
	for _crash in "$SCRATCH"/crash-* "$SCRATCH"/timeout-* "$SCRATCH"/leak-* "$SCRATCH"/oom-*; do
		[ -f "$_crash" ] || continue
		mkdir -p "$top_builddir/tests/fuzz"
		cp "$_crash" "$top_builddir/tests/fuzz/" &&
			log "kept $top_builddir/tests/fuzz/$(basename "$_crash")"
	done
	fail "the fuzzer found a problem (exit $_rc)"
}
