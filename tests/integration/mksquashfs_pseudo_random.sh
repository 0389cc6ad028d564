# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mksquashfs_pseudo_random.sh — random sets of pseudo definitions over a small source, through
# our mksquashfs and the reference 4.5.1: when both build an image, the reference unsquashfs
# must list both the same (names, types, modes, owners, times, sizes, rdev, link targets);
# when only ours refuses, the reason must be one of the rules we enforce where 4.5.1 only
# warns (a name defined twice, a non-directory with entries below it). Deterministic seeds.
. "$top_srcdir/tests/lib/common.sh"

need_tools "$MKSQUASHFS" "$REF_MKSQUASHFS" "$REF_UNSQUASHFS"
make_scratch
S=$SCRATCH
ROUNDS=${PSEUDO_RANDOM_ROUNDS:-100}

cd "$S" || die "cannot enter $S"
mkdir -p src/a/b src/c && echo 1 >src/a/f && echo 2 >src/a/b/g && ln -s f src/a/s &&
	mkfifo src/c/p && ln src/a/f src/c/hl || die "cannot make the source"
touch -h -d @1500000000 src src/a src/a/b src/c src/a/f src/a/b/g src/c/p src/a/s
SOURCE_DATE_EPOCH=1600000000
export SOURCE_DATE_EPOCH

# defs SEED: one set of definitions, one per line. Names below x and y only once x or y is a
# defined directory; an L only to an earlier non-directory, non-modify definition; no M over a
# name with definitions below it (4.5.1 ignores those, see the man page).
defs() {
	awk -v seed="$1" 'BEGIN {
		srand(seed)
		split("a c x y z a/b a/f a/s a/x c/p c/hl x/q y/w a/b/g a/b/n", names, " ")
		split("d c b i s f m D C M S F l L I B", types, " ")
		split("755 600 4711 0", modes, " "); split("0 1 root", uids, " "); split("0 5", gids, " ")
		split("a/f a/b/g a/s c/p", hosts, " ")
		n = 1 + int(rand() * 6)
		for (k = 0; k < n; k++) {
			nm = names[1 + int(rand() * 15)]; t = types[1 + int(rand() * 16)]
			if (nm in seen) continue
			if ((nm ~ /^x\// && !("x" in dirs)) || (nm ~ /^y\// && !("y" in dirs))) continue
			below = 0
			for (s in seen) if (index(s, nm "/") == 1) below = 1
			if ((nm == "x" || nm == "y") && below) continue
			if (t == "M" && below) continue
			m = modes[1 + int(rand() * 4)]; u = uids[1 + int(rand() * 3)]; g = gids[1 + int(rand() * 2)]
			tm = int(rand() * 2000000000)
			if (t == "d") d = nm " d " m " " u " " g
			else if (t == "D") d = nm " D " tm " " m " " u " " g
			else if (t == "c" || t == "b") d = nm " " t " " m " " u " " g " " int(rand() * 300) " " int(rand() * 300)
			else if (t == "C" || t == "B") d = nm " " t " " tm " " m " " u " " g " 1 2"
			else if (t == "i") d = nm " i " m " " u " " g " " (rand() < 0.5 ? "s" : "f")
			else if (t == "I") d = nm " I " tm " " m " " u " " g " f"
			else if (t == "s") d = nm " s " m " " u " " g " tgt" int(rand() * 9)
			else if (t == "S") d = nm " S " tm " " m " " u " " g " tgt"
			else if (t == "f") d = nm " f " m " " u " " g " echo " int(rand() * 99)
			else if (t == "F") d = nm " F " tm " " m " " u " " g " seq 1 " int(1 + rand() * 5000)
			else if (t == "m") d = nm " m " m " " u " " g
			else if (t == "M") d = nm " M " tm " " m " " u " " g
			else if (t == "l") d = nm " l src/" hosts[1 + int(rand() * 4)]
			else {
				c = 0
				for (s in seen) if (!(s in dirs) && !(s in mods)) cand[++c] = s
				if (c == 0) continue
				d = nm " L " cand[1 + int(rand() * c)]
			}
			seen[nm] = 1
			if (t == "d" || t == "D") dirs[nm] = 1
			if (t == "m" || t == "M") mods[nm] = 1
			print d
		}
	}'
}

# run TOOL IMG DEFS-FILE: build; 0 when an image was made.
run() {
	rm -f "$2"
	set -- "$1" "$2" "$3"
	_tool=$1 _img=$2 _file=$3
	set --
	while IFS= read -r _d; do
		set -- "$@" -p "$_d"
	done <"$_file"
	"$_tool" src "$_img" -noappend -no-progress -quiet "$@" >"$_img.log" 2>&1 </dev/null
}

same=0 ours_only=0 both_refused=0
round=1
while [ $round -le $ROUNDS ]; do
	defs $round >defs.txt
	run "$REF_MKSQUASHFS" ref.img defs.txt
	ref=$?
	run "$MKSQUASHFS" ours.img defs.txt
	ours=$?
	if [ $ref -eq 0 ] && [ $ours -eq 0 ]; then
		"$REF_UNSQUASHFS" -lln ref.img 2>/dev/null | grep squashfs-root >ref.lst
		"$REF_UNSQUASHFS" -lln ours.img 2>/dev/null | grep squashfs-root >ours.lst
		if cmp -s ref.lst ours.lst; then
			same=$((same + 1))
		else
			fail "seed $round: listings differ for: $(tr '\n' ';' <defs.txt)"
			diff ref.lst ours.lst | head -n 10 >&2
		fi
	elif [ $ours -ne 0 ] && [ $ref -ne 0 ]; then
		both_refused=$((both_refused + 1))
	elif [ $ours -ne 0 ]; then
		if grep -qE 'is defined twice|not a directory|defines entries below it|cannot be hard-linked' ours.img.log; then
			ours_only=$((ours_only + 1))
		else
			fail "seed $round: only ours refused: $(cat ours.img.log) for: $(tr '\n' ';' <defs.txt)"
		fi
	else
		# 4.5.1 refuses an L to a definition it ignored; nothing else is expected here.
		grep -q "LINK file" ref.img.log ||
			fail "seed $round: only the reference refused: $(head -n 1 ref.img.log) for: $(tr '\n' ';' <defs.txt)"
	fi
	round=$((round + 1))
done
log "$ROUNDS sets: $same listed the same, $ours_only refused by our stricter rules only, $both_refused refused by both"
finish
