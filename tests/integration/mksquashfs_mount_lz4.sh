# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_mount_lz4.sh — lz4 images of gentree trees: loop mount and reference extraction match the source.
COMP=lz4 SEED=4
TREE_OPTS=--no-huge
. "$top_srcdir/tests/integration/mount-case.sh"
