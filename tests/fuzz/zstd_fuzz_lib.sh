# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# zstd_fuzz_lib.sh — what the zstd fuzz scripts share: clang found, a work directory, a target built from the codec's sources, a bounded run.
# Source from a script whose $1 may be SECONDS; these scripts build without configure, so they
# stand alone (fuzz_lib.sh is for targets linked against the configured build).

# zf_setup PREFIX: top_srcdir, seconds, cc, z (the codec's sources) and work (FUZZ_WORKDIR or a
# new directory with corpus/ and artifacts/); exits 77 without clang.
zf_setup() {
	top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
	seconds=${FUZZ_SECONDS_ARG:-${FUZZ_SECONDS:-60}}
	cc=${CLANG:-clang}
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "clang not installed: skipped" >&2
		exit 77
	fi
	work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")} || exit 1
	mkdir -p "$work/corpus" "$work/artifacts"
	printf '#define _GNU_SOURCE 1\n' > "$work/config.h"
	z="$top_srcdir/codecs/zstd"
}

# zf_build OUT OPT SOURCE...: a libFuzzer+ASan+UBSan target at optimisation OPT; exits 1 on failure.
zf_build() {
	_out=$1 _opt=$2
	shift 2
	if ! "$cc" -std=c11 -g "$_opt" -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I"$work" -I"$top_srcdir" -o "$work/$_out" "$@" \
		"$z"/common/*.c "$top_srcdir"/common/util/xxhash64.c; then
		echo "FAIL: could not build the fuzz target (libfuzzer-14-dev installed?)" >&2
		exit 1
	fi
}

# zf_run FUZZER LIBFUZZER-OPTION...: fuzz the corpus for $seconds and exit: 0, or 1 on a finding.
zf_run() {
	_fuzzer=$1
	shift
	"$work/$_fuzzer" -max_total_time="$seconds" "$@" -artifact_prefix="$work/artifacts/" \
		-print_final_stats=1 "$work/corpus" 2> "$work/fuzz.log"
	_rc=$?
	tail -n 25 "$work/fuzz.log" >&2
	if [ "$_rc" -ne 0 ]; then
		echo "FAIL: fuzzer found a problem (exit $_rc); artifacts in $work/artifacts" >&2
		exit 1
	fi
	[ -n "${FUZZ_WORKDIR:-}" ] || rm -rf "$work"
	exit 0
}
