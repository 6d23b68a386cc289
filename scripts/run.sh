#!/bin/bash
# make run: everything from a fresh machine to a booted kernel with
# numa=fake=$NODES, showing the node layout with the real numactl.
. "$(dirname "$0")/lib.sh"
check_pages "$PAGES"
NODES=${NODES:-4}

step "checking packages" "$TOP/scripts/deps.sh"
"$TOP/scripts/tree.sh"
step "building arm64 kernel ($(basename "$TREE"), $PAGES pages, $VARIANT)" \
	"$TOP/scripts/build.sh" >/dev/null
step "building initramfs" "$TOP/scripts/initramfs.sh" >/dev/null
log=$BUILD/logs/run.log
image=$(outdir)/arch/arm64/boot/Image
fake="numa=fake=$NODES"
[ "$NODES" = "none" ] && fake=
say "booting: qemu -M virt -cpu cortex-a76 -smp ${SMP:-4} -m ${MEM:-4G}, cmdline '$fake ${CMDLINE:-}'"
CMDLINE="$fake rig.mode=show ${CMDLINE:-}" step "boot" "$TOP/scripts/boot.sh" "$image" "$log"
sed -n '/^=== kernel NUMA lines/,/^RIG done/p' "$log" | grep -v '^RIG done'
say "full console log: $log"
