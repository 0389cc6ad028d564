#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# Side-by-side benchmark of our mksquashfs/unsquashfs against the reference squashfs-tools on one tree.
#
# Usage: bench/compare.sh TREE [--runs N | --rounds N] [--quick] [--only LIST] [--workdir DIR]
#                              [--keep] [--no-verify] [--kernel-read] [--raw FILE] [--out FILE]
#
# Prints Markdown tables (stdout) of ours/reference ratios for mksquashfs wall time, peak
# memory and image size, for unsquashfs extraction time of both images by both tools, and
# (--kernel-read) for the kernel reading every file of each image, loop-mounted, caches dropped.
# Every measurement goes to a raw file (columns in bench/rawtable.sh, which prints the tables
# from it). Progress and failures go to stderr. See bench/README.md.
set -uo pipefail
export LC_ALL=C

die() { echo "compare.sh: $*" >&2; exit 2; }
log() { echo "compare.sh: $*" >&2; }

usage() {
	cat >&2 <<-'EOF'
	usage: compare.sh TREE [options]
	  --runs N        best of N runs per configuration, back to back (default 3)
	  --rounds N      best of N runs per configuration, taken in N rounds over all the
	                  configurations (each cell's runs spread over the session)
	  --quick         one run, four configurations: a smoke test
	  --only LIST     comma-separated configurations to run (gzip,lz4,lzo,xz,zstd-1,zstd-3,
	                  zstd-15,zstd-19,zstd-22, or NAME/pP such as zstd-3/p2)
	  --workdir DIR   where images and extractions go (default: a new dir under $TMPDIR or /tmp)
	  --keep          keep the work directory (images, logs)
	  --no-verify     do not check extracted trees against TREE
	  --kernel-read   also time the kernel reading both images cold (root: loop mount,
	                  drop_caches, tar of every file)
	  --raw FILE      also write every measurement as tab-separated lines to FILE (the
	                  columns: bench/rawtable.sh, which makes the tables from such files)
	  --out FILE      also write the table to FILE, updated after each configuration
	environment: OURS_MKSQUASHFS, OURS_UNSQUASHFS (default ./build/{mksquashfs,unsquashfs}/...),
	             REF_MKSQUASHFS, REF_UNSQUASHFS (default /usr/bin/...), BENCH_TIMEOUT (s, default 3600)
	EOF
	exit 2
}

tree=
runs=
rounds=
quick=0
only=
workdir=
keep=0
verify=1
kernel_read=0
raw=
out=
while [ $# -gt 0 ]; do
	case $1 in
		--runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
		--runs=*) runs=${1#--runs=}; shift ;;
		--rounds) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
		--rounds=*) rounds=${1#--rounds=}; shift ;;
		--quick) quick=1; shift ;;
		--only) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
		--workdir) [ $# -ge 2 ] || usage; workdir=$2; shift 2 ;;
		--keep) keep=1; shift ;;
		--no-verify) verify=0; shift ;;
		--kernel-read) kernel_read=1; shift ;;
		--raw) [ $# -ge 2 ] || usage; raw=$2; shift 2 ;;
		--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
		-h|--help) usage ;;
		-*) echo "compare.sh: unknown option $1" >&2; usage ;;
		*) [ -z "$tree" ] || { echo "compare.sh: more than one TREE given ($tree, $1)" >&2; usage; }
		   tree=$1; shift ;;
	esac
done
[ -n "$tree" ] || usage
[ -z "$runs" ] || [ -z "$rounds" ] || die "--runs and --rounds both given: choose one"
# Each configuration gets per_round runs back to back in each of rounds rounds.
if [ -n "$rounds" ]; then per_round=1; else per_round=${runs:-3}; rounds=1; fi
case $per_round in ''|*[!0-9]*|0) die "--runs \"$per_round\" is not a positive number" ;; esac
case $rounds in ''|*[!0-9]*|0) die "--rounds \"$rounds\" is not a positive number" ;; esac
[ "$quick" -eq 1 ] && { per_round=1; rounds=1; }
runs=$((per_round * rounds))
[ -d "$tree" ] || die "tree $tree is not a directory"
tree=$(cd "$tree" && pwd)
timeout_s=${BENCH_TIMEOUT:-3600}

abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
rawtable=$(dirname "$(abspath "${BASH_SOURCE[0]}")")/rawtable.sh
[ -r "$rawtable" ] || die "$rawtable (which prints the tables) is missing"
ours_mk=$(abspath "${OURS_MKSQUASHFS:-./build/mksquashfs/mksquashfs}")
ours_un=$(abspath "${OURS_UNSQUASHFS:-./build/unsquashfs/unsquashfs}")
ref_mk=$(abspath "${REF_MKSQUASHFS:-/usr/bin/mksquashfs}")
ref_un=$(abspath "${REF_UNSQUASHFS:-/usr/bin/unsquashfs}")
for t in "$ours_mk" "$ours_un" "$ref_mk" "$ref_un"; do
	[ -x "$t" ] || die "$t is not an executable (build it, or set OURS_*/REF_* to the tool)"
done
time_bin=/usr/bin/time
[ -x "$time_bin" ] || die "$time_bin not found (apt-get install time)"
command -v timeout >/dev/null || die "timeout (coreutils) not found"
if [ "$kernel_read" -eq 1 ]; then
	if [ "$(id -u)" -ne 0 ] || [ ! -w /proc/sys/vm/drop_caches ]; then
		die "--kernel-read needs root (loop mounts, /proc/sys/vm/drop_caches)"
	fi
fi

# name|mksquashfs compressor arguments; each runs at -processors 1 and 2.
all_comps="gzip|-comp gzip
lz4|-comp lz4
lzo|-comp lzo
xz|-comp xz
zstd-1|-comp zstd -Xcompression-level 1
zstd-3|-comp zstd -Xcompression-level 3
zstd-15|-comp zstd -Xcompression-level 15
zstd-19|-comp zstd -Xcompression-level 19
zstd-22|-comp zstd -Xcompression-level 22"
configs=()
while IFS='|' read -r name args; do
	for p in 1 2; do configs+=("$name|$p|$args"); done
done <<< "$all_comps"
if [ "$quick" -eq 1 ] && [ -z "$only" ]; then
	only="gzip/p2,lz4/p1,zstd-1/p2,zstd-3/p1"
fi
if [ -n "$only" ]; then
	picked=()
	IFS=',' read -ra wanted <<< "$only"
	for w in "${wanted[@]}"; do
		found=0
		for c in "${configs[@]}"; do
			IFS='|' read -r name p _ <<< "$c"
			if [ "$w" = "$name" ] || [ "$w" = "$name/p$p" ]; then picked+=("$c"); found=1; fi
		done
		[ "$found" -eq 1 ] || die "--only: unknown configuration \"$w\""
	done
	configs=("${picked[@]}")
fi

if [ -n "$workdir" ]; then
	mkdir -p "$workdir" || die "cannot create $workdir"
	workdir=$(cd "$workdir" && pwd)
	work=$(mktemp -d "$workdir/compare.XXXXXX") || die "cannot create a directory in $workdir"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/compare.XXXXXX") || die "cannot create a work directory"
fi
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	if mountpoint -q "$work/mnt" 2>/dev/null; then umount "$work/mnt"; fi
	if [ "$keep" -eq 1 ]; then log "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM
if [ -n "$out" ]; then : > "$out" || die "cannot write $out"; fi
# Every measurement goes to $work/raw.tsv (and --raw FILE), a line each as it is made, so that
# a run cut short keeps what it measured; the tables are rawtable.sh's of that file.
raw_header='config\tprocessors\tstep\trun\trc\tseconds\tcpu_seconds\tmax_rss_kb\tbytes\treason\n'
# shellcheck disable=SC2059 # the header is the format
printf "$raw_header" > "$work/raw.tsv" || die "cannot write $work/raw.tsv"
if [ -n "$raw" ]; then
	# shellcheck disable=SC2059
	printf "$raw_header" > "$raw" || die "cannot write $raw"
fi

# Runs one command under /usr/bin/time -v; sets rc, secs (wall, from the monotonic-enough
# nanosecond clock), cpu (user + system seconds: steadier than wall time on a busy machine)
# and rss_kb. Output goes to $prefix.out/.err, kept for failure reports.
timed() {
	local prefix=$1
	shift
	local t0 t1
	t0=$(date +%s%N)
	timeout "$timeout_s" "$time_bin" -v -o "$prefix.time" "$@" > "$prefix.out" 2> "$prefix.err"
	rc=$?
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	rss_kb=$(awk -F ': ' '/Maximum resident set size/ { print $2 }' "$prefix.time" 2>/dev/null)
	[ -n "$rss_kb" ] || rss_kb=0
	cpu=$(awk -F ': ' '/User time|System time/ { t += $2 } END { printf "%.2f", t }' "$prefix.time" 2>/dev/null)
	[ -n "$cpu" ] || cpu=0
	if [ "$rc" -eq 124 ]; then
		echo "timed out after ${timeout_s}s" >> "$prefix.err"
	elif grep -q '^Command terminated by signal' "$prefix.time" 2>/dev/null; then
		grep '^Command terminated by signal' "$prefix.time" >> "$prefix.err"
		[ "$rc" -ne 0 ] || rc=128
	fi
}

# Lists what a comparison of trees should see: type, mode, owner, size, links, mtime (whole
# seconds, as squashfs stores them), symlink target.
listing() {
	# A directory's size is the file system's business, not the image's: leave it out.
	(cd "$1" && find . -mindepth 1 \( -type d -printf '%y %m %u:%g - %n %T@ %p\n' \) -o \
		-printf '%y %m %u:%g %s %n %T@ %p -> %l\n' |
		sed 's/ \([0-9]*\)\.[0-9]* \./ \1 ./' | sort)
}
listing_ref=

warm_tree() { find "$tree" -type f -print0 | xargs -0 -r cat > /dev/null 2>&1; }

# The kernel reads every file of an image cold: mounted read-only through a loop device, page
# cache dropped (also the image's own pages when it is on a disk; on tmpfs they stay, so the
# time is then the kernel's decompression and lookups alone), then tar of the whole mount.
kernel_read_one() { # img_of cfg p run
	local img=$work/$1.img mnt=$work/mnt key="$2|$3|kr.$1" prefix=$work/log.kr.$1
	if [ ! -f "$img" ]; then record_not_run "$key" "$4" "no image"; return; fi
	mkdir -p "$mnt"
	if ! mount -t squashfs -o ro,loop "$img" "$mnt" 2> "$prefix.err"; then
		rc=125; report_failure "kernel mount of the $1 image ($2)" "$prefix"
		record_not_run "$key" "$4" "mount failed"; return
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
	# shellcheck disable=SC2016 # $1 is the inner shell's
	timed "$prefix" sh -c 'tar -cf - -C "$1" . | cat > /dev/null' kernel-read "$mnt"
	umount "$mnt" || log "cannot unmount $mnt"
	[ "$rc" -eq 0 ] || report_failure "kernel read of the $1 image ($2)" "$prefix"
	record "$key" "$4"
}
# Checks an extracted tree against the source; prints the first differences on failure.
verify_tree() {
	local got=$1 log_file=$2
	[ -n "$listing_ref" ] || { listing_ref=$work/tree.listing; listing "$tree" > "$listing_ref"; }
	if ! listing "$got" | diff "$listing_ref" - > "$log_file" 2>&1; then
		echo "metadata differs from the source tree:" >&2; head -n 6 "$log_file" >&2
		return 1
	fi
	if ! diff -r --no-dereference "$tree" "$got" > "$log_file" 2>&1; then
		echo "contents differ from the source tree:" >&2; head -n 6 "$log_file" >&2
		return 1
	fi
	return 0
}

# One line of the raw files for the step just measured (rc, secs, cpu, rss_kb as timed() set
# them): key "config|processors|step", run, image bytes (0 if none), why it failed (default
# "exit RC"; "-" when it did not). The exit codes and reasons are documented in rawtable.sh.
nfailed=0
record() {
	local key=$1 run=$2 bytes=${3:-0} why=${4:-}
	if [ "$rc" -ne 0 ]; then nfailed=$((nfailed + 1)); [ -n "$why" ] || why="exit $rc"; else why=-; fi
	local line
	line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "${key//|/$'\t'}" "$run" "$rc" "$secs" "$cpu" "$rss_kb" "$bytes" "$why")
	echo "$line" >> "$work/raw.tsv"
	[ -z "$raw" ] || echo "$line" >> "$raw"
}
# A step that could not run (no image to read, a mount that failed) is a failed row too.
record_not_run() { # key run why
	rc=125 secs=0 cpu=0 rss_kb=0
	record "$1" "$2" 0 "$3"
}

report_failure() {
	local what=$1 prefix=$2
	log "FAILED: $what (exit $rc); last lines of its stderr:"
	tail -n 5 "$prefix.err" | sed 's/^/    /' >&2
}

run_mk() {
	local who=$1 bin=$2 cfg=$3 p=$4 run=$5 args=$6
	local img=$work/$who.img prefix=$work/log.mk.$who
	rm -f "$img"
	# shellcheck disable=SC2086
	timed "$prefix" "$bin" "$tree" "$img" -noappend -no-progress $args -processors "$p"
	local bytes=0
	if [ "$rc" -eq 0 ]; then
		if [ -s "$img" ]; then bytes=$(stat -c %s "$img"); else rc=125; echo "no image written" >> "$prefix.err"; fi
	fi
	[ "$rc" -eq 0 ] || { report_failure "$who mksquashfs ($cfg -processors $p, run $run)" "$prefix"; rm -f "$img"; }
	record "$cfg|$p|mk.$who" "$run" "$bytes"
	if [ "$rc" -eq 0 ]; then last_mk[$who]="$secs s"; else last_mk[$who]=FAIL; fi
}
declare -A last_mk # for the progress lines: this run's mksquashfs wall time or FAIL

run_un() {
	local who=$1 bin=$2 img_of=$3 cfg=$4 p=$5 run=$6
	local img=$work/$img_of.img out=$work/x.$who.$img_of prefix=$work/log.un.$who.$img_of
	local key="$cfg|$p|un.$who@$img_of"
	if [ ! -f "$img" ]; then record_not_run "$key" "$run" "no image"; return; fi
	rm -rf "$out"
	timed "$prefix" "$bin" -d "$out" -no-progress -processors "$p" "$img"
	local why=
	if [ "$rc" -eq 0 ] && [ "$verify" -eq 1 ] && [ "$run" -eq 1 ]; then
		if ! verify_tree "$out" "$prefix.verify" 2>> "$prefix.err"; then
			rc=126
			log "WRONG OUTPUT: $who unsquashfs of the $img_of image ($cfg -processors $p); see below"
			tail -n 7 "$prefix.err" | sed 's/^/    /' >&2
			why="wrong output"
		fi
	elif [ "$rc" -ne 0 ]; then
		report_failure "$who unsquashfs of the $img_of image ($cfg -processors $p, run $run)" "$prefix"
	fi
	record "$key" "$run" 0 "$why"
	rm -rf "$out"
}

version_of() { "$1" -version 2>&1 | head -n 1; }

# Writes the header and rawtable.sh's tables of the runs done so far (called after each
# configuration, so a run cut short still leaves its results in $work/table.md and the --out
# file). $1: how far the session is, e.g. "5 of 18 configurations".
write_table() {
	local how_far=$1 spread=
	[ "$rounds" -eq 1 ] || spread=", one per round over all configurations"
	echo "### squashfs-tools comparison: $(basename "$tree") ($tree_files files, $(awk -v b="$tree_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB)"
	echo
	echo "- ours: \`$(version_of "$ours_mk")\` ($ours_mk)"
	echo "- reference: \`$(version_of "$ref_mk")\` ($ref_mk)"
	echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, Linux $(uname -r), load average $(cut -d ' ' -f 1-3 /proc/loadavg);" \
		"best of $runs interleaved run(s) per cell$spread (peak RSS: highest of the runs);" \
		"$how_far in $(( $(date +%s) - start )) s; extraction into $work"
	echo "- ratios are ours / reference (below 1: ours is faster, smaller or leaner); CPU is user + system"
	echo "  seconds, steadier than wall time when the machine is shared"
	echo
	bash "$rawtable" "$work/raw.tsv"
}
publish_table() {
	write_table "$1" > "$work/table.md.new" && mv "$work/table.md.new" "$work/table.md"
	[ -z "$out" ] || cp "$work/table.md" "$out"
}

# One run of one configuration: both mksquashfs, both unsquashfs of both images, and with
# --kernel-read the kernel reading both images.
run_config() { # cfg p args run
	local cfg=$1 p=$2 args=$3 run=$4 order who img_of
	# Alternate who goes first so slow drifts in machine load hit both tools alike.
	if [ $((run % 2)) -eq 1 ]; then order="ours ref"; else order="ref ours"; fi
	for who in $order; do
		if [ "$who" = ours ]; then run_mk ours "$ours_mk" "$cfg" "$p" "$run" "$args"
		else run_mk ref "$ref_mk" "$cfg" "$p" "$run" "$args"; fi
	done
	for img_of in ours ref; do
		for who in $order; do
			if [ "$who" = ours ]; then run_un ours "$ours_un" "$img_of" "$cfg" "$p" "$run"
			else run_un ref "$ref_un" "$img_of" "$cfg" "$p" "$run"; fi
		done
	done
	if [ "$kernel_read" -eq 1 ]; then
		for img_of in $order; do kernel_read_one "$img_of" "$cfg" "$p" "$run"; done
		warm_tree # the next tool must not pay for the dropped source pages
	fi
	log "$cfg -processors $p run $run/$runs: mksquashfs ours ${last_mk[ours]}, ref ${last_mk[ref]}"
}

tree_files=$(find "$tree" -type f | wc -l)
tree_bytes=$(find "$tree" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
log "warm-up read of $tree ($tree_files files, $((tree_bytes / 1000000)) MB)"
find "$tree" -type f -print0 | xargs -0 -r cat > /dev/null 2>&1
start=$(date +%s)

# --runs N: one round, N runs of a configuration back to back; --rounds N: N rounds, each one
# run of every configuration. Run numbers count on across rounds, so the order alternates.
for round in $(seq 1 "$rounds"); do
	done_configs=0
	for c in "${configs[@]}"; do
		IFS='|' read -r cfg p args <<< "$c"
		for r in $(seq 1 "$per_round"); do
			run_config "$cfg" "$p" "$args" $(( (round - 1) * per_round + r ))
		done
		done_configs=$((done_configs + 1))
		how_far="$done_configs of ${#configs[@]} configurations"
		[ "$rounds" -eq 1 ] || how_far="round $round of $rounds, $how_far"
		publish_table "$how_far"
	done
done

cat "$work/table.md"
[ "$keep" -eq 0 ] || log "table also in $work/table.md"
[ "$nfailed" -eq 0 ] || { log "$nfailed measurement(s) failed: see the table and the messages above"; exit 1; }
exit 0
