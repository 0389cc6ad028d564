/* SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (C) 2026 The squashfs-toolkit authors (see AUTHORS) */
/* write_image.c — builds an image tree by hand (every inode kind, hard links, xattrs, a 5000-entry
 * directory, 60-deep nesting, large ids and devices), writes its data itself and calls the table
 * writer; prints a manifest and the expected file contents for the checking scripts.
 *
 * usage: write_image IMAGE EXPECT_DIR MANIFEST [-comp NAME] [-b SIZE] [-noI] [-noX] [-noF]
 *                    [-no-exports] [-no-xattrs] [-nopad] [-huge] */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/format.h"
#include "mksquashfs/image.h"
#include "mksquashfs/tree.h"

#define MAX_FRAGS 256u
#define MAX_GEN 64u

/* How a regular file's content is made, so the expected copy can be made again. */
struct gen_file {
	struct tree_inode *inode;
	uint32_t seed;
	uint32_t sparse_mask; /* bit i: block i is all zero */
};

struct builder {
	struct image_out out;
	struct image_settings settings;
	uint8_t *block;
	uint8_t *frag;
	uint32_t frag_len;
	struct fragment_entry frags[MAX_FRAGS];
	uint32_t nfrags;
	struct gen_file gens[MAX_GEN];
	uint32_t ngens;
	struct sq_error err;
};

static void die(const char *what)
{
	fprintf(stderr, "write_image: %s\n", what);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p == NULL)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (p == NULL)
		die("out of memory");
	return p;
}

static uint8_t content_byte(uint32_t seed, uint64_t i)
{
	uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed << 32 | seed);
	x ^= x >> 29;
	/* Some repetition so gzip has something to find, yet no two files alike. */
	return (uint8_t)((i % 3 == 0) ? (x >> 17) : ('a' + (seed + i / 64) % 26));
}

static void fill_block(uint8_t *buf, uint32_t seed, uint32_t mask, uint64_t block,
		       uint32_t bs, uint32_t len)
{
	if (block < 32 && (mask >> block) & 1) {
		memset(buf, 0, len);
		return;
	}
	for (uint32_t i = 0; i < len; i++)
		buf[i] = content_byte(seed, block * bs + i);
}

static struct tree_inode *new_inode(uint32_t mode, uint32_t uid, uint32_t gid, uint32_t mtime)
{
	struct tree_inode *ino = xcalloc(1, sizeof(*ino));
	ino->mode = mode;
	ino->uid = uid;
	ino->gid = gid;
	ino->mtime = mtime;
	if ((mode & S_IFMT) == S_IFDIR)
		ino->dir = xcalloc(1, sizeof(*ino->dir));
	else
		ino->nlink = 0; /* counted as entries are added */
	return ino;
}

static void add_entry(struct tree_inode *dir, const char *name, struct tree_inode *ino)
{
	struct tree_dir *d = dir->dir;
	if (d->count == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 8;
		d->entries = realloc(d->entries, d->cap * sizeof(*d->entries));
		if (d->entries == NULL)
			die("out of memory");
	}
	d->entries[d->count].name = xstrdup(name);
	d->entries[d->count].name_len = (uint32_t)strlen(name);
	d->entries[d->count].inode = ino;
	d->count++;
	if ((ino->mode & S_IFMT) == S_IFDIR)
		ino->dir->parent = dir;
	else
		ino->nlink++;
}

static struct tree_inode *add_dir(struct tree_inode *parent, const char *name, uint32_t mode)
{
	struct tree_inode *d = new_inode(S_IFDIR | mode, 0, 0, 1600000000u);
	add_entry(parent, name, d);
	return d;
}

static void flush_fragment(struct builder *b)
{
	if (b->frag_len == 0)
		return;
	if (b->nfrags == MAX_FRAGS)
		die("too many fragments");
	b->frags[b->nfrags].start = b->out.pos;
	b->frags[b->nfrags].size_word = SQFS_DATA_UNCOMPRESSED | b->frag_len;
	if (image_out_write(&b->out, b->frag, b->frag_len, &b->err) != 0)
		die(b->err.msg);
	b->nfrags++;
	b->frag_len = 0;
}

/* A regular file: full blocks written now (stored, or sparse), the tail in a fragment unless
 * use_frag is false. */
static struct tree_inode *add_file(struct builder *b, struct tree_inode *dir, const char *name,
				   uint64_t size, uint32_t seed, uint32_t sparse_mask, bool use_frag)
{
	uint32_t bs = b->settings.block_size;
	struct tree_inode *ino = new_inode(S_IFREG | 0644, 0, 0, 1650000000u + seed);
	struct file_data *f = xcalloc(1, sizeof(*f));
	ino->file = f;
	f->size = size;
	f->fragment_index = SQFS_NO_FRAGMENT;
	uint64_t full = size / bs;
	uint32_t tail = (uint32_t)(size % bs);
	/* As squashfs-tools without -always-use-fragments: only files under a block get one. */
	bool tail_in_frag = use_frag && tail > 0 && size < bs;
	f->block_count = (uint32_t)(full + (tail > 0 && !tail_in_frag));
	f->block_sizes = xcalloc(f->block_count, sizeof(uint32_t));
	for (uint32_t i = 0; i < f->block_count; i++) {
		uint32_t len = (i < full) ? bs : tail;
		if (i < 32 && (sparse_mask >> i) & 1) {
			f->block_sizes[i] = 0;
			f->sparse_bytes += len;
			continue;
		}
		fill_block(b->block, seed, sparse_mask, i, bs, len);
		if (f->blocks_start == 0)
			f->blocks_start = b->out.pos;
		if (image_out_write(&b->out, b->block, len, &b->err) != 0)
			die(b->err.msg);
		f->block_sizes[i] = SQFS_DATA_UNCOMPRESSED | len;
	}
	/* Sparse blocks first: blocks_start is still where the first stored block would go. */
	if (f->blocks_start == 0 && f->block_count > 0)
		f->blocks_start = b->out.pos;
	if (tail_in_frag) {
		if (b->frag_len + tail > bs)
			flush_fragment(b);
		fill_block(b->frag + b->frag_len, seed, sparse_mask, full, bs, tail);
		f->fragment_index = b->nfrags;
		f->fragment_offset = b->frag_len;
		b->frag_len += tail;
	}
	if (b->ngens == MAX_GEN)
		die("too many generated files");
	b->gens[b->ngens++] = (struct gen_file){ ino, seed, sparse_mask };
	add_entry(dir, name, ino);
	return ino;
}

static void add_xattr(struct tree_inode *ino, uint16_t type, const char *key, const void *value,
		      uint32_t len)
{
	if (ino->xattrs == NULL)
		ino->xattrs = xcalloc(1, sizeof(*ino->xattrs));
	struct xattr_set *s = ino->xattrs;
	s->entries = realloc(s->entries, (s->count + 1) * sizeof(*s->entries));
	if (s->entries == NULL)
		die("out of memory");
	struct xattr_entry *x = &s->entries[s->count++];
	x->type = type;
	x->key = xstrdup(key);
	x->key_len = (uint16_t)strlen(key);
	x->value = xcalloc(1, len);
	memcpy(x->value, value, len);
	x->value_len = len;
}

static const struct gen_file *gen_of(const struct builder *b, const struct tree_inode *ino)
{
	for (uint32_t i = 0; i < b->ngens; i++)
		if (b->gens[i].inode == ino)
			return &b->gens[i];
	return NULL;
}

static const char *prefix_of(uint16_t type)
{
	return type == SQFS_XATTR_USER ? "user." : type == SQFS_XATTR_TRUSTED ? "trusted."
									      : "security.";
}

static void write_expected(const struct builder *b, const struct tree_inode *ino,
			   const char *path)
{
	const struct gen_file *g = gen_of(b, ino);
	if (g == NULL)
		die("file without generator");
	FILE *fp = fopen(path, "wb");
	if (fp == NULL)
		die("cannot create an expected file");
	uint32_t bs = b->settings.block_size;
	uint8_t *buf = xcalloc(1, bs);
	uint64_t first = 0;
	/* Files over 4 GiB: only the last block, which the checks compare with the file's tail. */
	if (ino->file->size >= (1ull << 32))
		first = (ino->file->size - 1) / bs;
	for (uint64_t blk = first; blk * bs < ino->file->size; blk++) {
		uint64_t left = ino->file->size - blk * bs;
		uint32_t len = left < bs ? (uint32_t)left : bs;
		fill_block(buf, g->seed, g->sparse_mask, blk, bs, len);
		if (fwrite(buf, 1, len, fp) != len)
			die("cannot write an expected file");
	}
	free(buf);
	if (fclose(fp) != 0)
		die("cannot write an expected file");
}

/* One line per path in the form `stat -c '%n|%f|%u|%g|%Y|%s|%h|%t:%T'` prints (directory sizes
 * shown as '-'), then X lines for xattrs and L lines for symlink targets. */
static void manifest(const struct builder *b, const struct tree_inode *ino, const char *path,
		     const char *expect, FILE *m)
{
	uint32_t type = ino->mode & S_IFMT;
	uint32_t nlink = ino->nlink;
	if (type == S_IFDIR) {
		nlink = 2;
		for (uint32_t i = 0; i < ino->dir->count; i++)
			nlink += (ino->dir->entries[i].inode->mode & S_IFMT) == S_IFDIR;
	}
	char size[32] = "-";
	if (type == S_IFREG)
		snprintf(size, sizeof(size), "%llu", (unsigned long long)ino->file->size);
	else if (type == S_IFLNK)
		snprintf(size, sizeof(size), "%u", ino->symlink_len);
	else if (type != S_IFDIR)
		snprintf(size, sizeof(size), "0");
	fprintf(m, "%s|%x|%u|%u|%u|%s|%u|%x:%x\n", path, ino->mode, ino->uid, ino->gid,
		ino->mtime, size, nlink, ino->rdev_major, ino->rdev_minor);
	if (type == S_IFLNK)
		fprintf(m, "L|%s|%s\n", path, ino->symlink_target);
	for (uint32_t i = 0; ino->xattrs && i < ino->xattrs->count; i++) {
		const struct xattr_entry *x = &ino->xattrs->entries[i];
		fprintf(m, "X|%s|%s%s|0x", path, prefix_of(x->type), x->key);
		for (uint32_t k = 0; k < x->value_len; k++)
			fprintf(m, "%02x", x->value[k]);
		fputc('\n', m);
	}
	if (type == S_IFREG && ino->file->size > 0)
		write_expected(b, ino, expect);
	if (type == S_IFDIR) {
		if (mkdir(expect, 0755) != 0 && errno != EEXIST)
			die("cannot create an expected directory");
		for (uint32_t i = 0; i < ino->dir->count; i++) {
			const struct tree_entry *e = &ino->dir->entries[i];
			size_t pl = strlen(path) + e->name_len + 2, el = strlen(expect) + e->name_len + 2;
			char *p = xcalloc(1, pl), *q = xcalloc(1, el);
			snprintf(p, pl, "%s/%s", path, e->name);
			snprintf(q, el, "%s/%s", expect, e->name);
			manifest(b, e->inode, p, q, m);
			free(p);
			free(q);
		}
	}
}

/* 5000 entries: the listing spans many metadata blocks and gets an index. */
static void add_big_dir(struct tree_inode *root)
{
	struct tree_inode *bigdir = add_dir(root, "big", 0755);
	for (int i = 0; i < 5000; i++) {
		char name[64];
		snprintf(name, sizeof(name), "entry_%05d_with_a_longer_name", i);
		if (i % 500 == 250) {
			add_dir(bigdir, name, 0700);
			continue;
		}
		struct tree_inode *e = new_inode(S_IFREG | 0640, (uint32_t)(i % 7), 100, 1600000000u + (uint32_t)i);
		e->file = xcalloc(1, sizeof(*e->file));
		e->file->fragment_index = SQFS_NO_FRAGMENT;
		add_entry(bigdir, name, e);
	}
}

/* A chain of 60 directories with a file at the bottom. */
static void add_deep_dir(struct builder *b, struct tree_inode *root)
{
	struct tree_inode *d = root;
	for (int i = 1; i <= 60; i++) {
		char name[16];
		snprintf(name, sizeof(name), "d%02d", i);
		d = add_dir(d, name, 0755);
	}
	add_file(b, d, "leaf", 50, 12, 0, true);
}

/* Over 4 GiB, all sparse but the last block: extended inode, 64-bit size. */
static void add_huge(struct builder *b, struct tree_inode *root)
{
	uint32_t bs = b->settings.block_size;
	uint64_t size = (9ull << 29) + 123; /* 4.5 GiB + 123 */
	uint64_t blocks = (size + bs - 1) / bs;
	struct tree_inode *h = add_file(b, root, "huge", 0, 13, 0, false);
	struct file_data *f = h->file;
	free(f->block_sizes);
	f->size = size;
	f->block_count = (uint32_t)blocks;
	f->block_sizes = xcalloc(blocks, sizeof(uint32_t));
	fill_block(b->block, 13, 0, blocks - 1, bs, (uint32_t)(size % bs));
	f->blocks_start = b->out.pos;
	if (image_out_write(&b->out, b->block, size % bs, &b->err) != 0)
		die(b->err.msg);
	f->block_sizes[blocks - 1] = SQFS_DATA_UNCOMPRESSED | (uint32_t)(size % bs);
	f->sparse_bytes = size - size % bs;
	/* The data is after the sparse blocks' place: blocks_start counts stored bytes. */
}

static struct tree_inode *build(struct builder *b, bool huge)
{
	uint32_t bs = b->settings.block_size;
	struct tree_inode *root = new_inode(S_IFDIR | 0755, 0, 0, 1600000000u);
	root->dir->parent = root;

	struct tree_inode *small = add_file(b, root, "small", 100, 1, 0, true);
	small->uid = small->gid = 1000;
	struct tree_inode *blocks3 = add_file(b, root, "blocks3", 3ull * bs + 1000, 2, 0, true);
	struct tree_inode *nofrag = add_file(b, root, "nofrag", 2ull * bs + 5000, 3, 0, false);
	struct tree_inode *exact = add_file(b, root, "exact", bs, 4, 0, true);
	add_file(b, root, "sparse", 6ull * bs - 10, 5, 0x0E, true);
	add_file(b, root, "sparse_start", 2ull * bs + 7, 6, 0x01, false);
	add_file(b, root, "empty", 0, 7, 0, true);
	struct tree_inode *owner = add_file(b, root, "owner", 10, 8, 0, true);
	owner->uid = 100000;
	owner->gid = 200000;
	owner->mtime = 4000000000u;
	struct tree_inode *suid = add_file(b, root, "suid", 33, 9, 0, true);
	suid->mode = S_IFREG | 04755;
	suid->uid = 65534;
	char longname[256];
	memset(longname, 'n', 255);
	longname[255] = '\0';
	add_file(b, root, longname, 77, 10, 0, true);

	struct tree_inode *sub = add_dir(root, "sub", 01777);
	struct tree_inode *hl = add_file(b, root, "link_a", 1500, 11, 0, true);
	add_entry(sub, "link_b", hl);
	add_entry(sub, "link_c", hl);

	struct tree_inode *sym = new_inode(S_IFLNK | 0777, 0, 0, 1600000001u);
	sym->symlink_target = xstrdup("small");
	sym->symlink_len = 5;
	add_entry(root, "symlink", sym);
	struct tree_inode *lsym = new_inode(S_IFLNK | 0777, 5, 6, 1600000002u);
	lsym->symlink_len = 1000;
	lsym->symlink_target = xcalloc(1, 1001);
	for (int i = 0; i < 1000; i++)
		lsym->symlink_target[i] = "abc/"[i % 4];
	add_entry(sub, "longlink", lsym);

	struct tree_inode *blk = new_inode(S_IFBLK | 0660, 0, 6, 1600000003u);
	blk->rdev_major = 300;
	blk->rdev_minor = 70000;
	add_entry(root, "blkdev", blk);
	struct tree_inode *chr = new_inode(S_IFCHR | 0666, 0, 0, 1600000004u);
	chr->rdev_major = 1;
	chr->rdev_minor = 3;
	add_entry(root, "chrdev", chr);
	struct tree_inode *fifo = new_inode(S_IFIFO | 0600, 42, 43, 1600000005u);
	add_entry(root, "fifo", fifo);
	add_entry(root, "socket", new_inode(S_IFSOCK | 0755, 0, 0, 1600000006u));

	static const uint8_t sec[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 255, 254, 0, 1, 2, 3, 4,
					 5, 6 };
	add_xattr(small, SQFS_XATTR_USER, "comment", "hello", 5);
	add_xattr(small, SQFS_XATTR_TRUSTED, "t", "x", 1);
	add_xattr(small, SQFS_XATTR_SECURITY, "s", sec, sizeof(sec));
	add_xattr(blocks3, SQFS_XATTR_USER, "comment", "hello", 5);
	add_xattr(blocks3, SQFS_XATTR_TRUSTED, "t", "x", 1);
	add_xattr(blocks3, SQFS_XATTR_SECURITY, "s", sec, sizeof(sec));
	char big[1000];
	for (int i = 0; i < 1000; i++)
		big[i] = (char)('A' + i % 26);
	add_xattr(nofrag, SQFS_XATTR_USER, "big", big, sizeof(big));
	add_xattr(exact, SQFS_XATTR_USER, "big2", big, sizeof(big));
	add_xattr(sub, SQFS_XATTR_USER, "dir", "yes", 3);
	add_xattr(sym, SQFS_XATTR_TRUSTED, "sym", "1", 1);
	add_xattr(fifo, SQFS_XATTR_TRUSTED, "f", "", 0);
	add_xattr(hl, SQFS_XATTR_USER, "hl", "linked", 6);

	add_big_dir(root);
	add_deep_dir(b, root);
	if (huge)
		add_huge(b, root);
	flush_fragment(b);
	struct tree t = { .root = root };
	if (tree_sort(&t, &b->err) != 0)
		die(b->err.msg);
	return root;
}

static void free_inode(struct tree_inode *ino)
{
	if (ino->xattrs != NULL) {
		for (uint32_t i = 0; i < ino->xattrs->count; i++) {
			free(ino->xattrs->entries[i].key);
			free(ino->xattrs->entries[i].value);
		}
		free(ino->xattrs->entries);
		free(ino->xattrs);
	}
	if (ino->file != NULL)
		free(ino->file->block_sizes);
	free(ino->file);
	free(ino->symlink_target);
	free(ino);
}

/* Hard-linked inodes go with their last name: nlink counts the names left. */
static void free_tree(struct tree_inode *dir)
{
	for (uint32_t i = 0; i < dir->dir->count; i++) {
		struct tree_inode *ino = dir->dir->entries[i].inode;
		free(dir->dir->entries[i].name);
		if (ino->dir != NULL)
			free_tree(ino);
		else if (--ino->nlink == 0)
			free_inode(ino);
	}
	free(dir->dir->entries);
	free(dir->dir);
	dir->dir = NULL;
	free_inode(dir);
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: write_image IMAGE EXPECT_DIR MANIFEST [options]\n");
		return 2;
	}
	struct builder *b = xcalloc(1, sizeof(*b));
	struct image_settings *s = &b->settings;
	const char *comp = "gzip";
	bool huge = false;
	s->block_size = 131072;
	s->mkfs_time = 1700000000u;
	s->duplicates = true;
	s->exportable = true;
	s->pad = true;
	const struct {
		const char *name;
		bool *flag, value;
	} flags[] = {
		{"-noI", &s->uncompressed_inodes, true},
		{"-noX", &s->uncompressed_xattrs, true},
		{"-noF", &s->uncompressed_fragments, true},
		{"-no-exports", &s->exportable, false},
		{"-no-xattrs", &s->no_xattrs, true},
		{"-nopad", &s->pad, false},
		{"-huge", &huge, true},
	};
	for (int i = 4; i < argc; i++) {
		size_t f = 0;
		while (f < sizeof(flags) / sizeof(flags[0]) && strcmp(argv[i], flags[f].name) != 0)
			f++;
		if (f < sizeof(flags) / sizeof(flags[0]))
			*flags[f].flag = flags[f].value;
		else if (strcmp(argv[i], "-comp") == 0 && i + 1 < argc)
			comp = argv[++i];
		else if (strcmp(argv[i], "-b") == 0 && i + 1 < argc)
			s->block_size = (uint32_t)strtoul(argv[++i], NULL, 0);
		else
			die("unknown option");
	}
	s->uncompressed_data = true; /* this program stores every block as it is */
	s->codec = codec_by_name(comp);
	if (s->codec == NULL || !s->codec->supported) {
		fprintf(stderr, "write_image: compressor %s not available\n", comp);
		return 77;
	}
	char msg[256];
	s->codec->init_options(&s->codec_opts, s->block_size);
	if (s->codec->finish_options != NULL &&
	    s->codec->finish_options(&s->codec_opts, s->block_size, msg, sizeof(msg)) != 0)
		die(msg);
	void *state = s->codec->state_new(&s->codec_opts, 8192);
	if (state == NULL)
		die("cannot make a codec state");

	b->block = xcalloc(1, s->block_size);
	b->frag = xcalloc(1, s->block_size);
	if (image_out_open(&b->out, argv[1], &b->err) != 0 || image_begin(&b->out, s, &b->err) != 0)
		die(b->err.msg);
	struct tree tree = { .root = build(b, huge) };

	FILE *m = fopen(argv[3], "w");
	if (m == NULL)
		die("cannot create the manifest");
	manifest(b, tree.root, ".", argv[2], m);
	if (fclose(m) != 0)
		die("cannot write the manifest");

	struct image_stats st;
	if (image_finish(&b->out, s, &tree, b->frags, b->nfrags, state, &st, &b->err) != 0) {
		image_out_close(&b->out, false, &b->err);
		die(b->err.msg);
	}
	if (image_out_close(&b->out, true, &b->err) != 0)
		die(b->err.msg);
	printf("inodes %u ids %u xattr sets %u fragments %u bytes %llu inode table %llu/%llu "
	       "dir table %llu/%llu\n",
	       st.inode_count, st.id_count, st.xattr_id_count, st.fragment_count,
	       (unsigned long long)st.bytes_used, (unsigned long long)st.inode_table_bytes,
	       (unsigned long long)st.inode_table_raw, (unsigned long long)st.dir_table_bytes,
	       (unsigned long long)st.dir_table_raw);
	s->codec->state_free(state);
	/* The writer's per-inode records are in the tree's arena; the nodes are this file's. */
	struct tree_inode *root = tree.root;
	tree.root = NULL;
	tree_free(&tree);
	free_tree(root);
	free(b->block);
	free(b->frag);
	free(b);
	return 0;
}
