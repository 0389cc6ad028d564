#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# bench/tarscale.sh — peak memory of one tar-input run (ours `sqfstar`/`mksquashfs -tar` or the
# reference's) on a stored archive: RssAnon and VmHWM sampled from /proc every 0.2 s, since
# the spill's temporary file is mapped and counts in VmHWM but not in anonymous memory.
# Not a test: it measures (doc/scaling.md). Make the archive with bench/tarmembers.py.
#
# Usage: bench/tarscale.sh LABEL ARCHIVE IMAGE -- COMMAND...
#   COMMAND reads the archive on standard input and writes IMAGE (kept, to compare), e.g.
#   bench/tarscale.sh ours a.tar /tmp/x.img -- mksquashfs - /tmp/x.img -tar -comp lz4 -mem 256M
# Prints one Markdown row: label | exit status | wall s | CPU s | peak RssAnon MiB | VmHWM MiB
# | image bytes.
set -uo pipefail
[ $# -ge 5 ] && [ "$4" = "--" ] || { sed -n '8,13p' "$0" >&2; exit 2; }
label=$1 archive=$2 image=$3
shift 4
rm -f "$image"
start=$(date +%s.%N)
/usr/bin/time -o "$image.time" -f '%U %S' "$@" < "$archive" > /dev/null 2>"$image.err" &
tpid=$!
# The command is time's only child.
pid=
while [ -z "$pid" ] && kill -0 "$tpid" 2>/dev/null; do
	pid=$(cat "/proc/$tpid/task/$tpid/children" 2>/dev/null)
	pid=${pid%% *}
done
anon=0 hwm=0
while [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; do
	# Both fields in kB; a process gone between the test and the read leaves them as they were.
	read -r a h < <(awk '/^RssAnon:/ { a = $2 } /^VmHWM:/ { h = $2 } END { print a + 0, h + 0 }' \
		"/proc/$pid/status" 2>/dev/null)
	[ "${a:-0}" -gt "$anon" ] && anon=$a
	[ "${h:-0}" -gt "$hwm" ] && hwm=$h
	sleep 0.2
done
wait "$tpid"
rc=$?
end=$(date +%s.%N)
read -r cu cs < <(tail -n 1 "$image.time")
size=$(stat -c %s "$image" 2>/dev/null || echo -)
printf '| %s | %s | %.0f | %.0f | %d | %d | %s |\n' "$label" "$rc" "$(echo "$end - $start" | bc)" \
	"$(echo "$cu + $cs" | bc)" $((anon / 1024)) $((hwm / 1024)) "$size"
[ "$rc" -eq 0 ] || tail -n 3 "$image.err" >&2
rm -f "$image.err" "$image.time"
