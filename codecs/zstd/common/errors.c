/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* errors.c — the one-line message of every zs_status, shared by the zstd encoder and decoder. */
#include "config.h"

#include "codecs/zstd/zstd.h"

const char *zs_error_string(int status)
{
	switch (status) {
	case ZS_OK: return "success";
	case ZS_ERR_ALLOC: return "out of memory";
	case ZS_ERR_PARAM: return "invalid argument";
	case ZS_ERR_DST_TOO_SMALL: return "output buffer too small for the decoded data";
	case ZS_ERR_SRC_TRUNCATED: return "input truncated inside a frame";
	case ZS_ERR_BAD_MAGIC: return "not a zstd frame (unknown magic number)";
	case ZS_ERR_FRAME_HEADER: return "corrupt frame header (reserved bit set)";
	case ZS_ERR_WINDOW_TOO_LARGE: return "frame window larger than allowed";
	case ZS_ERR_DICTIONARY: return "frame requires a dictionary (not supported)";
	case ZS_ERR_BLOCK_TYPE: return "corrupt block (reserved block type)";
	case ZS_ERR_BLOCK_SIZE: return "corrupt block (larger than the block size limit)";
	case ZS_ERR_LITERALS_HEADER: return "corrupt literals section header";
	case ZS_ERR_HUFFMAN_TABLE: return "corrupt Huffman table description";
	case ZS_ERR_HUFFMAN_STREAM: return "corrupt Huffman-coded literals";
	case ZS_ERR_NO_HUFFMAN_TABLE: return "treeless literals without a previous Huffman table";
	case ZS_ERR_FSE_TABLE: return "corrupt FSE table description";
	case ZS_ERR_SEQ_HEADER: return "corrupt sequences section header";
	case ZS_ERR_NO_SEQ_TABLE: return "repeat sequence table without a previous table";
	case ZS_ERR_SEQ_STREAM: return "corrupt sequence bitstream";
	case ZS_ERR_OFFSET: return "corrupt sequence (match offset out of range)";
	case ZS_ERR_LITERAL_LENGTH: return "corrupt sequence (literal length beyond decoded literals)";
	case ZS_ERR_CONTENT_SIZE: return "decoded size differs from the frame content size";
	case ZS_ERR_CHECKSUM: return "content checksum mismatch";
	case ZS_ERR_OFFSET_CODE: return "corrupt sequence (offset code too large)";
	default: return "unknown zstd error";
	}
}
