# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_mount_gzip.sh — gzip images of gentree trees: loop mount and reference extraction match the source.
COMP=gzip SEED=1
. "$top_srcdir/tests/integration/mount-case.sh"
