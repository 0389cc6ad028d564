#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# Checks that bench/compare.sh measures, and that it reports (never times) failed or wrong runs.
#
# Runs on a tiny generated tree with the reference tools standing in for ours, then with
# stand-ins that fail or extract a wrong tree. Needs squashfs-tools and /usr/bin/time.
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
trap 'rm -rf "$tmp"' EXIT
fails=0
passes=0
check() { # description, then a command that must succeed
	local what=$1
	shift
	if "$@"; then echo "ok - $what"; passes=$((passes + 1)); else echo "not ok - $what"; fails=$((fails + 1)); fi
}

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
check "both configurations have a row" \
	bash -c "grep -c '^| gzip | 1 |' '$tmp/same.md' | grep -qx 2 && grep -c '^| lz4 | 2 |' '$tmp/same.md' | grep -qx 2"
check "identical tools give image ratio 1.000" grep -q '^| gzip | 1 | .*| \*\*1\.000\*\* |$' "$tmp/same.md"
check "no failure reported" bash -c "! grep -q FAIL '$tmp/same.md'"
# 2 configurations x 2 runs x (2 mksquashfs + 4 unsquashfs), all with exit 0 and a time.
check "every measurement recorded" \
	bash -c "[ \$(awk -F '\t' 'NR > 1 && \$5 == 0 && \$6 > 0' '$tmp/same.tsv' | wc -l) -eq 24 ]"
check "image sizes recorded and equal" \
	bash -c "awk -F '\t' '\$3 ~ /^mk/ { print \$9 }' '$tmp/same.tsv' | sort -u | wc -l | grep -qx 2"

run broken OURS_MKSQUASHFS="$tmp/mk-nolz4" OURS_UNSQUASHFS="$tmp/un-lossy" -- --only gzip/p1,lz4/p1
check "failures make compare.sh exit 1" grep -qx 1 "$tmp/broken.rc"
check "a failing mksquashfs is reported with its exit code" grep -q 'FAIL (exit 3)' "$tmp/broken.md"
check "its stderr is shown" grep -q 'stand-in: lz4 not supported' "$tmp/broken.err"
check "a wrong extraction is caught" grep -q 'FAIL (wrong output)' "$tmp/broken.md"
check "the missing file is named" grep -q 'file7.txt' "$tmp/broken.err"
check "the reference still gets its figures" grep -q '^| gzip | 1 | [0-9.]* / [0-9.]* |' "$tmp/broken.md"
check "an image that was not made is not extracted" grep -q 'FAIL (no image)' "$tmp/broken.md"

# rawtable.sh: one table from several --raw files (best of every run in them)
rawtable=$srcdir/bench/rawtable.sh
"$rawtable" "$tmp/same.tsv" "$tmp/broken.tsv" > "$tmp/raw.md" 2> "$tmp/raw.err"
check "rawtable.sh reads compare.sh's raw files (2 + 3 runs)" grep -q '^| gzip | 1 | 5 | ' "$tmp/raw.md"
check "rawtable.sh counts the runs of each configuration" grep -q '^| lz4 | 2 | 2 | ' "$tmp/raw.md"
check "rawtable.sh shows a failed step as FAIL" grep -q '^| lz4 | 1 | .*FAIL' "$tmp/raw.md"
check "rawtable.sh: identical tools give image ratio 1.000" grep -q '^| lz4 | 2 | .*| \*\*1\.000\*\* |$' "$tmp/raw.md"
check "rawtable.sh refuses a file that is not a raw file" \
	bash -c "! '$rawtable' '$tmp/same.md' 2> '$tmp/raw2.err' && grep -q 'not a compare.sh --raw file' '$tmp/raw2.err'"

run missing OURS_MKSQUASHFS="$tmp/does-not-exist" OURS_UNSQUASHFS="$ref_un" -- --quick
check "a missing tool is refused up front" bash -c "grep -qx 2 '$tmp/missing.rc' && grep -q 'does-not-exist' '$tmp/missing.err'"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
