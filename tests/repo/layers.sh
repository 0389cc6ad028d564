#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# layers.sh — the include order is one-way: common/util -> codecs -> common (format) -> tools.
# Greps every #include "..." of the product sources and fails on one that reaches up (or across
# from one tool to the other); then plants an upward include in a scratch copy to prove it fails.
. "$top_srcdir/tests/lib/common.sh"

# allowed FILE: the include prefixes a source in FILE's folder may use.
allowed() {
	case $1 in
	common/util/*) echo "common/util/" ;;
	codecs/zstd/*) echo "codecs/zstd/ common/util/" ;;
	codecs/*) echo "codecs/ common/util/" ;;
	common/*) echo "common/ codecs/codec.h" ;;
	mksquashfs/*) echo "mksquashfs/ common/ codecs/" ;;
	unsquashfs/*) echo "unsquashfs/ common/ codecs/" ;;
	*) echo "" ;;
	esac
}

# check_tree DIR: print each upward include as "file:line: includes X"; status 1 when any.
check_tree() {
	_bad=0
	for _f in $(cd "$1" && find common codecs mksquashfs unsquashfs -name '*.[ch]' | sort); do
		_ok=$(allowed "$_f")
		_out=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$1/$_f" |
			sed 's/^\([0-9]*\):.*include[[:space:]]*"\([^"]*\)".*/\1 \2/' |
			while read -r _line _inc; do
				[ "$_inc" = config.h ] && continue
				_pass=
				for _p in $_ok; do
					case $_inc in "$_p"*) _pass=1 ;; esac
				done
				[ -n "$_pass" ] || echo "$_f:$_line: includes $_inc"
			done)
		if [ -n "$_out" ]; then
			echo "$_out"
			_bad=1
		fi
	done
	return $_bad
}

if out=$(check_tree "$top_srcdir"); then
	log "every include of the product sources points down the layers"
else
	fail "upward or sideways includes:"
	echo "$out" >&2
fi

# The check must be able to fail: a util header that includes the format, and a codec that
# includes a tool's header.
make_scratch
mkdir -p "$SCRATCH/tree"
(cd "$top_srcdir" && tar cf - common codecs mksquashfs unsquashfs) | (cd "$SCRATCH/tree" && tar xf -)
printf '#include "common/format.h"\n' >>"$SCRATCH/tree/common/util/endian.h"
if out=$(check_tree "$SCRATCH/tree"); then
	fail "a planted upward include (common/util -> common/format.h) was not caught"
else
	case $out in
	*"common/util/endian.h:"*"includes common/format.h"*) log "planted include caught: $out" ;;
	*) fail "the planted include was not the one reported: $out" ;;
	esac
fi
printf '#include "mksquashfs/tree.h"\n' >>"$SCRATCH/tree/codecs/gzip.c"
sed -i '$d' "$SCRATCH/tree/common/util/endian.h"
check_tree "$SCRATCH/tree" >/dev/null && fail "a planted codecs -> mksquashfs include was not caught"
finish
