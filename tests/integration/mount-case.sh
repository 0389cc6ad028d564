# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mount-case.sh — squash gentree trees with one compressor, check by loop mount and reference extraction.
#
# Sourced by mksquashfs_mount_<comp>.sh with COMP, SEED and TREE_OPTS (gentree options for the
# full tree: --no-huge leaves out the file over 4 GiB, which costs a minute per compressor to
# read back and exercises no compressor code, so only some compressors carry it).
# For each option set: build with the tool under test, loop-mount read-only and treecmp against
# the source, extract with the reference unsquashfs (and ours, when built) and treecmp again,
# build the same with the reference mksquashfs and print "size: ..." for the summary. A script
# may define comp_cases (run last) for cases of its compressor alone.

. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$GENTREE" "$TREECMP"
have_comp "$COMP" || skip "$MKSQUASHFS is built without $COMP (not in -help or configure)"
make_scratch

# run_case TREE "mksquashfs options" "treecmp options"
run_case() {
	tree=$1 opts=$2 cmp_opts=$3
	label="-comp $COMP ${opts:-(defaults)} [$tree]"
	img=$SCRATCH/ours.img ref=$SCRATCH/ref.img mnt=$SCRATCH/mnt xdir=$SCRATCH/extract

	rm -f "$img" "$ref"
	rm -rf "$xdir"
	# shellcheck disable=SC2086 # opts is a list of words
	if ! "$MKSQUASHFS" "$SCRATCH/$tree" "$img" -noappend -comp "$COMP" $opts -no-progress \
		>"$SCRATCH/mk.log" 2>&1; then
		fail "$label: mksquashfs failed: $(tail -n 3 "$SCRATCH/mk.log")"
		return
	fi
	if mount_ro "$img" "$mnt"; then
		# shellcheck disable=SC2086
		compare "$label: kernel mount" "$SCRATCH/$tree" "$mnt" $cmp_opts
		umount_dir "$mnt"
	fi
	if "$REF_UNSQUASHFS" -no-progress -d "$xdir" "$img" >"$SCRATCH/un.log" 2>&1; then
		# shellcheck disable=SC2086
		compare "$label: reference unsquashfs" "$SCRATCH/$tree" "$xdir" $cmp_opts
	else
		fail "$label: reference unsquashfs failed: $(tail -n 3 "$SCRATCH/un.log")"
	fi
	rm -rf "$xdir"
	# Our unsquashfs too, when built: both our tools must agree with the kernel.
	if [ -x "$UNSQUASHFS" ]; then
		if "$UNSQUASHFS" -no-progress -d "$xdir" "$img" >"$SCRATCH/un.log" 2>&1; then
			# shellcheck disable=SC2086
			compare "$label: our unsquashfs" "$SCRATCH/$tree" "$xdir" $cmp_opts
		else
			fail "$label: our unsquashfs failed: $(tail -n 3 "$SCRATCH/un.log")"
		fi
		rm -rf "$xdir"
	fi
	# shellcheck disable=SC2086
	if "$REF_MKSQUASHFS" "$SCRATCH/$tree" "$ref" -noappend -comp "$COMP" $opts -no-progress \
		>/dev/null 2>&1; then
		report_size "$label" "$img" "$ref"
	else
		log "reference mksquashfs refused -comp $COMP $opts; no size comparison"
	fi
}

# shellcheck disable=SC2086 # TREE_OPTS is a list of words
make_tree full --seed "$SEED" ${TREE_OPTS:-}
run_case full "" ""
rm -rf "$SCRATCH/full"

make_tree small --small --seed "$((SEED + 100))"
run_case small "-b 4096" ""
run_case small "-b 1048576" ""
run_case small "-noI -noD -noF -noX" ""
run_case small "-no-fragments" ""
run_case small "-always-use-fragments" ""
run_case small "-no-duplicates" ""
run_case small "-no-xattrs" "--xattrs-absent"
run_case small "-all-root" "--owner 0:0"
# A compressor's own cases (a function the sourcing script defines).
if command -v comp_cases >/dev/null 2>&1; then
	comp_cases
fi
finish
