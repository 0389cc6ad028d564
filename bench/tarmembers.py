#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# bench/tarmembers.py — writes a tar stream (ustar, to stdout) of many members for the memory
# runs of doc/scaling.md: what the tar reader holds grows with the member count, so the stream
# needs millions of members, which a real tree would take far longer to make than to write.
#
# Usage: bench/tarmembers.py MEMBERS [--per-dir N] [--depth D] [--size BYTES]
#   MEMBERS   regular-file members in all (plus one member per directory, listed first)
#   --per-dir files per leaf directory (default 1000)
#   --depth   levels of directories above the leaf ones, 10 per level (default 0: the leaf
#             directories sit at the top)
#   --size    bytes in each file (default 0: empty members; a few hundred makes "small files")
# Members come in the order GNU tar lists a tree (a directory, then what is in it), times 0, owner 0.
import sys


def header(name, size, typeflag):
    # One 512-byte ustar header; names over 100 bytes go to the prefix field.
    raw = name.encode()
    prefix = b''
    if len(raw) > 100:
        cut = raw.rindex(b'/', 0, 156)
        prefix, raw = raw[:cut], raw[cut + 1:]
    mode = b'0000755' if typeflag == b'5' else b'0000644'
    h = bytearray(512)
    h[0:len(raw)] = raw
    h[100:108] = mode + b'\0'
    h[108:116] = b'0000000\0'
    h[116:124] = b'0000000\0'
    h[124:136] = b'%011o\0' % size
    h[136:148] = b'00000000000\0'
    h[148:156] = b' ' * 8
    h[156:157] = typeflag
    h[257:265] = b'ustar\x0000'
    h[265:269] = b'root'
    h[297:301] = b'root'
    h[345:345 + len(prefix)] = prefix
    h[148:156] = b'%06o\0 ' % sum(h)
    return bytes(h)


def main(argv):
    members, per_dir, depth, size = None, 1000, 0, 0
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ('--per-dir', '--depth', '--size'):
            v = int(argv[i + 1])
            i += 2
            if a == '--per-dir':
                per_dir = v
            elif a == '--depth':
                depth = v
            else:
                size = v
        else:
            members = int(a)
            i += 1
    if members is None or per_dir < 1 or depth < 0 or size < 0:
        sys.exit('usage: tarmembers.py MEMBERS [--per-dir N] [--depth D] [--size BYTES]')
    out = sys.stdout.buffer
    data = bytes((65 + k % 26) for k in range(size)) + b'\0' * ((512 - size % 512) % 512)
    leaves = (members + per_dir - 1) // per_dir
    made = set()
    left = members
    for leaf in range(leaves):
        # The leaf's ancestors: one directory per 10 ** level leaves at each level.
        path = ''
        for level in range(depth, 0, -1):
            path += 'n%d/' % (leaf // 10 ** level)
            if path not in made:
                made.add(path)
                out.write(header(path, 0, b'5'))
        path += 'd%07d/' % leaf
        out.write(header(path, 0, b'5'))
        for f in range(min(per_dir, left)):
            out.write(header('%sf%05d' % (path, f), size, b'0'))
            if size:
                out.write(data)
        left -= per_dir
    out.write(b'\0' * 1024)


main(sys.argv)
