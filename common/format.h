/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* format.h — squashfs 4.0 on-disk constants, sizes and bit layouts shared by both tools.
 *
 * Only facts of the format live here (see doc/format.adoc in squashfs-tools-ng). Structures
 * are never read by casting buffers: encoders/decoders in common/ go through endian.h. */
#ifndef SQ_COMMON_FORMAT_H
#define SQ_COMMON_FORMAT_H

#include <stdint.h>

#define SQFS_MAGIC 0x73717368u /* "hsqs" read as LE u32 */
#define SQFS_VERSION_MAJOR 4
#define SQFS_VERSION_MINOR 0
#define SQFS_SUPER_SIZE 96

/* Superblock field offsets (all little-endian). */
enum sqfs_super_offset {
	SQFS_SB_MAGIC = 0,              /* u32 */
	SQFS_SB_INODE_COUNT = 4,        /* u32 */
	SQFS_SB_MOD_TIME = 8,           /* u32 */
	SQFS_SB_BLOCK_SIZE = 12,        /* u32 */
	SQFS_SB_FRAGMENT_COUNT = 16,    /* u32 */
	SQFS_SB_COMPRESSOR = 20,        /* u16 */
	SQFS_SB_BLOCK_LOG = 22,         /* u16 */
	SQFS_SB_FLAGS = 24,             /* u16 */
	SQFS_SB_ID_COUNT = 26,          /* u16 */
	SQFS_SB_VERSION_MAJOR = 28,     /* u16 */
	SQFS_SB_VERSION_MINOR = 30,     /* u16 */
	SQFS_SB_ROOT_INODE = 32,        /* u64 inode reference */
	SQFS_SB_BYTES_USED = 40,        /* u64 */
	SQFS_SB_ID_TABLE = 48,          /* u64 */
	SQFS_SB_XATTR_ID_TABLE = 56,    /* u64, SQFS_NO_TABLE when absent */
	SQFS_SB_INODE_TABLE = 64,       /* u64 */
	SQFS_SB_DIRECTORY_TABLE = 72,   /* u64 */
	SQFS_SB_FRAGMENT_TABLE = 80,    /* u64, SQFS_NO_TABLE when absent */
	SQFS_SB_EXPORT_TABLE = 88,      /* u64, SQFS_NO_TABLE when absent */
};

#define SQFS_NO_TABLE UINT64_C(0xFFFFFFFFFFFFFFFF)

/* Superblock flags. */
enum sqfs_super_flag {
	SQFS_FLAG_UNCOMPRESSED_INODES = 0x0001,
	SQFS_FLAG_UNCOMPRESSED_DATA = 0x0002,
	SQFS_FLAG_CHECK = 0x0004, /* unused by 4.0 */
	SQFS_FLAG_UNCOMPRESSED_FRAGMENTS = 0x0008,
	SQFS_FLAG_NO_FRAGMENTS = 0x0010,
	SQFS_FLAG_ALWAYS_FRAGMENTS = 0x0020,
	SQFS_FLAG_DUPLICATES = 0x0040,
	SQFS_FLAG_EXPORTABLE = 0x0080,
	SQFS_FLAG_UNCOMPRESSED_XATTRS = 0x0100,
	SQFS_FLAG_NO_XATTRS = 0x0200,
	SQFS_FLAG_COMPRESSOR_OPTIONS = 0x0400,
	SQFS_FLAG_UNCOMPRESSED_IDS = 0x0800,
};

/* Compressor ids (superblock offset 20). */
enum sqfs_compressor_id {
	SQFS_COMP_GZIP = 1,
	SQFS_COMP_LZMA = 2,
	SQFS_COMP_LZO = 3,
	SQFS_COMP_XZ = 4,
	SQFS_COMP_LZ4 = 5,
	SQFS_COMP_ZSTD = 6,
};

/* Block sizes: a power of two from 4 KiB to 1 MiB. */
#define SQFS_MIN_BLOCK_LOG 12
#define SQFS_MAX_BLOCK_LOG 20
#define SQFS_DEFAULT_BLOCK_SIZE (128u * 1024u)
#define SQFS_DEVBLK_SIZE 4096u /* images are padded to this unless -nopad */

/* Metadata blocks: u16 header, bit 15 = stored uncompressed, low 15 bits = stored size. */
#define SQFS_META_BLOCK_SIZE 8192u
#define SQFS_META_HEADER_SIZE 2u
#define SQFS_META_UNCOMPRESSED 0x8000u
#define SQFS_META_SIZE_MASK 0x7FFFu

/* Data block size words (file block list, fragment entries): bit 24 = stored uncompressed.
 * A word of 0 in a file's block list is a sparse (all-zero) block. */
#define SQFS_DATA_UNCOMPRESSED 0x01000000u
#define SQFS_DATA_SIZE_MASK 0x00FFFFFFu

/* A reference to a place in a metadata table: (block start relative to the table) << 16 | offset
 * inside the uncompressed 8 KiB block. Used for inodes, xattr key/values and the root inode. */
static inline uint64_t sqfs_meta_ref(uint64_t block_start, uint32_t offset)
{
	return (block_start << 16) | (offset & 0xFFFFu);
}
static inline uint64_t sqfs_meta_ref_block(uint64_t ref)
{
	return ref >> 16;
}
static inline uint32_t sqfs_meta_ref_offset(uint64_t ref)
{
	return (uint32_t)(ref & 0xFFFFu);
}

/* Inode types. Extended ("long") kinds add link count / xattr / 64-bit sizes. */
enum sqfs_inode_type {
	SQFS_INODE_DIR = 1,
	SQFS_INODE_FILE = 2,
	SQFS_INODE_SYMLINK = 3,
	SQFS_INODE_BLKDEV = 4,
	SQFS_INODE_CHRDEV = 5,
	SQFS_INODE_FIFO = 6,
	SQFS_INODE_SOCKET = 7,
	SQFS_INODE_EXT_DIR = 8,
	SQFS_INODE_EXT_FILE = 9,
	SQFS_INODE_EXT_SYMLINK = 10,
	SQFS_INODE_EXT_BLKDEV = 11,
	SQFS_INODE_EXT_CHRDEV = 12,
	SQFS_INODE_EXT_FIFO = 13,
	SQFS_INODE_EXT_SOCKET = 14,
};
#define SQFS_INODE_EXT_OFFSET 7 /* basic type + 7 = extended type */

/* Common inode header: u16 type, u16 mode (permission bits only), u16 uid index,
 * u16 gid index, u32 mtime, u32 inode number (1..inode_count). */
#define SQFS_INODE_HEADER_SIZE 16u

/* Fixed part sizes after the common header (variable tails follow). */
#define SQFS_DIR_INODE_SIZE 16u      /* u32 block_start, u32 nlink, u16 size, u16 offset, u32 parent */
#define SQFS_EXT_DIR_INODE_SIZE 24u  /* u32 nlink, u32 size, u32 block_start, u32 parent,
                                        u16 index_count, u16 offset, u32 xattr; then index */
#define SQFS_FILE_INODE_SIZE 16u     /* u32 blocks_start, u32 frag, u32 frag_offset, u32 size;
                                        then u32 block sizes */
#define SQFS_EXT_FILE_INODE_SIZE 40u /* u64 blocks_start, u64 size, u64 sparse, u32 nlink,
                                        u32 frag, u32 frag_offset, u32 xattr; then block sizes */
#define SQFS_SYMLINK_INODE_SIZE 8u   /* u32 nlink, u32 target size; target; (ext: u32 xattr) */
#define SQFS_DEV_INODE_SIZE 8u       /* u32 nlink, u32 rdev; (ext: u32 xattr) */
#define SQFS_IPC_INODE_SIZE 4u       /* u32 nlink; (ext: u32 xattr) */

#define SQFS_NO_FRAGMENT 0xFFFFFFFFu
#define SQFS_NO_XATTR 0xFFFFFFFFu

/* A basic directory inode stores size in 16 bits; the size it stores is the listing's byte
 * length + 3 (historic "." and ".." allowance). An empty directory has size 3. */
#define SQFS_DIR_SIZE_BIAS 3u

/* Directory index entry (extended dirs): u32 index (byte offset into the listing),
 * u32 start (metadata block of the listing relative to the directory table),
 * u32 name size - 1, name. One entry per metadata block the listing crosses. */
#define SQFS_DIR_INDEX_ENTRY_SIZE 12u

/* Directory listing: headers followed by up to 256 entries sharing one inode block. */
#define SQFS_DIR_HEADER_SIZE 12u /* u32 count - 1, u32 inode block start, u32 base inode number */
#define SQFS_DIR_ENTRY_SIZE 8u   /* u16 offset in inode block, s16 inode number delta,
                                    u16 basic type, u16 name size - 1; then the name */
#define SQFS_DIR_MAX_ENTRIES_PER_HEADER 256u
#define SQFS_NAME_MAX 256u /* names are 1..256 bytes on disk; Linux allows 255 */

/* Device numbers on disk (u32): the kernel's "new" encoding of major/minor. */
static inline uint32_t sqfs_encode_dev(uint32_t major, uint32_t minor)
{
	return (minor & 0xFFu) | ((major & 0xFFFu) << 8) | ((minor & ~0xFFu) << 12);
}
static inline uint32_t sqfs_dev_major(uint32_t rdev)
{
	return (rdev >> 8) & 0xFFFu;
}
static inline uint32_t sqfs_dev_minor(uint32_t rdev)
{
	return (rdev & 0xFFu) | ((rdev >> 12) & 0xFFF00u);
}

/* Lookup tables (ids, fragments, export, xattr ids) are arrays of fixed-size entries packed
 * into metadata blocks; the superblock points at a u64 list of those blocks' locations. */
#define SQFS_ID_ENTRY_SIZE 4u        /* u32 uid/gid */
#define SQFS_FRAGMENT_ENTRY_SIZE 16u /* u64 start, u32 size word, u32 unused (0) */
#define SQFS_EXPORT_ENTRY_SIZE 8u    /* u64 inode reference, indexed by inode number - 1 */
#define SQFS_XATTR_ID_ENTRY_SIZE 16u /* u64 key/value ref, u32 pair count, u32 total size */
#define SQFS_ENTRIES_PER_META(sz) (SQFS_META_BLOCK_SIZE / (sz))
#define SQFS_MAX_IDS 65536u

/* Xattr id table header at xattr_id_table_start: u64 start of key/value table,
 * u32 id count, u32 unused; then u64 block locations. */
#define SQFS_XATTR_ID_TABLE_HEADER_SIZE 16u

/* Xattr keys: u16 type, u16 name size, name without the namespace prefix.
 * Values: u32 size, value; when the key type has SQFS_XATTR_VALUE_OOL the value is a u64
 * reference to a value stored elsewhere in the key/value table. */
enum sqfs_xattr_type {
	SQFS_XATTR_USER = 0,
	SQFS_XATTR_TRUSTED = 1,
	SQFS_XATTR_SECURITY = 2,
};
#define SQFS_XATTR_VALUE_OOL 0x0100u
#define SQFS_XATTR_PREFIX_MASK 0x00FFu

#endif
