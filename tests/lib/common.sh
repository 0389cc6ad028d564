# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# common.sh — shell helpers for the integration tests: tools, scratch dir, loop mounts, compares, sizes.
#
# Source it from a test: . "$top_srcdir/tests/lib/common.sh"
# Environment: top_srcdir, top_builddir (set by make check); MKSQUASHFS to test another
# mksquashfs (MKSQUASHFS=/usr/bin/mksquashfs proves the harness on the reference tool).

: "${top_srcdir:?top_srcdir must be set (run through make check)}"
: "${top_builddir:?top_builddir must be set (run through make check)}"

TEST_NAME=$(basename "$0" .sh)
MKSQUASHFS=${MKSQUASHFS:-$top_builddir/mksquashfs/mksquashfs}
UNSQUASHFS=${UNSQUASHFS:-$top_builddir/unsquashfs/unsquashfs}
REF_MKSQUASHFS=${REF_MKSQUASHFS:-/usr/bin/mksquashfs}
REF_UNSQUASHFS=${REF_UNSQUASHFS:-/usr/bin/unsquashfs}
GENTREE=$top_builddir/tests/lib/gentree
TREECMP=$top_builddir/tests/lib/treecmp
FAILURES=0
SCRATCH=
MOUNTS=

# Known deviation of the reference mksquashfs 4.5.1 (hard-linked symlinks are sometimes stored
# as separate inodes): forgiven only when the reference is the tool under test.
TREECMP_TOOL_OPTS=
if [ "$(readlink -f "$MKSQUASHFS" 2>/dev/null)" = "$(readlink -f "$REF_MKSQUASHFS")" ]; then
	TREECMP_TOOL_OPTS=--no-symlink-hardlinks
fi

# Helpers name their variables _x: sh has no locals and tests use plain names.
log() { printf '%s: %s\n' "$TEST_NAME" "$*"; }

# A failed check: counted, the test goes on, and finish() exits 1.
fail() {
	printf '%s: FAIL: %s\n' "$TEST_NAME" "$*" >&2
	FAILURES=$((FAILURES + 1))
}

skip() {
	printf '%s: SKIP: %s\n' "$TEST_NAME" "$*" >&2
	exit 77
}

# The harness itself broke (not the tool under test): exit 99, which automake reports as ERROR.
die() {
	printf '%s: ERROR: %s\n' "$TEST_NAME" "$*" >&2
	exit 99
}

finish() {
	if [ "$FAILURES" -ne 0 ]; then
		log "$FAILURES check(s) failed"
		exit 1
	fi
	log "all checks passed"
	exit 0
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (loop mounts, owners, devices)"
}

# need_tools PROGRAM...: each a path that must be executable, or a command name in PATH.
need_tools() {
	for _t in "$@"; do
		case $_t in
		*/*) [ -x "$_t" ] ;;
		*) command -v "$_t" >/dev/null 2>&1 ;;
		esac || skip "$_t is not available"
	done
}

# Our mksquashfs built with this compressor? (configure --without-X leaves it out.)
have_comp() {
	case $1 in
	gzip) _sym=HAVE_ZLIB ;;
	xz) _sym=HAVE_LZMA ;;
	lzo) _sym=HAVE_LZO ;;
	lz4) _sym=HAVE_LZ4 ;;
	*) _sym= ;;
	esac
	if [ -n "$_sym" ] && [ -f "$top_builddir/config.h" ] &&
		! grep -q "^#define $_sym 1" "$top_builddir/config.h"; then
		return 1
	fi
	"$MKSQUASHFS" -help 2>&1 | grep -qw -- "$1"
}

cleanup() {
	set +e
	for _m in $MOUNTS; do
		if mountpoint -q "$_m"; then
			umount "$_m" 2>/dev/null || umount -l "$_m" 2>/dev/null
		fi
	done
	if [ -n "$SCRATCH" ] && [ -d "$SCRATCH" ]; then
		chmod -R u+rwx "$SCRATCH" 2>/dev/null
		rm -rf "$SCRATCH"
	fi
}

# Make $SCRATCH (on disk, not tmpfs: trees hold sparse files over 4 GiB) and clean it on exit.
make_scratch() {
	_base=${TEST_TMPDIR:-$top_builddir/tests/tmp}
	mkdir -p "$_base" || die "cannot create $_base"
	SCRATCH=$(mktemp -d "$_base/$TEST_NAME.XXXXXX") || die "mktemp failed in $_base"
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
}

# gentree into $SCRATCH/NAME; extra arguments go to gentree (--small, --seed N).
make_tree() {
	_name=$1
	shift
	"$GENTREE" "$@" "$SCRATCH/$_name" || die "gentree $* failed"
}

# mount_ro IMG DIR: loop-mount read-only; retries because parallel tests race for loop devices.
mount_ro() {
	_img=$1 _dir=$2
	mkdir -p "$_dir" || return 1
	for _attempt in 1 2 3 4 5; do
		if _out=$(mount -t squashfs -o loop,ro "$_img" "$_dir" 2>&1); then
			MOUNTS="$_dir $MOUNTS"
			return 0
		fi
		sleep "$_attempt"
	done
	fail "cannot mount $_img: $_out; kernel says: $(dmesg 2>/dev/null | tail -n 3 | tr '\n' ' ')"
	return 1
}

# eio_mount DIR FILE BYTES SEEK MNT: DIR/FILE (BYTES bytes) imaged by the reference with gzip,
# the image DIR.img corrupted from byte SEEK and mounted on MNT, so that reading MNT/FILE fails
# with an I/O error. Returns 0 when it does, 2 (unmounted) when the file still reads, 1 when the
# image cannot be mounted (already a failure).
eio_mount() {
	mkdir -p "$1" || die "mkdir $1 failed"
	head -c "$3" /dev/zero | tr '\0' 'x' >"$1/$2" || die "cannot write $1/$2"
	"$REF_MKSQUASHFS" "$1" "$1.img" -noappend -no-progress -comp gzip >/dev/null 2>&1 ||
		die "the reference mksquashfs failed on $1"
	printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' |
		dd of="$1.img" bs=1 seek="$4" conv=notrunc status=none
	mount_ro "$1.img" "$5" || return 1
	cat "$5/$2" >/dev/null 2>&1 || return 0
	umount_dir "$5"
	return 2
}

umount_dir() {
	for _attempt in 1 2 3; do
		umount "$1" 2>/dev/null && return 0
		sleep 1
	done
	umount -l "$1" 2>/dev/null
	fail "cannot unmount $1"
	return 1
}

# compare WHAT A B [treecmp options]: treecmp, showing the first differences on failure.
compare() {
	_what=$1 _a=$2 _b=$3
	shift 3
	# shellcheck disable=SC2086 # TREECMP_TOOL_OPTS is a list of words
	_out=$("$TREECMP" $TREECMP_TOOL_OPTS "$@" "$_a" "$_b" 2>&1)
	_rc=$?
	[ $_rc -eq 0 ] && return 0
	fail "$_what: trees differ (treecmp exit $_rc):"
	printf '%s\n' "$_out" | head -n 30 >&2
	return 1
}

file_size() {
	stat -c %s "$1"
}

# report_size LABEL OURS_IMG REF_IMG: the line .ci/run collects into its size table.
report_size() {
	_ours=$(file_size "$2") _ref=$(file_size "$3")
	_ratio=$(awk -v o="$_ours" -v r="$_ref" 'BEGIN { printf "%.4f", r ? o / r : 0 }')
	echo "size: $1 ours=$_ours ref=$_ref ratio=$_ratio"
}

# The image must not pass for a squashfs: either absent or rejected by the reference reader.
no_valid_image() {
	[ -e "$1" ] || return 0
	if "$REF_UNSQUASHFS" -s "$1" >/dev/null 2>&1; then
		return 1
	fi
	return 0
}
