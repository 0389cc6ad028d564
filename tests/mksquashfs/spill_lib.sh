# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# spill_lib.sh — shared by the tests of -mem and its spill (sourced after tests/lib/common.sh).

# small_files ROOT N: N directories ROOT/many0.. of 1,000 small text files each (file0000..,
# 0-1,500 bytes, the same sizes recurring: the records that spill, and duplicates among them).
small_files() {
	perl -e '
		my ($root, $dirs) = @ARGV;
		for my $d (0 .. $dirs - 1) {
			mkdir "$root/many$d" or die;
			for my $i (0 .. 999) {
				open(my $fh, ">", sprintf("%s/many%d/file%04d", $root, $d, $i)) or die;
				print $fh "file $d/$i " x (($i * 7 + $d) % 97);
				close $fh or die;
			}
		}' "$1" "$2" || die "cannot make the small files"
}
