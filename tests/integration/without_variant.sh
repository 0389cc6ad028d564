#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# without_variant.sh — what a user of a configure --without-X build sees: -help does not offer
# X; -comp X, appending to an X image and reading one fail in one line naming X, with no image
# made or changed and nothing written, while unsquashfs -s and -mkfs-time of an X image (no
# decompression needed) print what the reference's print; every compressor still built in
# makes images the kernel mounts and our unsquashfs extracts; without xattr support the xattrs
# of sources and images are dropped with a message, the options asking for them are refused
# and mksquashfs's summary says "no xattrs"; without libdeflate gzip images equal a full
# build's -Xzlib ones.
#
# What the build lacks is read from its config.h (or WITHOUT="xz lzo ..." in the environment).
# A build with every optional part skips (77). FULL_MKSQUASHFS, a mksquashfs built with
# libdeflate, enables the byte comparison of gzip images (CI passes its main build's).
. "$top_srcdir/tests/lib/common.sh"

built() {
	grep -q "^#define $1 1" "$top_builddir/config.h"
}

if [ -z "${WITHOUT:-}" ]; then
	[ -f "$top_builddir/config.h" ] || die "no $top_builddir/config.h and no WITHOUT"
	built HAVE_ZLIB || WITHOUT="$WITHOUT gzip"
	built HAVE_ZLIB && ! built HAVE_LIBDEFLATE && WITHOUT="$WITHOUT libdeflate"
	built HAVE_LZMA || WITHOUT="$WITHOUT xz"
	built HAVE_LZO || WITHOUT="$WITHOUT lzo"
	built HAVE_LZ4 || WITHOUT="$WITHOUT lz4"
	built HAVE_XATTR || WITHOUT="$WITHOUT xattr"
fi
[ -n "$WITHOUT" ] ||
	skip "this build has every optional part; run this in a configure --without-X build (CI does)"
lacks() {
	case " $WITHOUT " in *" $1 "*) return 0 ;; esac
	return 1
}

need_root
need_tools "$MKSQUASHFS" "$UNSQUASHFS" "$REF_MKSQUASHFS" "$GENTREE" "$TREECMP"
SQFSCAT=$top_builddir/unsquashfs/sqfscat
make_scratch
S=$SCRATCH
log "this build lacks: ${WITHOUT# }"

# The compressors this build cannot write (lzma goes with xz: both are liblzma's), and those
# it can; lzma is left out of the second list as the kernel cannot mount it.
MISSING='' BUILT=''
for c in gzip xz lzo lz4; do
	if lacks "$c"; then MISSING="$MISSING $c"; else BUILT="$BUILT $c"; fi
done
lacks xz && MISSING="$MISSING lzma"
BUILT="$BUILT zstd"
# Without xattr support no image of ours holds xattrs: the trees are compared without them.
XCMP=
lacks xattr && XCMP=--xattrs-absent

make_tree src --small --seed 31
# $M holds the checks' own files, left out when looking for what a refused command wrote.
M=$S/m
mkdir -p "$S/run" "$M" || die "mkdir failed"

# refused LABEL WORD CMD...: CMD must fail (not by a signal) with one line on stderr that
# names WORD and says the build lacks it ("without"), and not the other tool.
refused() {
	_l=$1 _w=$2 _other=unsquashfs
	shift 2
	case $1 in *unsquashfs | *sqfscat) _other=mksquashfs ;; esac
	"$@" >"$M/out" 2>"$M/err" </dev/null
	_rc=$?
	if [ $_rc -eq 0 ]; then
		fail "$_l: exit 0"
		return
	fi
	[ $_rc -lt 128 ] || fail "$_l: killed by signal $((_rc - 128))"
	_n=$(grep -cv '^[[:space:]]*$' "$M/err")
	if [ "$_n" -ne 1 ]; then
		fail "$_l: $_n lines on stderr: $(head -n 3 "$M/err" | tr '\n' '|')"
	elif ! grep -qw -- "$_w" "$M/err" || ! grep -q 'without' "$M/err"; then
		fail "$_l: the message does not say the build lacks $_w: $(cat "$M/err")"
	elif grep -qw "$_other" "$M/err"; then
		fail "$_l: the message names $_other: $(cat "$M/err")"
	else
		log "ok: $_l: $(cat "$M/err")"
	fi
}

# -help: the list of compressors marks X "not built in" and never default, and the section of
# compressor options leaves it out, as -help-comp list does.
check_help() {
	"$MKSQUASHFS" -help >"$S/help" 2>&1 || fail "-help: exit $?"
	sed -n '/^[[:space:]]*Compressors available:/,/^-/p' "$S/help" >"$S/list"
	[ -s "$S/list" ] || fail "-help has no \"Compressors available:\" list"
	sed -n '/^Compressors available and compressor specific options:/,$p' "$S/help" |
		awk '/^\t[^\t ]/ { print $1 }' >"$S/optlist"
	"$MKSQUASHFS" -help-comp list >"$S/hclist" 2>&1 || fail "-help-comp list: exit $?"
	for _c in $MISSING; do
		_line=$(grep -E "^[[:space:]]+$_c( |\$)" "$S/list")
		case $_line in
		'' | *'(not built in)'*) ;;
		*) fail "-help offers $_c: \"$_line\"" ;;
		esac
		case $_line in *default*) fail "-help makes $_c the default: \"$_line\"" ;; esac
		grep -qx "$_c" "$S/optlist" && fail "-help lists the options of $_c"
		_line=$(grep -E "^[[:space:]]+$_c( |\$)" "$S/hclist")
		case $_line in
		'' | *'(not built in)'*) ;;
		*) fail "-help-comp list offers $_c: \"$_line\"" ;;
		esac
		refused "-help-comp $_c" "$_c" "$MKSQUASHFS" -help-comp "$_c"
	done
	for _c in $BUILT; do
		grep -qx "$_c" "$S/optlist" || fail "-help does not list $_c, which is built in"
	done
}

# -comp X: refused for a new image (none left behind) and for an existing one, appended to or
# overwritten with -noappend (left unchanged); so is an -X option of X's own.
check_comp_refused() {
	"$MKSQUASHFS" "$S/src" "$S/old.img" -noappend -no-progress -quiet -comp zstd ||
		die "mksquashfs -comp zstd failed"
	cp "$S/old.img" "$S/old.copy" || die "cp failed"
	for _c in $MISSING; do
		rm -f "$S/new.img"
		refused "-comp $_c" "$_c" "$MKSQUASHFS" "$S/src" "$S/new.img" -comp "$_c" -no-progress
		[ -e "$S/new.img" ] && fail "-comp $_c left $S/new.img behind"
		refused "-comp $_c, appending" "$_c" "$MKSQUASHFS" "$S/src" "$S/old.img" -comp "$_c" \
			-no-progress
		cmp -s "$S/old.img" "$S/old.copy" || fail "-comp $_c changed the image it appended to"
		refused "-comp $_c -noappend on an image" "$_c" "$MKSQUASHFS" "$S/src" "$S/old.img" \
			-comp "$_c" -noappend -no-progress
		cmp -s "$S/old.img" "$S/old.copy" || fail "-comp $_c -noappend changed the old image"
		# An -X option only X has, given to the default compressor, names X too.
		case $_c in
		gzip) _x="-Xwindow-size 15" ;;
		lzo) _x="-Xalgorithm lzo1x_1" ;;
		xz) _x="-Xbcj x86" ;;
		lz4) _x=-Xhc ;;
		*) continue ;;
		esac
		rm -f "$S/new.img"
		# shellcheck disable=SC2086 # an option and its value
		refused "$_x" "$_c" "$MKSQUASHFS" "$S/src" "$S/new.img" $_x -no-progress
		[ -e "$S/new.img" ] && fail "$_x left $S/new.img behind"
	done
}

# unsquashfs -s (-stat) and -mkfs-time (-fstime) of the X image in $1 need no decompression:
# they print what the reference's print, exit 0 and say nothing on stderr; the compressor's
# options, which need X's code, are replaced by squashfs-tools' note when the image has them.
check_stat_of() {
	_si=$1 _sc=$2
	"$REF_UNSQUASHFS" -s "$_si" >"$M/ref.s" 2>/dev/null || die "the reference unsquashfs -s failed"
	grep -v '^	' "$M/ref.s" >"$M/ref.s.main"
	"$REF_UNSQUASHFS" -mkfs-time "$_si" >"$M/ref.t" 2>/dev/null ||
		die "the reference unsquashfs -mkfs-time failed"
	_note="	Could not display compressor options, because $_sc compression is not supported"
	# The options flag (0x0400) of the superblock's flags (u16 at byte 24): its high byte.
	_hi=$(od -An -tu1 -j25 -N1 "$_si" | tr -d ' ')
	for _o in -s -stat -mkfs-time -fstime; do
		"$UNSQUASHFS" $_o "$_si" >"$M/out" 2>"$M/err"
		_rc=$?
		if [ $_rc -ne 0 ] || [ -s "$M/err" ]; then
			fail "unsquashfs $_o of the $_sc image: exit $_rc: $(head -n 2 "$M/err" | tr '\n' '|')"
			continue
		fi
		case $_o in
		-s | -stat)
			# Every line but the tab-indented options lines as the reference's.
			if ! grep -v '^	' "$M/out" | cmp -s - "$M/ref.s.main"; then
				fail "unsquashfs $_o of the $_sc image differs from the reference's: $(grep -v '^	' "$M/out" | diff - "$M/ref.s.main" | head -n 4 | tr '\n' '|')"
			elif grep '^	' "$M/out" | grep -vxF "$_note" | grep -q .; then
				fail "unsquashfs $_o of the $_sc image prints options it cannot read: $(grep '^	' "$M/out" | head -n 2)"
			elif [ $((_hi & 4)) -ne 0 ] && ! grep -qxF "$_note" "$M/out"; then
				fail "unsquashfs $_o of the $_sc image (options block) has no note on its options"
			else
				log "ok: unsquashfs $_o of the $_sc image: as the reference's"
			fi
			;;
		*)
			if cmp -s "$M/out" "$M/ref.t"; then
				log "ok: unsquashfs $_o of the $_sc image: $(cat "$M/out")"
			else
				fail "unsquashfs $_o of the $_sc image: \"$(cat "$M/out")\", the reference: \"$(cat "$M/ref.t")\""
			fi
			;;
		esac
	done
}

# An image the reference made with X: our unsquashfs, its listing and sqfscat refuse it in one
# line without writing anything anywhere (-s and -mkfs-time work: check_stat_of); mksquashfs
# refuses to append to it and leaves it. (Without liblzma xz images are still read, by our
# decoder: xz_decode_only.sh shows it.)
check_ref_images() {
	for _c in $MISSING; do
		_img=$S/ref-$_c.img
		"$REF_MKSQUASHFS" "$S/src" "$_img" -comp "$_c" -noappend -no-progress >/dev/null 2>&1 ||
			die "the reference mksquashfs -comp $_c failed"
		cp "$_img" "$S/ref.copy" || die "cp failed"
		if [ "$_c" != xz ]; then
			find "$S" -path "$M" -prune -o -print | sort >"$M/before"
			refused "unsquashfs of the $_c image" "$_c" \
				"$UNSQUASHFS" -no-progress -d "$S/run/dest" "$_img"
			refused "unsquashfs -l of the $_c image" "$_c" "$UNSQUASHFS" -l "$_img"
			_f=$(cd "$S/src" && find . -type f -size +1k | head -n 1 | cut -c3-)
			refused "sqfscat of the $_c image" "$_c" "$SQFSCAT" "$_img" "$_f"
			check_stat_of "$_img" "$_c"
			find "$S" -path "$M" -prune -o -print | sort >"$M/after"
			diff "$M/before" "$M/after" >"$M/diff" ||
				fail "reading a $_c image wrote: $(grep '^[<>]' "$M/diff" | head -n 5 | tr '\n' ' ')"
		fi
		refused "appending to the $_c image" "$_c" "$MKSQUASHFS" "$S/src" "$_img" -no-progress
		cmp -s "$_img" "$S/ref.copy" || fail "the refused append changed the $_c image"
	done
}

# Each compressor built in: the kernel mounts the image and sees the source, and our
# unsquashfs extracts the source.
check_built() {
	for _c in $BUILT; do
		_img=$S/ours-$_c.img
		if ! "$MKSQUASHFS" "$S/src" "$_img" -comp "$_c" -noappend -no-progress >"$S/mk.log" 2>&1; then
			fail "-comp $_c: mksquashfs failed: $(tail -n 3 "$S/mk.log")"
			continue
		fi
		if mount_ro "$_img" "$S/mnt"; then
			# shellcheck disable=SC2086 # XCMP is empty or one word
			compare "-comp $_c: kernel mount" "$S/src" "$S/mnt" $XCMP
			umount_dir "$S/mnt"
		fi
		rm -rf "$S/x"
		if "$UNSQUASHFS" -no-progress -d "$S/x" "$_img" >"$S/un.log" 2>&1; then
			# shellcheck disable=SC2086
			compare "-comp $_c: our unsquashfs" "$S/src" "$S/x" $XCMP
		else
			fail "-comp $_c: our unsquashfs failed: $(tail -n 3 "$S/un.log")"
		fi
		rm -rf "$S/x" "$_img"
		log "ok: -comp $_c: checked by kernel mount and by our unsquashfs"
	done
	# No -comp: the compressor -help calls the default is used.
	_def=$(sed -n 's/^[[:space:]]*\([a-z0-9]*\) (default).*/\1/p' "$S/list")
	"$MKSQUASHFS" "$S/src" "$S/def.img" -noappend -no-progress -quiet ||
		fail "mksquashfs without -comp failed"
	"$UNSQUASHFS" -s "$S/def.img" 2>&1 | grep -qx "Compression $_def" ||
		fail "without -comp the image is not compressed with the default \"$_def\" of -help"
}

# Without libdeflate gzip blocks are zlib's, as -Xzlib writes them in a build with libdeflate
# (the man page's promise): the same image byte for byte, while that build's default (libdeflate)
# image differs by design. -Xzlib is still accepted and changes nothing here.
check_no_libdeflate() {
	"$MKSQUASHFS" "$S/src" "$M/z.img" -comp gzip -noappend -no-progress -quiet -mkfs-time 0 ||
		{ fail "-comp gzip failed"; return; }
	"$MKSQUASHFS" "$S/src" "$M/zx.img" -comp gzip -Xzlib -noappend -no-progress -quiet \
		-mkfs-time 0 || fail "-comp gzip -Xzlib failed"
	cmp -s "$M/z.img" "$M/zx.img" || fail "-Xzlib changed the gzip image of a build without libdeflate"
	if [ -z "${FULL_MKSQUASHFS:-}" ]; then
		log "FULL_MKSQUASHFS not set: no byte comparison with a build that has libdeflate"
		return
	fi
	[ -x "$FULL_MKSQUASHFS" ] || die "FULL_MKSQUASHFS=$FULL_MKSQUASHFS is not a program"
	"$FULL_MKSQUASHFS" "$S/src" "$M/fz.img" -comp gzip -Xzlib -noappend -no-progress -quiet \
		-mkfs-time 0 || die "$FULL_MKSQUASHFS -comp gzip -Xzlib failed"
	if cmp -s "$M/z.img" "$M/fz.img"; then
		log "ok: the gzip image equals $FULL_MKSQUASHFS's -Xzlib image byte for byte"
	else
		fail "the gzip image differs from $FULL_MKSQUASHFS's -Xzlib image: $(cmp "$M/z.img" "$M/fz.img" 2>&1)"
	fi
	"$FULL_MKSQUASHFS" "$S/src" "$M/fd.img" -comp gzip -noappend -no-progress -quiet \
		-mkfs-time 0 || die "$FULL_MKSQUASHFS -comp gzip failed"
	if cmp -s "$M/z.img" "$M/fd.img"; then
		log "the gzip image equals $FULL_MKSQUASHFS's default one: is that build without libdeflate too?"
	else
		log "ok: $FULL_MKSQUASHFS's default gzip image (libdeflate) differs, by design"
	fi
}

# Without xattr support: mksquashfs -help says -xattrs is unsupported, and -xattrs and the
# -xattrs-* options are refused; a source's xattrs are not stored (check_built compared without
# them; the summary says "no xattrs", as squashfs-tools built without xattrs) but a pseudo
# definition's are, as the man page says. Our unsquashfs extracts the reference's image of a
# source with xattrs without them, saying so in one line (exit 2), and silently with
# -no-xattrs; the options asking for xattrs (-xattrs, -user-xattrs, -xattrs-include,
# -xattrs-exclude and their short names) are refused in one line, with nothing extracted.
check_no_xattr() {
	sed -n '/^-xattrs[[:space:]]/,/^-/p' "$S/help" | grep -q 'without-xattr' ||
		fail "mksquashfs -help does not say -xattrs is unsupported in this build"
	for _o in -xattrs "-xattrs-add user.a=1" "-xattrs-include ^user" "-xattrs-exclude ^user"; do
		rm -f "$S/new.img"
		# shellcheck disable=SC2086 # an option and its value
		refused "mksquashfs $_o" xattrs "$MKSQUASHFS" "$S/src" "$S/new.img" $_o -no-progress
		[ -e "$S/new.img" ] && fail "mksquashfs $_o left an image behind"
	done
	"$UNSQUASHFS" -help 2>&1 | grep -q 'no xattr support' ||
		fail "unsquashfs -help does not say this build has no xattr support"

	if command -v getfattr >/dev/null 2>&1; then
		getfattr -R -d -m - "$S/src" 2>/dev/null | grep -q '=' ||
			die "the source tree has no xattrs: the checks below prove nothing"
		"$MKSQUASHFS" "$S/src" "$M/n.img" -noappend -no-progress >"$M/sum" 2>&1 ||
			fail "mksquashfs of a source with xattrs failed: $(tail -n 2 "$M/sum")"
		grep -q '^	no xattrs, ' "$M/sum" ||
			fail "the summary of an image without xattrs says: $(grep 'xattrs, ' "$M/sum")"
		"$MKSQUASHFS" "$S/src" "$M/p.img" -noappend -no-progress \
			-p "files x user.pseudo=kept" >"$M/sum" 2>&1 ||
			fail "mksquashfs with a pseudo xattr failed: $(tail -n 2 "$M/sum")"
		grep -q '^	compressed xattrs, ' "$M/sum" ||
			fail "the summary of an image with a pseudo xattr says: $(grep 'xattrs, ' "$M/sum")"
		if mount_ro "$M/p.img" "$S/mnt"; then
			_v=$(getfattr --only-values -n user.pseudo "$S/mnt/files" 2>/dev/null)
			[ "$_v" = kept ] || fail "the pseudo definition's xattr was not stored (read \"$_v\")"
			umount_dir "$S/mnt"
		fi
	else
		log "no getfattr (package attr): the pseudo xattr check is left out"
	fi

	# zstd: every build reads it (the reference's default, gzip, may be left out too).
	"$REF_MKSQUASHFS" "$S/src" "$M/rx.img" -comp zstd -noappend -no-progress >/dev/null 2>&1 ||
		die "the reference mksquashfs failed"
	for _o in -xattrs -x -user-xattrs -u "-xattrs-include ^user" "-xattrs-exclude ^user"; do
		rm -rf "$S/x"
		# shellcheck disable=SC2086 # an option and its value
		refused "unsquashfs $_o" "${_o%% *}" "$UNSQUASHFS" -no-progress $_o -d "$S/x" "$M/rx.img"
		[ -e "$S/x" ] && fail "unsquashfs $_o extracted something"
	done
	for _o in "" -no-xattrs; do
		rm -rf "$S/x"
		# shellcheck disable=SC2086 # empty or one option
		"$UNSQUASHFS" -no-progress $_o -d "$S/x" "$M/rx.img" >"$M/out" 2>"$M/err"
		_rc=$?
		_n=$(grep -cv '^[[:space:]]*$' "$M/err")
		if [ "$_o" = -no-xattrs ]; then
			[ $_rc -eq 0 ] && [ "$_n" -eq 0 ] ||
				fail "unsquashfs -no-xattrs: exit $_rc, $_n lines: $(head -n 2 "$M/err")"
		elif [ $_rc -ne 2 ] || [ "$_n" -ne 1 ] || ! grep -q 'without xattr support' "$M/err"; then
			fail "unsquashfs ${_o:-(defaults)} of an image with xattrs: exit $_rc (2 wanted), $_n lines: $(head -n 2 "$M/err" | tr '\n' '|')"
		else
			log "ok: unsquashfs ${_o:-(defaults)} of an image with xattrs: $(cat "$M/err")"
		fi
		compare "unsquashfs ${_o:-(defaults)} of an image with xattrs" "$S/src" "$S/x" --xattrs-absent
	done
	rm -rf "$S/x"
}

check_help
check_comp_refused
check_ref_images
check_built
lacks xattr && check_no_xattr
lacks libdeflate && check_no_libdeflate
finish
