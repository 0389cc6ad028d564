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
END {
	print "mksquashfs `TREE IMG -noappend -no-progress -comp ... -processors P`, best of the runs:"
	print ""
	print "| compressor | -processors | runs | wall s (ours / ref) | ratio | CPU s (ours / ref) | ratio | peak RSS MB (ours / ref) | ratio | image MB (ours / ref) | ratio |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= n; i++) {
		split(order[i], kp, SUBSEP)
		printf "| %s | %s | %d | %s | %s | %s | %s |\n", kp[1], kp[2], minruns(order[i], "mk.ours mk.ref"),
			pair(order[i], "mk.ours", "mk.ref", "s", "mk"),
			pair(order[i], "mk.ours", "mk.ref", "cpu", "mkcpu"),
			pair(order[i], "mk.ours", "mk.ref", "rss", "mkrss"),
			pair(order[i], "mk.ours", "mk.ref", "size", "size")
	}
	printf "| geometric mean | | | | %s | | %s | | %s | | %s |\n", gmean("mk", "s"), gmean("mkcpu", "s"),
		gmean("mkrss", "s"), gmean("size", "size")
	print ""
	print "unsquashfs `-d DIR -no-progress -processors P IMG`, each tool on its own image, best of the runs:"
	print ""
	print "| compressor | -processors | runs | wall s (ours / ref) | ratio | CPU s (ours / ref) | ratio | peak RSS MB (ours / ref) | ratio |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= n; i++) {
		split(order[i], kp, SUBSEP)
		printf "| %s | %s | %d | %s | %s | %s |\n", kp[1], kp[2], minruns(order[i], "un.ours@ours un.ref@ref"),
			pair(order[i], "un.ours@ours", "un.ref@ref", "s", "un"),
			pair(order[i], "un.ours@ours", "un.ref@ref", "cpu", "uncpu"),
			pair(order[i], "un.ours@ours", "un.ref@ref", "rss", "unrss")
	}
	printf "| geometric mean | | | | %s | | %s | | %s |\n", gmean("un", "s"), gmean("uncpu", "s"), gmean("unrss", "s")
}' "$@"
