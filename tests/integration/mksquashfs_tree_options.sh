# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_tree_options.sh — root, owner and mode options, -no-hardlinks, -one-file-system,
# -max-depth, -offset and -sort side by side with the reference 4.5.1 (mounted trees compared,
# ours extracted by both unsquashfs; -sort by the data block order of both images), and the
# 4.6/4.7 options 4.5.1 lacks against the upstream manual.
. "$top_srcdir/tests/integration/sidebyside.sh"

BLOCKMAP=$top_builddir/tests/mksquashfs/blockmap
need_tools "$BLOCKMAP"
make_tree src --small --seed 41
rm "$S/src/hardlinks/b/symlink-link"

same "-root-mode 0755" "" -- "$S/src" IMG -root-mode 0755
same "-root-mode 7700, made-up root" "--ignore-root-mtime" -- "$S/src/files" "$S/src/links" IMG \
	-root-mode 7700
same "-root-uid -root-gid -root-time" "" -- "$S/src" IMG -root-uid 123 -root-gid 456 -root-time 1000
same "-root-* under -all-root -all-time" "" -- "$S/src" IMG -root-uid 5 -all-root -root-time 100 \
	-all-time 200 -root-mode 0700
same "-root-uid with -force-uid" "" -- "$S/src" IMG -root-uid 5 -force-uid 7 -root-gid 9
SOURCE_DATE_EPOCH=1500000000 same "-root-time under SOURCE_DATE_EPOCH" "" -- "$S/src" IMG -root-time 100
SOURCE_DATE_EPOCH=50 same "-root-time clamped" "" -- "$S/src" IMG -root-time 100
same "-no-hardlinks" "" -- "$S/src" IMG -no-hardlinks
same "-no-hardlinks, sources given twice" "--ignore-root-mtime" -- "$S/src/dups" "$S/src/dups" IMG \
	-no-hardlinks

# -offset: the image starts N bytes in, the bytes before it are kept (4.5.1 zeroes them:
# compared only on what it mounts), the kernel mounts it at offset=N.
head -c 8192 /dev/urandom >"$S/prefix"
OFFSET=8192
same "-offset 8192" "" -- "$S/src" IMG -offset 8192
same "-o 8K" "" -- "$S/src" IMG -o 8K
cp "$S/prefix" "$S/appimage"
if "$MKSQUASHFS" "$S/src" "$S/appimage" -noappend -offset 8192 -no-progress >"$S/mk.log" 2>&1; then
	cmp -n 8192 "$S/prefix" "$S/appimage" || fail "-offset: the 8192 bytes before the image changed"
	"$BLOCKMAP" "$S/appimage" 8192 >/dev/null || fail "-offset: our reader cannot open the image at 8192"
	[ $(($(file_size "$S/appimage") % 4096)) -eq 0 ] || fail "-offset: image not padded to 4K"
else
	fail "-offset over an existing file: $(tail -n 2 "$S/mk.log")"
fi
# On failure the prefix survives: a source that vanishes is an error before any data.
cp "$S/prefix" "$S/appimage"
if "$MKSQUASHFS" "$S/src" "$S/appimage" -noappend -offset 8192 -no-progress -p 'x f 644 0 0 false' \
	>"$S/mk.log" 2>&1; then
	fail "-offset with a failing pseudo command succeeded"
else
	cmp "$S/prefix" "$S/appimage" || fail "-offset: a failed run did not leave the prefix alone"
fi
OFFSET=0

# -sort: both images write the files in the same order (compared by rank of blocks_start).
big=$(cd "$S/src/files" && ls | grep '^size-1048577-')
mid=$(cd "$S/src/files" && ls | grep '^size-131073-' | head -n 1)
cat >"$S/sort" <<EOF
# comment
files/$mid 100
dups 50
dups/whole-1 -5
./no/such/file 7
$S/src/sparse 20
files/$big 32767
EOF
order() { "$BLOCKMAP" "$1" | awk '$1 ~ /^[0-9]+$/ && $1 != 0 { print $1, $4 }' | sort -n | awk '{ print $2 }'; }
for opts in "" "-no-fragments"; do
	# shellcheck disable=SC2086
	if both "-sort $opts" "$S/src" IMG -sort "$S/sort" $opts; then
		compare "-sort $opts: ours vs reference" "$S/ref" "$S/ours"
		done_both
		order "$S/ours.img" >"$S/ours.order"
		order "$S/ref.img" >"$S/ref.order"
		if ! cmp -s "$S/ours.order" "$S/ref.order"; then
			fail "-sort $opts: data order differs from the reference's:"
			diff "$S/ref.order" "$S/ours.order" | head -n 20 >&2
		fi
		expect "-sort $opts: highest priority first" "/files/$big" \
			"$(head -n 1 "$S/ours.order")"
		grep -q "no/such/file" "$S/mk.log" || fail "-sort: no warning for a missing entry"
	fi
done
printf 'files 40000\n' >"$S/badsort"
"$MKSQUASHFS" "$S/src" "$S/o.img" -noappend -sort "$S/badsort" >"$S/mk.log" 2>&1 &&
	fail "-sort: priority 40000 accepted"
grep -q "badsort line 1" "$S/mk.log" || fail "-sort: error does not name the line: $(cat "$S/mk.log")"

# -one-file-system: a tmpfs mounted inside the source. 4.5.1 leaves the mount point out; 4.6+
# (and we) keep it as an empty directory, and -one-file-system-x leaves it out like 4.5.1.
mkdir "$S/src/dirs/mnt"
if mount -t tmpfs -o size=1m,mode=0751 tmpfs "$S/src/dirs/mnt"; then
	MOUNTS="$S/src/dirs/mnt $MOUNTS"
	echo inside >"$S/src/dirs/mnt/file"
	if build "$REF_MKSQUASHFS" "$S/ref.img" "$S/src" IMG -one-file-system &&
		build "$MKSQUASHFS" "$S/ours.img" "$S/src" IMG -one-file-system-x; then
		if mount_at "$S/ref.img" "$S/ref" && mount_at "$S/ours.img" "$S/ours"; then
			compare "-one-file-system-x vs 4.5.1 -one-file-system" "$S/ref" "$S/ours"
			done_both
		fi
	else
		fail "-one-file-system-x: $(tail -n 2 "$S/mk.log")"
	fi
	# -one-file-system: the mount point is an empty directory with the mounted root's mode;
	# without it the tree is the reference's.
	if both "-one-file-system" "$S/src" IMG -one-file-system; then
		expect "-one-file-system mount point" "751" "$(stat -c %a "$S/ours/dirs/mnt")"
		expect "-one-file-system mount point empty" "" "$(ls -A "$S/ours/dirs/mnt")"
		rm -rf "$S/x"
		if "$UNSQUASHFS" -no-progress -d "$S/x" "$S/ours.img" >"$S/un.log" 2>&1 &&
			rmdir "$S/x/dirs/mnt"; then
			touch -r "$S/ref/dirs" "$S/x/dirs"
			compare "-one-file-system: the rest" "$S/ref" "$S/x"
		else
			fail "-one-file-system: extraction: $(tail -n 2 "$S/un.log")"
		fi
		rm -rf "$S/x"
		done_both
	fi
	umount_dir "$S/src/dirs/mnt"
fi
rmdir "$S/src/dirs/mnt"

# ---- 4.6/4.7 options (not in 4.5.1): against the upstream manual ----
# -max-depth N: the contents of N directory levels are read; deeper directories are empty.
for depth in 0 1 2; do
	if ours "-max-depth $depth" "$S/src" IMG -max-depth $depth; then
		got=$(cd "$S/ours" && find . -mindepth 1 | awk -F/ '{ print NF - 1 }' | sort -n | tail -n 1)
		expect "-max-depth $depth: deepest entry" "$depth" "${got:-0}"
		[ "$depth" -ge 1 ] && expect "-max-depth $depth: a level-$depth directory is empty" "" \
			"$(ls -A "$S/ours/$( [ "$depth" -eq 1 ] && echo dirs || echo dirs/deep)")"
		umount_dir "$S/ours"
	fi
done
# -force-file-mode / -force-dir-mode, octal and symbolic; -force-dir-mode decides the root too.
if ours "-force-*-mode octal" "$S/src" IMG -force-file-mode 0640 -force-dir-mode 0750 -root-mode 0700; then
	expect "files 0640" "640" "$(find "$S/ours" ! -type d ! -type l -exec stat -c %a {} + | sort -u)"
	expect "dirs 0750" "750" "$(find "$S/ours" -type d -exec stat -c %a {} + | sort -u)"
	umount_dir "$S/ours"
fi
if ours "-force-*-mode symbolic" "$S/src" IMG -force-file-mode go-w,u+rw -force-dir-mode a+rX; then
	bad=$(cd "$S/src" && find . -path ./names -prune -o ! -type d ! -type l -print | while IFS= read -r f; do
		want=$(( 0$(stat -c %a "$f") & ~022 | 0600 ))
		got=$(( 0$(stat -c %a "$S/ours/$f") ))
		[ "$want" -eq "$got" ] || printf '%s ' "$f"
	done)
	expect "-force-file-mode go-w,u+rw" "" "$bad"
	bad=$(cd "$S/src" && find . -path ./names -prune -o -type d -print | while IFS= read -r f; do
		want=$(( 0$(stat -c %a "$f") | 0555 ))
		got=$(( 0$(stat -c %a "$S/ours/$f") ))
		[ "$want" -eq "$got" ] || printf '%s ' "$f"
	done)
	expect "-force-dir-mode a+rX" "" "$bad"
	# (Not extracted: the forced mode applies to symlinks too, which extraction cannot keep.)
	umount_dir "$S/ours"
fi
# -uid-gid-offset adds to every id, after -force-uid; -root-uid/-root-gid take names (4.6).
if ours "-uid-gid-offset" "$S/src" IMG -uid-gid-offset 100000 -force-gid 7 -root-uid root -root-gid root; then
	compare "-uid-gid-offset" "$S/src" "$S/ours" --no-owner
	expect "-uid-gid-offset root" "100000 100007" "$(stat -c '%u %g' "$S/ours")"
	expect "-uid-gid-offset files" "100007" "$(find "$S/ours" -mindepth 1 -exec stat -c %g {} + | sort -u)"
	umount_dir "$S/ours"
fi
"$MKSQUASHFS" "$S/src" "$S/o.img" -noappend -uid-gid-offset 4294967295 -force-uid 1 >"$S/mk.log" 2>&1 &&
	fail "-uid-gid-offset overflow accepted"
grep -q "uid-gid-offset" "$S/mk.log" || fail "-uid-gid-offset overflow: $(cat "$S/mk.log")"
finish
