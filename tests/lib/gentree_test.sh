# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# gentree_test.sh — gentree is deterministic per seed, varies with the seed, and makes what it promises.
. "$top_srcdir/tests/lib/common.sh"

need_tools "$GENTREE" "$TREECMP"
make_scratch
S=$SCRATCH

"$GENTREE" --seed 3 --small "$S/a" || die "gentree failed"
"$GENTREE" --seed 3 --small "$S/b" || die "gentree failed"
"$TREECMP" "$S/a" "$S/b" >/dev/null || fail "same seed gave different trees"
"$GENTREE" --seed 4 --small "$S/c" || die "gentree failed"
"$TREECMP" "$S/a" "$S/c" >/dev/null 2>&1 && fail "different seeds gave identical trees"
"$GENTREE" --seed 3 --small "$S/a" 2>/dev/null && fail "gentree accepted an existing directory"
"$GENTREE" --seed x "$S/d" 2>/dev/null && fail "gentree accepted a bad seed"
out=$("$GENTREE" --seed 5 "$S/full" 2>&1) || die "gentree (full) failed: $out"
[ -z "$out" ] || fail "gentree printed on success: $out"

"$GENTREE" --seed 5 --no-huge "$S/nohuge" || die "gentree --no-huge failed"
[ -e "$S/nohuge/sparse/over-4GiB" ] && fail "--no-huge made the file over 4 GiB"
[ -e "$S/nohuge/files/big-text" ] || fail "--no-huge is not the full tree"
chmod -R u+rwx "$S/nohuge" && rm -rf "$S/nohuge"

T=$S/full
count() { find "$@" | wc -l; }
[ "$(count "$T/dirs/many" -mindepth 1 -maxdepth 1)" -eq 5000 ] || fail "dirs/many does not hold 5000 entries"
[ "$(count "$T/dirs/deep" -type d)" -eq 61 ] || fail "dirs/deep is not 60 levels deep"
[ "$(readlink "$T/links/long-4095" | wc -c)" -eq 4096 ] || fail "links/long-4095 target is not 4095 bytes"
[ -L "$T/links/dangling" ] && [ ! -e "$T/links/dangling" ] || fail "links/dangling is not dangling"
[ -p "$T/special/fifo" ] || fail "no fifo"
[ -S "$T/special/socket" ] || fail "no socket"
[ "$(stat -c %h "$T/hardlinks/a/three")" -eq 3 ] || fail "hardlinks/a/three is not a group of 3"
[ "$(stat -c %h "$T/hardlinks/a/symlink")" -eq 2 ] || fail "hard-linked symlink missing"
[ "$(ls "$T/names" | awk 'length($0) == 255' | wc -l)" -ge 1 ] || fail "no 255-byte name"
[ "$(stat -c %s "$T/sparse/over-4GiB")" -gt 4294967296 ] || fail "sparse/over-4GiB is not over 4 GiB"
[ "$(stat -c %b "$T/sparse/over-4GiB")" -lt 1024 ] || fail "sparse/over-4GiB is not sparse"
[ "$(stat -c %b "$T/sparse/all-hole")" -eq 0 ] || fail "sparse/all-hole has blocks"
[ "$(stat -c %Y "$T/times")" -eq 4294967295 ] || fail "times/ mtime not 2^32-1 (set after its entries)"
[ "$(stat -c %Y "$T/times/mtime-0")" -eq 0 ] || fail "times/mtime-0 is not 0"
[ "$(stat -c %a "$T/modes/file-4755")" = 4755 ] || fail "setuid mode lost"
[ "$(getfattr --absolute-names -d -m '^user\.' "$T/xattrs/many" | grep -c '^user\.key-')" -ge 30 ] ||
	fail "xattrs/many has fewer than 30 keys"
for s in 0 1 4095 4096 4097 131071 131072 131073 1048575 1048576 1048577; do
	ls "$T"/files/size-$s-* >/dev/null 2>&1 || fail "no file of $s bytes"
done
if [ "$(id -u)" -eq 0 ]; then
	[ "$(stat -c '%t:%T' "$T/special/block-259-1048575")" = "103:fffff" ] || fail "no 259:1048575 device"
	[ "$(stat -c %u "$T/owners/4000000000-4000000000")" = 4000000000 ] || fail "no uid 4000000000"
	getfattr --absolute-names -h -d -m '^trusted\.' "$T/xattrs/symlink" | grep -q trusted.shared ||
		fail "no trusted xattr on the symlink"
	getfattr --absolute-names -d -m '^security\.' "$T/xattrs/same-set-0" | grep -q security.shared ||
		fail "no security xattr"
fi
finish
