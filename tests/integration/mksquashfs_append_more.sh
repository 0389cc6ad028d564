# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_append_more.sh — appending combined with -offset, -sort and pseudo definitions,
# side by side with the reference: the same base (behind an 8 KiB prefix for -offset) appended
# by both tools, the mounted trees equal, the prefix kept; an append at an offset killed and
# recovered, byte for byte; pseudo definitions (also with source "-") over an existing image.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$GENTREE" "$TREECMP"
"$MKSQUASHFS" -help 2>&1 | grep -q -- '^-offset' || skip "$MKSQUASHFS has no -offset"
make_scratch
S=$SCRATCH
make_tree base --small --seed 61
make_tree add --small --seed 62
rm -rf "$S/base/files" "$S/base/sparse" "$S/base/hardlinks/b/symlink-link" \
	"$S/add/sparse" "$S/add/hardlinks/b/symlink-link"
cp -a "$S/base/dups" "$S/add/dups-again" || die "cannot copy"
mkdir "$S/rec"
export SOURCE_DATE_EPOCH=1600000000
OFF=8192
head -c $OFF /dev/urandom >"$S/prefix" || die "cannot make the prefix"

run() {
	_tool=$1
	shift
	"$_tool" "$@" -no-progress -recovery-path "$S/rec" >"$S/mk.log" 2>&1
}

# same LABEL MOUNT-OPTIONS: mount ours.img and ref.img, compare them.
same() {
	if mount_ro_opts "$2" "$S/ours.img" "$S/mo" && mount_ro_opts "$2" "$S/ref.img" "$S/mr"; then
		compare "$1: ours vs reference" "$S/mr" "$S/mo"
	fi
	umount_dir "$S/mo" 2>/dev/null
	umount_dir "$S/mr" 2>/dev/null
	report_size "append: $1" "$S/ours.img" "$S/ref.img"
}

mount_ro_opts() {
	mkdir -p "$3" && mount -t squashfs -o "loop,ro$1" "$2" "$3" && MOUNTS="$3 $MOUNTS"
}

# -offset: a base behind a prefix, made by each tool, appended by both.
for maker in ours ref; do
	if [ $maker = ours ]; then tool=$MKSQUASHFS; else tool=$REF_MKSQUASHFS; fi
	cp "$S/prefix" "$S/base.img"
	run "$tool" "$S/base" "$S/base.img" -noappend -offset $OFF || die "$maker base failed"
	cp "$S/base.img" "$S/ours.img" && cp "$S/base.img" "$S/ref.img" || die "cannot copy"
	run "$MKSQUASHFS" "$S/add" "$S/ours.img" -offset $OFF ||
		fail "-offset, base by $maker: mksquashfs failed: $(tail -n 1 "$S/mk.log")"
	run "$REF_MKSQUASHFS" "$S/add" "$S/ref.img" -offset $OFF || die "reference append failed"
	[ $maker = ref ] || cmp -s -n $OFF "$S/prefix" "$S/ours.img" ||
		fail "-offset, base by $maker: the prefix changed"
	same "-offset, base by $maker" ",offset=$OFF"
done

# An append at an offset killed, then -recover: the file as it was, byte for byte.
cp "$S/base.img" "$S/orig.img"
cp "$S/base.img" "$S/img"
rm -f "$S/rec/"*
"$MKSQUASHFS" "$S/add" "$S/img" -offset $OFF -processors 1 -no-progress -quiet \
	-recovery-path "$S/rec" >/dev/null 2>&1 &
pid=$!
for w in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	[ -n "$(ls "$S/rec")" ] && break
	sleep 0.05
done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
rfile=$(ls "$S/rec" | grep '^squashfs_recovery_' | head -n 1)
if [ -n "$rfile" ]; then
	"$MKSQUASHFS" dummy "$S/img" -recover "$S/rec/$rfile" >"$S/mk.log" 2>&1 ||
		fail "-offset, -recover failed: $(tail -n 1 "$S/mk.log")"
	cmp -s "$S/orig.img" "$S/img" || fail "-offset, -recover: not the file as it was"
else
	log "the append at an offset ended before it could be killed"
fi

# -sort: the new files' data in priority order; the trees equal the reference's.
run "$MKSQUASHFS" "$S/base" "$S/base.img" -noappend || die "base failed"
printf '%s\n' "dirs 10" "dups-again -5" "names 7" >"$S/sort"
cp "$S/base.img" "$S/ours.img" && cp "$S/base.img" "$S/ref.img" || die "cannot copy"
run "$MKSQUASHFS" "$S/add" "$S/ours.img" -sort "$S/sort" ||
	fail "-sort: mksquashfs failed: $(tail -n 1 "$S/mk.log")"
run "$REF_MKSQUASHFS" "$S/add" "$S/ref.img" -sort "$S/sort" || die "reference -sort append failed"
same "-sort" ""

# Pseudo definitions over an existing image: new entries added, those naming the image's
# entries ignored (the image is kept as it was); with source "-", the root from "/".
cp "$S/base.img" "$S/ours.img" && cp "$S/base.img" "$S/ref.img" || die "cannot copy"
set -- -p "lnk s 777 0 0 target" -p "newdir d 700 1 2" -p "dups m 600 3 3" \
	-p "dirs/x f 644 0 0 echo hi"
run "$MKSQUASHFS" "$S/add" "$S/ours.img" "$@" || fail "-p: mksquashfs failed: $(tail -n 1 "$S/mk.log")"
run "$REF_MKSQUASHFS" "$S/add" "$S/ref.img" "$@" || die "reference -p append failed"
same "pseudo definitions" ""
cp "$S/base.img" "$S/ours.img" && cp "$S/base.img" "$S/ref.img" || die "cannot copy"
set -- -p "/ d 750 5 6" -p "lnk s 777 0 0 target" -p "dups f 644 0 0 echo hi"
run "$MKSQUASHFS" - "$S/ours.img" "$@" || fail "source -: mksquashfs failed: $(tail -n 1 "$S/mk.log")"
run "$REF_MKSQUASHFS" - "$S/ref.img" "$@" || die "reference source - append failed"
same "source - with pseudo definitions" ""
finish
