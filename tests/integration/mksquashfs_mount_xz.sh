# mksquashfs_mount_xz.sh — xz images of gentree trees: loop mount and reference extraction match the source.
COMP=xz SEED=2
TREE_OPTS=--no-huge
. "$top_srcdir/tests/integration/mount-case.sh"
