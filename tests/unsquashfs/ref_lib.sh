# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# ref_lib.sh — sourced by the unsquashfs tests that run ours beside the reference on one image:
# root, both tools, a scratch directory, and listed times in UTC so both print the same.
. "$top_srcdir/tests/lib/common.sh"
need_root
need_tools "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$UNSQUASHFS" "$TREECMP"
make_scratch
TZ=UTC
export TZ
