#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_gnu.sh — archives GNU tar makes of a generated tree, in every format it writes (pax with
# xattrs, gnu, oldgnu, ustar, v7), fed to our sqfstar and to the reference's: both images mounted
# and compared with the source tree and with each other (owner, mode, times, xattrs, rdev, hard
# links); the pax image is also extracted by both unsquashfs and compared with the source.
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/mksquashfs/tar_lib.sh"

tar_begin "$SQFSTAR" "$REF_SQFSTAR" /usr/bin/tar "$TREECMP" "$GENTREE"
tar_tree src --small --seed 13

# pax: everything the tree has, xattrs included.
(cd "$SCRATCH/src" && tar --format=posix --xattrs --xattrs-include='*' -cf "$SCRATCH/pax.tar" .) ||
	fail "GNU tar --format=posix failed"
tar_pair "$SCRATCH/pax.tar" pax
tar_check pax "$SCRATCH/src"

# Both unsquashfs tools extract our image to the source tree.
for tool in "$UNSQUASHFS" "$REF_UNSQUASHFS"; do
	rm -rf "$SCRATCH/x"
	if "$tool" -no-progress -d "$SCRATCH/x" "$SCRATCH/pax.ours" >"$SCRATCH/x.log" 2>&1; then
		compare "$(basename "$tool") extraction of our image" "$SCRATCH/src" "$SCRATCH/x" \
			--ignore-root
	else
		fail "$tool cannot extract our image: $(tail -n 2 "$SCRATCH/x.log")"
	fi
done

# gnu and oldgnu: long names and link names in ././@LongLink members, base-256 ids; no xattrs.
for fmt in gnu oldgnu; do
	(cd "$SCRATCH/src" && tar --format=$fmt -cf "$SCRATCH/$fmt.tar" .) ||
		fail "GNU tar --format=$fmt failed"
	tar_pair "$SCRATCH/$fmt.tar" "$fmt"
	tar_check "$fmt" "$SCRATCH/src" --no-xattrs
done

# ustar and v7: a tree within their limits.
for fmt in ustar v7; do
	cp -a "$SCRATCH/src" "$SCRATCH/src-$fmt"
	tar_restrict "$SCRATCH/src-$fmt" $fmt
	(cd "$SCRATCH/src-$fmt" && tar --format=$fmt -cf "$SCRATCH/$fmt.tar" .) ||
		fail "GNU tar --format=$fmt failed"
	tar_pair "$SCRATCH/$fmt.tar" "$fmt"
	tar_check "$fmt" "$SCRATCH/src-$fmt" --no-xattrs
done

# The same archive from a pipe, with another codec and block size.
(cd "$SCRATCH/src" && tar --format=posix --xattrs --xattrs-include='*' -cf - .) |
	"$SQFSTAR" -quiet -no-progress -comp zstd -b 64K "$SCRATCH/pipe.ours" ||
	fail "sqfstar from a pipe failed"
REF_OK=0
tar_check pipe "$SCRATCH/src"
finish
