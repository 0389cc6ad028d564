#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# mkrepet.py — three 1 MiB long-repetitive samples for bench/codec_bench.c (the zstd optimal parser's worst cases).
#
# usage: bench/mkrepet.py DIR [BINARY]   writes DIR/neardup, DIR/yes, DIR/bincopy
#   neardup  a 64-byte line, then slices (16-4096 bytes) of what was written so far, each with
#            one or two bytes changed (what the round-trip fuzzer found slow)
#   yes      512 KiB of `yes y`, then 512 KiB of a 28-byte line repeated
#   bincopy  copies of the first 200,000 bytes of BINARY (default /usr/bin/ls), 3 bytes changed in each
# A fixed seed: the same files on every run.
import random
import sys

SIZE = 1 << 20


def neardup(rng):
    out = bytearray(b"The quick brown fox jumps over the lazy dog; 0123456789abcdef!\n")
    while len(out) < SIZE:
        at = rng.randrange(len(out))
        piece = bytearray(out[at:at + rng.randint(16, 4096)])
        for _ in range(rng.randint(1, 2)):
            piece[rng.randrange(len(piece))] = rng.randrange(256)
        out += piece
    return bytes(out[:SIZE])


def yes():
    half = SIZE // 2
    return (b"y\n" * (half // 2)) + (b"hello world, this is a line\n" * (half // 28 + 1))[:SIZE - half]


def bincopy(rng, path):
    with open(path, "rb") as f:
        base = f.read(200000)
    out = bytearray()
    while len(out) < SIZE:
        piece = bytearray(base)
        for _ in range(3):
            piece[rng.randrange(len(piece))] = rng.randrange(256)
        out += piece
    return bytes(out[:SIZE])


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: mkrepet.py DIR [BINARY]")
    rng = random.Random(18)
    outdir = sys.argv[1]
    samples = {"neardup": neardup(rng), "yes": yes(), "bincopy": bincopy(rng, sys.argv[2] if len(sys.argv) > 2 else "/usr/bin/ls")}
    for name, data in samples.items():
        with open(f"{outdir}/{name}", "wb") as f:
            f.write(data)


main()
