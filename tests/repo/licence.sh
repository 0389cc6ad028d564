#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# licence.sh — every source, script, build and test file carries the SPDX licence line and a
# copyright line in its first lines; a planted file without them proves the check can fail.
. "$top_srcdir/tests/lib/common.sh"

# check_tree DIR: list the files lacking either line; status 1 when any.
check_tree() {
	_bad=0
	for _f in $(cd "$1" && find . -type d \( -name 'build*' -o -name autom4te.cache -o -name m4 -o \
		-name .git -o -name '_build' -o -name '_inst' -o -name tmp \) -prune -o -type f \
		\( -name '*.[ch]' -o -name '*.sh' -o -name '*.am' -o -name configure.ac -o \
		-name '*.[1-8]' -o -path ./.ci/run -o -path './completion/*' \) -print | sort); do
		if ! head -n 4 "$1/$_f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later' ||
			! head -n 4 "$1/$_f" | grep -q 'Copyright (C) [0-9]'; then
			echo "${_f#./}"
			_bad=1
		fi
	done
	return $_bad
}

if out=$(check_tree "$top_srcdir"); then
	log "every source, script, build and test file has its licence and copyright lines"
else
	fail "files without the SPDX licence line or a copyright line:"
	echo "$out" >&2
fi
[ -f "$top_srcdir/COPYING" ] && grep -q 'GNU GENERAL PUBLIC LICENSE' "$top_srcdir/COPYING" &&
	grep -q 'Version 2, June 1991' "$top_srcdir/COPYING" || fail "COPYING is not the GPL version 2 text"

make_scratch
mkdir -p "$SCRATCH/t/common"
printf '/* x.c — no licence line */\nint x;\n' >"$SCRATCH/t/common/x.c"
if out=$(check_tree "$SCRATCH/t"); then
	fail "a planted file without a licence line was not caught"
else
	[ "$out" = common/x.c ] || fail "the planted file was not the one reported: $out"
fi
finish
