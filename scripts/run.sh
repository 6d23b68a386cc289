#!/bin/bash
# make run: everything from a fresh machine to a booted kernel with
# numa=fake=$NODES, showing the node layout with the real numactl.
. "$(dirname "$0")/lib.sh"
check_pages "$PAGES"
NODES=${NODES:-4}

step "checking packages" "$TOP/scripts/deps.sh"
"$TOP/scripts/tree.sh"
image=$(outdir)/$IMAGE
# A cold build compiles about 400 CPU-seconds of kernel (191 s measured on
# 2 cores); with ccache warm, a rebuild takes seconds.
[ -f "$image" ] || say "first build of this kernel: about $(((400 / $(nproc) + 59) / 60)) min on $(nproc) cores; later runs take seconds"
step "building arm64 kernel ($(basename "$TREE"), $PAGES pages, $VARIANT)" \
	"$TOP/scripts/build.sh" >/dev/null
mkdir -p "$BUILD/logs"
ilog=$BUILD/logs/initramfs.log
initramfs() { "$TOP/scripts/initramfs.sh" >/dev/null 2>"$ilog" || { cat "$ilog" >&2; return 1; }; }
step "building initramfs" initramfs || die "initramfs failed ($ilog)"
log=$BUILD/logs/run.log
fake="numa=fake=$NODES"
[ "$NODES" = "none" ] && fake=
say "booting: qemu -M virt -cpu cortex-a76 -smp ${SMP:-4} -m ${MEM:-4G}, cmdline '$fake ${CMDLINE:-}'"
CMDLINE="$fake rig.mode=show ${CMDLINE:-}" step "boot" "$TOP/scripts/boot.sh" "$image" "$log"
sed -n '/^=== kernel NUMA lines/,/^RIG done/p' "$log" | grep -v '^RIG done'
say "full console log: $log"
