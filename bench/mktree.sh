#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# Builds the benchmark source tree (kernel source, headers, man pages, perl, libraries, binaries) from Debian packages.
#
# Usage: bench/mktree.sh [--text] DIR [SIZE_MB]       (SIZE_MB defaults to 300, 150 with --text)
#
# --text builds the second benchmark tree instead: small text files only (kernel sources and
# documentation, nearly all under one block, so nearly everything is packed into fragments).
#
# The tree is chosen deterministically: files are taken in C-locale path order until each
# category's share of SIZE_MB is used, every timestamp is set to SOURCE_DATE_EPOCH, and the
# kernel part comes from a pinned Debian package, so two runs on machines with the same
# packages give byte-identical trees (the digest printed at the end lets you check).
# See bench/README.md for the recipe and what it is meant to represent.
set -euo pipefail
export LC_ALL=C

die() { echo "mktree.sh: $*" >&2; exit 1; }
log() { echo "mktree.sh: $*" >&2; }

text=0
if [ "${1:-}" = --text ]; then text=1; shift; fi
[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: mktree.sh [--text] DIR [SIZE_MB]"
dest=$1
size_mb=${2:-$([ "$text" -eq 1 ] && echo 150 || echo 300)}
case $size_mb in
	''|*[!0-9]*) die "SIZE_MB \"$size_mb\" is not a positive whole number of megabytes" ;;
esac
[ "$size_mb" -ge 10 ] || die "SIZE_MB \"$size_mb\" is too small (at least 10)"
epoch=${SOURCE_DATE_EPOCH:-1700000000}
case $epoch in
	''|*[!0-9]*) die "SOURCE_DATE_EPOCH \"$epoch\" is not a number of seconds" ;;
esac

if [ -e "$dest" ]; then
	[ -d "$dest" ] || die "$dest exists and is not a directory"
	[ -z "$(ls -A "$dest")" ] || die "$dest is not empty (remove it first; the tree is rebuilt from scratch)"
fi

# Kernel source: Debian's linux-source package ships the whole tree as one tarball.
ksrc_tarball=${KSRC_TARBALL:-}
if [ -z "$ksrc_tarball" ]; then
	ksrc_tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$ksrc_tarball" ]; then
		[ "$(id -u)" -eq 0 ] || die "linux-source is not installed and installing it needs root (apt-get install linux-source)"
		log "installing linux-source with apt-get"
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends linux-source >&2 ||
			die "apt-get install linux-source failed"
		ksrc_tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1 || true)
		[ -n "$ksrc_tarball" ] || die "linux-source installed but no /usr/src/linux-source-*.tar.xz found"
	fi
fi
[ -r "$ksrc_tarball" ] || die "cannot read kernel source tarball $ksrc_tarball"
command -v xz >/dev/null || die "xz not found (apt-get install xz-utils)"

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mktree.XXXXXX")
trap 'rm -rf "$work"' EXIT

total_budget=$((size_mb * 1000 * 1000))
used=0

# Reads "size<TAB>path" lines in priority order and prints the paths to keep: stop once the
# budget is reached, but skip single files larger than 1/8 of it so that one huge library
# (libLLVM is 110 MB) cannot crowd out everything else. Symlinks and empty files cost nothing.
select_budget() {
	awk -F '\t' -v budget="$1" '
		{ size = ($2 == "l") ? 0 : $1 + 0; path = substr($0, length($1) + length($2) + 3) }
		full { next }
		size == 0 { print path; next }
		size > budget / 8 { next }
		used + size > budget { full = 1; next }
		{ used += size; print path }
	'
}

# Copies up to BUDGET bytes of SRC_ROOT/REL (files matching the find expression) to DEST/REL.
# tar keeps modes, hard links and symlinks as they are on the system.
copy_part() {
	local src_root=$1 rel=$2 budget=$3
	shift 3
	[ -d "$src_root/$rel" ] || { log "skipping $src_root/$rel (absent)"; return 0; }
	(cd "$src_root" && find "$rel" "$@" ! -name '*
*' -printf '%s\t%y\t%p\n') | sort -t "$(printf '\t')" -k3 | select_budget "$budget" > "$work/list"
	(cd "$src_root" && tar --no-recursion --verbatim-files-from -cf - -T "$work/list") |
		(cd "$dest" && tar -xpf -)
	local got
	got=$(cd "$dest" && find "$rel" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
	used=$((used + got))
	log "$(printf '%-34s %7s MB (share %s MB)' "$rel" "$(mb "$got")" "$(mb "$budget")")"
}

share() { echo $((total_budget * $1 / 100)); }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1000000 }'; }

# Shares of the total; whatever these leave unused goes to the kernel source, which is large
# enough (1.3 GB unpacked) to fill any size asked for.
if [ "$text" -eq 0 ]; then
	copy_part / usr/share/man "$(share 10)" \( -type f -o -type l \) -name '*.gz'
	copy_part / usr/share/perl "$(share 5)" \( -type f -o -type l \)
	copy_part / usr/share/perl5 "$(share 2)" \( -type f -o -type l \)
	copy_part / usr/include "$(share 15)" \( -type f -o -type l \)
	copy_part / usr/lib/x86_64-linux-gnu "$(share 13)" -maxdepth 1 \( -type f -o -type l \) -name '*.so*'
	copy_part / usr/bin "$(share 10)" -maxdepth 1 \( -type f -o -type l \)
fi

kernel_budget=$((total_budget - used))
[ "$kernel_budget" -gt 0 ] || kernel_budget=0
# Core subsystems first, then docs and drivers: a mix of C, headers, text and scripts.
kernel_dirs="include kernel mm fs net lib crypto block security ipc init scripts Documentation sound drivers"
# The text tree: documentation first, then sources; files of a block or more are left out.
[ "$text" -eq 0 ] || kernel_dirs="Documentation include kernel fs net drivers"
# Debian names the tarball after its top directory (linux-source-6.1.tar.xz holds linux-source-6.1/).
ktop=$(basename "$ksrc_tarball" .tar.xz)
mkdir -p "$dest/src"
members=
for d in $kernel_dirs; do members="$members $ktop/$d"; done
log "unpacking $(basename "$ksrc_tarball") ($kernel_dirs)"
# shellcheck disable=SC2086
xz -dc "$ksrc_tarball" | tar -C "$dest/src" -xpf - $members
: > "$work/klist"
for d in $kernel_dirs; do
	(cd "$dest/src" && find "$ktop/$d" -type f ! -name '*
*' -printf '%s\t%y\t%p\n') | sort -t "$(printf '\t')" -k3 >> "$work/klist"
done
awk -F '\t' -v text="$text" '!text || $1 < 131072' "$work/klist" |
	select_budget "$kernel_budget" | sort > "$work/kkeep"
cut -f 3- "$work/klist" | sort > "$work/kall"
(cd "$dest/src" && comm -23 "$work/kall" "$work/kkeep" | tr '\n' '\0' | xargs -0 -r rm -f)
find "$dest/src" -depth -type d -empty -delete
kgot=$(find "$dest/src" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
log "$(printf '%-34s %7s MB (share %s MB)' "src/$ktop" "$(mb "$kgot")" "$(mb "$kernel_budget")")"

find "$dest" -print0 | xargs -0 touch -h -d "@$epoch"

files=$(find "$dest" -type f | wc -l)
dirs=$(find "$dest" -type d | wc -l)
links=$(find "$dest" -type l | wc -l)
bytes=$(find "$dest" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
digest=$(cd "$dest" && { find . -printf '%y %m %s %n %p -> %l\n' | sort; find . -type f -print0 | sort -z | xargs -0 sha256sum; } | sha256sum | cut -c 1-16)
printf 'tree %s: %d files, %d directories, %d symlinks, %s MB; digest %s\n' \
	"$dest" "$files" "$dirs" "$links" "$(mb "$bytes")" "$digest"
