#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# quickstart.sh — on a fresh Debian: install build deps, build, squash /usr/share/doc with zstd, list it.
set -e
cd "$(dirname "$0")"
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -q -o DPkg::Lock::Timeout=600
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends \
	build-essential autoconf automake libtool pkg-config \
	zlib1g-dev liblzma-dev liblzo2-dev liblz4-dev
autoreconf -fi
mkdir -p build
cd build
../configure -q CFLAGS='-O2 -g'
make -j"$(nproc)"
./mksquashfs/mksquashfs /usr/share/doc sample.img -comp zstd -noappend
./unsquashfs/unsquashfs -l sample.img | head
echo "Image: $(pwd)/sample.img"
