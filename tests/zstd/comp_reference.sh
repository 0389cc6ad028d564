#!/bin/sh
# comp_reference.sh — every level's frames decoded by the reference zstd CLI with the window limited to the input size.
exec "${top_builddir:-.}/tests/zstd/comp_roundtrip" --reference
