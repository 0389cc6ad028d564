#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# scan_xattrs.sh — scan_test's user-xattr part (skips where the file system has none).
exec "$top_builddir/tests/mksquashfs/scan_test" --xattrs
