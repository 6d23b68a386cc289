#!/bin/bash
# Boot the Raspberry Pi OS stand-in (scripts/standin.sh) once, its disk in
# QEMU's snapshot mode (writes are discarded), with the kernel command line the
# boot partition's cmdline.txt holds plus CMDLINE, as the Pi's firmware
# would pass it. The rig's job (rig.run= in CMDLINE) writes its output to
# the virtio console, OUT; the serial console (kernel and systemd) goes
# to LOG. The jobs come on a second disk, a FAT image made here of the
# files in JOBS (scripts/standin-jobs.sh makes them), so that a
# change to a job does not rebuild the stand-in.
# PRE_CMDLINE goes before cmdline.txt, as the firmware puts its own options.
# Usage: standin-boot.sh KERNEL DISK LOG OUT   (JOBS; MEM, SMP, QEMU_ARGS, TIMEOUT)
. "$(dirname "$0")/lib.sh"
kernel=$1 disk=$2 log=$3 out=$4
mkdir -p "$(dirname "$log")" "$(dirname "$out")"
rm -f "$out"
# cmdline.txt from the FAT partition (4 MiB into the disk).
cmd=$(mtype -i "$disk@@4M" ::cmdline.txt | head -1 | tr -d '\r')
[ -n "$cmd" ] || die "no cmdline.txt on $disk"
# The virtio console is the rig's channel, not a login console: no getty
# there (its vhangup would cut the job's output).
rigcons=systemd.mask=serial-getty@hvc0.service
jobs=${out%.out}.jobs.img
rm -f "$jobs"
mkfs.vfat -C -n RIGJOBS "$jobs" 16384 >/dev/null 2>&1 || die "mkfs.vfat failed ($jobs)"
mcopy -s -i "$jobs" "${JOBS:?JOBS: the directory of the stand-in jobs}"/* :: || die "mcopy failed ($jobs)"
rc=0
# shellcheck disable=SC2086
timeout --foreground -k 5 "${TIMEOUT:-600}" qemu-system-aarch64 -M virt -cpu cortex-a76 \
	-smp "${SMP:-4}" -m "${MEM:-4G}" -nographic -no-reboot -nic none \
	-kernel "$kernel" -append "panic=-1 ${PRE_CMDLINE:-} $cmd ${CMDLINE:-} $rigcons" \
	-drive file="$disk",format=raw,if=none,id=d0,snapshot=on -device virtio-blk-pci,drive=d0 \
	-drive file="$jobs",format=raw,if=none,id=d1,readonly=on -device virtio-blk-pci,drive=d1 \
	-device virtio-serial-pci -chardev file,id=h0,path="$out" -device virtconsole,chardev=h0 \
	${QEMU_ARGS:-} </dev/null >"$log" 2>&1 || rc=$?
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
if ! grep -q '^RIG done' "$out" 2>/dev/null; then
	tail -20 "$log" >&2
	die "the stand-in did not finish (qemu exit $rc, $log)"
fi
