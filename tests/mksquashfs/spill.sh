#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# spill.sh — the spill of the tree's records to a temporary file past their share of -mem
# (doc/scaling.md): forced from the first record (SQ_MKSQUASHFS_SPILL_AT=0: the directory table
# goes through a temporary file too), the image is byte for byte the one built without it, for a
# directory, a tar archive (-tar and sqfstar), pseudo definitions and an append, and mounts and
# holds the source; with a small -mem (hash tables
# bounded too: duplicates may be missed) the image still holds the source, and so does a tar
# archive of many members in an awkward order (one image with or without it); a temporary directory
# that cannot be written fails the run with a message naming it.
. "$top_srcdir/tests/lib/common.sh"
. "$top_srcdir/tests/mksquashfs/spill_lib.sh"

need_root
need_tools "$MKSQUASHFS" "$GENTREE" "$TREECMP" perl
make_scratch
S=$SCRATCH
make_tree src --small
# Thousands of small files in a few directories (the records that spill), duplicates among
# them (a copied directory) and hard links.
small_files "$S/src" 6
cp -a "$S/src/many1" "$S/src/copy1" || die "cp failed"
ln "$S/src/many2/file0007" "$S/src/link0007" || die "ln failed"
mkdir "$S/tmp" || die "mkdir failed"

# build IMG [options]: our image of src; output in IMG.out.
build() {
	_img=$1
	shift
	"$MKSQUASHFS" "$S/src" "$S/$_img" -noappend -no-progress -mkfs-time 0 "$@" \
		>"$S/$_img.out" 2>&1 || { fail "$_img ($*): build failed: $(tail -n 2 "$S/$_img.out")"; return 1; }
}
spilled() { grep -q "^Per-file records spilled to a temporary file in $S/tmp: [0-9]* MiB" "$S/$1.out"; }
# mounted IMG: the image holds the source.
mounted() {
	mount_ro "$S/$1" "$S/mnt-$1" || return
	compare "$1" "$S/src" "$S/mnt-$1"
	umount_dir "$S/mnt-$1"
}

build plain.img
spilled plain.img && fail "plain.img spilled without being asked to"
TMPDIR=$S/tmp SQ_MKSQUASHFS_SPILL_AT=0 build spill.img
spilled spill.img || fail "spill.img: no spill reported: $(tail -n 1 "$S/spill.img.out")"
cmp "$S/plain.img" "$S/spill.img" >/dev/null || fail "the spilled image differs from the plain one"
[ -z "$(ls -A "$S/tmp")" ] || fail "the temporary file was left behind: $(ls -A "$S/tmp")"
mounted spill.img

# The other readers: plain, then with the spill from the first record; one image byte for byte.
# both LABEL FUNC: FUNC IMG builds image IMG its way.
both() {
	"$2" "$1.img" >"$S/$1.img.out" 2>&1 || { fail "$1: build failed: $(tail -n 2 "$S/$1.img.out")"; return; }
	spilled "$1.img" && fail "$1.img spilled without being asked to"
	TMPDIR=$S/tmp SQ_MKSQUASHFS_SPILL_AT=0 "$2" "$1-spill.img" >"$S/$1-spill.img.out" 2>&1 ||
		{ fail "$1: spilled build failed: $(tail -n 2 "$S/$1-spill.img.out")"; return; }
	spilled "$1-spill.img" || fail "$1-spill.img: no spill reported"
	cmp "$S/$1.img" "$S/$1-spill.img" >/dev/null || fail "$1: the spilled image differs"
	[ -z "$(ls -A "$S/tmp")" ] || fail "$1: the temporary file was left behind"
}
tar -C "$S/src" --format=pax -cf "$S/src.tar" . || die "tar failed"
from_tar() { "$MKSQUASHFS" - "$S/$1" -tar -noappend -no-progress -mkfs-time 0 -all-time 0 <"$S/src.tar"; }
sqfstar() { "$top_builddir/mksquashfs/sqfstar" -no-progress -mkfs-time 0 -all-time 0 "$S/$1" <"$S/src.tar"; }
both tar from_tar
both sqfstar sqfstar
# Pseudo definitions only (source "-"): directories, symlinks, devices, files from commands.
perl -e '
	print "/ d 755 0 0\n";
	for my $d (0 .. 9) {
		print "/p$d D 1000 755 1 2\n";
		print "/p$d/s$_ s 777 0 0 target$_\n" for 0 .. 299;
		print "/p$d/c$_ c 644 0 0 1 $_\n" for 0 .. 99;
		print "/p$d/f$_ f 644 0 0 echo file $d $_\n" for 0 .. 2;
	}' >"$S/defs" || die "cannot write the pseudo definitions"
pseudo() { "$MKSQUASHFS" - "$S/$1" -pf "$S/defs" -noappend -no-progress -mkfs-time 0 -all-time 0; }
both pseudo pseudo
# An append: the existing image's inodes are read into the tree (its arena) before the sources.
build base.img -e many3 many4 many5 copy1
append() {
	cp "$S/base.img" "$S/$1" &&
		"$MKSQUASHFS" "$S/src/many3" "$S/src/many4" "$S/$1" -no-progress -no-recovery \
			-mkfs-time 0 -all-time 0
}
both append append

# Spilling into the image's directory when TMPDIR is unset.
(unset TMPDIR; SQ_MKSQUASHFS_SPILL_AT=1K build here.img) &&
	grep -q "^Per-file records spilled to a temporary file in $S: " "$S/here.img.out" ||
	fail "here.img: no spill next to the image: $(tail -n 1 "$S/here.img.out")"
cmp "$S/plain.img" "$S/here.img" >/dev/null || fail "the image spilled next to itself differs"

# A small -mem: the records spill and the hash tables stop growing; the content stays right.
TMPDIR=$S/tmp build mem.img -mem 1M
spilled mem.img || fail "mem.img: -mem 1M did not spill: $(tail -n 1 "$S/mem.img.out")"
mounted mem.img

# A tar archive of many members under a small -mem: the reader trims a directory into the arena
# once the archive has moved on from it (tar/place.c). Members coming back to a trimmed
# directory (the last 100 files of each, round robin), a hard link into one, a directory listed
# after its members and nested directories give one image with or without the spill, which
# holds the tree.
mkdir "$S/many" || die "mkdir failed"
perl -e '
	my ($root) = @ARGV;
	my (@first, @late);
	for my $d (0 .. 19) {
		my $dir = sprintf("d%02d", $d);
		mkdir "$root/$dir" or die;
		mkdir "$root/$dir/sub" or die;
		push @first, $dir unless $d == 19;
		for my $i (0 .. 399) {
			my $name = sprintf("%s/f%04d", $dir, $i);
			open(my $fh, ">", "$root/$name") or die;
			print $fh "$name " x ($i % 13);
			close $fh or die;
			push @{$i < 300 ? \@first : \@{$late[$i - 300]}}, $name;
		}
		push @first, "$dir/sub", "$dir/sub/x";
		open(my $fh, ">", "$root/$dir/sub/x") or die;
		close $fh or die;
	}
	link("$root/d03/f0001", "$root/d17/hard") or die;
	open(my $list, ">", "$root.list") or die;
	print $list "$_\n" for ".", @first, map({ @$_ } @late), "d17/hard", "d19";
	close $list or die;' "$S/many" || die "cannot make the many-member tree"
tar -C "$S/many" --no-recursion --format=gnu -cf "$S/many.tar" -T "$S/many.list" ||
	die "tar failed"
from_many() {
	_img=$1
	shift
	"$MKSQUASHFS" - "$S/$_img" -tar -noappend -no-progress -mkfs-time 0 -all-time 0 \
		-root-mode 755 "$@" <"$S/many.tar" \
		>"$S/$_img.out" 2>&1 || fail "$_img: build failed: $(tail -n 2 "$S/$_img.out")"
}
from_many many.img
TMPDIR=$S/tmp SQ_MKSQUASHFS_SPILL_AT=0 from_many many-spill.img
TMPDIR=$S/tmp from_many many-mem.img -mem 1M
spilled many-mem.img || fail "many-mem.img: -mem 1M did not spill"
for _img in many-spill.img many-mem.img; do
	cmp "$S/many.img" "$S/$_img" >/dev/null || fail "$_img differs from many.img"
done
if mount_ro "$S/many.img" "$S/mnt-many"; then
	chmod 755 "$S/many" || die "chmod failed"
	compare many.img "$S/many" "$S/mnt-many" --no-mtime
	[ "$(stat -c %h "$S/mnt-many/d17/hard")" = 2 ] || fail "many.img: d17/hard is not a hard link"
	umount_dir "$S/mnt-many"
fi

# A temporary directory that does not exist: one line naming it, no image reported as made.
if TMPDIR=$S/nowhere SQ_MKSQUASHFS_SPILL_AT=0 "$MKSQUASHFS" "$S/src" "$S/bad.img" -noappend \
	-no-progress >"$S/bad.out" 2>&1; then
	fail "a missing temporary directory did not fail the run"
fi
grep -q "temporary file in $S/nowhere" "$S/bad.out" ||
	fail "no message naming the temporary directory: $(tail -n 1 "$S/bad.out")"
SQ_MKSQUASHFS_SPILL_AT=lots "$MKSQUASHFS" "$S/src" "$S/bad.img" -noappend >"$S/bad.out" 2>&1 &&
	fail "SQ_MKSQUASHFS_SPILL_AT=lots was accepted"

"$MKSQUASHFS" -help 2>&1 | grep -q -- "^-mem <size>.*temporary file\|^-mem <size>" ||
	fail "-mem is not in -help"
finish
