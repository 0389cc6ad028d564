/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* recovery.h — the recovery file written before an append changes an image.
 *
 * Format (squashfs-tools' "v1.0", which its -recover reads): the line
 * "Squashfs recovery file v1.0\n", the 96-byte superblock as found, then the image bytes from
 * its inode table to its bytes_used. squashfs-tools ignores what follows; we add a trailer so a
 * restore is byte-exact and can tell an append to this image from another image:
 *   "SQTK-RECOVERY-1\n", u64 base (-offset), u64 old file length (a device: where the saved
 *   bytes end), u64 xxh64 fingerprint of the
 *   fingerprint_len data bytes before the inode table, u32 fingerprint_len, u32 zero,
 *   u64 tail_len, u64 xxh64 of the superblock, tables and tail (a damaged file is refused, not
 *   written into the image), then tail_len bytes found after bytes_used (the padding). All
 *   little-endian. */
#ifndef SQ_MKSQUASHFS_APPEND_RECOVERY_H
#define SQ_MKSQUASHFS_APPEND_RECOVERY_H

#include "mksquashfs/append/append.h"

/* Write a's recovery file in -recovery-path (or $HOME) as squashfs_recovery_IMAGE_PID, whole or
 * not at all (written under a temporary name, synced, renamed). *path gets its name. */
int recovery_write(const struct append_image *a, const struct mksq_options *o, char **path,
		   struct sq_error *err);

#endif
