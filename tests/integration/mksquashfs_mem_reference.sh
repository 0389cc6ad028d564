#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_mem_reference.sh — -mem side by side with squashfs-tools: our -mem bounds the whole
# run (the tree's records spill to a temporary file past a quarter of it, doc/scaling.md), the
# reference's only its caches; with the same -mem both images must be the same byte for byte
# (gzip through zlib, a fixed creation time), ours must have spilled at 16M (where the reference
# often fails), and it mounts and holds the source. A build in a control group with a memory limit takes half the limit as its
# default -mem (-mem-default).
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/mksquashfs/spill_lib.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$GENTREE" "$TREECMP" perl
make_scratch
S=$SCRATCH
make_tree src --small --seed 17
# What the reference lays out differently (common.sh, mksquashfs_all_options.sh): hard-linked
# symlinks, sparse files, xattrs.
rm -rf "$S/src/hardlinks/b/symlink-link" "$S/src/sparse" "$S/src/files/zeros" "$S/src/xattrs" ||
	die "cannot trim the tree"
# 30,000 small files (about 6 MiB of records: past the 4 MiB that -mem 16M leaves them on the
# heap), some of them copies of others.
small_files "$S/src" 30
mkdir "$S/tmp" || die "mkdir failed"

# pair MEM: both tools with -mem MEM; the images are compared byte for byte.
pair() {
	TMPDIR=$S/tmp "$MKSQUASHFS" "$S/src" "$S/ours-$1.img" -noappend -no-progress -mkfs-time 1 \
		-Xzlib -mem "$1" >"$S/ours-$1.out" 2>&1 ||
		{ fail "ours -mem $1: $(tail -n 2 "$S/ours-$1.out")"; return 1; }
	# squashfs-tools 4.5.1 at -mem 16M-32M on this tree often stops with "gzip uncompress
	# failed with error code -3" (its caches too small for its duplicate checks; man page,
	# differences): then its image at the default -mem, which -mem does not change, stands in.
	if ! "$REF_MKSQUASHFS" "$S/src" "$S/ref-$1.img" -noappend -no-progress -mkfs-time 1 \
		-mem "$1" >"$S/ref-$1.out" 2>&1; then
		log "the reference failed at -mem $1: $(grep FATAL "$S/ref-$1.out" | head -n 1)"
		"$REF_MKSQUASHFS" "$S/src" "$S/ref-$1.img" -noappend -no-progress -mkfs-time 1 \
			>"$S/ref-$1.out" 2>&1 ||
			{ fail "reference: $(tail -n 2 "$S/ref-$1.out")"; return 1; }
	fi
	cmp "$S/ours-$1.img" "$S/ref-$1.img" >/dev/null ||
		fail "-mem $1: our image differs from the reference's"
}

pair 16M
grep -q "^Per-file records spilled to a temporary file in $S/tmp: " "$S/ours-16M.out" ||
	fail "-mem 16M did not spill: $(tail -n 1 "$S/ours-16M.out")"
[ -z "$(ls -A "$S/tmp")" ] || fail "the temporary file was left behind"
if mount_ro "$S/ours-16M.img" "$S/mnt"; then
	compare "-mem 16M" "$S/src" "$S/mnt"
	umount_dir "$S/mnt"
fi
pair 64M
grep -q "^Per-file records spilled" "$S/ours-64M.out" && fail "-mem 64M spilled 30,000 files"

# The default -mem in a control group limited to 1 GiB: half of it (cgroup v1 here; v2 where
# the memory controller can be given to a child group).
# The first usable of: our v1 memory group, our v2 group under either mount point (with the
# memory controller enabled for its children); printed as "DIRECTORY LIMIT-FILE".
memory_group() {
	awk -F: '$2 ~ /(^|,)memory(,|$)/ { print "/sys/fs/cgroup/memory" $3, "memory.limit_in_bytes" }
		$1 == "0" { print "/sys/fs/cgroup" $3, "memory.max";
			    print "/sys/fs/cgroup/unified" $3, "memory.max" }' /proc/self/cgroup |
		while read -r _d _f; do
			case $_f in
			memory.max) grep -qw memory "$_d/cgroup.subtree_control" 2>/dev/null || continue ;;
			*) [ -f "$_d/$_f" ] || continue ;;
			esac
			echo "$_d $_f"
			break
		done
}
cg_run() { # LIMIT_BYTES CMD...: CMD in a new child memory group of ours, limited
	_lim=$1
	shift
	read -r _own _file <<-END || return 77
	$(memory_group)
	END
	[ -n "$_own" ] || return 77
	_cg=$_own/sqtest-$$
	mkdir "$_cg" 2>/dev/null || return 77
	echo "$_lim" >"$_cg/$_file" || { rmdir "$_cg"; return 77; }
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$_cg" "$@" >"$S/cg.out" 2>&1
	_rc=$?
	rmdir "$_cg"
	return $_rc
}
cg_run $((1 << 30)) "$MKSQUASHFS" -mem-default
case $? in
0) [ "$(cat "$S/cg.out")" = 512 ] || fail "-mem-default in a 1 GiB group: $(cat "$S/cg.out")" ;;
77) [ "$FAILURES" -ne 0 ] || skip "no memory control group to make: the cgroup default not checked" ;;
*) fail "-mem-default in a control group failed: $(cat "$S/cg.out")" ;;
esac
"$MKSQUASHFS" -help 2>&1 | grep -q "control group" || fail "-help does not say -mem follows cgroups"
finish
