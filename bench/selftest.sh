#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# Checks that bench/compare.sh measures, that it reports (never times) failed or wrong runs, and
# that its tables are bench/rawtable.sh's of its raw file.
#
# Runs on a tiny generated tree with the reference tools standing in for ours, then with
# stand-ins that fail or extract a wrong tree, back to back (--runs) and in rounds (--rounds);
# rawtable.sh also gets hand-made raw files with known results. Needs squashfs-tools and
# /usr/bin/time. SELFTEST_KERNEL_READ=1 (root) adds a --kernel-read run: it drops the page
# cache of the whole machine, so it is off by default.
set -u
export LC_ALL=C
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
compare=$srcdir/bench/compare.sh
ref_mk=${REF_MKSQUASHFS:-/usr/bin/mksquashfs}
ref_un=${REF_UNSQUASHFS:-/usr/bin/unsquashfs}
for t in "$ref_mk" "$ref_un" /usr/bin/time; do
	[ -x "$t" ] || { echo "selftest.sh: $t not installed, skipping" >&2; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-selftest.XXXXXX") || exit 1
trap '[ -n "${SELFTEST_KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
passes=0
skips=0
check() { # description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then echo "ok - $what"; passes=$((passes + 1)); else echo "not ok - $what"; fails=$((fails + 1)); fi
}
skip() { echo "ok - $1 # SKIP $2"; skips=$((skips + 1)); }
rawtable=$srcdir/bench/rawtable.sh
# The tables of a compare.sh output (from the first table title on) against rawtable.sh's
# tables of the raw file the same run wrote.
same_tables() { # name
	sed -n '/^mksquashfs `/,$p' "$tmp/$1.md" > "$tmp/$1.tables" &&
		"$rawtable" "$tmp/$1.tsv" > "$tmp/$1.rawtable" 2>&1 &&
		[ -s "$tmp/$1.tables" ] && cmp -s "$tmp/$1.tables" "$tmp/$1.rawtable"
}
# The runs in the order the raw file has them, one "config/pP#run" per line, repeats merged.
run_order() { awk -F '\t' 'NR > 1 { print $1 "/p" $2 "#" $4 }' "$tmp/$1.tsv" | uniq | tr '\n' ' '; }
# Which tool's mksquashfs came first in each run, "run:step" per run.
first_mk() { awk -F '\t' '$3 ~ /^mk\./ && !seen[$1 $2 $4]++ { print $4 ":" $3 }' "$tmp/$1.tsv" | tr '\n' ' '; }

tree=$tmp/tree
mkdir -p "$tree/a/b" "$tree/c"
for i in $(seq 1 40); do
	seq "$i" 3000 > "$tree/a/file$i.txt"
done
head -c 200000 /dev/urandom > "$tree/a/b/random.bin"
ln -s ../a/file1.txt "$tree/c/link"
ln "$tree/a/file2.txt" "$tree/c/hardlink"
: > "$tree/c/empty"
chmod 600 "$tree/a/file3.txt"

# Stand-ins: a mksquashfs that cannot do lz4, an unsquashfs that loses a file.
cat > "$tmp/mk-nolz4" <<EOF
#!/bin/bash
case " \$* " in *" lz4 "*) echo "stand-in: lz4 not supported" >&2; exit 3 ;; esac
exec "$ref_mk" "\$@"
EOF
cat > "$tmp/un-lossy" <<EOF
#!/bin/bash
"$ref_un" "\$@" || exit
prev=
for a; do [ "\$prev" = -d ] && rm -f "\$a/a/file7.txt"; prev=\$a; done
exit 0
EOF
chmod +x "$tmp/mk-nolz4" "$tmp/un-lossy"

run() { # name, env assignments..., -- compare args...
	local name=$1
	shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" "$compare" "$tree" --workdir "$tmp" --raw "$tmp/$name.tsv" "$@" \
		> "$tmp/$name.md" 2> "$tmp/$name.err"
	echo $? > "$tmp/$name.rc"
}

run same OURS_MKSQUASHFS="$ref_mk" OURS_UNSQUASHFS="$ref_un" -- --only gzip/p1,lz4/p2 --runs 2
check "reference against itself exits 0" grep -qx 0 "$tmp/same.rc"
check "both configurations have a row in both tables, with 2 runs" \
	bash -c "grep -c '^| gzip | 1 | 2 |' '$tmp/same.md' | grep -qx 2 && grep -c '^| lz4 | 2 | 2 |' '$tmp/same.md' | grep -qx 2"
check "identical tools give image ratio 1.000" grep -q '^| gzip | 1 | 2 | .*| \*\*1\.000\*\* |$' "$tmp/same.md"
check "no failure reported" bash -c "! grep -q FAIL '$tmp/same.md'"
# 2 configurations x 2 runs x (2 mksquashfs + 4 unsquashfs), all with exit 0 and a time.
check "every measurement recorded" \
	bash -c "[ \$(awk -F '\t' 'NR > 1 && \$5 == 0 && \$6 > 0 && \$10 == \"-\"' '$tmp/same.tsv' | wc -l) -eq 24 ]"
check "image sizes recorded and equal" \
	bash -c "awk -F '\t' '\$3 ~ /^mk/ { print \$9 }' '$tmp/same.tsv' | sort -u | wc -l | grep -qx 2"
check "the unsquashfs table has the cross-image columns" grep -q \
	'^| compressor | -processors | runs | our image: s (ours / ref) | ratio | ref image: s (ours / ref) | ratio | own image: s (ours / ref) | ratio |' "$tmp/same.md"
check "each image extracted by both tools has a ratio" \
	grep -Eq '^\| gzip \| 1 \| 2 \|( [0-9.]+ / [0-9.]+ \| \*\*[0-9.]+\*\* \|){3}' "$tmp/same.md"
check "no kernel read table without --kernel-read" bash -c "! grep -q '^kernel read' '$tmp/same.md'"
check "compare.sh's tables are rawtable.sh's of its raw file" same_tables same
check "--runs: a configuration's runs back to back" \
	test "$(run_order same)" = "gzip/p1#1 gzip/p1#2 lz4/p2#1 lz4/p2#2 "
check "--runs: ours and the reference take turns going first" \
	test "$(first_mk same)" = "1:mk.ours 2:mk.ref 1:mk.ours 2:mk.ref "

run rounds OURS_MKSQUASHFS="$ref_mk" OURS_UNSQUASHFS="$ref_un" -- --only gzip/p1,lz4/p2 --rounds 2
check "--rounds: exits 0" grep -qx 0 "$tmp/rounds.rc"
check "--rounds: every configuration once per round" \
	test "$(run_order rounds)" = "gzip/p1#1 lz4/p2#1 gzip/p1#2 lz4/p2#2 "
check "--rounds: every step recorded once per round" \
	bash -c "[ \$(awk -F '\t' 'NR > 1 && \$5 == 0' '$tmp/rounds.tsv' | wc -l) -eq 24 ]"
check "--rounds: ours and the reference take turns going first" \
	test "$(first_mk rounds)" = "1:mk.ours 1:mk.ours 2:mk.ref 2:mk.ref "
check "--rounds: the table counts 2 runs and says so" \
	bash -c "grep -c '^| lz4 | 2 | 2 |' '$tmp/rounds.md' | grep -qx 2 && grep -q 'one per round over all configurations' '$tmp/rounds.md'"
check "--rounds: compare.sh's tables are rawtable.sh's" same_tables rounds
run both OURS_MKSQUASHFS="$ref_mk" OURS_UNSQUASHFS="$ref_un" -- --quick --runs 2 --rounds 2
check "--runs and --rounds together are refused" \
	bash -c "grep -qx 2 '$tmp/both.rc' && grep -q 'choose one' '$tmp/both.err'"

run broken OURS_MKSQUASHFS="$tmp/mk-nolz4" OURS_UNSQUASHFS="$tmp/un-lossy" -- --only gzip/p1,lz4/p1
check "failures make compare.sh exit 1" grep -qx 1 "$tmp/broken.rc"
check "a failing mksquashfs is reported with its exit code" grep -q '^| lz4 | 1 | 3 | FAIL (exit 3) / ' "$tmp/broken.md"
check "its stderr is shown" grep -q 'stand-in: lz4 not supported' "$tmp/broken.err"
check "a wrong extraction is caught" grep -q '^| gzip | 1 | 3 | FAIL (wrong output) / ' "$tmp/broken.md"
check "the missing file is named" grep -q 'file7.txt' "$tmp/broken.err"
check "the reference still gets its figures" grep -Eq '^\| gzip \| 1 \| 3 \| [0-9.]+ / [0-9.]+ \|' "$tmp/broken.md"
check "an image that was not made is not extracted" \
	grep -q '^| lz4 | 1 | 3 | FAIL (no image) / FAIL (no image) | — | FAIL (wrong output) / [0-9.]* | — |' "$tmp/broken.md"
check "a step that did not run is a row of the raw file" \
	bash -c "[ \$(awk -F '\t' '\$1 == \"lz4\" && \$3 ~ /@ours\$/ && \$5 == 125 && \$10 == \"no image\"' '$tmp/broken.tsv' | wc -l) -eq 6 ]"
check "the failures are listed under the tables" \
	grep -qx 'Failures: gzip|1|un.ours@ours: wrong output; gzip|1|un.ours@ref: wrong output; lz4|1|mk.ours: exit 3; lz4|1|un.ours@ours: no image; lz4|1|un.ours@ref: wrong output; lz4|1|un.ref@ours: no image' "$tmp/broken.md"
check "failed runs: compare.sh's tables are rawtable.sh's" same_tables broken

# rawtable.sh: one table from several raw files (best of every run in them)
"$rawtable" "$tmp/same.tsv" "$tmp/broken.tsv" > "$tmp/raw.md" 2> "$tmp/raw.err"
check "rawtable.sh reads compare.sh's raw files (2 + 3 runs)" grep -q '^| gzip | 1 | 5 | ' "$tmp/raw.md"
check "rawtable.sh counts the runs of each configuration" grep -q '^| lz4 | 2 | 2 | ' "$tmp/raw.md"
check "rawtable.sh shows a failed step as FAIL" grep -q '^| lz4 | 1 | 3 | FAIL (exit 3) / ' "$tmp/raw.md"
check "rawtable.sh: identical tools give image ratio 1.000" grep -q '^| lz4 | 2 | .*| \*\*1\.000\*\* |$' "$tmp/raw.md"
check "rawtable.sh refuses a file that is not a raw file" \
	bash -c "! '$rawtable' '$tmp/same.md' 2> '$tmp/raw2.err' && grep -q 'not a compare.sh --raw file' '$tmp/raw2.err'"
# Raw files of 9 columns (before the reason column): failures show their exit code.
cut -f 1-9 "$tmp/same.tsv" > "$tmp/old-same.tsv"
cut -f 1-9 "$tmp/broken.tsv" > "$tmp/old-broken.tsv"
check "rawtable.sh reads a 9-column raw file as the 10-column one" \
	bash -c "'$rawtable' '$tmp/old-same.tsv' | cmp -s - '$tmp/same.rawtable'"
check "rawtable.sh: a 9-column file's failures show their exit code" \
	bash -c "'$rawtable' '$tmp/old-broken.tsv' | grep -q '^| gzip | 1 | 3 | FAIL (exit 126) / '"

# A hand-made raw file with known results: best wall and CPU, highest RSS, number formats,
# ratios, the kernel read table and a failed mount.
{
	printf 'config\tprocessors\tstep\trun\trc\tseconds\tcpu_seconds\tmax_rss_kb\tbytes\treason\n'
	printf 'zstd-3\t2\t%s\t1\t0\t%s\t%s\t%s\t%s\t-\n' mk.ours 1.500 2.00 30720 1000000 mk.ref 24.000 45.00 20480 2000000 \
		un.ours@ours 0.200 0.30 4096 0 un.ref@ours 0.400 0.60 8192 0 \
		un.ours@ref 0.300 0.30 4096 0 un.ref@ref 0.600 0.60 8192 0 kr.ref 0.500 0.25 1024 0
	printf 'zstd-3\t2\t%s\t2\t0\t%s\t%s\t%s\t%s\t-\n' mk.ours 1.000 2.50 10240 1000000 mk.ref 25.000 40.00 20480 2000000
	printf 'zstd-3\t2\tkr.ours\t1\t125\t0\t0\t0\t0\tmount failed\n'
} > "$tmp/known.tsv"
"$rawtable" "$tmp/known.tsv" > "$tmp/known.md" 2>&1
check "rawtable.sh: best times, highest RSS, formats and ratios" grep -qx \
	'| zstd-3 | 2 | 2 | 1.00 / 24.0 | \*\*0.04\*\* | 2.00 / 40.0 | \*\*0.05\*\* | 30 / 20 | \*\*1.50\*\* | 1.00 / 2.00 | \*\*0.500\*\* |' "$tmp/known.md"
check "rawtable.sh: both images by both tools" grep -qx \
	'| zstd-3 | 2 | 1 | 0.20 / 0.40 | \*\*0.50\*\* | 0.30 / 0.60 | \*\*0.50\*\* | 0.20 / 0.60 | \*\*0.33\*\* | 0.30 / 0.60 | \*\*0.50\*\* | 4 / 8 | \*\*0.50\*\* |' "$tmp/known.md"
check "rawtable.sh: a failed mount in the kernel read table" grep -qx \
	'| zstd-3 | 2 | 1 | FAIL (mount failed) / 0.50 | — | FAIL (mount failed) / 0.25 | — |' "$tmp/known.md"
check "rawtable.sh: geometric mean of the ratios" grep -qx \
	'| geometric mean | | | | 0.04 | | 0.05 | | 1.50 | | 0.500 |' "$tmp/known.md"
check "rawtable.sh: the failure listed" grep -qx 'Failures: zstd-3|2|kr.ours: mount failed' "$tmp/known.md"

# --kernel-read for real: ours writes a corrupt image, so the kernel cannot mount it.
if [ "${SELFTEST_KERNEL_READ:-0}" != 1 ]; then
	skip "--kernel-read run" "set SELFTEST_KERNEL_READ=1 (root; drops the page cache)"
elif [ "$(id -u)" -ne 0 ]; then
	skip "--kernel-read run" "not root"
else
	cat > "$tmp/mk-corrupt" <<-EOF
	#!/bin/bash
	"$ref_mk" "\$@" || exit
	dd if=/dev/zero of="\$2" bs=1 count=64 conv=notrunc status=none
	EOF
	chmod +x "$tmp/mk-corrupt"
	run kread OURS_MKSQUASHFS="$tmp/mk-corrupt" OURS_UNSQUASHFS="$ref_un" -- --only gzip/p1 --runs 1 --kernel-read
	check "--kernel-read: the kernel reads the good image" \
		grep -Eq '^\| gzip \| 1 \| 1 \| FAIL \(mount failed\) / [0-9.]+ \| — \|' "$tmp/kread.md"
	check "--kernel-read: compare.sh's tables are rawtable.sh's" same_tables kread
fi

run missing OURS_MKSQUASHFS="$tmp/does-not-exist" OURS_UNSQUASHFS="$ref_un" -- --quick
check "a missing tool is refused up front" bash -c "grep -qx 2 '$tmp/missing.rc' && grep -q 'does-not-exist' '$tmp/missing.err'"

echo "$passes passed, $fails failed, $skips skipped"
[ "$fails" -eq 0 ]
