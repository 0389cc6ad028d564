# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# sidebyside.sh — sourced by the pseudo-file and tree-option tests: the same command line through
# our mksquashfs and the reference, both images loop-mounted and compared with treecmp, and our
# image extracted by both unsquashfs tools and compared with the reference's mounted tree.
#
# In ARGS the word IMG stands for the image (followed by -noappend -no-progress, before any -e).
# OFFSET (bytes) mounts and extracts images that start that far into their file.

. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
S=$SCRATCH
OFFSET=0

# build TOOL IMG ARGS...: run TOOL with IMG replaced; its output in $S/mk.log.
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
	"$_tool" "$@" >"$S/mk.log" 2>&1 </dev/null
}

# build_ours LABEL ARGS...: our mksquashfs makes $S/ours.img; a failure (and 1) when it fails.
build_ours() {
	_label=$1
	shift
	build "$MKSQUASHFS" "$S/ours.img" "$@" && return 0
	fail "$_label: mksquashfs failed: $(tail -n 2 "$S/mk.log")"
	return 1
}

# mount_at IMG DIR: read-only loop mount, at $OFFSET.
mount_at() {
	if [ "$OFFSET" -eq 0 ]; then
		mount_ro "$1" "$2"
		return
	fi
	mkdir -p "$2"
	if mount -t squashfs -o "loop,ro,offset=$OFFSET" "$1" "$2" 2>"$S/mount.err"; then
		MOUNTS="$2 $MOUNTS"
		return 0
	fi
	fail "cannot mount $1 at offset $OFFSET: $(cat "$S/mount.err")"
	return 1
}

# extract_both LABEL IMG REFERENCE_TREE TREECMP_OPTS: both unsquashfs tools extract IMG and
# must give REFERENCE_TREE.
extract_both() {
	_label=$1 _img=$2 _tree=$3 _opts=$4
	for _un in "$REF_UNSQUASHFS" "$UNSQUASHFS"; do
		[ -x "$_un" ] || continue
		rm -rf "$S/x"
		if [ "$OFFSET" -ne 0 ]; then
			set -- -o "$OFFSET"
		else
			set --
		fi
		if "$_un" -no-progress "$@" -d "$S/x" "$_img" >"$S/un.log" 2>&1; then
			# shellcheck disable=SC2086
			compare "$_label: extracted by $_un" "$_tree" "$S/x" $_opts
		else
			fail "$_label: $_un failed: $(tail -n 2 "$S/un.log")"
		fi
		rm -rf "$S/x"
	done
}

# both LABEL ARGS...: build with both tools and mount both at $S/ours and $S/ref (1 on failure);
# call done_both after.
both() {
	label=$1
	shift
	build_ours "$label" "$@" || return 1
	build "$REF_MKSQUASHFS" "$S/ref.img" "$@" ||
		die "$label: reference mksquashfs failed: $(tail -n 2 "$S/mk.log")"
	# -nopad images end anywhere; a loop device needs whole 4K blocks.
	if [ -n "${PAD_BEFORE_MOUNT:-}" ]; then
		for _i in "$S/ours.img" "$S/ref.img"; do
			truncate -s %4096 "$_i"
		done
	fi
	mount_at "$S/ours.img" "$S/ours" || return 1
	if ! mount_at "$S/ref.img" "$S/ref"; then
		umount_dir "$S/ours"
		return 1
	fi
	return 0
}

done_both() {
	umount_dir "$S/ours"
	umount_dir "$S/ref"
}

# same LABEL "TREECMP-OPTIONS" -- ARGS...: our mounted tree equals the reference's, and both
# unsquashfs tools extract ours into that tree too.
same() {
	label=$1 opts=$2
	shift 3
	_before=$FAILURES
	if both "$label" "$@"; then
		# shellcheck disable=SC2086
		compare "$label: ours vs reference" "$S/ref" "$S/ours" $opts
		extract_both "$label" "$S/ours.img" "$S/ref" "$opts"
		done_both
		[ "$FAILURES" -eq "$_before" ] && log "ok: $label"
	fi
}

# ours LABEL ARGS...: build with our tool only and mount at $S/ours (1 on failure); for what
# the reference 4.5.1 lacks. Call umount_dir "$S/ours" after.
ours() {
	label=$1
	shift
	build_ours "$label" "$@" || return 1
	mount_at "$S/ours.img" "$S/ours"
}

# expect LABEL WANT GOT: one value checked.
expect() {
	if [ "$2" = "$3" ]; then
		return 0
	fi
	fail "$1: expected '$2', got '$3'"
	return 1
}
