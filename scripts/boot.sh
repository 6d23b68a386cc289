#!/bin/bash
# Boot an Image in QEMU (-M virt -cpu cortex-a76, the Pi 5 stand-in; or
# riscv64's -M virt with OpenSBI, RIG_ARCH=riscv64).
# Usage: boot.sh IMAGE LOG   with MEM, SMP, CMDLINE, QEMU_ARGS, TIMEOUT,
# INITRD from the environment. Succeeds when the guest's /init finished
# ("RIG done") and the machine powered off; otherwise prints the log's tail.
. "$(dirname "$0")/lib.sh"

image=$1 log=$2
MEM=${MEM:-4G}
SMP=${SMP:-4}
TIMEOUT=${TIMEOUT:-180}
INITRD=${INITRD:-$BUILD/initramfs$SUFFIX.cpio}
[ -f "$image" ] || die "no kernel image at $image"
[ -f "$INITRD" ] || die "no initramfs at $INITRD"
mkdir -p "$(dirname "$log")"

# Memory hot-add: HOTPLUG=MEMDEV:NODE plugs a pc-dimm once the guest asks
# for it; @QMP@ in QEMU_ARGS names the QMP socket. The socket lives in a
# private directory with a short name: a UNIX socket's path has at most
# 107 bytes, which a log's path in a deep clone can pass.
QEMU_ARGS=${QEMU_ARGS:-}
helper= sockdir=
if [ -n "${HOTPLUG:-}" ]; then
	sockdir=$(mktemp -d "${XDG_RUNTIME_DIR:-/tmp}/rig.XXXXXX") || die "no directory for the QMP socket"
	qmp=$sockdir/qmp
	QEMU_ARGS=${QEMU_ARGS//@QMP@/$qmp}
	rm -f "$log.qmp" "$log"
	python3 "$TOP/scripts/qmp-hotplug.py" "$log" "$qmp" "${HOTPLUG%%:*}" "${HOTPLUG#*:}" &
	helper=$!
fi

rc=0
if [ "$RIG_ARCH" = riscv64 ]; then
	# One host thread for all harts. Debian 12's OpenSBI (1.1) marks a
	# hart START_PENDING before it stores the hart's entry address
	# (fixed in OpenSBI 1.3, commit e8e9ed37), and its stopped harts
	# poll that state; with a thread per hart, about 1 boot in 130 had a
	# secondary hart enter the kernel at _start, clear its BSS (the page
	# tables among it) and hang at "smp: Bringing up secondary CPUs".
	# On one thread the race needs a switch of harts inside a window of a
	# few instructions: rare (none in 700 boots), not impossible.
	machine=(qemu-system-riscv64 -M virt -accel "tcg,thread=single"
		-bios /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin)
	# earlycon (the device tree's UART): a hang before the serial driver
	# still shows how far it got.
	console="earlycon console=ttyS0"
else
	machine=(qemu-system-aarch64 -M virt -cpu cortex-a76)
	console="console=ttyAMA0"
fi
# shellcheck disable=SC2086
timeout --foreground -k 5 "$TIMEOUT" "${machine[@]}" \
	-smp "$SMP" -m "$MEM" -nographic -no-reboot -nic none \
	-kernel "$image" -initrd "$INITRD" \
	-append "$console panic=-1 ${CMDLINE:-}" \
	${QEMU_ARGS:-} </dev/null >"$log" 2>&1 || rc=$?
[ -z "$helper" ] || { kill "$helper" 2>/dev/null; wait "$helper" 2>/dev/null; rm -rf "$sockdir"; } || true
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
# QEMU failed before the guest said anything (QEMU's error is the log's
# first line): an error of the rig, not of the kernel (exit status 3). A
# kernel that panics makes QEMU exit with 0 (-no-reboot), a hang with 124.
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] &&
	head -1 "$log" | grep -q '^qemu-system-[a-z0-9_]*: '; then
	cat "$log" >&2
	echo "error: QEMU did not start the guest (exit $rc, $log)" >&2
	exit 3
fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	tail -20 "$log" >&2
	echo "error: boot timed out after ${TIMEOUT}s ($log)" >&2
	exit 1
fi
if ! grep -q '^RIG done' "$log"; then
	tail -20 "$log" >&2
	echo "error: guest did not finish (qemu exit $rc, $log)" >&2
	exit 1
fi
