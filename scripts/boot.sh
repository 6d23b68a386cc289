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
# for it; @QMP@ in QEMU_ARGS names the QMP socket.
qmp=$log.qmp.sock
QEMU_ARGS=${QEMU_ARGS:-}
QEMU_ARGS=${QEMU_ARGS//@QMP@/$qmp}
helper=
if [ -n "${HOTPLUG:-}" ]; then
	rm -f "$log.qmp" "$qmp" "$log"
	python3 "$TOP/scripts/qmp-hotplug.py" "$log" "$qmp" "${HOTPLUG%%:*}" "${HOTPLUG#*:}" &
	helper=$!
fi

rc=0
# shellcheck disable=SC2086
if [ "$RIG_ARCH" = riscv64 ]; then
	machine=(qemu-system-riscv64 -M virt -bios /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin)
	# earlycon (the device tree's UART): a hang before the serial driver
	# still shows how far it got.
	console="earlycon console=ttyS0"
else
	machine=(qemu-system-aarch64 -M virt -cpu cortex-a76)
	console="console=ttyAMA0"
fi
boot_once() {
	timeout --foreground -k 5 "$TIMEOUT" "${machine[@]}" \
		-smp "$SMP" -m "$MEM" -nographic -no-reboot -nic none \
		-kernel "$image" -initrd "$INITRD" \
		-append "$console panic=-1 ${CMDLINE:-}" \
		${QEMU_ARGS:-} </dev/null >"$log" 2>&1 || rc=$?
}
rm -f "$log.retried" "$log.hung"
boot_once
# riscv64 guests under QEMU 7.2 have been seen to stop after OpenSBI's
# banner, before the kernel's first line, in 3 of 42 boots inside full
# matrix runs, never when run again. Such a boot, and only such a boot (no
# line at all from the kernel, whose early console starts before it parses
# numa=fake=), is run once more; the first log is kept and the retry is
# reported (matrix.sh adds it to the case's result). Not with a memory
# hot-add, whose QMP helper serves one boot.
if [ "$RIG_ARCH" = riscv64 ] && [ -z "$helper" ] && { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } &&
	grep -q '^OpenSBI' "$log" && ! grep -q 'Linux version' "$log"; then
	mv "$log" "$log.hung"
	echo "stopped after OpenSBI, before the kernel's first line; see $log.hung" >"$log.retried"
	rc=0
	boot_once
fi
[ -z "$helper" ] || { kill "$helper" 2>/dev/null; wait "$helper" 2>/dev/null; rm -f "$qmp"; } || true
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
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
