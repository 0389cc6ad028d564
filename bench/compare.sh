#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# Side-by-side benchmark of our mksquashfs/unsquashfs against the reference squashfs-tools on one tree.
#
# Usage: bench/compare.sh TREE [--runs N] [--quick] [--only LIST] [--workdir DIR] [--keep]
#                              [--no-verify] [--kernel-read] [--raw FILE] [--out FILE]
#
# Prints a Markdown table (stdout) of ours/reference ratios for mksquashfs wall time, peak
# memory and image size, for unsquashfs extraction time of both images by both tools, and
# (--kernel-read) for the kernel reading every file of each image, loop-mounted, caches dropped.
# Progress and failures go to stderr. See bench/README.md.
set -uo pipefail
export LC_ALL=C

die() { echo "compare.sh: $*" >&2; exit 2; }
log() { echo "compare.sh: $*" >&2; }

usage() {
	cat >&2 <<-'EOF'
	usage: compare.sh TREE [options]
	  --runs N        best of N interleaved runs per configuration (default 3)
	  --quick         one run, four configurations: a smoke test
	  --only LIST     comma-separated configurations to run (gzip,lz4,lzo,xz,zstd-1,zstd-3,
	                  zstd-15,zstd-19,zstd-22, or NAME/pP such as zstd-3/p2)
	  --workdir DIR   where images and extractions go (default: a new dir under $TMPDIR or /tmp)
	  --keep          keep the work directory (images, logs)
	  --no-verify     do not check extracted trees against TREE
	  --kernel-read   also time the kernel reading both images cold (root: loop mount,
	                  drop_caches, tar of every file)
	  --raw FILE      also write every measurement as tab-separated lines to FILE
	  --out FILE      also write the table to FILE, updated after each configuration
	environment: OURS_MKSQUASHFS, OURS_UNSQUASHFS (default ./build/{mksquashfs,unsquashfs}/...),
	             REF_MKSQUASHFS, REF_UNSQUASHFS (default /usr/bin/...), BENCH_TIMEOUT (s, default 3600)
	EOF
	exit 2
}

tree=
runs=3
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
case $runs in ''|*[!0-9]*|0) die "--runs \"$runs\" is not a positive number" ;; esac
[ "$quick" -eq 1 ] && runs=1
[ -d "$tree" ] || die "tree $tree is not a directory"
tree=$(cd "$tree" && pwd)
timeout_s=${BENCH_TIMEOUT:-3600}

abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
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
	[ "$(id -u)" -eq 0 ] && [ -w /proc/sys/vm/drop_caches ] ||
		die "--kernel-read needs root (loop mounts, /proc/sys/vm/drop_caches)"
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
cleanup() {
	if mountpoint -q "$work/mnt" 2>/dev/null; then umount "$work/mnt"; fi
	if [ "$keep" -eq 1 ]; then log "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM
if [ -n "$out" ]; then : > "$out" || die "cannot write $out"; fi
if [ -n "$raw" ]; then
	: > "$raw" || die "cannot write $raw"
	printf 'config\tprocessors\tstep\trun\trc\tseconds\tcpu_seconds\tmax_rss_kb\tbytes\n' >> "$raw"
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
	if [ ! -f "$img" ]; then mark_failed "$key" "no image"; return; fi
	mkdir -p "$mnt"
	if ! mount -t squashfs -o ro,loop "$img" "$mnt" 2> "$prefix.err"; then
		rc=125; report_failure "kernel mount of the $1 image ($2)" "$prefix"
		mark_failed "$key" "mount failed"; return
	fi
	sync
	echo 3 > /proc/sys/vm/drop_caches
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

# Results, keyed "config|processors|step": best (lowest) wall time, highest RSS, image bytes,
# and the first failure seen. Steps: mk.ours mk.ref un.ours@ours un.ref@ours un.ours@ref un.ref@ref.
declare -A best_s best_cpu max_rss img_bytes failed
nfailed=0
mark_failed() { # key why: keeps the first reason
	[ -n "${failed[$1]:-}" ] && return
	failed[$1]=$2
	nfailed=$((nfailed + 1))
}

record() {
	local key=$1 run=$2 bytes=${3:-0}
	[ -z "$raw" ] || printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${key//|/$'\t'}" "$run" "$rc" "$secs" "$cpu" "$rss_kb" "$bytes" >> "$raw"
	if [ "$rc" -ne 0 ]; then
		mark_failed "$key" "exit $rc"
		return
	fi
	if [ -z "${best_s[$key]:-}" ] || awk -v a="$secs" -v b="${best_s[$key]}" 'BEGIN { exit !(a < b) }'; then
		best_s[$key]=$secs
	fi
	if [ -z "${best_cpu[$key]:-}" ] || awk -v a="$cpu" -v b="${best_cpu[$key]}" 'BEGIN { exit !(a < b) }'; then
		best_cpu[$key]=$cpu
	fi
	if [ "${rss_kb:-0}" -gt "${max_rss[$key]:-0}" ]; then max_rss[$key]=$rss_kb; fi
	[ "$bytes" = 0 ] || img_bytes[$key]=$bytes
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
}

run_un() {
	local who=$1 bin=$2 img_of=$3 cfg=$4 p=$5 run=$6
	local img=$work/$img_of.img out=$work/x.$who.$img_of prefix=$work/log.un.$who.$img_of
	local key="$cfg|$p|un.$who@$img_of"
	if [ ! -f "$img" ]; then
		mark_failed "$key" "no image"
		return
	fi
	rm -rf "$out"
	timed "$prefix" "$bin" -d "$out" -no-progress -processors "$p" "$img"
	if [ "$rc" -eq 0 ] && [ "$verify" -eq 1 ] && [ "$run" -eq 1 ]; then
		if ! verify_tree "$out" "$prefix.verify" 2>> "$prefix.err"; then
			rc=126
			log "WRONG OUTPUT: $who unsquashfs of the $img_of image ($cfg -processors $p); see below"
			tail -n 7 "$prefix.err" | sed 's/^/    /' >&2
			mark_failed "$key" "wrong output"
		fi
	elif [ "$rc" -ne 0 ]; then
		report_failure "$who unsquashfs of the $img_of image ($cfg -processors $p, run $run)" "$prefix"
	fi
	record "$key" "$run"
	rm -rf "$out"
}

version_of() { "$1" -version 2>&1 | head -n 1; }

# Formatting: a cell is the value or why there is none; a ratio needs both sides. These
# append to $row rather than print, so the geometric-mean sums survive (no subshells).
raw_value() { # key kind -> $v
	v=
	[ -z "${failed[$1]:-}" ] || return 0
	case $2 in
		s) v=${best_s[$1]:-} ;;
		cpu) v=${best_cpu[$1]:-} ;;
		rss) v=${max_rss[$1]:-} ;;
		size) v=${img_bytes[$1]:-} ;;
	esac
}
cell() { # key kind
	if [ -n "${failed[$1]:-}" ]; then row+="FAIL (${failed[$1]})"; return; fi
	raw_value "$1" "$2"
	[ -n "$v" ] || { row+="n/a"; return; }
	case $2 in
		s|cpu) row+=$(awk -v v="$v" 'BEGIN { printf (v < 10 ? "%.2f" : "%.1f"), v }') ;;
		rss) row+=$(awk -v v="$v" 'BEGIN { printf "%.0f", v / 1024 }') ;;
		size) row+=$(awk -v v="$v" 'BEGIN { printf "%.2f", v / 1e6 }') ;;
	esac
}
declare -A ratio_logsum ratio_count
ratio() { # column ours-key ref-key kind
	local col=$1 a b
	raw_value "$2" "$4"; a=$v
	raw_value "$3" "$4"; b=$v
	if [ -z "$a" ] || [ -z "$b" ] || [ "$a" = 0 ] || [ "$b" = 0 ]; then row+="—"; return; fi
	row+="**$(awk -v a="$a" -v b="$b" -v k="$4" 'BEGIN { printf (k == "size" ? "%.3f" : "%.2f"), a / b }')**"
	ratio_logsum[$col]=$(awk -v s="${ratio_logsum[$col]:-0}" -v a="$a" -v b="$b" 'BEGIN { printf "%.9f", s + log(a / b) }')
	ratio_count[$col]=$(( ${ratio_count[$col]:-0} + 1 ))
}
geomean() { # column kind
	if [ "${ratio_count[$1]:-0}" -eq 0 ]; then row+="—"; return; fi
	row+=$(awk -v s="${ratio_logsum[$1]}" -v n="${ratio_count[$1]}" -v k="$2" \
		'BEGIN { printf (k == "size" ? "%.3f" : "%.2f"), exp(s / n) }')
}
pair() { # ours-key ref-key kind column: "ours / ref | ratio"
	cell "$1" "$3"; row+=" / "; cell "$2" "$3"; row+=" | "; ratio "$4" "$1" "$2" "$3"
}
# One table row per configuration done; each argument is "OURS-KEY REF-KEY KIND COLUMN" for
# one "ours / ref | ratio" pair of cells, the keys without the configuration's prefix.
config_rows() {
	local c cfg p spec o r kind col row
	for c in "${configs[@]:0:$done_configs}"; do
		IFS='|' read -r cfg p _ <<< "$c"
		row="| $cfg | $p | "
		for spec in "$@"; do
			read -r o r kind col <<< "$spec"
			pair "$cfg|$p|$o" "$cfg|$p|$r" "$kind" "$col"; row+=" | "
		done
		echo "${row% }"
	done
}
mean_row() { # COLUMN:KIND... -> the geometric mean row
	local spec row="| geometric mean | | | "
	for spec in "$@"; do
		geomean "${spec%%:*}" "${spec#*:}"; row+=" | | "
	done
	echo "${row% | | } |"
}


# Writes both tables for the configurations done so far (called after each one, so a run cut
# short still leaves its results in $work/table.md and the --out file).
write_table() {
	local done_configs=$1
	unset ratio_logsum ratio_count
	declare -gA ratio_logsum=() ratio_count=()
	echo "### squashfs-tools comparison: $(basename "$tree") ($tree_files files, $(awk -v b="$tree_bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB)"
	echo
	echo "- ours: \`$(version_of "$ours_mk")\` ($ours_mk)"
	echo "- reference: \`$(version_of "$ref_mk")\` ($ref_mk)"
	echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, Linux $(uname -r), load average $(cut -d ' ' -f 1-3 /proc/loadavg);" \
		"best of $runs interleaved run(s) per cell (peak RSS: highest of the runs);" \
		"$done_configs of ${#configs[@]} configurations in $(( $(date +%s) - start )) s; extraction into $work"
	echo "- ratios are ours / reference (below 1: ours is faster, smaller or leaner); CPU is user + system"
	echo "  seconds, steadier than wall time when the machine is shared"
	echo
	echo "mksquashfs \`TREE IMG -noappend -no-progress -comp ... -processors P\`:"
	echo
	echo "| compressor | -processors | wall s (ours / ref) | ratio | CPU s (ours / ref) | ratio | peak RSS MB (ours / ref) | ratio | image MB (ours / ref) | ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	config_rows "mk.ours mk.ref s mk" "mk.ours mk.ref cpu mkcpu" "mk.ours mk.ref rss rss" \
		"mk.ours mk.ref size size"
	mean_row mk:s mkcpu:s rss:s size:size
	echo
	echo "unsquashfs \`-d DIR -no-progress -processors P IMG\`: wall time of both tools on the same image, and each on its own:"
	echo
	echo "| compressor | -processors | our image: s (ours / ref) | ratio | ref image: s (ours / ref) | ratio | own image: s (ours / ref) | ratio | own image: CPU s (ours / ref) | ratio | own image: peak RSS MB (ours / ref) | ratio |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	config_rows "un.ours@ours un.ref@ours s uo" "un.ours@ref un.ref@ref s ur" \
		"un.ours@ours un.ref@ref s own" "un.ours@ours un.ref@ref cpu owncpu" \
		"un.ours@ours un.ref@ref rss ownrss"
	mean_row uo:s ur:s own:s owncpu:s ownrss:s
	if [ "$kernel_read" -eq 1 ]; then
		echo
		echo "kernel read: each image loop-mounted read-only, page cache dropped, \`tar -c\` of the mount (wall and CPU of tar, which decompresses):"
		echo
		echo "| compressor | -processors | read s (our image / ref image) | ratio | CPU s (our image / ref image) | ratio |"
		echo "|---|---:|---:|---:|---:|---:|"
		config_rows "kr.ours kr.ref s kr" "kr.ours kr.ref cpu krcpu"
		mean_row kr:s krcpu:s
	fi
	if [ "$nfailed" -gt 0 ]; then
		echo
		echo "Failures: $(for f in "${!failed[@]}"; do echo "$f: ${failed[$f]}"; done | sort | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
	fi
}
publish_table() {
	write_table "$1" > "$work/table.md.new" && mv "$work/table.md.new" "$work/table.md"
	[ -z "$out" ] || cp "$work/table.md" "$out"
}

tree_files=$(find "$tree" -type f | wc -l)
tree_bytes=$(find "$tree" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
log "warm-up read of $tree ($tree_files files, $((tree_bytes / 1000000)) MB)"
find "$tree" -type f -print0 | xargs -0 -r cat > /dev/null 2>&1
start=$(date +%s)
done_configs=0

for c in "${configs[@]}"; do
	IFS='|' read -r cfg p args <<< "$c"
	for run in $(seq 1 "$runs"); do
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
		log "$cfg -processors $p run $run/$runs: best mksquashfs so far: ours ${best_s[$cfg|$p|mk.ours]:-FAIL} s, ref ${best_s[$cfg|$p|mk.ref]:-FAIL} s"
	done
	done_configs=$((done_configs + 1))
	publish_table "$done_configs"
done

cat "$work/table.md"
[ "$keep" -eq 0 ] || log "table also in $work/table.md"
[ "$nfailed" -eq 0 ] || { log "$nfailed measurement(s) failed: see the table and the messages above"; exit 1; }
exit 0
