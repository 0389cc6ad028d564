#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# progress_tty.sh — the progress bar on a pseudo-terminal (progress_test --tty); skips (77)
# where no pseudo-terminal can be opened.
exec "$top_builddir/tests/common/progress_test" --tty
