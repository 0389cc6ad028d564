# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# append_errors.sh — what mksquashfs refuses to append to, and the append options' checks: each
# refusal is one line naming the thing, a non-zero exit, and the image left byte for byte as it
# was. Also appends that must work (same -comp/-b, -no-recovery) and -recover's own refusals.
# No root, no loop mounts: our unsquashfs lists the results.
. "$top_srcdir/tests/lib/common.sh"

need_tools "$MKSQUASHFS" "$UNSQUASHFS"
have_comp gzip || skip "built without gzip, which these checks' images use"
make_scratch
S=$SCRATCH
mkdir -p "$S/src/d" "$S/add" "$S/rec" "$S/home" || die "cannot make directories"
echo hello >"$S/src/a"
echo world >"$S/src/d/b"
echo new >"$S/add/n"
"$MKSQUASHFS" "$S/src" "$S/good.img" -noappend -no-progress -quiet >/dev/null 2>&1 ||
	die "cannot make the base image"
export HOME="$S/home"

# refused LABEL PATTERN IMAGE-FILE ARGS...: mksquashfs ARGS fails with one line matching
# PATTERN and leaves IMAGE-FILE as it was.
refused() {
	_label=$1 _pat=$2 _img=$3
	shift 3
	[ -f "$_img" ] && cp "$_img" "$S/before"
	if $RUN "$MKSQUASHFS" "$@" -no-progress >"$S/out" 2>"$S/err"; then
		fail "$_label: accepted"
		return
	fi
	[ "$(wc -l <"$S/err")" -eq 1 ] || fail "$_label: not one line: $(cat "$S/err")"
	grep -q -- "$_pat" "$S/err" || fail "$_label: message '$(cat "$S/err")' lacks '$_pat'"
	[ ! -f "$_img" ] || cmp -s "$S/before" "$_img" || fail "$_label: the image changed"
	[ -z "$(ls -A "$S/rec")$(ls -A "$S/home")" ] || fail "$_label: recovery file left"
}
RUN=

printf 'just text\n' >"$S/text.img"
refused "a text file" "not a squashfs filesystem.*-noappend" "$S/text.img" "$S/add" "$S/text.img"
: >"$S/empty.img"
refused "an empty file" "not a squashfs filesystem.*-noappend" "$S/empty.img" "$S/add" "$S/empty.img"
used=$(od -An -t u8 -j 40 -N 8 --endian=little "$S/good.img" | tr -d ' ')
head -c $((used - 10)) "$S/good.img" >"$S/short.img"
refused "a truncated image" "cannot append to .*short.img" "$S/short.img" "$S/add" "$S/short.img"
cp "$S/good.img" "$S/v3.img" && printf '\003' | dd of="$S/v3.img" bs=1 seek=28 conv=notrunc 2>/dev/null
refused "squashfs 3" "cannot append to .*v3.img" "$S/v3.img" "$S/add" "$S/v3.img"
cp "$S/good.img" "$S/nomagic.img" && printf '\000\000\000\000' |
	dd of="$S/nomagic.img" bs=1 seek=0 conv=notrunc 2>/dev/null
refused "an interrupted append" "-recover" "$S/nomagic.img" "$S/add" "$S/nomagic.img"
# The inode table overwritten: the tree cannot be read.
itab=$(od -An -t u8 -j 64 -N 8 --endian=little "$S/good.img" | tr -d ' ')
cp "$S/good.img" "$S/bad.img" && head -c 64 /dev/zero | tr '\0' '\377' |
	dd of="$S/bad.img" bs=1 seek="$itab" conv=notrunc 2>/dev/null
refused "a corrupt inode table" "cannot append to .*bad.img" "$S/bad.img" "$S/add" "$S/bad.img"
cp "$S/good.img" "$S/tail.img" && head -c 2000000 /dev/zero >>"$S/tail.img"
refused "data after the filesystem" "after its filesystem" "$S/tail.img" "$S/add" "$S/tail.img"

cp "$S/good.img" "$S/t.img"
refused "-comp zstd on a gzip image" "compressed with gzip" "$S/t.img" "$S/add" "$S/t.img" -comp zstd
refused "-b 4K on a 128K image" "131072-byte blocks" "$S/t.img" "$S/add" "$S/t.img" -b 4K
refused "-root-becomes a/b" "-root-becomes" "$S/t.img" "$S/add" "$S/t.img" -root-becomes a/b
refused "-root-becomes .." "-root-becomes" "$S/t.img" "$S/add" "$S/t.img" -root-becomes ..
refused "-recovery-path missing" "recovery file" "$S/t.img" "$S/add" "$S/t.img" \
	-recovery-path "$S/no/such/dir"
RUN="env -u HOME"
refused "no \$HOME" "HOME" "$S/t.img" "$S/add" "$S/t.img"
RUN=
refused "a missing source" "no/such/source" "$S/t.img" "$S/no/such/source" "$S/t.img"
mkdir "$S/dir.img"
refused "a directory" "is a directory" "$S/dir.img" "$S/add" "$S/dir.img"

# Appends that work: the same -comp and -b, -no-recovery, -recovery-path; no file left over.
cp "$S/good.img" "$S/ok.img"
"$MKSQUASHFS" "$S/add" "$S/ok.img" -comp gzip -b 128K -no-progress >"$S/out" 2>&1 ||
	fail "append with the image's own -comp and -b: $(tail -n 1 "$S/out")"
grep -q "squashfs_recovery_ok.img_" "$S/out" || fail "no recovery file named in the output"
[ -z "$(ls -A "$S/home")" ] || fail "recovery file left in \$HOME: $(ls "$S/home")"
"$UNSQUASHFS" -lc "$S/ok.img" >"$S/list" 2>&1 || fail "our unsquashfs cannot list the result"
for p in a d/b n; do
	grep -q "squashfs-root/$p\$" "$S/list" || fail "append: $p missing from $(cat "$S/list")"
done
"$MKSQUASHFS" "$S/add" "$S/ok.img" -no-recovery -no-progress >"$S/out" 2>&1 ||
	fail "append with -no-recovery: $(tail -n 1 "$S/out")"
grep -q "Recovery file" "$S/out" && fail "-no-recovery still wrote a recovery file"
"$UNSQUASHFS" -lc "$S/ok.img" >"$S/list" 2>&1 && grep -q "squashfs-root/n_1\$" "$S/list" ||
	fail "second append: n_1 missing"
# -noappend overwrites whatever is there.
"$MKSQUASHFS" "$S/add" "$S/text.img" -noappend -no-progress -quiet >/dev/null 2>&1 ||
	fail "-noappend over a text file failed"
"$UNSQUASHFS" -lc "$S/text.img" 2>/dev/null | grep -q "squashfs-root/n\$" ||
	fail "-noappend over a text file: not an image of the source"

# -recover refusals, and a recovery of an image that was never changed.
refused "-recover, no such file" "no-such-file" "$S/good.img" dummy "$S/good.img" \
	-recover "$S/no-such-file"
printf 'Squashfs recovery file v1.0\n' >"$S/cut"
refused "-recover, a cut file" "recovery file" "$S/good.img" dummy "$S/good.img" -recover "$S/cut"
finish
