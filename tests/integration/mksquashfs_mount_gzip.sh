# mksquashfs_mount_gzip.sh — gzip images of gentree trees: loop mount and reference extraction match the source.
COMP=gzip SEED=1
. "$top_srcdir/tests/integration/mount-case.sh"
