# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_append.sh — appending to an existing image, side by side with the reference.
#
# The same base image (made by our mksquashfs and by the reference; gzip, xz, zstd) is appended
# with the same sources by both tools; the mounted trees must be equal (names and clash renames,
# owners, modes, times, xattrs, hard links), the reference unsquashfs must extract ours, and our
# image must be no larger. Then the root options (-root-becomes, -keep-as-directory, several
# sources) and attribute options, and three appends in a row whose duplicates are stored once.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$GENTREE" "$TREECMP"
for c in gzip xz zstd; do
	have_comp $c || skip "$MKSQUASHFS is built without $c"
done
make_scratch
S=$SCRATCH
make_tree base --small --seed 31
make_tree add --small --seed 32
# Hard-linked symlinks are split at random by the reference 4.5.1 (see common.sh).
rm "$S/base/hardlinks/b/symlink-link" "$S/add/hardlinks/b/symlink-link"
# Duplicates of files already in the base (stored once by both tools) under a new name.
cp -a "$S/base/files" "$S/add/files-again"
mkdir "$S/recovery"

# run TOOL ARGS...: one mksquashfs run, its output in $S/mk.log.
run() {
	_tool=$1
	shift
	"$_tool" "$@" -no-progress -recovery-path "$S/recovery" >"$S/mk.log" 2>&1
}

# mk TOOL IMAGE ARGS...: one run of TOOL with ARGS, the word IMG replaced by IMAGE.
mk() {
	_tool=$1 _img=$2
	shift 2
	for _a; do
		shift
		if [ "$_a" = IMG ]; then set -- "$@" "$_img"; else set -- "$@" "$_a"; fi
	done
	run "$_tool" "$@"
}

# appended LABEL BASE-IMG TREECMP-OPTS -- ARGS...: BASE-IMG appended with ARGS (the word IMG
# stands for the image) by both tools; both mounted and compared; ours extracted by the
# reference unsquashfs; sizes reported and compared.
appended() {
	_label=$1 _base=$2 _opts=$3
	shift 4
	cp "$_base" "$S/ours.img" && cp "$_base" "$S/ref.img" || die "cannot copy $_base"
	if ! mk "$MKSQUASHFS" "$S/ours.img" "$@"; then
		fail "$_label: mksquashfs failed: $(tail -n 2 "$S/mk.log")"
		return 1
	fi
	mk "$REF_MKSQUASHFS" "$S/ref.img" "$@" ||
		die "$_label: reference mksquashfs failed: $(tail -n 2 "$S/mk.log")"
	[ -z "$(ls -A "$S/recovery")" ] || fail "$_label: recovery file left: $(ls "$S/recovery")"
	if mount_ro "$S/ours.img" "$S/mo"; then
		if mount_ro "$S/ref.img" "$S/mr"; then
			# shellcheck disable=SC2086
			compare "$_label: ours vs reference" "$S/mr" "$S/mo" $_opts
			umount_dir "$S/mr"
		fi
		rm -rf "$S/x"
		if [ "$EXTRACT" = no ]; then
			:
		elif "$REF_UNSQUASHFS" -no-progress -d "$S/x" "$S/ours.img" >"$S/un.log" 2>&1; then
			compare "$_label: reference unsquashfs of ours" "$S/mo" "$S/x"
		else
			fail "$_label: reference unsquashfs failed: $(tail -n 2 "$S/un.log")"
		fi
		rm -rf "$S/x"
		umount_dir "$S/mo"
	fi
	report_size "append: $_label" "$S/ours.img" "$S/ref.img"
	[ "$(file_size "$S/ours.img")" -le "$(file_size "$S/ref.img")" ] ||
		fail "$_label: our image is larger than the reference's"
	return 0
}

# The base images: ours and the reference's, per compressor.
for comp in gzip xz zstd; do
	"$MKSQUASHFS" "$S/base" "$S/base-ours-$comp.img" -comp $comp -noappend -no-progress \
		>"$S/mk.log" 2>&1 || die "mksquashfs base -comp $comp failed: $(tail -n 2 "$S/mk.log")"
	"$REF_MKSQUASHFS" "$S/base" "$S/base-ref-$comp.img" -comp $comp -noappend -no-progress \
		>"$S/mk.log" 2>&1 || die "reference mksquashfs base -comp $comp failed"
done

for comp in gzip xz zstd; do
	for maker in ours ref; do
		base=$S/base-$maker-$comp.img
		appended "$comp, base by $maker" "$base" "" -- "$S/add" IMG
		# The old entries are the base's, the clashing new ones renamed as the reference does.
		if mount_ro "$S/ours.img" "$S/mo"; then
			compare "$comp, base by $maker: old files" "$S/base/files" "$S/mo/files"
			compare "$comp, base by $maker: renamed files" "$S/add/files" "$S/mo/files_1"
			compare "$comp, base by $maker: duplicates" "$S/base/files" "$S/mo/files-again"
			umount_dir "$S/mo"
		fi
	done
done

# Root and attribute options on a small base (the big files left out: the main cases above
# cover the data); the reference's image for the options, ours for the clash check below.
mkdir -p "$S/more/old" "$S/more/d" && echo one >"$S/more/old_1" && echo two >"$S/more/d/f" ||
	die "cannot make $S/more"
cp -a "$S/base" "$S/mini" && rm -rf "$S/mini/files" "$S/mini/sparse" || die "cannot make $S/mini"
cp -a "$S/add" "$S/add-mini" && rm -rf "$S/add-mini/files" "$S/add-mini/sparse" \
	"$S/add-mini/files-again" || die "cannot make $S/add-mini"
EXTRACT=no
run "$MKSQUASHFS" "$S/mini" "$S/mini-ours.img" -noappend || die "mksquashfs of $S/mini failed"
for maker in ref; do
	base=$S/mini-$maker.img
	run "$REF_MKSQUASHFS" "$S/mini" "$base" -noappend || die "reference mksquashfs of $S/mini failed"
	appended "-root-becomes, base by $maker" "$base" "" -- "$S/add-mini" IMG -root-becomes old
	appended "-keep-as-directory, base by $maker" "$base" "--ignore-root-mtime" -- \
		"$S/add-mini" IMG -keep-as-directory
	appended "-keep-as-directory -root-becomes, base by $maker" "$base" "--ignore-root-mtime" \
		-- "$S/add-mini" IMG -keep-as-directory -root-becomes orig
	appended "three sources, base by $maker" "$base" "--ignore-root-mtime" -- \
		"$S/add-mini/dups" "$S/add-mini/dirs" "$S/more/d" IMG
	appended "a file source, base by $maker" "$base" "--ignore-root-mtime" -- \
		"$S/more/old_1" IMG
	appended "-all-root -all-time, base by $maker" "$base" "" -- "$S/more" IMG -all-root \
		-all-time 12345
done
# Bases made with other layout options: the append keeps the image's (and ignores the same
# options on its command line, as the reference does).
have_comp lz4 || skip "$MKSQUASHFS is built without lz4"
for opts in "-noI -noD -noF -noX -no-fragments" "-always-use-fragments -b 4K -no-xattrs" \
	"-comp lz4 -no-exports -no-duplicates"; do
	# shellcheck disable=SC2086 # opts is a list of words
	run "$REF_MKSQUASHFS" "$S/mini" "$S/mini-opts.img" -noappend $opts ||
		die "reference mksquashfs $opts failed"
	appended "base made with $opts" "$S/mini-opts.img" "" -- "$S/add-mini" IMG -no-xattrs
done

# A source entry whose name is taken is renamed; one whose name is free keeps it, even when a
# renamed entry would have wanted it (the reference's result depends on readdir order here).
cp "$S/mini-ours.img" "$S/ours.img"
if mk "$MKSQUASHFS" "$S/ours.img" "$S/more" IMG -root-becomes old; then
	if mount_ro "$S/ours.img" "$S/mo"; then
		[ -d "$S/mo/old/dups" ] && [ "$(cat "$S/mo/old_1")" = one ] && [ -d "$S/mo/old_2" ] &&
			[ -d "$S/mo/d" ] || fail "-root-becomes with clashes: root holds $(ls "$S/mo" | tr '\n' ' ')"
		umount_dir "$S/mo"
	fi
else
	fail "-root-becomes with clashes: mksquashfs failed: $(tail -n 2 "$S/mk.log")"
fi
export SOURCE_DATE_EPOCH=1000000000
appended "SOURCE_DATE_EPOCH" "$S/mini-ref.img" "" -- "$S/add-mini" IMG
unset SOURCE_DATE_EPOCH

# Three appends in a row; files duplicating earlier ones (in the base or an earlier append) add
# no data: the old inode table, where new data starts, does not move.
inode_table() {
	od -An -t u8 -j 64 -N 8 --endian=little "$1" | tr -d ' '
}
make_tree u1 --small --seed 33
mkdir -p "$S/u2" "$S/u3" && cp -a "$S/base/files" "$S/u2/from-base" &&
	cp -a "$S/u1/files" "$S/u2/from-u1" && cp -a "$S/u1/dups" "$S/u3/from-u1" &&
	cp -a "$S/base/sparse" "$S/u3/from-base" && head -c 3000 "$S/u1/files/zeros" >"$S/u3/new" ||
	die "cannot make the append sources"
cp "$S/base-ours-gzip.img" "$S/tri.img"
cp "$S/base-ours-gzip.img" "$S/tri-ref.img"
prev=$(inode_table "$S/tri.img")
for u in u1 u2 u3; do
	run "$MKSQUASHFS" "$S/$u" "$S/tri.img" -keep-as-directory ||
		fail "append $u: mksquashfs failed: $(tail -n 2 "$S/mk.log")"
	run "$REF_MKSQUASHFS" "$S/$u" "$S/tri-ref.img" -keep-as-directory ||
		die "append $u: reference mksquashfs failed"
	now=$(inode_table "$S/tri.img")
	grew=$((now - prev))
	log "append $u: data grew by $grew bytes"
	case $u in
	u1) [ $grew -gt 100000 ] || fail "append u1 (new files): data grew by only $grew bytes" ;;
	u2) [ $grew -eq 0 ] || fail "append u2 (all duplicates): data grew by $grew bytes" ;;
	u3) [ $grew -lt 4096 ] || fail "append u3 (one small new file): data grew by $grew bytes" ;;
	esac
	prev=$now
done
if mount_ro "$S/tri.img" "$S/mo"; then
	compare "three appends: base" "$S/base/files" "$S/mo/files"
	for u in u1 u2 u3; do
		compare "three appends: $u" "$S/$u" "$S/mo/$u" --ignore-root-mtime
	done
	if mount_ro "$S/tri-ref.img" "$S/mr"; then
		compare "three appends: ours vs reference" "$S/mr" "$S/mo" --ignore-root-mtime
		umount_dir "$S/mr"
	fi
	umount_dir "$S/mo"
fi
report_size "append: three appends" "$S/tri.img" "$S/tri-ref.img"
[ "$(file_size "$S/tri.img")" -le "$(file_size "$S/tri-ref.img")" ] ||
	fail "three appends: our image is larger than the reference's"
finish
