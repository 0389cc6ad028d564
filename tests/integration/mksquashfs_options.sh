# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_options.sh — exclusions, wildcards, merged sources and owner options match the reference's images.
#
# Each case runs the same command line through the tool under test and the reference mksquashfs,
# mounts both images and requires identical trees; some also check the result against the source.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
S=$SCRATCH
make_tree src --small --seed 21
make_tree src2 --small --seed 22
# Hard-linked symlinks are split at random by the reference 4.5.1 (see common.sh): comparing two
# images needs them out of the way.
rm "$S/src/hardlinks/b/symlink-link" "$S/src2/hardlinks/b/symlink-link"

# build TOOL IMG ARGS...: ARGS with the word IMG replaced by the image path and our fixed
# options (right after it: -e takes every argument that follows it).
build() {
	_tool=$1 _img=$2
	shift 2
	for _a; do
		shift
		if [ "$_a" = IMG ]; then
			set -- "$@" "$_img" -noappend -no-progress
		else
			set -- "$@" "$_a"
		fi
	done
	rm -f "$_img"
	"$_tool" "$@" >"$S/mk.log" 2>&1
}

# both LABEL ARGS...: build with both tools, mount both; leaves them mounted at $S/ours, $S/ref
# (returns 1 when that failed). Call done_both afterwards.
both() {
	label=$1
	shift
	if ! build "$MKSQUASHFS" "$S/ours.img" "$@"; then
		fail "$label: mksquashfs failed: $(tail -n 2 "$S/mk.log")"
		return 1
	fi
	build "$REF_MKSQUASHFS" "$S/ref.img" "$@" || die "$label: reference mksquashfs failed: $(tail -n 2 "$S/mk.log")"
	mount_ro "$S/ours.img" "$S/ours" || return 1
	if ! mount_ro "$S/ref.img" "$S/ref"; then
		umount_dir "$S/ours"
		return 1
	fi
	return 0
}

done_both() {
	umount_dir "$S/ours"
	umount_dir "$S/ref"
}

# same LABEL TREECMP-OPTIONS -- ARGS...: our image's tree equals the reference's.
same() {
	label=$1 opts=$2
	shift 3
	if both "$label" "$@"; then
		# shellcheck disable=SC2086
		compare "$label: ours vs reference" "$S/ref" "$S/ours" $opts
		done_both
	fi
}

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
same "-keep-as-directory" "" -- "$S/src/modes" IMG -keep-as-directory
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
