#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# deep.sh — a directory chain 2,000 levels deep (made by the reference mksquashfs, and by ours
# when built): extracted whole (compared with the mounted image), listed as the reference
# lists it, selected by a path at the bottom, and extracted as a non-root user.
. "$top_srcdir/tests/lib/common.sh"
need_root
need_tools "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$UNSQUASHFS" "$TREECMP"
make_scratch
DEPTH=2000
# Thousands of nested directories are slow to make and remove on a disk: work on a tmpfs.
W=$SCRATCH
mkdir "$SCRATCH/fast"
if mount -t tmpfs -o size=256m tmpfs "$SCRATCH/fast" 2>/dev/null; then
	MOUNTS="$SCRATCH/fast $MOUNTS"
	W=$SCRATCH/fast
fi
mkdir "$W/src"
# "d/d/.../d" is 4,000 bytes: one relative mkdir -p (under PATH_MAX) makes the chain.
dirs=$(i=0; p=; while [ $i -lt $DEPTH ]; do p=${p}d/; i=$((i + 1)); done; printf '%s' "${p%/}")
bottom=$dirs/f
(cd "$W/src" && mkdir -p "$dirs" && printf 'bottom\n' >"$bottom" && ln -s ../../f "$dirs/link") ||
	die "cannot make the deep tree"

check() {
	label=$1 img=$2
	out=$W/out-$label
	"$UNSQUASHFS" -n -d "$out" "$img" >"$SCRATCH/ours.txt" 2>"$SCRATCH/err.txt" ||
		{ fail "$label: extraction failed: $(head -c 300 "$SCRATCH/err.txt")"; return; }
	mount_ro "$img" "$SCRATCH/m" && compare "$label: extracted vs mounted" "$SCRATCH/m" "$out"
	umount_dir "$SCRATCH/m"
	for mode in -l -lln -lc; do
		"$UNSQUASHFS" $mode "$img" >"$SCRATCH/ours.txt" 2>&1
		"$REF_UNSQUASHFS" $mode "$img" >"$SCRATCH/ref.txt" 2>&1
		cmp -s "$SCRATCH/ours.txt" "$SCRATCH/ref.txt" || fail "$label: $mode differs from the reference"
	done
	lines=$("$UNSQUASHFS" -l "$img" | wc -l)
	[ "$lines" -eq $((DEPTH + 3)) ] || fail "$label: -l lists $lines entries, expected $((DEPTH + 3))"
	"$UNSQUASHFS" -cat "$img" "$bottom" | grep -q '^bottom$' || fail "$label: -cat of the bottom file"
	rm -rf "$out"
	"$UNSQUASHFS" -n -q -d "$out" "$img" "$bottom" >/dev/null 2>&1 && (cd "$out" && [ -f "$bottom" ]) ||
		fail "$label: extracting the bottom file alone"
	rm -rf "$out"
}

"$REF_MKSQUASHFS" "$W/src" "$W/ref.sqfs" -noappend -quiet -no-progress >/dev/null 2>&1 ||
	die "the reference mksquashfs failed"
check reference "$W/ref.sqfs"
if [ -x "$MKSQUASHFS" ] && "$MKSQUASHFS" "$W/src" "$W/ours.sqfs" -noappend -quiet -no-progress >/dev/null 2>&1; then
	check ours "$W/ours.sqfs"
else
	log "our mksquashfs did not make the deep image: its own tests report that"
fi

# As a non-root user too (the descriptor window does not depend on a raised limit).
if command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$SCRATCH" "$W"
	chmod 644 "$W/ref.sqfs"
	mkdir "$W/nr" && chmod 777 "$W/nr"
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'ulimit -n 256; "$0" -n -q -d "$1" "$2"' \
		"$UNSQUASHFS" "$W/nr/o" "$W/ref.sqfs" >/dev/null 2>"$SCRATCH/err.txt" ||
		fail "non-root with 256 descriptors: $(head -c 300 "$SCRATCH/err.txt")"
	(cd "$W/nr/o" && [ -f "$bottom" ]) || fail "non-root: the bottom file is missing"
else
	log "setpriv missing: the non-root part is left out"
fi
finish
