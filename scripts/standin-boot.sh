#!/bin/bash
# Boot the Raspberry Pi OS stand-in (scripts/standin.sh) once, its disk in
# QEMU's snapshot mode (writes are discarded) unless PERSIST=1, with the
# kernel command line the boot partition's cmdline.txt holds plus
# CMDLINE, as the Pi's firmware would pass it. The rig's job (rig.run= in CMDLINE) writes its output to
# the virtio console, OUT; the serial console (kernel and systemd) goes
# to LOG. The jobs come on a second disk, a FAT image made here of the
# files in JOBS (scripts/standin-jobs.sh makes them), so that a
# change to a job does not rebuild the stand-in.
# PRE_CMDLINE goes before cmdline.txt, as the firmware puts its own options.
# CMDLINE_TXT names the file of the FAT partition to read instead of
# cmdline.txt (the firmware's cmdline= or os_prefix=). PERSIST=1 keeps
# what the guest writes to DISK, and a boot that ends in a reboot (QEMU
# stops there: -no-reboot) counts as finished too; OUT's name with
# .reboot then says how (from the kernel's "reboot: Restarting system" line).
# Usage: standin-boot.sh KERNEL DISK LOG OUT
#        (JOBS; MEM, SMP, QEMU_ARGS, TIMEOUT, PRE_CMDLINE, CMDLINE, CMDLINE_TXT, PERSIST)
. "$(dirname "$0")/lib.sh"
kernel=$1 disk=$2 log=$3 out=$4
mkdir -p "$(dirname "$log")" "$(dirname "$out")"
rm -f "$out"
# cmdline.txt from the FAT partition (4 MiB into the disk).
txt=${CMDLINE_TXT:-cmdline.txt}
cmd=$(mtype -i "$disk@@4M" "::$txt" | head -1 | tr -d '\r')
[ -n "$cmd" ] || die "no $txt on $disk"
# The virtio console is the rig's channel, not a login console: no getty
# there (its vhangup would cut the job's output).
rigcons=systemd.mask=serial-getty@hvc0.service
jobs=${out%.out}.jobs.img
rm -f "$jobs"
# 16 MiB, or the jobs' size and 8 MiB more.
kib=$(du -sk "${JOBS:?JOBS: the directory of the stand-in jobs}" | cut -f1)
kib=$((kib + 8192 > 16384 ? kib + 8192 : 16384))
mkfs.vfat -C -n RIGJOBS "$jobs" "$kib" >/dev/null 2>&1 || die "mkfs.vfat failed ($jobs)"
mcopy -s -i "$jobs" "$JOBS"/* :: || die "mcopy failed ($jobs)"
snap=,snapshot=on
[ -n "${PERSIST:-}" ] && snap=
# The rig's options first (the job's console), then the firmware's, then
# the file's: the last option on the line is the user's, as on the Pi.
# (Runs of blanks become one; no option here has quoted blanks.)
append=$(set -f; echo panic=-1 $rigcons ${PRE_CMDLINE:-} $cmd ${CMDLINE:-})
rc=0
# shellcheck disable=SC2086
timeout --foreground -k 5 "${TIMEOUT:-600}" qemu-system-aarch64 -M virt -cpu cortex-a76 \
	-smp "${SMP:-4}" -m "${MEM:-4G}" -nographic -no-reboot -nic none \
	-kernel "$kernel" -append "$append" \
	-drive file="$disk",format=raw,if=none,id=d0$snap -device virtio-blk-pci,drive=d0 \
	-drive file="$jobs",format=raw,if=none,id=d1,readonly=on -device virtio-blk-pci,drive=d1 \
	-device virtio-serial-pci -chardev file,id=h0,path="$out" -device virtconsole,chardev=h0 \
	${QEMU_ARGS:-} </dev/null >"$log" 2>&1 || rc=$?
# The consoles are terminals in the guest: their lines end in CR LF.
tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
[ ! -f "$out" ] || { tr -d '\r' <"$out" >"$out.tmp" && mv "$out.tmp" "$out"; }
rm -f "$jobs"
# How the boot ended, for a caller that plays the firmware (OUT's name
# with .reboot): "with 'ARGUMENT'", "plain", or empty (no reboot).
ended=${out%.out}.reboot
sed -n "s/.*reboot: Restarting system with command '\(.*\)'\$/with '\1'/p; s/.*reboot: Restarting system\$/plain/p" \
	"$log" | tail -1 >"$ended"
if ! grep -q '^RIG done' "$out" 2>/dev/null && ! { [ -n "${PERSIST:-}" ] && [ -s "$ended" ]; }; then
	tail -20 "$log" >&2
	die "the stand-in did not finish (qemu exit $rc, $log)"
fi
