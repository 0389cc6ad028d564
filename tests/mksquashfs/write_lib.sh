# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# write_lib.sh — shared checks of the table writer's scripts: compare a tree (a mount or an
# extraction) with the manifest and expected contents that write_image printed.
# Sourced; expects $top_builddir. Functions print what differs and return non-zero.

WRITE_IMAGE="$top_builddir/tests/mksquashfs/write_image"

# make_image DIR [write_image options...]: DIR/img.sq, DIR/expect/, DIR/manifest
make_image() {
	dir=$1
	shift
	rm -rf "$dir/expect"
	"$WRITE_IMAGE" "$dir/img.sq" "$dir/expect" "$dir/manifest" "$@"
}

# check_meta ROOT MANIFEST [skip-symlink-times]: types, modes, owners, mtimes, sizes, nlink, rdev
check_meta() {
	root=$1
	manifest=$2
	relaxed=${3:-}
	grep -v '^[LX]|' "$manifest" | sort > "$root.want" || return 1
	(cd "$root" && find . -exec stat -c '%n|%f|%u|%g|%Y|%s|%h|%t:%T' {} +) |
		awk -F'|' 'BEGIN { OFS = "|" }
			{ if (substr($2, 1, 1) == "4" && length($2) == 4) $6 = "-" } { print }' |
		sort > "$root.got" || return 1
	if [ -n "$relaxed" ]; then
		# Extraction does not keep symlink times (a reference unsquashfs limitation).
		for f in "$root.want" "$root.got"; do
			awk -F'|' 'BEGIN { OFS = "|" } { if (substr($2, 1, 1) == "a") $5 = "-" } { print }' \
				"$f" > "$f.tmp" && mv "$f.tmp" "$f"
		done
	fi
	if ! diff "$root.want" "$root.got" > "$root.diff"; then
		echo "metadata differs under $root (want < > got):" >&2
		head -20 "$root.diff" >&2
		return 1
	fi
	echo "metadata of $(wc -l < "$root.want") paths matches"
}

check_symlinks() {
	root=$1
	manifest=$2
	bad=0
	grep '^L|' "$manifest" | while IFS='|' read -r _ path target; do
		got=$(readlink "$root/$path")
		if [ "$got" != "$target" ]; then
			echo "symlink $path: target '$got', expected '$target'" >&2
			exit 1
		fi
	done || bad=1
	return $bad
}

check_xattrs() {
	root=$1
	manifest=$2
	grep '^X|' "$manifest" | sort > "$root.xwant"
	(cd "$root" && getfattr -R -h -d -m - -e hex . 2>/dev/null) | awk '
		/^# file: / { file = substr($0, 9); next }
		/^$/ { next }
		{ i = index($0, "="); name = (i ? substr($0, 1, i - 1) : $0);
		  val = (i ? substr($0, i + 1) : "0x"); if (val == "\"\"") val = "0x";
		  print "X|./" file "|" name "|" val }' | sed 's#|\./\./#|./#' | sort > "$root.xgot"
	if ! diff "$root.xwant" "$root.xgot" > "$root.xdiff"; then
		echo "xattrs differ under $root (want < > got):" >&2
		head -20 "$root.xdiff" >&2
		return 1
	fi
	echo "$(wc -l < "$root.xwant") xattrs match"
}

# check_contents ROOT EXPECT MANIFEST: every regular file's bytes (tails of files over 4 GiB)
check_contents() {
	root=$1
	expect=$2
	n=0
	for f in $(cd "$expect" && find . -type f | sort); do
		size=$(stat -c %s "$root/$f") || return 1
		if [ "$size" -gt 4294967295 ]; then
			tail_len=$(stat -c %s "$expect/$f")
			if ! tail -c "$tail_len" "$root/$f" | cmp -s - "$expect/$f"; then
				echo "content of $f (tail) differs" >&2
				return 1
			fi
			# A sparse region reads as zeros.
			if ! cmp -s -n 1048576 -i 3221225472:0 "$root/$f" /dev/zero; then
				echo "sparse region of $f is not zero" >&2
				return 1
			fi
		elif ! cmp "$root/$f" "$expect/$f"; then
			return 1
		fi
		n=$((n + 1))
	done
	echo "contents of $n files match"
}
