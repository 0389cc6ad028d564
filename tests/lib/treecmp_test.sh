# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# treecmp_test.sh — treecmp passes identical trees and catches every kind of difference it claims to.
. "$top_srcdir/tests/lib/common.sh"

need_tools "$GENTREE" "$TREECMP"
make_scratch
ROOT=$(id -u)
A=$SCRATCH/a
"$GENTREE" --small --seed 7 "$A" || die "gentree failed"

# A fresh copy of A for each mutation: gentree is deterministic, mtimes included.
fresh() {
	chmod -R u+rwx "$SCRATCH/b" 2>/dev/null
	rm -rf "$SCRATCH/b"
	"$GENTREE" --small --seed 7 "$SCRATCH/b" || die "gentree failed"
	B=$SCRATCH/b
}

# expect_diff KEYWORD [treecmp options]: treecmp A B exits 1 and reports KEYWORD.
expect_diff() {
	keyword=$1
	shift
	out=$("$TREECMP" "$@" "$A" "$B" 2>/dev/null)
	rc=$?
	if [ $rc -ne 1 ]; then
		fail "expected '$keyword' difference, treecmp exit $rc"
	elif ! printf '%s\n' "$out" | grep -q -- "$keyword"; then
		fail "expected '$keyword', got: $(printf '%s\n' "$out" | head -n 3)"
	fi
}

expect_same() {
	what=$1
	shift
	out=$("$TREECMP" "$@" "$A" "$B" 2>&1) || fail "$what: expected no difference, got: $out"
}

fresh
expect_same "identical trees"
expect_same "tree against itself" --no-xattrs
[ "$("$TREECMP" "$A" "$A")" = "" ] || fail "treecmp printed output for identical trees"

fresh
f=$(ls "$B"/files/size-4097-*.alt)
printf 'X' | dd of="$f" bs=1 seek=4096 conv=notrunc status=none
touch -r "$A/${f#"$B"/}" "$f"
expect_diff "content differs at offset 4096"

fresh
printf 'extra' >>"$B/dups/frag-1"
touch -r "$A/dups/frag-1" "$B/dups/frag-1"
expect_diff "dups/frag-1: size differs"

fresh
chmod 0600 "$B/dups/whole-1"
expect_diff "dups/whole-1: mode differs (0644 vs 0600)"

fresh
chmod 0755 "$B/modes/file-4755"
expect_diff "modes/file-4755: mode differs (4755 vs 0755)"

fresh
chmod 0777 "$B/modes/sticky"
expect_diff "modes/sticky: mode differs (1777 vs 0777)"

fresh
touch -h -d @12345 "$B/links/short"
expect_diff "links/short: mtime differs"
expect_same "--no-mtime skips mtimes" --no-mtime

fresh
touch -d @12345 "$B"
expect_diff "^/: mtime differs"
expect_same "--ignore-root-mtime skips the top's mtime" --ignore-root-mtime

fresh
setfattr -n user.shared.a -v 2 "$B/xattrs/same-set-2"
expect_diff "xattrs/same-set-2: xattr user.shared.a value differs"
expect_same "--no-xattrs skips xattrs" --no-xattrs
expect_diff "expected none" --xattrs-absent

fresh
setfattr -x user.empty "$B/xattrs/same-set-0"
expect_diff "xattr user.empty only in first tree"

fresh
setfattr -n user.added -v 1 "$B/files"
touch -r "$A/files" "$B/files"
expect_diff "files: xattr user.added only in second tree"

fresh
rm "$B/links/short"
ln -s b "$B/links/short"
touch -h -r "$A/links/short" "$B/links/short"
expect_diff "links/short: symlink target differs"

fresh
rm "$B/hardlinks/b/pair-link"
cp -p "$A/hardlinks/a/pair" "$B/hardlinks/b/pair-link"
touch -r "$A/hardlinks/b" "$B/hardlinks/b"
expect_diff "hardlinks/b/pair-link: hard-link group differs"
expect_same "--no-hardlinks skips link groups" --no-hardlinks

fresh
ln -f "$B/hardlinks/a/pair" "$B/hardlinks/b/pair-copy"
touch -r "$A/hardlinks/b" "$B/hardlinks/b"
expect_diff "hardlinks/b/pair-copy: hard-link group differs"

fresh
rm "$B/dups/frag-3"
expect_diff "dups/frag-3: only in first tree"

fresh
mkdir "$B/dirs/empty/new"
expect_diff "dirs/empty/new: only in second tree"
expect_diff "dirs/empty: link count differs"

fresh
rm "$B/dups/frag-3"
mkdir "$B/dups/frag-3"
expect_diff "dups/frag-3: type differs (file vs directory)"

fresh
f=$B/names/$(printf 'new\nline')
chmod 0600 "$f"
expect_diff 'names/new\\x0aline: mode differs'

fresh
expect_diff "mtime differs (0 vs" --mtime 0
find "$B" -exec touch -h -d @777 {} +
expect_same "--mtime 777 after touching all" --mtime 777 --ignore-root-mtime

fresh
expect_diff "mtime differs" --mtime-clamp 1500000000
find "$B" -exec sh -c 'for f; do t=$(stat -c %Y "$f"); [ "$t" -gt 1500000000 ] && touch -h -d @1500000000 "$f"; done; true' sh {} +
expect_same "--mtime-clamp after clamping" --mtime-clamp 1500000000

if [ "$ROOT" -eq 0 ]; then
	fresh
	chown -h 1234:5678 "$B/links/dangling"
	expect_diff "links/dangling: owner differs (0:0 vs 1234:5678)"
	expect_same "--no-owner skips owners" --no-owner
	expect_diff "owner differs" --owner 0:0
	chown -R -h 0:0 "$B"
	chmod 4755 "$B/modes/file-4755"; chmod 2755 "$B/modes/file-2755"; chmod 6777 "$B/modes/file-6777"
	chmod 4000 "$B/modes/file-4000"
	expect_same "--owner 0:0 after chown -R" --owner 0:0

	fresh
	rm "$B/special/char-1-3"
	mknod -m 0666 "$B/special/char-1-3" c 1 5
	touch -r "$A/special/char-1-3" "$B/special/char-1-3"
	touch -r "$A/special" "$B/special"
	expect_diff "special/char-1-3: rdev differs (1:3 vs 1:5)"

	fresh
	setfattr -h -n trusted.shared -v other "$B/xattrs/symlink"
	expect_diff "xattrs/symlink: xattr trusted.shared value differs"
fi

"$TREECMP" "$A" "$SCRATCH/does-not-exist" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a missing tree must give exit 2"
"$TREECMP" --bogus "$A" "$A" >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown option must give exit 2"
finish
