#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# rawtable.sh — the comparison tables from compare.sh raw files: compare.sh prints its own tables
# through this script, and several raw files (runs made apart, e.g. one configuration at a time
# between other jobs under a lock) give one table as if compare.sh had made every run.
#
# Usage: bench/rawtable.sh RAW...
# A cell is the best (lowest) wall and CPU time over every run of that configuration and step in
# the files given, peak RSS the highest, image size the last seen (the same every run); a step
# that failed in any run is "FAIL (reason)", the first reason seen. Ratios are ours / reference,
# the last row of each table their geometric mean. The kernel read table appears when the files
# hold kr.* steps.
#
# Raw file columns (tab-separated, one header line; compare.sh writes them):
#   config processors step run rc seconds cpu_seconds max_rss_kb bytes reason
# rc is the step's exit code, 0 when it succeeded; compare.sh also uses 125 for a step that
# could not run or wrote no image, 126 for an extraction that differs from the tree. reason is
# "-" on success, else what the table shows in FAIL (...). Files of 9 columns (compare.sh before
# the reason column) are read too: their failures show as "exit RC", and a step that did not run
# has no row there.
set -eu
usage() { echo "usage: rawtable.sh RAW..." >&2; exit 2; }
[ $# -ge 1 ] || usage
for f in "$@"; do
	[ -r "$f" ] || { echo "rawtable.sh: cannot read $f" >&2; exit 1; }
	head -n 1 "$f" | grep -q '^config	processors	step	run	rc	seconds' ||
		{ echo "rawtable.sh: $f is not a compare.sh --raw file" >&2; exit 1; }
done

LC_ALL=C awk -F '\t' '
FNR == 1 { next }
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	k = key SUBSEP $3
	runs[k]++
	if ($3 ~ /^kr\./) kernel_read = 1
	if ($5 != 0) {
		if (!(k in failed)) {
			failed[k] = (NF >= 10 && $10 != "" && $10 != "-") ? $10 : "exit " $5
			nfailed++
		}
		next
	}
	if (!(k in wall) || $6 < wall[k]) wall[k] = $6
	if (!(k in cpu) || $7 < cpu[k]) cpu[k] = $7
	if ($8 > rss[k]) rss[k] = $8
	if ($9 > 0) bytes[k] = $9
}
# The raw value of one cell (RSS in kB, size in bytes: the ratio does not care), "" if none.
function val(k, what) {
	if (k in failed) return ""
	if (what == "s") return (k in wall) ? wall[k] : ""
	if (what == "cpu") return (k in cpu) ? cpu[k] : ""
	if (what == "rss") return (k in rss) ? rss[k] : ""
	return (k in bytes) ? bytes[k] : ""
}
function cell(k, what,    v) {
	if (k in failed) return "FAIL (" failed[k] ")"
	v = val(k, what)
	if (v == "") return "n/a"
	if (what == "rss") return sprintf("%.0f", v / 1024)
	if (what == "size") return sprintf("%.2f", v / 1e6)
	return sprintf(v < 10 ? "%.2f" : "%.1f", v)
}
function ratiofmt(what) { return what == "size" ? "%.3f" : "%.2f" }
# "ours / ref | ratio" for column j of the table being built, the ratio kept for its mean
function pair(key, j,    a, b, q, s) {
	s = cell(key SUBSEP co[j], ck[j]) " / " cell(key SUBSEP cr[j], ck[j]) " | "
	a = val(key SUBSEP co[j], ck[j]); b = val(key SUBSEP cr[j], ck[j])
	if (a == "" || b == "" || a == 0 || b == 0) return s "—"
	q = a / b; logsum[j] += log(q); count[j]++
	return s "**" sprintf(ratiofmt(ck[j]), q) "**"
}
# Fewest runs of any step the table shows: the number of runs its best-of covers.
function minruns(key,    j, m, k) {
	m = -1
	for (j = 1; j <= ncol; j++) {
		k = key SUBSEP co[j]; if (m < 0 || runs[k] < m) m = runs[k]
		k = key SUBSEP cr[j]; if (m < 0 || runs[k] < m) m = runs[k]
	}
	return m + 0
}
# Adds a column pair to the next table: step o (ours) against step r, on one kind of value.
function col(o, r, what, title) { ncol++; co[ncol] = o; cr[ncol] = r; ck[ncol] = what; ct[ncol] = title }
# Prints the table of the columns added since the last one: a row per configuration, in the
# order first seen, then the geometric means.
function table(    i, j, kp, row) {
	split("", logsum); split("", count)
	row = "| compressor | -processors | runs |"
	for (j = 1; j <= ncol; j++) row = row " " ct[j] " | ratio |"
	print row
	row = "|---|---:|---:|"
	for (j = 1; j <= ncol; j++) row = row "---:|---:|"
	print row
	for (i = 1; i <= n; i++) {
		split(order[i], kp, SUBSEP)
		row = "| " kp[1] " | " kp[2] " | " minruns(order[i]) " |"
		for (j = 1; j <= ncol; j++) row = row " " pair(order[i], j) " |"
		print row
	}
	row = "| geometric mean | | |"
	for (j = 1; j <= ncol; j++)
		row = row " | " (count[j] ? sprintf(ratiofmt(ck[j]), exp(logsum[j] / count[j])) : "—") " |"
	print row
	ncol = 0
}
# "Failures: KEY: reason; ..." sorted by KEY as in C (an insertion sort: mawk has no asort).
function failures(    k, m, i, j, t, line, kp) {
	for (k in failed) { split(k, kp, SUBSEP); line[++m] = kp[1] "|" kp[2] "|" kp[3] ": " failed[k] }
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && line[j - 1] > line[j]; j--) { t = line[j]; line[j] = line[j - 1]; line[j - 1] = t }
	t = "Failures: " line[1]
	for (i = 2; i <= m; i++) t = t "; " line[i]
	print t
}
END {
	print "mksquashfs `TREE IMG -noappend -no-progress -comp ... -processors P`:"
	print ""
	col("mk.ours", "mk.ref", "s", "wall s (ours / ref)")
	col("mk.ours", "mk.ref", "cpu", "CPU s (ours / ref)")
	col("mk.ours", "mk.ref", "rss", "peak RSS MB (ours / ref)")
	col("mk.ours", "mk.ref", "size", "image MB (ours / ref)")
	table()
	print ""
	print "unsquashfs `-d DIR -no-progress -processors P IMG`: wall time of both tools on the same image, and each on its own:"
	print ""
	col("un.ours@ours", "un.ref@ours", "s", "our image: s (ours / ref)")
	col("un.ours@ref", "un.ref@ref", "s", "ref image: s (ours / ref)")
	col("un.ours@ours", "un.ref@ref", "s", "own image: s (ours / ref)")
	col("un.ours@ours", "un.ref@ref", "cpu", "own image: CPU s (ours / ref)")
	col("un.ours@ours", "un.ref@ref", "rss", "own image: peak RSS MB (ours / ref)")
	table()
	if (kernel_read) {
		print ""
		print "kernel read: each image loop-mounted read-only, page cache dropped, `tar -c` of the mount (wall and CPU of tar, which decompresses):"
		print ""
		col("kr.ours", "kr.ref", "s", "read s (our image / ref image)")
		col("kr.ours", "kr.ref", "cpu", "CPU s (our image / ref image)")
		table()
	}
	if (nfailed) { print ""; failures() }
}' "$@"
