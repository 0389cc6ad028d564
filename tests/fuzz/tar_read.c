/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* tar_read.c — libFuzzer target: read an archive from memory (through a memfd, as sqfstar reads
 * standard input) into a tree with tar_read_tree, with and without -ignore-zeros. */
#include "config.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mksquashfs/tar/tar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_once(const uint8_t *data, size_t size, bool ignore_zeros)
{
	int fd = memfd_create("tar", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return;
	}
	struct mksq_options o;
	memset(&o, 0, sizeof(o));
	o.image_path = "fuzz.img"; /* the spool goes to $TMPDIR, set by tar_read.sh */
	o.tar.enabled = true;
	o.tar.sqfstar = true;
	o.tar.ignore_zeros = ignore_zeros;
	o.tar.numeric_owner = true; /* no NSS lookups: they are slow and not under test */
	o.now = 1700000000;
	struct tree tree = { 0 };
	struct scan_stats stats;
	struct sq_error err;
	sq_error_clear(&err);
	if (tar_read_tree(&o, NULL, fd, &tree, &stats, NULL, &err) == 0) {
		if (tree_sort(&tree, &err) == 0)
			(void)tree.root->dir->count;
		tree_free(&tree);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_once(data, size, false);
	read_once(data, size, true);
	return 0;
}
