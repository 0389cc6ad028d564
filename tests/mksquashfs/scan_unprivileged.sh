#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# scan_unprivileged.sh — scan_test's non-root part (skips as root).
exec "$top_builddir/tests/mksquashfs/scan_test" --unprivileged
