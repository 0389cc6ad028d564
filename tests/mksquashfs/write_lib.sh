# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# write_lib.sh — shared checks of the table writer's scripts: compare a tree (a mount or an
# extraction) with the manifest and expected contents that write_image printed.
# Sourced; expects $top_builddir. Functions print what differs and return non-zero.

WRITE_IMAGE="$top_builddir/tests/mksquashfs/write_image"

# write_start NAME WHY TOOL...: skip (exit 77) unless root (WHY: what for) and each TOOL is
# installed; then $work is a scratch directory removed on exit and fail() stops NAME.
write_start() {
	WRITE_TEST=$1
	why=$2
	shift 2
	if [ "$(id -u)" != 0 ]; then
		echo "$WRITE_TEST: needs root $why" >&2
		exit 77
	fi
	for tool; do
		if ! command -v "$tool" > /dev/null; then
			echo "$WRITE_TEST: $tool not installed" >&2
			exit 77
		fi
	done
	work=$(mktemp -d "${TMPDIR:-/tmp}/$WRITE_TEST.XXXXXX") || exit 1
	trap 'rm -rf "$work"' EXIT
}

fail() {
	echo "$WRITE_TEST: FAIL: $*" >&2
	exit 1
}

# lists_match WHAT ROOT WANT GOT MATCHED: the sorted lists agree ("N MATCHED" on stdout); else
# "WHAT under ROOT" and the start of their diff on stderr, and non-zero.
lists_match() {
	if diff "$3" "$4" > "$3.diff"; then
		echo "$(wc -l < "$3") $5"
		return 0
	fi
	echo "$1 under $2 (want < > got):" >&2
	head -20 "$3.diff" >&2
	return 1
}

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
	lists_match "metadata differs" "$root" "$root.want" "$root.got" "paths' metadata matches"
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
	lists_match "xattrs differ" "$root" "$root.xwant" "$root.xgot" "xattrs match"
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
