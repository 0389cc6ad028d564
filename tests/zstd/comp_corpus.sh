#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS)
# comp_corpus.sh — the shared corpus's golden-compression inputs at every level, round trip through our decoder (skips when the corpus is absent).
exec "${top_builddir:-.}/tests/zstd/comp_roundtrip" --corpus
