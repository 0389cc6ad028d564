#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# bench/tar.sh — `tar c TREE | sqfstar` side by side: our sqfstar and the reference's on the same
# archive stream, and both mksquashfs on the tree itself (peak memory of the tar path should be
# no more than mksquashfs's). Not a test: it measures.
#
# Usage: bench/tar.sh TREE [--runs N] [--comp C] [--workdir DIR] [--keep]
#
# Prints a Markdown table: best wall time of N interleaved runs, the largest peak RSS seen, the
# image size, and ours/reference ratios. The archive is streamed from GNU tar through a pipe
# each time (never stored), as `tar c dir | sqfstar img` runs. The work directory must be on a
# disk file system (our sqfstar spools file data next to the image): default $TMPDIR or /tmp.
set -uo pipefail
export LC_ALL=C

die() { echo "tar.sh: $*" >&2; exit 2; }
log() { echo "tar.sh: $*" >&2; }

tree= runs=3 comp=gzip workdir= keep=0
while [ $# -gt 0 ]; do
	case $1 in
		--runs) runs=$2; shift 2 ;;
		--comp) comp=$2; shift 2 ;;
		--workdir) workdir=$2; shift 2 ;;
		--keep) keep=1; shift ;;
		-*) die "unknown option $1 (usage: tar.sh TREE [--runs N] [--comp C] [--workdir DIR] [--keep])" ;;
		*) tree=$1; shift ;;
	esac
done
[ -n "$tree" ] && [ -d "$tree" ] || die "usage: tar.sh TREE [--runs N] [--comp C] [--workdir DIR]"
top=$(cd "$(dirname "$0")/.." && pwd)
OURS_MKSQUASHFS=${OURS_MKSQUASHFS:-$top/build/mksquashfs/mksquashfs}
OURS_SQFSTAR=${OURS_SQFSTAR:-$top/build/mksquashfs/sqfstar}
REF_MKSQUASHFS=${REF_MKSQUASHFS:-/usr/bin/mksquashfs}
REF_SQFSTAR=${REF_SQFSTAR:-/usr/bin/sqfstar}
for t in "$OURS_MKSQUASHFS" "$OURS_SQFSTAR" "$REF_MKSQUASHFS" "$REF_SQFSTAR" /usr/bin/time; do
	[ -x "$t" ] || die "$t not found"
done
work=${workdir:-$(mktemp -d "${TMPDIR:-/tmp}/tar-bench.XXXXXX")}
mkdir -p "$work" || die "cannot create $work"
[ "$(stat -f -c %T "$work")" = tmpfs ] &&
	log "warning: $work is a tmpfs: our spool then lives in memory, and so counts against it"
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
size_mb=$(du -sm --apparent-size "$tree" | cut -f1)
log "tree $tree: $size_mb MB, $(find "$tree" | wc -l) entries; work in $work; $runs runs, -comp $comp"

declare -A best_wall max_rss img_size
# measure NAME CMD...: one run; wall time and peak RSS of the measured program (not of tar).
measure() {
	local name=$1
	shift
	rm -f "$work/$name.img"
	sync
	if ! "$@" >"$work/$name.log" 2>&1; then
		tail -n 5 "$work/$name.log" >&2
		die "$name failed"
	fi
	local wall rss
	read -r wall rss < <(tail -n 1 "$work/$name.time")
	img_size[$name]=$(stat -c %s "$work/$name.img")
	if [ -z "${best_wall[$name]:-}" ] || awk -v a="$wall" -v b="${best_wall[$name]}" 'BEGIN { exit !(a < b) }'; then
		best_wall[$name]=$wall
	fi
	[ "${rss:-0}" -gt "${max_rss[$name]:-0}" ] && max_rss[$name]=$rss
	log "run $r $name: ${wall}s, ${rss} KB peak, ${img_size[$name]} bytes"
}

sqfstar_run() { # TOOL NAME
	tar -C "$tree" -cf - . | /usr/bin/time -f '%e %M' -o "$work/$2.time" \
		"$1" -quiet -no-progress -comp "$comp" -processors 2 "$work/$2.img"
}
mksquashfs_run() { # TOOL NAME
	/usr/bin/time -f '%e %M' -o "$work/$2.time" \
		"$1" "$tree" "$work/$2.img" -quiet -no-progress -comp "$comp" -processors 2 -noappend
}

for r in $(seq 1 "$runs"); do
	measure ours-sqfstar sqfstar_run "$OURS_SQFSTAR" ours-sqfstar
	measure ref-sqfstar sqfstar_run "$REF_SQFSTAR" ref-sqfstar
	measure ours-mksquashfs mksquashfs_run "$OURS_MKSQUASHFS" ours-mksquashfs
	measure ref-mksquashfs mksquashfs_run "$REF_MKSQUASHFS" ref-mksquashfs
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
mbs() { awk -v m="$size_mb" -v t="$1" 'BEGIN { printf "%.0f", t ? m / t : 0 }'; }
echo "| $size_mb MB tree, -comp $comp, 2 processors, best of $runs | wall s | MB/s | peak RSS MB | image MB |"
echo "|---|---|---|---|---|"
for n in ours-sqfstar ref-sqfstar ours-mksquashfs ref-mksquashfs; do
	printf '| %s | %s | %s | %.0f | %.1f |\n' "$n" "${best_wall[$n]}" "$(mbs "${best_wall[$n]}")" \
		"$(awk -v k="${max_rss[$n]}" 'BEGIN { print k / 1024 }')" \
		"$(awk -v b="${img_size[$n]}" 'BEGIN { print b / 1048576 }')"
done
echo
echo "ours/ref sqfstar: wall $(ratio "${best_wall[ours-sqfstar]}" "${best_wall[ref-sqfstar]}"), peak RSS $(ratio "${max_rss[ours-sqfstar]}" "${max_rss[ref-sqfstar]}"), size $(ratio "${img_size[ours-sqfstar]}" "${img_size[ref-sqfstar]}")"
echo "our sqfstar / our mksquashfs: wall $(ratio "${best_wall[ours-sqfstar]}" "${best_wall[ours-mksquashfs]}"), peak RSS $(ratio "${max_rss[ours-sqfstar]}" "${max_rss[ours-mksquashfs]}")"
