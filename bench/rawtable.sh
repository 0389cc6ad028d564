#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# rawtable.sh — one best-of-N table from several compare.sh --raw files (runs made apart, e.g.
# one run per configuration between other jobs under a lock), as compare.sh would print it.
#
# Usage: bench/rawtable.sh RAW...
# A cell is the best (lowest) wall and CPU time over every run of that configuration and step in
# the files given, peak RSS the highest, image size the last seen (the same every run); a step
# that failed in any run is shown as FAIL. Ratios are ours / reference.
set -eu
usage() { echo "usage: rawtable.sh RAW..." >&2; exit 2; }
[ $# -ge 1 ] || usage
for f in "$@"; do
	[ -r "$f" ] || { echo "rawtable.sh: cannot read $f" >&2; exit 1; }
	head -n 1 "$f" | grep -q '^config	processors	step	run	rc	seconds' ||
		{ echo "rawtable.sh: $f is not a compare.sh --raw file" >&2; exit 1; }
done

awk -F '\t' '
FNR == 1 { next }
{
	key = $1 SUBSEP $2
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	k = key SUBSEP $3
	runs[k]++
	if ($5 != 0) { failed[k] = 1; next }
	if (!(k in wall) || $6 < wall[k]) wall[k] = $6
	if (!(k in cpu) || $7 < cpu[k]) cpu[k] = $7
	if ($8 > rss[k]) rss[k] = $8
	if ($9 > 0) bytes[k] = $9
}
function val(k, what) {
	if (k in failed) return ""
	if (what == "s") return (k in wall) ? wall[k] : ""
	if (what == "cpu") return (k in cpu) ? cpu[k] : ""
	if (what == "rss") return (k in rss) ? rss[k] / 1024 : ""
	return (k in bytes) ? bytes[k] / 1e6 : ""
}
function fmt(v, what) {
	if (v == "") return "n/a"
	if (what == "rss") return sprintf("%.0f", v)
	if (what == "size") return sprintf("%.2f", v)
	return sprintf(v < 10 ? "%.2f" : "%.1f", v)
}
# "ours / ref | ratio" for one pair of steps, the ratio kept for the geometric mean of column c
function pair(key, o, r, what, c,    a, b, q) {
	a = val(key SUBSEP o, what); b = val(key SUBSEP r, what)
	if ((key SUBSEP o) in failed || (key SUBSEP r) in failed) return "FAIL | —"
	if (a == "" || b == "" || a == 0 || b == 0) return fmt(a, what) " / " fmt(b, what) " | —"
	q = a / b; logsum[c] += log(q); count[c]++
	return fmt(a, what) " / " fmt(b, what) " | **" sprintf(what == "size" ? "%.3f" : "%.2f", q) "**"
}
function gmean(c, what) {
	if (!count[c]) return "—"
	return sprintf(what == "size" ? "%.3f" : "%.2f", exp(logsum[c] / count[c]))
}
function minruns(key, steps,    i, m, s, k) {
	m = -1
	split(steps, s, " ")
	for (i in s) { k = key SUBSEP s[i]; if (m < 0 || runs[k] < m) m = runs[k] }
	return m
}
# One table: a row per configuration, pairs of steps o and r compared on each kind in kinds
# (columns prefixed by tag), then the geometric means.
function table(o, r, kinds, tag,    i, j, k, kp, row, mean, hdr) {
	split(kinds, k, " ")
	hdr = "| compressor | -processors | runs |"
	for (j = 1; j in k; j++) hdr = hdr " " title[k[j]] " (ours / ref) | ratio |"
	print hdr
	hdr = "|---|---:|---:|"
	for (j = 1; j in k; j++) hdr = hdr "---:|---:|"
	print hdr
	for (i = 1; i <= n; i++) {
		split(order[i], kp, SUBSEP)
		row = "| " kp[1] " | " kp[2] " | " minruns(order[i], o " " r) " |"
		for (j = 1; j in k; j++) row = row " " pair(order[i], o, r, k[j], tag k[j]) " |"
		print row
	}
	mean = "| geometric mean | | |"
	for (j = 1; j in k; j++) mean = mean " | " gmean(tag k[j], k[j] == "size" ? "size" : "s") " |"
	print mean
}
END {
	title["s"] = "wall s"; title["cpu"] = "CPU s"; title["rss"] = "peak RSS MB"; title["size"] = "image MB"
	print "mksquashfs `TREE IMG -noappend -no-progress -comp ... -processors P`, best of the runs:"
	print ""
	table("mk.ours", "mk.ref", "s cpu rss size", "mk")
	print ""
	print "unsquashfs `-d DIR -no-progress -processors P IMG`, each tool on its own image, best of the runs:"
	print ""
	table("un.ours@ours", "un.ref@ref", "s cpu rss", "un")
}' "$@"
