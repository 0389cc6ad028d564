# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# zstd_interop.sh — zstd images across tools: the reference's read by ours, ours read by the reference.
#
# Reference mksquashfs -comp zstd at levels 1/15/19/22 and block sizes 4K/1M: our unsquashfs
# extracts the same tree and prints the same compressor section for -s. Our mksquashfs at the
# same levels: the reference unsquashfs -s reports zstd and the level (none for the default 15),
# the reference extracts the same tree. (The kernel mounts our zstd images at every level and
# block size in tests/zstd/comp_kernel.sh, a test of its own that needs root.)

. "$top_srcdir/tests/lib/common.sh"

need_tools "$MKSQUASHFS" "$UNSQUASHFS" "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
make_tree src --small --no-huge --seed 61

# The lines of unsquashfs -s from "Compression" up to "Block size".
comp_section() {
	"$1" -s "$2" 2>&1 | sed -n '/^Compression /,/^Block size/p' | sed '$d'
}

for level in 1 15 19 22; do
	for block in 4096 1048576; do
		label="zstd level $level -b $block"
		ref=$SCRATCH/ref-$level-$block.img ours=$SCRATCH/ours-$level-$block.img
		out=$SCRATCH/out

		# Reference-made image, read by our unsquashfs.
		if "$REF_MKSQUASHFS" "$SCRATCH/src" "$ref" -noappend -no-progress -quiet -comp zstd \
			-Xcompression-level "$level" -b "$block" >"$SCRATCH/log" 2>&1; then
			rm -rf "$out"
			if "$UNSQUASHFS" -no-progress -d "$out" "$ref" >"$SCRATCH/log" 2>&1; then
				# The reference sometimes splits hard-linked symlinks (a known 4.5.1 quirk).
				compare "$label: reference image extracted by ours" "$SCRATCH/src" "$out" \
					--no-symlink-hardlinks
			else
				fail "$label: our unsquashfs failed on the reference image: $(tail -n 2 "$SCRATCH/log")"
			fi
			want=$(comp_section "$REF_UNSQUASHFS" "$ref")
			got=$(comp_section "$UNSQUASHFS" "$ref")
			[ "$want" = "$got" ] ||
				fail "$label: our -s prints '$got', the reference '$want'"
		else
			die "reference mksquashfs failed: $(tail -n 2 "$SCRATCH/log")"
		fi

		# Our image, read by the reference unsquashfs and the kernel.
		if ! "$MKSQUASHFS" "$SCRATCH/src" "$ours" -noappend -no-progress -quiet -comp zstd \
			-Xcompression-level "$level" -b "$block" >"$SCRATCH/log" 2>&1; then
			fail "$label: our mksquashfs failed: $(tail -n 2 "$SCRATCH/log")"
			continue
		fi
		section=$(comp_section "$REF_UNSQUASHFS" "$ours")
		if [ "$level" -eq 15 ]; then
			expect="Compression zstd"
		else
			expect=$(printf 'Compression zstd\n\tcompression-level %s' "$level")
		fi
		[ "$section" = "$expect" ] ||
			fail "$label: reference unsquashfs -s says '$section', expected '$expect'"
		rm -rf "$out"
		if "$REF_UNSQUASHFS" -no-progress -d "$out" "$ours" >"$SCRATCH/log" 2>&1; then
			compare "$label: our image extracted by the reference" "$SCRATCH/src" "$out"
		else
			fail "$label: reference unsquashfs failed on our image: $(tail -n 2 "$SCRATCH/log")"
		fi
		rm -rf "$out"
		report_size "$label" "$ours" "$ref"
		rm -f "$ref" "$ours"
	done
done
finish
