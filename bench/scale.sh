#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# Scale benchmark: our mksquashfs/unsquashfs against squashfs-tools on generated trees of many small files and many directories.
#
# Usage: bench/scale.sh [--files N] [--dirs N] [--only files|dirs] [--runs N] [--workdir DIR]
#                       [--scratch DIR] [--comp "ARGS"] [--processors P] [--keep-trees]
#                       [--no-verify] [--out FILE] [--mem SIZE] [--cgroup-mb N]
#
# Builds (once, kept in WORKDIR/trees unless told otherwise) a tree of N small text files
# (default 1,000,000; 1,000 per directory, 0-1023 bytes each) and one of N directories
# (default 100,000: 100 directories of 1,000, each holding one small file), then times both
# tools on each, interleaved, and prints a Markdown table of ours/reference ratios: wall time,
# CPU time and peak RSS of mksquashfs and of unsquashfs extracting its own tool's image, and
# image sizes. Images and extractions go to --scratch (default: WORKDIR; a tmpfs such as
# /dev/shm keeps a million-file extraction and its removal from timing the disk). See
# bench/README.md.
#
# --mem SIZE gives both mksquashfs -mem SIZE (ours: a bound on the whole run, the tree's records
# spilling to a temporary file past a quarter of it; the reference: its caches). --cgroup-mb N
# runs each mksquashfs in a memory control group of its own limited to N MiB (cgroup v1 memory
# or v2 with the memory controller; root), as a build job in a container runs: page cache counts
# against the limit and is reclaimed, an anonymous peak over it is an OOM kill, and the table
# gains the peak anonymous memory (RssAnon, sampled every 0.2 s) and the kills.
set -uo pipefail
export LC_ALL=C

die() { echo "scale.sh: $*" >&2; exit 2; }
log() { echo "scale.sh: $(date -u +%H:%M:%S) $*" >&2; }

files=1000000
dirs=100000
only=
runs=1
workdir=${TMPDIR:-/tmp}/bench-scale
scratch=
comp="-comp gzip"
procs=2
keep_trees=1
verify=1
out=
mem=
cgroup_mb=0
while [ $# -gt 0 ]; do
	case $1 in
		--files) [ $# -ge 2 ] || die "--files needs a number"; files=$2; shift 2 ;;
		--dirs) [ $# -ge 2 ] || die "--dirs needs a number"; dirs=$2; shift 2 ;;
		--only) [ $# -ge 2 ] || die "--only needs files or dirs"; only=$2; shift 2 ;;
		--runs) [ $# -ge 2 ] || die "--runs needs a number"; runs=$2; shift 2 ;;
		--workdir) [ $# -ge 2 ] || die "--workdir needs a directory"; workdir=$2; shift 2 ;;
		--scratch) [ $# -ge 2 ] || die "--scratch needs a directory"; scratch=$2; shift 2 ;;
		--comp) [ $# -ge 2 ] || die "--comp needs arguments"; comp=$2; shift 2 ;;
		--processors) [ $# -ge 2 ] || die "--processors needs a number"; procs=$2; shift 2 ;;
		--drop-trees) keep_trees=0; shift ;;
		--keep-trees) keep_trees=1; shift ;;
		--no-verify) verify=0; shift ;;
		--out) [ $# -ge 2 ] || die "--out needs a file"; out=$2; shift 2 ;;
		--mem) [ $# -ge 2 ] || die "--mem needs a size"; mem=$2; shift 2 ;;
		--cgroup-mb) [ $# -ge 2 ] || die "--cgroup-mb needs a number"; cgroup_mb=$2; shift 2 ;;
		-h|--help) sed -n '5,17p' "$0" >&2; exit 2 ;;
		*) die "unknown argument $1" ;;
	esac
done
case $cgroup_mb in ''|*[!0-9]*) die "--cgroup-mb: \"$cgroup_mb\" is not a number" ;; esac
case $mem in ''|[0-9]*[KMG]|[0-9]*) ;; *) die "--mem: \"$mem\" is not a size" ;; esac
for v in "$files" "$dirs" "$runs" "$procs"; do
	case $v in ''|*[!0-9]*|0) die "\"$v\" is not a positive number" ;; esac
done
case $only in ''|files|dirs) ;; *) die "--only: files or dirs, not \"$only\"" ;; esac

abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
ours_mk=$(abspath "${OURS_MKSQUASHFS:-./build/mksquashfs/mksquashfs}")
ours_un=$(abspath "${OURS_UNSQUASHFS:-./build/unsquashfs/unsquashfs}")
ref_mk=${REF_MKSQUASHFS:-/usr/bin/mksquashfs}
ref_un=${REF_UNSQUASHFS:-/usr/bin/unsquashfs}
for t in "$ours_mk" "$ours_un" "$ref_mk" "$ref_un" /usr/bin/time; do
	[ -x "$t" ] || die "$t is not an executable"
done
command -v perl > /dev/null || die "perl not found"
mkdir -p "$workdir/trees" || die "cannot create $workdir"
workdir=$(cd "$workdir" && pwd)
scratch=${scratch:-$workdir}
mkdir -p "$scratch" || die "cannot create $scratch"
work=$(mktemp -d "$scratch/scale-run.XXXXXX") || die "cannot create a directory in $scratch"
trap 'rm -rf "$work"' EXIT

# Files are deterministic word text (a fixed linear congruential generator), so two machines
# build the same tree; sizes spread over 0-1023 bytes, so the reference's duplicate check, which
# compares every earlier file of the same size, sees about a thousandth of the files per size.
generate() { # kind count dir
	perl - "$@" <<-'EOF'
	use strict; use warnings;
	my ($kind, $count, $root) = @ARGV;
	my @w = qw(alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron
	           pi rho sigma tau upsilon phi chi psi omega static const int return struct void
	           unsigned char if else for while);
	my $seed = 12345;
	sub rnd { $seed = ($seed * 1103515245 + 12345) % 2147483648; return $seed >> 8; }
	sub body { my $n = rnd() % 1024; my $b = "";
		while (length($b) < $n) { $b .= $w[rnd() % @w] . ((rnd() % 8) ? " " : "\n"); }
		return substr($b, 0, $n); }
	sub put { my ($p) = @_; open(my $fh, '>', $p) or die "$p: $!"; print $fh body(); close $fh or die; }
	mkdir $root or die "$root: $!";
	for my $i (0 .. $count - 1) {
		if ($kind eq 'files') {
			my $d = sprintf("%s/d%04d", $root, int($i / 1000));
			mkdir $d or die "$d: $!" if $i % 1000 == 0;
			put(sprintf("%s/f%07d.txt", $d, $i));
		} else {
			my $top = sprintf("%s/t%03d", $root, int($i / 1000));
			mkdir $top or die "$top: $!" if $i % 1000 == 0;
			my $d = sprintf("%s/d%06d", $top, $i);
			mkdir $d or die "$d: $!";
			put("$d/file.txt");
		}
	}
	EOF
	find "$3" -print0 | xargs -0 touch -h -d @1700000000
}

tree_for() { # kind count -> path of a ready tree
	local t=$workdir/trees/$1-$2
	if [ ! -f "$t.done" ]; then
		rm -rf "$t"
		log "generating $t"
		generate "$1" "$2" "$t" || die "cannot generate $t"
		touch "$t.done"
	fi
	echo "$t"
}

# A fresh memory control group limited to cgroup_mb MiB for one run: its directory and limit
# file in cg_dir, cg_file. v1's memory hierarchy if mounted, else v2 (the memory controller must
# be enabled for children of the group this script runs in).
cg_make() {
	local own base
	own=$(sed -n 's/^[0-9]*:[^:]*memory[^:]*:\(.*\)/\1/p' /proc/self/cgroup | head -n 1)
	if [ -n "$own" ] && [ -d "/sys/fs/cgroup/memory$own" ]; then
		cg_dir=/sys/fs/cgroup/memory$own/scale-$$ cg_file=memory.limit_in_bytes
	else
		own=$(sed -n 's/^0::\(.*\)/\1/p' /proc/self/cgroup)
		base=/sys/fs/cgroup
		[ -f /sys/fs/cgroup/unified/cgroup.controllers ] && base=/sys/fs/cgroup/unified
		cg_dir=$base$own/scale-$$ cg_file=memory.max
	fi
	rmdir "$cg_dir" 2> /dev/null
	mkdir "$cg_dir" && echo $((cgroup_mb << 20)) > "$cg_dir/$cg_file" ||
		die "cannot make a memory control group limited to $cgroup_mb MiB in $(dirname "$cg_dir")"
}
# The OOM kills in the group, and remove it.
cg_done() {
	local kills
	kills=$(awk '/oom_kill / { print $2 }' "$cg_dir/memory.oom_control" "$cg_dir/memory.events" 2> /dev/null | head -n 1)
	oom=${kills:-0}
	rmdir "$cg_dir" 2> /dev/null
}

# Runs a command under /usr/bin/time (in a control group with --cgroup-mb); sets rc, secs, cpu,
# rss_kb, and with --cgroup-mb anon_kb (peak RssAnon of the command) and oom.
timed() {
	local prefix=$1 t0 t1 pid child a
	shift
	anon_kb=0 oom=0
	t0=$(date +%s%N)
	if [ "$cgroup_mb" -eq 0 ]; then
		/usr/bin/time -v -o "$prefix.time" "$@" > "$prefix.out" 2> "$prefix.err"
		rc=$?
	else
		cg_make
		sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg_dir" \
			/usr/bin/time -v -o "$prefix.time" "$@" > "$prefix.out" 2> "$prefix.err" &
		pid=$!
		while kill -0 "$pid" 2> /dev/null; do
			child=$(pgrep -P "$pid" | head -n 1)
			a=$(awk '/RssAnon/ { print $2 }' "/proc/${child:-0}/status" 2> /dev/null)
			[ -n "$a" ] && [ "$a" -gt "$anon_kb" ] && anon_kb=$a
			sleep 0.2
		done
		wait "$pid"
		rc=$?
		cg_done
	fi
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
	cpu=$(awk -F ': ' '/User time|System time/ { t += $2 } END { printf "%.2f", t }' "$prefix.time")
	rss_kb=$(awk -F ': ' '/Maximum resident set size/ { print $2 }' "$prefix.time")
	[ "$rc" -eq 0 ] || { log "FAILED ($rc): $*"; tail -n 3 "$prefix.err" >&2; }
}

declare -A best_s best_cpu max_rss size max_anon kills
keep() { # key
	if [ "$rc" -ne 0 ]; then best_s[$1]=FAIL; return; fi
	[ "${best_s[$1]:-}" = FAIL ] && return
	if [ -z "${best_s[$1]:-}" ] || awk -v a="$secs" -v b="${best_s[$1]}" 'BEGIN { exit !(a < b) }'; then
		best_s[$1]=$secs
	fi
	if [ -z "${best_cpu[$1]:-}" ] || awk -v a="$cpu" -v b="${best_cpu[$1]}" 'BEGIN { exit !(a < b) }'; then
		best_cpu[$1]=$cpu
	fi
	[ "${rss_kb:-0}" -le "${max_rss[$1]:-0}" ] || max_rss[$1]=$rss_kb
}

# A directory's size is the file system's own (ext4 and tmpfs differ): left out.
listing() { (cd "$1" && find . \( -type d -printf '%y %m %p\n' \) -o -printf '%y %m %s %p\n' |
	sort | md5sum | cut -c 1-16); }
content() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 cat | md5sum | cut -c 1-16); }

run_tree() { # kind count
	local kind=$1 tree who img run order
	tree=$(tree_for "$1" "$2")
	log "warm-up read of $tree"
	find "$tree" -type f -print0 | xargs -0 cat > /dev/null
	for run in $(seq 1 "$runs"); do
		if [ $((run % 2)) -eq 1 ]; then order="ours ref"; else order="ref ours"; fi
		for who in $order; do
			img=$work/$who.img
			rm -f "$img"
			local mk=$ours_mk
			[ "$who" = ours ] || mk=$ref_mk
			log "$kind: $who mksquashfs (run $run)"
			# shellcheck disable=SC2086
			timed "$work/mk.$who" "$mk" "$tree" "$img" -noappend -no-progress $comp -processors "$procs" ${mem:+-mem "$mem"}
			keep "$kind|mk|$who"
			[ "$anon_kb" -le "${max_anon[$kind|$who]:-0}" ] || max_anon[$kind|$who]=$anon_kb
			kills[$kind|$who]=$(( ${kills[$kind|$who]:-0} + oom ))
			[ "$rc" -ne 0 ] || size[$kind|$who]=$(stat -c %s "$img")
		done
		for who in $order; do
			local un=$ours_un
			[ "$who" = ours ] || un=$ref_un
			rm -rf "$work/x"
			log "$kind: $who unsquashfs (run $run)"
			timed "$work/un.$who" "$un" -d "$work/x" -no-progress -processors "$procs" "$work/$who.img"
			keep "$kind|un|$who"
			if [ "$rc" -eq 0 ] && [ "$verify" -eq 1 ] && [ "$run" -eq 1 ]; then
				if [ "$(listing "$work/x")" != "$(listing "$tree")" ] ||
				   [ "$(content "$work/x")" != "$(content "$tree")" ]; then
					log "WRONG OUTPUT: $who unsquashfs of the $kind tree"
					best_s[$kind|un|$who]=FAIL
				fi
			fi
			rm -rf "$work/x"
		done
	done
	[ "$keep_trees" -eq 1 ] || { rm -rf "$tree"; rm -f "$tree.done"; }
}

ratio() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { if (a == "" || b == "" || b == 0 || a == "FAIL" || b == "FAIL") print "—"; else printf f, a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# With --cgroup-mb: the limit, and per tree the peak anonymous memory and the OOM kills.
cg_note() {
	[ "$cgroup_mb" -gt 0 ] || return 0
	local k
	printf ', each mksquashfs in a %s MiB memory cgroup (peak RssAnon MB ours / ref' "$cgroup_mb"
	for k in "${kinds[@]}"; do
		printf '; %s: %s / %s, OOM kills %s / %s' "$k" "$(mb "${max_anon[$k|ours]:-0}")" \
			"$(mb "${max_anon[$k|ref]:-0}")" "${kills[$k|ours]:-0}" "${kills[$k|ref]:-0}"
	done
	printf ')'
}

table() {
	echo "scale: ours \`$("$ours_mk" -version 2>&1 | head -n 1)\` vs \`$("$ref_mk" -version 2>&1 | head -n 1)\`;" \
		"\`$comp -processors $procs${mem:+ -mem $mem}\`$(cg_note); best of $runs; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
		"load average $(cut -d ' ' -f 1-3 /proc/loadavg)"
	echo
	echo "| tree | step | wall s (ours / ref) | ratio | CPU s (ours / ref) | ratio | peak RSS MB (ours / ref) | ratio | image MB (ours / ref) | ratio |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	local kind step label
	for kind in "${kinds[@]}"; do
		case $kind in files) label="$files files" ;; dirs) label="$dirs directories" ;; esac
		for step in mk un; do
			local o=$kind\|$step\|ours r=$kind\|$step\|ref img="—" imgr="—"
			if [ "$step" = mk ]; then
				img="$(awk -v b="${size[$kind|ours]:-0}" 'BEGIN { printf "%.1f", b / 1e6 }') / $(awk -v b="${size[$kind|ref]:-0}" 'BEGIN { printf "%.1f", b / 1e6 }')"
				imgr="**$(ratio "${size[$kind|ours]:-}" "${size[$kind|ref]:-}" %.3f)**"
			fi
			printf '| %s | %s | %s / %s | **%s** | %s / %s | **%s** | %s / %s | **%s** | %s | %s |\n' \
				"$label" "$([ "$step" = mk ] && echo mksquashfs || echo "unsquashfs (own image)")" \
				"${best_s[$o]:-}" "${best_s[$r]:-}" "$(ratio "${best_s[$o]:-}" "${best_s[$r]:-}" %.2f)" \
				"${best_cpu[$o]:-}" "${best_cpu[$r]:-}" "$(ratio "${best_cpu[$o]:-}" "${best_cpu[$r]:-}" %.2f)" \
				"$(mb "${max_rss[$o]:-0}")" "$(mb "${max_rss[$r]:-0}")" \
				"$(ratio "${max_rss[$o]:-}" "${max_rss[$r]:-}" %.2f)" "$img" "$imgr"
		done
	done
}

kinds=()
[ "$only" = dirs ] || kinds+=(files)
[ "$only" = files ] || kinds+=(dirs)
for k in "${kinds[@]}"; do
	if [ "$k" = files ]; then run_tree files "$files"; else run_tree dirs "$dirs"; fi
done
table | tee ${out:+"$out"}
for k in "${!best_s[@]}"; do [ "${best_s[$k]}" != FAIL ] || exit 1; done
exit 0
