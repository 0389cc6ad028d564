#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# ref_images.sh — our unsquashfs on images of the reference mksquashfs: every compressor and
# layout option; extraction must match the source tree, listings and -s must match the
# reference unsquashfs byte for byte.
. "$top_srcdir/tests/lib/common.sh"
need_root
need_tools "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$UNSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
make_tree src --small --seed 7
# The reference stores hard-linked symlinks as separate inodes (tests/lib/common.sh).
TREECMP_TOOL_OPTS=--no-symlink-hardlinks
# Listings print local times: pin the zone so both tools agree whatever the host says.
TZ=UTC
export TZ

n=0
CMPOPTS=
check_image() {
	label=$1
	shift
	n=$((n + 1))
	img=$SCRATCH/img$n.sqfs
	if ! "$REF_MKSQUASHFS" "$SCRATCH/src" "$img" -noappend -quiet -no-progress "$@" >/dev/null 2>&1; then
		fail "$label: the reference mksquashfs failed"
		return
	fi
	out=$SCRATCH/out$n
	if ! "$UNSQUASHFS" -n -d "$out" "$img" >"$SCRATCH/ours.txt" 2>"$SCRATCH/err.txt"; then
		fail "$label: unsquashfs failed: $(head -n 3 "$SCRATCH/err.txt")"
		return
	fi
	# shellcheck disable=SC2086 # CMPOPTS is a list of words
	compare "$label" "$SCRATCH/src" "$out" $CMPOPTS
	# The end summary ("created N files" ...) is the reference's.
	"$REF_UNSQUASHFS" -n -d "$SCRATCH/ref$n" "$img" >"$SCRATCH/ref.txt" 2>/dev/null
	grep -v '^Parallel unsquashfs' "$SCRATCH/ours.txt" >"$SCRATCH/ours.sum"
	grep -v '^Parallel unsquashfs' "$SCRATCH/ref.txt" >"$SCRATCH/ref.sum"
	cmp -s "$SCRATCH/ours.sum" "$SCRATCH/ref.sum" ||
		fail "$label: extraction summary differs: $(diff "$SCRATCH/ours.sum" "$SCRATCH/ref.sum" | head -n 5)"
	rm -rf "$out" "$SCRATCH/ref$n"
	for mode in -l -ll -lln -lc -llc -s; do
		"$UNSQUASHFS" $mode "$img" >"$SCRATCH/ours.txt" 2>&1
		"$REF_UNSQUASHFS" $mode "$img" >"$SCRATCH/ref.txt" 2>&1
		cmp -s "$SCRATCH/ours.txt" "$SCRATCH/ref.txt" ||
			fail "$label: $mode differs: $(diff "$SCRATCH/ours.txt" "$SCRATCH/ref.txt" | head -n 5)"
	done
	# A path selection lists the same entries.
	"$UNSQUASHFS" -ll "$img" files hardlinks/a >"$SCRATCH/ours.txt" 2>&1
	"$REF_UNSQUASHFS" -ll "$img" files hardlinks/a >"$SCRATCH/ref.txt" 2>&1
	cmp -s "$SCRATCH/ours.txt" "$SCRATCH/ref.txt" || fail "$label: -ll with paths differs"
	rm -f "$img"
}

check_image gzip -comp gzip
check_image "gzip options" -comp gzip -Xcompression-level 3 -Xwindow-size 10 -Xstrategy filtered,huffman_only
check_image xz -comp xz
check_image "xz bcj+dict" -comp xz -Xbcj x86,arm -Xdict-size 64K
check_image lzo -comp lzo
check_image "lzo1x_1" -comp lzo -Xalgorithm lzo1x_1
check_image lz4 -comp lz4
check_image "lz4 hc" -comp lz4 -Xhc
check_image zstd -comp zstd
check_image "zstd 19" -comp zstd -Xcompression-level 19
check_image "4K blocks" -b 4K
check_image "1M blocks" -b 1M -comp xz
check_image uncompressed -noI -noD -noF -noX
check_image "no fragments" -no-fragments
check_image "always fragments" -always-use-fragments
CMPOPTS=--xattrs-absent
check_image "no xattrs, exports, duplicates" -no-xattrs -no-exports -no-duplicates
CMPOPTS=

# -offset: the same image behind 1 MiB of something else.
img=$SCRATCH/off.sqfs
"$REF_MKSQUASHFS" "$SCRATCH/src" "$SCRATCH/plain.sqfs" -noappend -quiet -no-progress >/dev/null 2>&1
head -c 1048576 /dev/urandom >"$img"
cat "$SCRATCH/plain.sqfs" >>"$img"
"$UNSQUASHFS" -n -q -o 1M -d "$SCRATCH/offout" "$img" >/dev/null 2>&1 || fail "-offset 1M: extraction failed"
compare "-offset 1M" "$SCRATCH/src" "$SCRATCH/offout"

# -i and -li print what is extracted exactly as the reference does.
for mode in -i -li; do
	"$UNSQUASHFS" $mode -n -d "$SCRATCH/info" "$SCRATCH/plain.sqfs" >"$SCRATCH/ours.txt" 2>&1
	rm -rf "$SCRATCH/info"
	"$REF_UNSQUASHFS" $mode -n -d "$SCRATCH/info" "$SCRATCH/plain.sqfs" 2>&1 | grep -v '^Parallel unsquashfs' >"$SCRATCH/ref.txt"
	rm -rf "$SCRATCH/info"
	grep -v '^Parallel unsquashfs' "$SCRATCH/ours.txt" | cmp -s - "$SCRATCH/ref.txt" ||
		fail "$mode output differs from the reference"
done

# The single-threaded writer (-p 1) and a wide pool (-p 8) give the same tree.
for p in 1 8; do
	"$UNSQUASHFS" -n -q -p $p -d "$SCRATCH/p$p" "$SCRATCH/plain.sqfs" >/dev/null 2>&1 || fail "-p $p: extraction failed"
	compare "-p $p" "$SCRATCH/src" "$SCRATCH/p$p"
done

# -cat gives the file's bytes; a missing name is reported with exit 2.
f=$(cd "$SCRATCH/src" && find files -type f -size +100k | head -n 1)
"$UNSQUASHFS" -cat "$SCRATCH/plain.sqfs" "$f" | cmp -s - "$SCRATCH/src/$f" || fail "-cat $f differs"
"$UNSQUASHFS" -cat "$SCRATCH/plain.sqfs" no/such/file >/dev/null 2>&1
[ $? -eq 2 ] || fail "-cat of a missing file should exit 2"

# An existing empty destination is extracted into (as squashfs-tools 4.5+); over what is
# there, names already present are refused without -f and replaced with it.
mkdir "$SCRATCH/exists"
"$UNSQUASHFS" -n -q -d "$SCRATCH/exists" "$SCRATCH/plain.sqfs" >/dev/null 2>&1 ||
	fail "extraction into an existing empty destination failed"
compare "existing destination" "$SCRATCH/src" "$SCRATCH/exists"
"$UNSQUASHFS" -n -q -d "$SCRATCH/exists" "$SCRATCH/plain.sqfs" >/dev/null 2>&1 &&
	fail "a second extraction over the first was accepted without -f"
rm -rf "$SCRATCH/exists"
mkdir "$SCRATCH/exists"
"$UNSQUASHFS" -n -q -f -d "$SCRATCH/exists" "$SCRATCH/plain.sqfs" >/dev/null 2>&1 ||
	fail "-f into an existing destination failed"
compare "-f" "$SCRATCH/src" "$SCRATCH/exists"
# ... and again over the extracted tree (every file replaced in place).
"$UNSQUASHFS" -n -q -f -d "$SCRATCH/exists" "$SCRATCH/plain.sqfs" >/dev/null 2>&1 ||
	fail "-f over a previous extraction failed"
compare "-f twice" "$SCRATCH/src" "$SCRATCH/exists"

# A full disk: exit 1 naming the file; with -ignore-errors the failures are reported, exit 2.
tiny=$SCRATCH/tiny
mkdir "$tiny"
if mount -t tmpfs -o size=512k tmpfs "$tiny" 2>/dev/null; then
	MOUNTS="$tiny $MOUNTS"
	for p in 1 2; do
		"$UNSQUASHFS" -n -q -p $p -d "$tiny/o" "$SCRATCH/plain.sqfs" >/dev/null 2>"$SCRATCH/err"
		rc=$?
		[ $rc -eq 1 ] && grep -q "No space left on device" "$SCRATCH/err" ||
			fail "full disk (-p $p): exit $rc, $(head -n 2 "$SCRATCH/err")"
		rm -rf "$tiny/o"
		"$UNSQUASHFS" -n -q -ig -p $p -d "$tiny/o" "$SCRATCH/plain.sqfs" >/dev/null 2>"$SCRATCH/err"
		rc=$?
		[ $rc -eq 2 ] || fail "full disk with -ignore-errors (-p $p): exit $rc, expected 2"
		rm -rf "$tiny/o"
	done
	umount_dir "$tiny"
else
	log "no tmpfs mount: full-disk checks skipped"
fi

# Unknown options fail with a message naming them.
msg=$("$UNSQUASHFS" -bogus "$SCRATCH/plain.sqfs" 2>&1)
[ $? -eq 1 ] && printf '%s' "$msg" | grep -q -- -bogus || fail "unknown option: exit/message wrong: $msg"

# Images of our own mksquashfs (when built): extraction and listings agree with the reference.
if [ -x "$MKSQUASHFS" ]; then
	if "$MKSQUASHFS" "$SCRATCH/src" "$SCRATCH/ours.sqfs" -noappend -quiet -no-progress >/dev/null 2>&1; then
		"$UNSQUASHFS" -n -q -d "$SCRATCH/oursout" "$SCRATCH/ours.sqfs" >/dev/null 2>&1 ||
			fail "our mksquashfs image: extraction failed"
		"$TREECMP" "$SCRATCH/src" "$SCRATCH/oursout" >"$SCRATCH/cmp.txt" 2>&1 ||
			fail "our mksquashfs image: $(head -n 5 "$SCRATCH/cmp.txt")"
		for mode in -ll -lc -s; do
			"$UNSQUASHFS" $mode "$SCRATCH/ours.sqfs" >"$SCRATCH/ours.txt" 2>&1
			"$REF_UNSQUASHFS" $mode "$SCRATCH/ours.sqfs" >"$SCRATCH/ref.txt" 2>&1
			cmp -s "$SCRATCH/ours.txt" "$SCRATCH/ref.txt" || fail "our mksquashfs image: $mode differs"
		done
	else
		log "our mksquashfs failed on the test tree: its own tests report that"
	fi
fi

log "checked $n reference images"
finish
