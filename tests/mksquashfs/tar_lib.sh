# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# tar_lib.sh — helpers of the tar input tests: trees that tar formats can carry, our sqfstar and
# the reference's on one archive, both images mounted and compared with the source and each other.
# Source after tests/lib/common.sh.

SQFSTAR=${SQFSTAR:-$top_builddir/mksquashfs/sqfstar}
REF_SQFSTAR=${REF_SQFSTAR:-/usr/bin/sqfstar}
REF_OK=0

# tar_begin TOOL...: a test that runs as root with these tools, in a fresh scratch folder, $S.
tar_begin() {
	need_root
	need_tools "$@"
	make_scratch
	S=$SCRATCH
}

# tar_tree NAME [gentree options]: a generated tree without what no tar format carries: sockets,
# and hard links between devices or fifos (GNU tar stores each such name as a member of its own).
tar_tree() {
	make_tree "$@"
	rm -f "$SCRATCH/$1/special/socket" "$SCRATCH/$1/hardlinks/b/fifo-link" \
		"$SCRATCH/$1/hardlinks/b/chardev-link"
}

# tar_restrict DIR [v7]: leave out what ustar cannot hold (ids over 2097151, paths and link
# targets too long to split into its fields) and, for v7, devices and fifos.
tar_restrict() {
	rm -rf "$1/owners" "$1/dirs/deep" "$1/links/long-255" "$1/links/long-4095"
	for _n in "$1"/names/*; do
		# a name longer than ustar's 100-byte name field cannot be split into its prefix
		[ "${#_n}" -gt $((${#1} + 7 + 100)) ] && rm -rf "$_n"
	done
	if [ "${2:-}" = v7 ]; then
		find "$1" \( -type p -o -type b -o -type c \) -exec rm -f {} +
	fi
}

# tar_pair ARCHIVE LABEL [sqfstar options...]: our sqfstar and the reference's on the archive;
# REF_OK=1 when the reference made an image (4.5.1 refuses sparse members and some pax headers).
tar_pair() {
	_arc=$1 _label=$2
	shift 2
	rm -f "$SCRATCH/$_label.ours" "$SCRATCH/$_label.ref"
	if ! "$SQFSTAR" -quiet -no-progress "$@" "$SCRATCH/$_label.ours" <"$_arc" \
		>"$SCRATCH/$_label.ours.log" 2>&1; then
		fail "$_label: our sqfstar failed: $(head -n 3 "$SCRATCH/$_label.ours.log")"
	fi
	REF_OK=0
	if "$REF_SQFSTAR" -quiet -no-progress "$@" "$SCRATCH/$_label.ref" <"$_arc" \
		>"$SCRATCH/$_label.ref.log" 2>&1 && [ -s "$SCRATCH/$_label.ref" ]; then
		REF_OK=1
	else
		log "$_label: the reference sqfstar cannot read this archive ($(grep -m1 -i 'error\|fail' "$SCRATCH/$_label.ref.log" | head -c 120)): ours is compared with the source tree only"
	fi
}

# tar_check LABEL SOURCE [treecmp options for the source compare]: mount both images of
# tar_pair; ours against the source (the made-up root aside) and against the reference's.
tar_check() {
	_label=$1 _src=$2
	shift 2
	[ -s "$SCRATCH/$_label.ours" ] || return 1
	mount_ro "$SCRATCH/$_label.ours" "$SCRATCH/mnt-$_label-ours" || return 1
	compare "$_label: source vs our sqfstar" "$_src" "$SCRATCH/mnt-$_label-ours" --ignore-root "$@"
	# The made-up root: 0777 and the running user's, as squashfs-tools makes it.
	_root=$(stat -c '%a %u %g' "$SCRATCH/mnt-$_label-ours")
	[ "$_root" = "777 $(id -u) $(id -g)" ] || fail "$_label: root is $_root"
	if [ "$REF_OK" = 1 ]; then
		mount_ro "$SCRATCH/$_label.ref" "$SCRATCH/mnt-$_label-ref" &&
			compare "$_label: reference sqfstar vs ours" "$SCRATCH/mnt-$_label-ref" \
				"$SCRATCH/mnt-$_label-ours" --ignore-root-mtime &&
			umount_dir "$SCRATCH/mnt-$_label-ref"
	fi
	umount_dir "$SCRATCH/mnt-$_label-ours"
}

# blocks_of DIR: "path allocated-512-byte-blocks" of every regular file. On a squashfs mount the
# kernel counts only stored blocks (sparse blocks are left out), so this shows the sparse layout.
blocks_of() {
	(cd "$1" && find . -type f -printf '%P %b\n' | LC_ALL=C sort)
}
