# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_pseudo_hostile.sh — bad and hostile pseudo definitions: a one-line error naming the
# pseudo file and line (or the -p definition) and what is wrong, exit 1, no image left behind;
# deep nesting and long lines handled; an f command that fails is an error, one that never ends
# is waited for and stopped with the run (bounded here by a signal). What the reference 4.5.1
# does with the same input is logged for the record.
. "$top_srcdir/tests/integration/sidebyside.sh"

mkdir "$S/src" "$S/src/dir" && printf 'x\n' >"$S/src/file" || die "cannot make $S/src"

# refuse LABEL NEEDLE SOURCE OPTIONS...: our mksquashfs must fail with exit 1, one line on
# stderr that matches NEEDLE (grep -E), and leave no image; the reference's verdict is logged.
refuse() {
	label=$1 needle=$2 source=$3
	shift 3
	rm -f "$S/o.img"
	"$MKSQUASHFS" "$source" "$S/o.img" "$@" -noappend -no-progress -quiet >"$S/out" 2>"$S/err" </dev/null
	rc=$?
	[ $rc -eq 1 ] || fail "$label: exit $rc, expected 1"
	# The command's own complaints (its standard error is ours) come before our one line.
	[ -n "${COMMAND_TALKS:-}" ] || [ "$(wc -l <"$S/err")" -eq 1 ] ||
		fail "$label: error is not one line: $(head -n 3 "$S/err")"
	tail -n 1 "$S/err" | grep -qE -- "$needle" ||
		fail "$label: message does not say '$needle': $(cat "$S/err")"
	[ -e "$S/o.img" ] && fail "$label: an image was left behind"
	rm -f "$S/o.img"
	"$REF_MKSQUASHFS" "$source" "$S/o.img" "$@" -noappend -no-progress -quiet >"$S/ref.out" 2>&1 </dev/null
	log "ok: $label: $(tail -n 1 "$S/err") [reference 4.5.1: exit $?]"
	rm -f "$S/o.img"
}
refuse "../ in a path" '"\.\." in the path' "$S/src" -p '../escape d 755 0 0'
refuse "../ inside a path" '"\.\."' "$S/src" -p 'dir/../../x f 644 0 0 true'
refuse "./ in a path" '"\."' "$S/src" -p './dot c 600 0 0 1 1'
refuse "unknown type" 'unknown type "q"' "$S/src" -p 'x q 755 0 0'
refuse "bad mode" 'bad mode "999"' "$S/src" -p 'x d 999 0 0'
refuse "mode out of range" 'bad mode "17777"' "$S/src" -p 'x d 17777 0 0'
refuse "unknown user" 'unknown user "no-such-user-xyz"' "$S/src" -p 'x d 755 no-such-user-xyz 0'
refuse "uid out of range" 'not a number below 2\^32' "$S/src" -p 'x d 755 4294967296 0'
refuse "missing fields" 'missing minor' "$S/src" -p 'x c 600 0 0 1'
refuse "trailing characters" 'unexpected trailing characters' "$S/src" -p 'x d 755 0 0 extra'
refuse "major out of range" 'bad major' "$S/src" -p 'x b 600 0 0 4096 1'
refuse "bad fifo kind" 's \(socket\) or f \(fifo\)' "$S/src" -p 'x i 600 0 0 q'
refuse "missing parent" '/nodir does not exist in the source' "$S/src" -p 'nodir/x c 600 0 0 1 1'
refuse "parent is a file in the source" '/file is not a directory in the source' "$S/src" \
	-p 'file/x c 600 0 0 1 1'
refuse "duplicate name" '/dup is defined twice \(first -p' "$S/src" -p 'dup d 755 0 0' -p 'dup c 600 0 0 1 1'
refuse "a directory made a file" '/d cannot be a file from a command: -p "d/x' "$S/src" \
	-p 'd/x c 600 0 0 1 1' -p 'd f 644 0 0 echo file'
refuse "a file made a directory" '/c is a character device .*not a directory' "$S/src" \
	-p 'c c 600 0 0 1 1' -p 'c/x d 755 0 0'
refuse "root not a directory" 'root / can only be a directory' - -p '/ c 600 0 0 1 1'
refuse "no root for source -" 'no pseudo definition of "/"' - -p 'x d 755 0 0'
refuse "L to nothing" 'L target "nothing" is not an earlier' "$S/src" -p 'x L nothing'
refuse "L to a directory" 'cannot be hard-linked' "$S/src" -p 'd d 755 0 0' -p 'x L d'
refuse "l to a directory" 'is a directory' "$S/src" -p "x l $S/src/dir"
refuse "l to nothing" 'cannot stat link target' "$S/src" -p "x l $S/nothing"
refuse "R outside a pseudo file" 'R definitions are only allowed in a pseudo file' - \
	-p '/ d 755 0 0' -p 'x R 0 644 0 0 1 0'
refuse "x without =" 'expected name=value' "$S/src" -p 'file x user.novalue'
refuse "x in an unknown namespace" 'user\.\*, trusted\.\* or security\.\*' "$S/src" -p 'file x system.a=b'
refuse "x on nothing" '/ghost does not exist, so no xattr' "$S/src" -p 'ghost x user.a=b'
refuse "bad date" 'bad time "not a date at all"' "$S/src" -p 'x D "not a date at all" 755 0 0'
refuse "f command fails" '/x: the command exited with status 3' "$S/src" -p 'x f 644 0 0 exit 3'
COMMAND_TALKS=yes
refuse "f command not found" 'status 127' "$S/src" -p 'x f 644 0 0 /no/such/command'
COMMAND_TALKS=
refuse "f command killed" 'killed by signal 9' "$S/src" -p 'x f 644 0 0 kill -9 $$'

# In a pseudo file: the error names the file and line.
printf '# header\ndir2 d 755 0 0\n\ndir2/a c 600 0 0 1 \\\n 1\ndir2/b z 1 2 3\n' >"$S/bad.pf"
refuse "-pf: error names file and line" "pseudo file $S/bad.pf line 6: unknown type" "$S/src" -pf "$S/bad.pf"
printf 'a R 0 644 0 0 10 0\n' >"$S/nodata.pf"
refuse "-pf: R without a data section" "line 1: R definition but no" - -pf "$S/nodata.pf" -pd 'd 755 0 0'
refuse "-pf: missing file" "cannot open pseudo file $S/none.pf" "$S/src" -pf "$S/none.pf"

# A 1 MiB line: as a comment it is skipped; as a name, a symlink target or a command it is
# refused with the line named (a name is at most 255 bytes, a target 65535, and a command
# longer than the kernel's 128 KiB argument limit cannot be run).
awk 'BEGIN { printf "#"; for (i = 0; i < 1048576; i++) printf "c"; printf "\n" }' >"$S/long.pf"
echo 'ok c 600 0 0 1 1' >>"$S/long.pf"
if build "$MKSQUASHFS" "$S/o.img" "$S/src" IMG -pf "$S/long.pf" && mount_at "$S/o.img" "$S/ours"; then
	[ -c "$S/ours/ok" ] || fail "1 MiB comment: the next definition is missing"
	umount_dir "$S/ours"
else
	fail "1 MiB comment line: $(tail -n 2 "$S/mk.log")"
fi
awk 'BEGIN { for (i = 0; i < 1048576; i++) printf "n"; printf " d 755 0 0\n" }' >"$S/long.pf"
refuse "1 MiB name" "line 1: a name in .* is 1048576 bytes long" "$S/src" -pf "$S/long.pf"
awk 'BEGIN { printf "s s 0 0 0 "; for (i = 0; i < 1048576; i++) printf "t"; printf "\n" }' >"$S/long.pf"
refuse "1 MiB symlink target" "line 1: symlink target is 1048576 bytes long" "$S/src" -pf "$S/long.pf"
awk 'BEGIN { printf "f f 644 0 0 echo "; for (i = 0; i < 1048576; i++) printf "e"; printf "\n" }' >"$S/long.pf"
refuse "1 MiB command" "line 1: /f: cannot run /bin/sh: Argument list too long" "$S/src" -pf "$S/long.pf"

# Definitions nested 1,000 deep: made like the reference makes them (it needs no -pd either).
awk 'BEGIN { print "/ d 755 0 0"; p = "a"; for (i = 0; i < 1000; i++) { print p " d 755 0 0"; p = p "/a" }
	print substr(p, 1, length(p) - 2) "/leaf f 644 0 0 echo bottom" }' >"$S/deep.pf"
SOURCE_DATE_EPOCH=1200000000 same "1,000 nested definitions" "" -- - IMG -pf "$S/deep.pf"
if ours "1,000 nested" - IMG -pf "$S/deep.pf"; then
	expect "1,000 deep: depth" 1001 "$(cd "$S/ours" && find . -name leaf | awk -F/ '{ print NF - 1 }')"
	umount_dir "$S/ours"
fi

# A name the source has: the definition is ignored with a warning, as the reference does (also
# a definition that would turn the source's directory into a file).
SOURCE_DATE_EPOCH=1200000000 same "definition over a source entry" "" -- "$S/src" IMG \
	-p 'dir f 644 0 0 echo not a directory' -p 'file c 600 0 0 1 1'
"$MKSQUASHFS" "$S/src" "$S/o.img" -noappend -no-progress -p 'dir f 644 0 0 echo x' 2>&1 |
	grep -q 'Pseudo file "/dir" .* exists in the source: ignored' ||
	fail "no warning for a definition over a source entry"

# An f command that never ends: we wait (as the reference does: it may be reading a device),
# and a signal stops the command, its children and the run, leaving no image. Bounded: -k
# kills us if the signal were ignored, and any leftover of the command is ended by its id.
marker="never-ends-$$"
rm -f "$S/o.img"
timeout --foreground -k 10 3 "$MKSQUASHFS" "$S/src" "$S/o.img" -noappend -no-progress \
	-p "x f 644 0 0 sleep 600; : $marker" >"$S/out" 2>"$S/err" </dev/null
rc=$?
[ $rc -eq 124 ] || fail "never-ending command: timeout exit $rc (137: we had to be killed)"
grep -q "interrupted by signal 15" "$S/err" || fail "never-ending command: $(cat "$S/err")"
[ -e "$S/o.img" ] && fail "never-ending command: an image was left behind"
sleep 1
left=$(pgrep -f "$marker")
if [ -n "$left" ]; then
	fail "never-ending command: still running after the run ended: $left"
	kill $left 2>/dev/null
fi
log "ok: never-ending command: $(cat "$S/err")"
finish
