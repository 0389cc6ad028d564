# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_repro.sh — reproducible images: SOURCE_DATE_EPOCH, -processors, -all-time, -mkfs-time.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_UNSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
S=$SCRATCH
make_tree src --small --seed 11
if [ -n "$TREECMP_TOOL_OPTS" ]; then
	# The reference 4.5.1 merges a hard-linked symlink pair or not at random (inode count
	# 904 or 905 from one tree): leave the pair out when proving the harness on it.
	rm "$S/src/hardlinks/b/symlink-link"
	touch -d @1000000000 "$S/src/hardlinks/b"
fi
EPOCH=1500000000

# mk NAME [options]: build $S/NAME.img from the tree with gzip.
mk() {
	_img=$S/$1.img
	shift
	rm -f "$_img"
	"$MKSQUASHFS" "$S/src" "$_img" -noappend -comp gzip -no-progress "$@" >"$S/mk.log" 2>&1 ||
		fail "mksquashfs $* failed: $(tail -n 2 "$S/mk.log")"
}

same_bytes() {
	cmp -s "$S/$1.img" "$S/$2.img" || fail "$3: images differ ($(cmp "$S/$1.img" "$S/$2.img" 2>&1 | head -n 1))"
}

# The superblock's mkfs time: u32 little-endian at offset 8.
mkfs_time() {
	od -An -t u4 -j 8 -N 4 --endian=little "$1" | tr -d ' '
}

export SOURCE_DATE_EPOCH=$EPOCH
mk e1 -processors 2
mk e2 -processors 2
mk e3 -processors 1
same_bytes e1 e2 "SOURCE_DATE_EPOCH, two runs"
same_bytes e1 e3 "SOURCE_DATE_EPOCH, -processors 2 vs 1"
[ "$(mkfs_time "$S/e1.img")" = $EPOCH ] ||
	fail "SOURCE_DATE_EPOCH: mkfs time is $(mkfs_time "$S/e1.img"), expected $EPOCH"
# Newer mtimes are clamped to the epoch, older ones kept (the reference's behaviour).
if mount_ro "$S/e1.img" "$S/mnt"; then
	compare "SOURCE_DATE_EPOCH mtimes" "$S/src" "$S/mnt" --mtime-clamp $EPOCH
	umount_dir "$S/mnt"
fi
unset SOURCE_DATE_EPOCH

mk t1 -mkfs-time 1234567 -all-time 7654321 -processors 2
mk t2 -mkfs-time 1234567 -all-time 7654321 -processors 1
same_bytes t1 t2 "-mkfs-time and -all-time, -processors 2 vs 1"
[ "$(mkfs_time "$S/t1.img")" = 1234567 ] || fail "-mkfs-time: superblock says $(mkfs_time "$S/t1.img")"
sb=$(TZ=UTC "$REF_UNSQUASHFS" -s "$S/t1.img" 2>&1 | grep -i 'creation')
case $sb in
*"Jan 15 06:56:07 1970"*) ;;
*) fail "-mkfs-time 1234567: reference unsquashfs -s says '$sb'" ;;
esac
want=$(TZ=UTC date -d @7654321 '+%Y-%m-%d %H:%M')
listing=$(TZ=UTC "$REF_UNSQUASHFS" -lln "$S/t1.img" 2>&1 | grep squashfs-root)
n_all=$(printf '%s\n' "$listing" | wc -l)
n_want=$(printf '%s\n' "$listing" | grep -cF "$want")
[ "$n_all" -gt 100 ] && [ "$n_all" -eq "$n_want" ] ||
	fail "-all-time 7654321: $n_want of $n_all entries listed at $want by unsquashfs -lln"
if mount_ro "$S/t1.img" "$S/mnt"; then
	compare "-all-time mtimes" "$S/src" "$S/mnt" --mtime 7654321
	umount_dir "$S/mnt"
fi

# Without a fixed time the mkfs time is now: within a minute of the clock.
mk n1
now=$(date +%s) t=$(mkfs_time "$S/n1.img")
[ $((now - t)) -ge 0 ] && [ $((now - t)) -lt 60 ] || fail "default mkfs time $t is not now ($now)"
finish
