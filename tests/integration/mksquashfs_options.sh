# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_options.sh — exclusions, wildcards, merged sources and owner options match the reference's images.
#
# Each case runs the same command line through the tool under test and the reference mksquashfs,
# mounts both images and requires identical trees (sidebyside.sh: ours is also extracted by both
# unsquashfs tools); some also check the result against the source.
. "$top_srcdir/tests/integration/sidebyside.sh"

make_tree src --small --seed 21
make_tree src2 --small --seed 22
# Hard-linked symlinks are split at random by the reference 4.5.1 (see common.sh): comparing two
# images needs them out of the way.
rm "$S/src/hardlinks/b/symlink-link" "$S/src2/hardlinks/b/symlink-link"

same "-e two paths" "" -- "$S/src" IMG -e files dups/whole-1
same "-e a missing path" "" -- "$S/src" IMG -e no/such/path
same "-wildcards" "" -- "$S/src" IMG -wildcards -e 'files/*.alt' '... size-0-*' 'names/[a-z]*'
printf 'dups\nlinks/short\n' >"$S/excludes"
same "-ef list" "" -- "$S/src" IMG -ef "$S/excludes"
same "-wildcards -ef list" "" -- "$S/src" IMG -wildcards -ef "$S/excludes"

# Several sources are merged into one root; equal names get _1, _2 suffixes.
same "three sources" "--ignore-root-mtime" -- "$S/src/files" "$S/src/dups" "$S/src/links" IMG
mkdir "$S/src3" && cp -a "$S/src/times" "$S/src3/dups" || die "cannot make $S/src3"
same "same-named sources" "--ignore-root-mtime" -- "$S/src/dups" "$S/src2/dups" "$S/src/sparse" "$S/src3/dups" IMG
# The same inodes reached twice are hard links (the reference links them).
same "one directory given twice" "--ignore-root-mtime" -- "$S/src/dups" "$S/src/sparse" "$S/src/dups" IMG
same "file and directory sources" "--ignore-root-mtime" -- "$S/src/dups/frag-1" "$S/src/times" "$S/src/special/fifo" IMG
# The made-up root takes the time of the run in both tools, so the two roots may be a second
# apart: compare the rest with the reference, and our root's time with the clock.
_t0=$(date +%s)
same "-keep-as-directory" "--ignore-root-mtime" -- "$S/src/modes" IMG -keep-as-directory
if ours "-keep-as-directory root time" "$S/src/modes" IMG -keep-as-directory; then
	_root=$(stat -c %Y "$S/ours")
	[ "$_root" -ge "$_t0" ] && [ "$_root" -le "$(date +%s)" ] ||
		fail "-keep-as-directory: root mtime $_root is not the time of the run (from $_t0)"
	umount_dir "$S/ours"
fi
if both "three sources, content" "$S/src/files" "$S/src/dups" "$S/src/links" IMG; then
	for d in files dups links; do
		compare "three sources: $d vs source" "$S/src/$d" "$S/ours/$d"
	done
	[ "$(ls "$S/ours" | wc -l)" -eq 3 ] || fail "three sources: root holds $(ls "$S/ours" | tr '\n' ' ')"
	done_both
fi

same "-force-uid -force-gid" "" -- "$S/src" IMG -force-uid 1234 -force-gid 5678
if both "-force-uid -force-gid vs source" "$S/src" IMG -force-uid 1234 -force-gid 5678; then
	compare "-force-uid 1234 -force-gid 5678 vs source" "$S/src" "$S/ours" --owner 1234:5678
	done_both
fi
same "-force-uid alone" "" -- "$S/src" IMG -force-uid 4000000000
same "-root-owned" "" -- "$S/src" IMG -root-owned
if both "-root-owned vs source" "$S/src" IMG -root-owned; then
	compare "-root-owned vs source" "$S/src" "$S/ours" --owner 0:0
	done_both
fi
same "-all-root with -e" "" -- "$S/src" IMG -all-root -e xattrs
finish
