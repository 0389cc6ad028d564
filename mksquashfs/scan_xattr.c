/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* scan_xattr.c — llistxattr/lgetxattr into squashfs xattr sets. */
#include "config.h"
#include "mksquashfs/scan_xattr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_XATTR
#include <sys/xattr.h>
#endif

#include "common/format.h"
#include "common/util/sizes.h"

#ifdef HAVE_XATTR
/* Read every xattr of path in a squashfs namespace; others are skipped with a warning, as
 * squashfs-tools does. Files that vanish or whose filesystem lacks xattrs simply have none. */
int scan_read_xattrs(const char *path, struct tree_inode *n, uint32_t *skipped, FILE *warn,
		     struct sq_error *err)
{
	ssize_t len = llistxattr(path, NULL, 0);
	if (len <= 0) {
		if (len < 0 && errno != ENOTSUP && errno != ENODATA)
			return sq_fail_errno(err, "cannot list xattrs of %s", path);
		return 0;
	}
	char *names = malloc((size_t)len);
	struct xattr_set *set = calloc(1, sizeof(*set));
	if (names == NULL || set == NULL) {
		free(names);
		free(set);
		return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
	}
	len = llistxattr(path, names, (size_t)len);
	if (len < 0) {
		free(names);
		free(set);
		return sq_fail_errno(err, "cannot list xattrs of %s", path);
	}
	uint32_t max = 0;
	for (ssize_t i = 0; i < len; i++)
		max += names[i] == '\0';
	set->entries = sq_alloc_array(max ? max : 1, sizeof(*set->entries));
	if (set->entries == NULL)
		goto nomem;
	for (char *name = names; name < names + len; name += strlen(name) + 1) {
		const char *key = NULL;
		int type = tree_xattr_type(name, &key);
		if (type < 0) {
			(*skipped)++;
			if (warn != NULL)
				fprintf(warn, "mksquashfs: unrecognised xattr prefix %s on %s, skipped\n",
					name, path);
			continue;
		}
		ssize_t vlen = lgetxattr(path, name, NULL, 0);
		if (vlen < 0) {
			if (errno == ENODATA)
				continue;
			tree_xattrs_free(set);
			free(names);
			return sq_fail_errno(err, "cannot read xattr %s of %s", name, path);
		}
		struct xattr_entry *e = &set->entries[set->count];
		e->type = (uint16_t)type;
		e->key_len = (uint16_t)strlen(key);
		e->key = strdup(key);
		e->value = malloc(vlen ? (size_t)vlen : 1);
		if (e->key == NULL || e->value == NULL) {
			free(e->key);
			free(e->value);
			goto nomem;
		}
		vlen = lgetxattr(path, name, e->value, (size_t)vlen);
		if (vlen < 0) {
			int saved = errno;
			free(e->key);
			free(e->value);
			tree_xattrs_free(set);
			free(names);
			errno = saved;
			return sq_fail_errno(err, "cannot read xattr %s of %s", name, path);
		}
		e->value_len = (uint32_t)vlen;
		set->count++;
	}
	free(names);
	if (set->count == 0) {
		tree_xattrs_free(set);
		return 0;
	}
	tree_xattrs_sort(set);
	n->xattrs = set;
	return 0;
nomem:
	tree_xattrs_free(set);
	free(names);
	return sq_fail(err, SQ_ERR_NOMEM, "out of memory");
}
#endif



#ifndef HAVE_XATTR
int scan_read_xattrs(const char *path, struct tree_inode *n, uint32_t *skipped, FILE *warn,
		     struct sq_error *err)
{
	(void)path;
	(void)n;
	(void)skipped;
	(void)warn;
	(void)err;
	return 0;
}
#endif
