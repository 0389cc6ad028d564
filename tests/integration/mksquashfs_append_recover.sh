# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_append_recover.sh — an interrupted mksquashfs never leaves a broken image.
#
# SIGKILL at random points of an append, then -recover: the original image byte for byte, and it
# mounts. SIGINT/SIGTERM/SIGHUP during an append: the original image, put back by mksquashfs
# itself (also with the signal sent twice). The same signals during a fresh build: no image
# left, a non-zero exit. Recovery files cross over: the reference restores from ours and we
# from the reference's. -recover refuses a file that is not one, or that belongs to another image.
. "$top_srcdir/tests/lib/common.sh"

need_root
need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$REF_UNSQUASHFS" "$GENTREE" "$TREECMP"
make_scratch
S=$SCRATCH
# A script's background job starts with SIGINT ignored, which mksquashfs respects: give it back
# the default so the signal reaches it as from a terminal.
env --default-signal=INT true 2>/dev/null || skip "env has no --default-signal"
SIGDFL="env --default-signal=INT,TERM,HUP"
make_tree base --small --seed 41
rm "$S/base/hardlinks/b/symlink-link"
# Sources that take a second or two to compress on one processor: long runs of numbers.
mkdir "$S/big" "$S/rec" || die "cannot make directories"
for i in 1 2 3 4 5 6; do
	seq $((i * 1000000)) $((i * 1000000 + 350000)) >"$S/big/n$i" || die "cannot make $S/big/n$i"
done
"$MKSQUASHFS" "$S/base" "$S/orig.img" -noappend -no-progress >"$S/mk.log" 2>&1 ||
	die "mksquashfs of the base failed: $(tail -n 2 "$S/mk.log")"
osize=$(file_size "$S/orig.img")

# start_append: an append of $S/big to a fresh copy of the original in the background ($pid).
start_append() {
	cp "$S/orig.img" "$S/img" || die "cannot copy the image"
	rm -f "$S/rec/"*
	$SIGDFL "$MKSQUASHFS" "$S/big" "$S/img" -processors 1 -no-progress -quiet \
		-recovery-path "$S/rec" >"$S/mk.log" 2>&1 &
	pid=$!
}

# pause SECONDS (fractions allowed; sleep takes them on the systems we run on).
pause() {
	sleep "$1"
}

# rand I MAX: a reproducible pseudo-random delay in [0, MAX) for try I.
rand() {
	awk -v s="$1" -v m="$2" 'BEGIN { srand(s * 7919 + 13); printf "%.3f", rand() * m }'
}

# is_original LABEL: the image is the original byte for byte (length included) and mounts.
is_original() {
	if ! cmp -s "$S/orig.img" "$S/img"; then
		fail "$1: the image is not the original ($(cmp "$S/orig.img" "$S/img" 2>&1 | head -n 1); $(file_size "$S/img") bytes, $osize expected)"
		return 1
	fi
	if mount_ro "$S/img" "$S/mnt"; then
		compare "$1: mounted" "$S/base" "$S/mnt"
		umount_dir "$S/mnt"
	fi
}

# is_appended LABEL: the image is the whole append: it mounts with the old and the new files.
is_appended() {
	if mount_ro "$S/img" "$S/mnt"; then
		for _f in "$S/big/"*; do
			cmp -s "$_f" "$S/mnt/${_f##*/}" || fail "$1: ${_f##*/} differs"
		done
		compare "$1: old files" "$S/base/files" "$S/mnt/files"
		umount_dir "$S/mnt"
	fi
}

# How long a whole append takes here, to spread the kills over it.
t0=$(date +%s.%N)
start_append
wait $pid || die "a plain append failed: $(tail -n 2 "$S/mk.log")"
t1=$(date +%s.%N)
span=$(awk -v a="$t0" -v b="$t1" 'BEGIN { d = (b - a) * 1.05; printf "%.3f", d < 0.5 ? 0.5 : d }')
log "one append takes about $span s"
is_appended "plain append"

# SIGKILL at 20 points (up to 60 tries: a try whose append finished first does not count, and
# shortens the span the delays are drawn from).
kills=0 tries=0 recovered=0 untouched=0 finished=0
while [ $kills -lt 20 ] && [ $tries -lt 60 ]; do
	tries=$((tries + 1))
	delay=$(rand $tries "$span")
	start_append
	pause "$delay"
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	if [ $rc -eq 0 ]; then
		log "SIGKILL at $delay s: the append had finished"
		span=$(awk -v d="$span" 'BEGIN { printf "%.3f", d * 0.85 }')
		continue
	fi
	kills=$((kills + 1))
	rfile=$(ls "$S/rec/" | grep '^squashfs_recovery_' | head -n 1)
	if [ -n "$rfile" ]; then
		if "$MKSQUASHFS" dummy "$S/img" -recover "$S/rec/$rfile" >"$S/rc.log" 2>&1; then
			recovered=$((recovered + 1))
			is_original "SIGKILL at $delay s, then -recover"
		else
			fail "SIGKILL at $delay s: -recover failed: $(tail -n 1 "$S/rc.log")"
		fi
	elif cmp -s "$S/orig.img" "$S/img"; then
		untouched=$((untouched + 1))
		is_original "SIGKILL at $delay s, before the recovery file"
	else
		# Killed after the append was complete and its recovery file gone (on its way out).
		finished=$((finished + 1))
		is_appended "SIGKILL at $delay s, after the recovery file was removed"
	fi
done
log "SIGKILL: $kills kills in $tries tries; $recovered restored with -recover, $untouched before any change, $finished after the end"
[ $kills -ge 20 ] || fail "only $kills of $tries tries killed the append"
[ $recovered -ge 5 ] || fail "only $recovered kills came after the recovery file was written"

# SIGINT/SIGTERM/SIGHUP during an append: mksquashfs puts the image back itself.
i=0 hits=0
for sig in INT TERM HUP INT TERM INT; do
	i=$((i + 1))
	delay=$(rand $((100 + i)) "$span")
	start_append
	pause "$delay"
	kill -$sig $pid 2>/dev/null
	wait $pid
	rc=$?
	[ $rc -ne 0 ] || { log "SIG$sig at $delay s: the append had finished"; continue; }
	hits=$((hits + 1))
	is_original "SIG$sig at $delay s during an append (exit $rc)"
	[ -z "$(ls -A "$S/rec")" ] || fail "SIG$sig at $delay s: recovery file left: $(ls "$S/rec")"
done
# Twice, close together: the second signal waits for the first clean-up.
start_append
pause "$(awk -v m="$span" 'BEGIN { printf "%.3f", m / 2 }')"
kill -INT $pid 2>/dev/null
kill -INT $pid 2>/dev/null
pause 0.05
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -ne 0 ] && is_original "SIGINT twice and SIGTERM during an append (exit $rc)"

log "SIGINT/SIGTERM/SIGHUP: $hits of $i appends interrupted, each put back"
[ $hits -ge 3 ] || fail "only $hits of $i signals came before the append finished"

# The same signals during a fresh build: no image left, a non-zero exit.
i=0 hits=0
for sig in INT TERM HUP INT TERM INT TERM INT; do
	i=$((i + 1))
	delay=$(rand $((200 + i)) "$span")
	rm -f "$S/new.img"
	$SIGDFL "$MKSQUASHFS" "$S/big" "$S/new.img" -processors 1 -no-progress -quiet \
		>"$S/mk.log" 2>&1 &
	pid=$!
	pause "$delay"
	kill -$sig $pid 2>/dev/null
	wait $pid
	rc=$?
	if [ $rc -eq 0 ]; then
		log "SIG$sig at $delay s: the build had finished"
		continue
	fi
	hits=$((hits + 1))
	[ -e "$S/new.img" ] && fail "SIG$sig at $delay s during a fresh build: $S/new.img left ($(file_size "$S/new.img") bytes)"
	[ $rc -gt 128 ] || fail "SIG$sig at $delay s during a fresh build: exit status $rc"
done
log "SIGINT/SIGTERM/SIGHUP: $hits of $i fresh builds interrupted, no image left, exit > 128"
[ $hits -ge 3 ] || fail "only $hits of $i signals came before the fresh build finished"

# Our recovery file, restored by the reference: the original up to its bytes_used (the
# reference leaves the appended bytes behind it), and it mounts.
kill_after_recovery() {
	_tool=$1
	cp "$S/orig.img" "$S/img"
	rm -f "$S/rec/"*
	"$_tool" "$S/big" "$S/img" -processors 1 -no-progress -recovery-path "$S/rec" \
		>"$S/mk.log" 2>&1 &
	pid=$!
	for _w in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		[ -n "$(ls "$S/rec/" | grep '^squashfs_recovery_')" ] && break
		pause 0.1
	done
	pause 0.3
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	rfile=$S/rec/$(ls "$S/rec/" | grep '^squashfs_recovery_' | head -n 1)
}
kill_after_recovery "$MKSQUASHFS"
if [ -f "$rfile" ]; then
	"$REF_MKSQUASHFS" dummy "$S/img" -recover "$rfile" >"$S/rc.log" 2>&1 ||
		fail "the reference cannot recover from our recovery file: $(tail -n 1 "$S/rc.log")"
	used=$(od -An -t u8 -j 40 -N 8 --endian=little "$S/orig.img" | tr -d ' ')
	cmp -s -n "$used" "$S/orig.img" "$S/img" ||
		fail "reference -recover with our file: the first $used bytes differ"
	if mount_ro "$S/img" "$S/mnt"; then
		compare "reference -recover with our file: mounted" "$S/base" "$S/mnt"
		umount_dir "$S/mnt"
	fi
else
	fail "no recovery file to hand to the reference"
fi
kill_after_recovery "$REF_MKSQUASHFS"
if [ -f "$rfile" ]; then
	"$MKSQUASHFS" dummy "$S/img" -recover "$rfile" >"$S/rc.log" 2>&1 ||
		fail "-recover from the reference's recovery file failed: $(tail -n 1 "$S/rc.log")"
	is_original "-recover from the reference's recovery file"
	cp "$rfile" "$S/ref-recovery"
else
	fail "the reference wrote no recovery file"
fi

# Refusals: the image is left as it is.
printf 'not a recovery file\n' >"$S/junk"
cp "$S/orig.img" "$S/img"
"$MKSQUASHFS" dummy "$S/img" -recover "$S/junk" >"$S/rc.log" 2>&1 &&
	fail "-recover accepted a file that is not a recovery file"
grep -q "not a squashfs recovery file" "$S/rc.log" ||
	fail "-recover with junk: unexpected message: $(tail -n 1 "$S/rc.log")"
"$MKSQUASHFS" "$S/big" "$S/other.img" -noappend -no-progress -quiet >/dev/null 2>&1 ||
	die "cannot make another image"
cp "$S/other.img" "$S/other-before.img"
if [ -f "$S/ref-recovery" ]; then
	"$MKSQUASHFS" dummy "$S/other.img" -recover "$S/ref-recovery" >"$S/rc.log" 2>&1 &&
		fail "-recover accepted the recovery file of another image"
	grep -q "does not match" "$S/rc.log" ||
		fail "-recover, another image: unexpected message: $(tail -n 1 "$S/rc.log")"
	cmp -s "$S/other.img" "$S/other-before.img" || fail "-recover changed another image"
fi
finish
