#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# nonroot.sh — extraction as an unprivileged user (uid/gid 65534) beside the reference: setuid
# and setgid bits dropped, xattrs outside user.* refused once with a warning and exit 2,
# devices refused, -info naming the dropped bits, and both trees alike.
. "$top_srcdir/tests/lib/common.sh"
need_root
need_tools "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$UNSQUASHFS" "$TREECMP"
command -v setpriv >/dev/null 2>&1 || skip "setpriv (util-linux) is not installed"
make_scratch
chmod 755 "$SCRATCH"
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

S=$SCRATCH/src
mkdir -p "$S/d/sub" "$S/sgid-dir"
for m in 4755 2755 6755 4644 1755 0755; do
	printf '%s\n' "$m" >"$S/d/file-$m"
done
printf 'x' >"$S/d/sub/attrs"
setfattr -n user.ok -v yes "$S/d/sub/attrs"
setfattr -n trusted.no -v secret "$S/d/sub/attrs"
setfattr -n trusted.also -v more "$S/d/file-0755"
mknod "$S/d/null" c 1 3
mkfifo "$S/d/fifo"
chown -R 1234:5678 "$S/d"
# After chown, which clears them.
for m in 4755 2755 6755 4644 1755 0755; do
	chmod "$m" "$S/d/file-$m"
done
chmod 2775 "$S/sgid-dir"
IMG=$SCRATCH/img.sqfs
"$REF_MKSQUASHFS" "$S" "$IMG" -noappend -quiet -no-progress >/dev/null 2>&1 || die "reference mksquashfs failed"
chmod 644 "$IMG"
mkdir "$SCRATCH/out"
chmod 777 "$SCRATCH/out"

as_nobody "$REF_UNSQUASHFS" -n -d "$SCRATCH/out/ref" "$IMG" >"$SCRATCH/ref.txt" 2>"$SCRATCH/ref.err"
ref_rc=$?
as_nobody "$UNSQUASHFS" -n -d "$SCRATCH/out/ours" "$IMG" >"$SCRATCH/ours.txt" 2>"$SCRATCH/ours.err"
rc=$?
[ $rc -eq $ref_rc ] || fail "exit $rc, the reference $ref_rc"
[ $rc -eq 2 ] || fail "exit $rc, expected 2 (device and trusted xattrs refused)"
compare "as uid 65534" "$SCRATCH/out/ref" "$SCRATCH/out/ours"
for f in "$SCRATCH"/out/ours/d/file-* "$SCRATCH/out/ours/sgid-dir"; do
	mode=$(stat -c %a "$f")
	case $mode in
	4??? | 2??? | 6???) fail "$(basename "$f"): setuid/setgid kept as non-root (mode $mode)" ;;
	esac
done
[ "$(stat -c %a "$SCRATCH/out/ours/d/file-1755")" = 1755 ] || fail "the sticky bit was dropped"
[ "$(stat -c %u "$SCRATCH/out/ours/d/file-4755")" = 65534 ] || fail "files not owned by the user"
n=$(grep -c 'trusted' "$SCRATCH/ours.err")
[ "$n" = 1 ] || fail "the trusted.* warning was given $n times, expected once: $(cat "$SCRATCH/ours.err")"
getfattr -n user.ok "$SCRATCH/out/ours/d/sub/attrs" >/dev/null 2>&1 || fail "user.* xattr not extracted"
grep -q 'device' "$SCRATCH/ours.err" || fail "no message for the device"

# -no-exit-code: the same tree, exit 0, as the reference.
rm -rf "$SCRATCH/out/ours" "$SCRATCH/out/ref"
as_nobody "$REF_UNSQUASHFS" -n -no-exit-code -d "$SCRATCH/out/ref" "$IMG" >/dev/null 2>&1
ref_rc=$?
as_nobody "$UNSQUASHFS" -n -no-exit-code -d "$SCRATCH/out/ours" "$IMG" >/dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && [ $ref_rc -eq 0 ] || fail "-no-exit-code: exit $rc, reference $ref_rc"

# -user-xattrs: trusted.* not tried, so no warning; -strict-errors: the first refusal is fatal.
rm -rf "$SCRATCH/out/ours"
as_nobody "$UNSQUASHFS" -n -u -d "$SCRATCH/out/ours" "$IMG" d/sub >/dev/null 2>"$SCRATCH/ours.err"
rc=$?
[ $rc -eq 0 ] && ! grep -q trusted "$SCRATCH/ours.err" || fail "-user-xattrs as non-root: exit $rc, $(cat "$SCRATCH/ours.err")"
rm -rf "$SCRATCH/out/ours"
as_nobody "$UNSQUASHFS" -n -st -d "$SCRATCH/out/ours" "$IMG" d/sub >/dev/null 2>"$SCRATCH/ours.err"
[ $? -eq 1 ] || fail "-strict-errors as non-root did not stop on the trusted xattr"

# -info says which setuid/setgid bits were dropped (on stderr: stdout stays the reference's list).
rm -rf "$SCRATCH/out/ours" "$SCRATCH/out/ref"
as_nobody "$UNSQUASHFS" -n -i -d "$SCRATCH/out/ours" "$IMG" d/file-4755 d/file-6755 >"$SCRATCH/ours.txt" 2>"$SCRATCH/ours.err"
grep -q 'file-4755: setuid/setgid bits dropped' "$SCRATCH/ours.err" &&
	grep -q 'file-6755: setuid/setgid bits dropped' "$SCRATCH/ours.err" || fail "-info does not name the dropped bits"
rm -rf "$SCRATCH/out/ours"
as_nobody "$REF_UNSQUASHFS" -n -i -d "$SCRATCH/out/ours" "$IMG" d/file-4755 d/file-6755 2>/dev/null |
	grep -v '^Parallel' >"$SCRATCH/ref.txt"
grep -v '^Parallel' "$SCRATCH/ours.txt" | cmp -s - "$SCRATCH/ref.txt" || fail "-info output differs from the reference's"
finish
