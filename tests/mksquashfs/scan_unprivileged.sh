#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# scan_unprivileged.sh — scan_test's non-root part: as root it runs as nobody (setpriv) when the
# build tree is reachable for nobody, else it skips with the reason.
prog=$top_builddir/tests/mksquashfs/scan_test
if [ "$(id -u)" -ne 0 ]; then
	exec "$prog" --unprivileged
fi
command -v setpriv >/dev/null 2>&1 || { echo "SKIP: setpriv (util-linux) is not installed" >&2; exit 77; }
if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$prog"; then
	echo "SKIP: $prog is not reachable for the user nobody" >&2
	exit 77
fi
exec setpriv --reuid=65534 --regid=65534 --clear-groups "$prog" --unprivileged
