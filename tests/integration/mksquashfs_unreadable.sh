#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_unreadable.sh — an unprivileged build of a tree holding root-only files and
# directories: both tools warn with the same lines, store the unreadable file empty, leave the
# unreadable directory out, exit 0 and make the same image; -exit-on-error makes both fail and
# leaves no image; a file whose reads come up short (a sysfs file) is stored empty by both.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$TREECMP" setpriv
make_scratch
S=$SCRATCH
# nobody must reach the tools and the scratch directory.
for _p in "$MKSQUASHFS" "$S"; do
	_d=$(dirname "$_p")
	while [ "$_d" != / ]; do
		[ "$(stat -c %a "$_d" | cut -c3)" -ge 5 ] 2>/dev/null ||
			skip "$_d is not searchable by other users"
		_d=$(dirname "$_d")
	done
done
chmod 755 "$S"
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

SRC=$S/src
mkdir -p "$SRC/dir/sub" "$SRC/locked" "$S/out"
chmod 777 "$S/out"
echo hello >"$SRC/a"
echo world >"$SRC/dir/sub/b"
echo secret >"$SRC/secret"
echo inner >"$SRC/locked/inner"
ln -s a "$SRC/link"
chmod 000 "$SRC/secret" "$SRC/locked"
touch -d '2020-01-01 UTC' "$SRC" "$SRC/dir" "$SRC/locked"

build() { # TOOL NAME ARGS...
	_tool=$1 _name=$2
	shift 2
	rm -f "$S/out/$_name.img"
	# Our gzip is libdeflate's unless -Xzlib asks for zlib's streams, the reference's bytes.
	[ "$_tool" = "$MKSQUASHFS" ] && set -- "$@" -Xzlib
	as_nobody "$_tool" "$SRC" "$S/out/$_name.img" -noappend -no-progress -mkfs-time 1 "$@" \
		>"$S/$_name.out" 2>"$S/$_name.err"
}

build "$MKSQUASHFS" ours || fail "unprivileged build failed (exit $?): $(cat "$S/ours.err")"
build "$REF_MKSQUASHFS" ref || die "the reference failed: $(cat "$S/ref.err")"
cmp -s "$S/out/ours.img" "$S/out/ref.img" || fail "the image differs from the reference's"
# The reference's warnings, line for line; ours adds one summary line.
grep -v '^mksquashfs: sources not stored as found' "$S/ours.err" >"$S/ours.warn"
cmp -s "$S/ours.warn" "$S/ref.err" || fail "warnings differ from the reference's:
$(diff "$S/ref.err" "$S/ours.warn")"
grep -q '^mksquashfs: sources not stored as found: 1 unreadable or vanished entries left out, 1 unreadable files stored empty, 0 files changed while read$' \
	"$S/ours.err" || fail "no summary of what was skipped: $(cat "$S/ours.err")"
if mount_ro "$S/out/ours.img" "$S/m"; then
	[ -f "$S/m/secret" ] && [ ! -s "$S/m/secret" ] || fail "secret is not stored empty"
	[ -e "$S/m/locked" ] && fail "the unreadable directory was stored"
	[ "$(cat "$S/m/dir/sub/b")" = world ] || fail "dir/sub/b content"
	umount_dir "$S/m"
fi

# -quiet keeps the warnings (the reference prints them too).
build "$MKSQUASHFS" quiet -quiet || fail "-quiet build failed"
[ -s "$S/quiet.out" ] && fail "-quiet printed on standard output: $(cat "$S/quiet.out")"
grep -q 'Failed to read file .*/secret, creating empty file' "$S/quiet.err" ||
	fail "-quiet dropped the warning"

# -exit-on-error: fatal for both, no image left by ours.
if build "$MKSQUASHFS" fatal -exit-on-error; then
	fail "-exit-on-error: exit status 0"
fi
[ "$(wc -l <"$S/fatal.err")" -eq 1 ] && grep -q 'locked' "$S/fatal.err" ||
	fail "-exit-on-error: not one line naming the directory: $(cat "$S/fatal.err")"
[ -e "$S/out/fatal.img" ] && fail "-exit-on-error left an image"
build "$REF_MKSQUASHFS" reffatal -exit-on-error && fail "the reference accepted -exit-on-error"
chmod 755 "$SRC/locked"
if build "$MKSQUASHFS" fatal2 -exit-on-error; then
	fail "-exit-on-error with an unreadable file: exit status 0"
fi
grep -q 'secret' "$S/fatal2.err" || fail "-exit-on-error: the file is not named: $(cat "$S/fatal2.err")"
[ -e "$S/out/fatal2.img" ] && fail "-exit-on-error left an image"

# A read error (EIO: a small file in a corrupted squashfs's fragment) is fatal, unlike an
# unreadable file: the source is failing, not protected.
eio_mount "$S/eio" small 3000 104 "$S/eiomnt"
case $? in
0)
	"$MKSQUASHFS" "$S/eiomnt" "$S/eio-out.img" -noappend -no-progress -quiet 2>"$S/eio.err" &&
		fail "a read error (EIO) in a small file was not fatal"
	grep -q 'small' "$S/eio.err" || fail "the EIO error does not name the file: $(cat "$S/eio.err")"
	[ -e "$S/eio-out.img" ] && fail "an image was left after the EIO error"
	umount_dir "$S/eiomnt" ;;
2) log "corrupting the fragment did not make the file unreadable: the EIO case is not checked" ;;
esac

# A file that says it holds 4096 bytes and gives fewer (sysfs): "Failed to read", stored empty,
# by both tools. -all-time: a sysfs file's times are those its inode got when the kernel last
# made it, which can change between the two runs (seen in CI: the images differed).
SYSF=
for _f in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/profiling /sys/power/state; do
	[ -r "$_f" ] && [ "$(stat -c %s "$_f")" -gt "$(wc -c <"$_f")" ] && SYSF=$_f && break
done
if [ -n "$SYSF" ]; then
	mkdir -p "$S/sys"
	: >"$S/sys/short"
	if mount --bind "$SYSF" "$S/sys/short"; then
		MOUNTS="$S/sys/short $MOUNTS"
		"$MKSQUASHFS" "$S/sys" "$S/sys-ours.img" -noappend -no-progress -quiet -mkfs-time 1 \
			-all-time 1 -Xzlib 2>"$S/sys-ours.err" || fail "short file: our build failed"
		"$REF_MKSQUASHFS" "$S/sys" "$S/sys-ref.img" -noappend -no-progress -quiet -mkfs-time 1 \
			-all-time 1 2>"$S/sys-ref.err" || die "short file: the reference failed"
		cmp -s "$S/sys-ours.img" "$S/sys-ref.img" || fail "short file: images differ"
		grep -v '^mksquashfs: sources not stored' "$S/sys-ours.err" | cmp -s - "$S/sys-ref.err" ||
			fail "short file: warnings differ: $(cat "$S/sys-ours.err") / $(cat "$S/sys-ref.err")"
		umount_dir "$S/sys/short"
	else
		log "cannot bind-mount $SYSF: the short-read case is not checked"
	fi
else
	log "no sysfs file reads shorter than its size here: the short-read case is not checked"
fi
finish
