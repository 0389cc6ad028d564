# mksquashfs_mount_zstd.sh — zstd images of gentree trees: loop mount and reference extraction match the source.
COMP=zstd SEED=5
. "$top_srcdir/tests/integration/mount-case.sh"
