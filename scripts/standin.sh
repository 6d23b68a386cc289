#!/bin/bash
# The Raspberry Pi OS stand-in: a Debian 12 arm64 disk laid out as
# Raspberry Pi OS lays out its SD card (a FAT partition mounted at
# /boot/firmware with cmdline.txt, an ext4 root), systemd as PID 1, sudo,
# the user "pi", the clients under test (hwloc, atop, sysstat, stress-ng)
# and a local apt repository with what the guide installs (numactl, gcc),
# so that "sudo apt-get install -y numactl" works offline.
# Usage: standin.sh KERNEL_IMAGE   (a kernel built with VARIANT=standin)
# Prints the disk image's path. The image is cached outside build/, keyed
# by the package lists, the mirror and the files that make it (not by the
# jobs: scripts/standin-boot.sh delivers those on a disk of their own at
# each boot); debootstrap's first stage runs on the host (no arm64 code),
# its second stage once inside a QEMU guest booted from the new disk.
. "$(dirname "$0")/lib.sh"
kernel=${1:?usage: standin.sh KERNEL_IMAGE}
BASE=systemd,systemd-sysv,udev,dbus,sudo,kmod,procps,dosfstools,libnuma1,hwloc-nox,atop,sysstat,stress-ng
REPO=numactl,gcc,libc6-dev
MIRROR=${STANDIN_MIRROR:-http://deb.debian.org/debian}
IMAGE_FILES="stage2 rig-guest rig.service rig-numapolicy.service"
key=$( (echo "$BASE $REPO $MIRROR"; cat "$0"; for f in $IMAGE_FILES; do cat "$TOP/standin/$f"; done) |
	sha1sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-${rig_home:-$BUILD}/.cache}/numa-emu-standin
{ mkdir -p "$cache" && [ -w "$cache" ]; } 2>/dev/null || cache=$BUILD/standin-cache
mkdir -p "$cache"
img=$cache/standin-$key.img
# One build at a time; a second caller waits, then finds the image.
exec 9>"$cache/.lock"
flock 9
[ -f "$img" ] && { echo "$img"; exit 0; }

work=$BUILD/standin
trap 'as_root rm -rf "$work/root" "$work/dl" "$work/root.img"; rm -f "$img.tmp"' EXIT
as_root rm -rf "$work"
mkdir -p "$work/debs"
root=$work/root
# Debian's arm64 packages, unpacked on the host (root: device nodes and
# file owners); the repository is what BASE+REPO needs beyond BASE.
step "debootstrap --foreign (arm64)" as_root debootstrap --foreign --arch=arm64 --variant=minbase \
	--cache-dir="$work/debs" --include="$BASE" bookworm "$root" "$MIRROR" >"$work/debootstrap.log" ||
	die "debootstrap failed (see $work/debootstrap.log)"
step "the guide's packages" as_root debootstrap --download-only --arch=arm64 --variant=minbase \
	--cache-dir="$work/debs" --include="$BASE,$REPO" bookworm "$work/dl" "$MIRROR" >>"$work/debootstrap.log" ||
	die "debootstrap --download-only failed (see $work/debootstrap.log)"
repo=$root/var/local/rig-repo
as_root mkdir -p "$repo"
for d in "$work"/dl/var/cache/apt/archives/*.deb; do
	[ -e "$root/var/cache/apt/archives/${d##*/}" ] || as_root cp "$d" "$repo/"
done
(cd "$repo" && dpkg-scanpackages -m . 2>/dev/null) | as_root tee "$repo/Packages" >/dev/null
grep -q '^Package: numactl$' "$repo/Packages" || die "the local repository has no numactl"

# The rig's files: the first boot's init and the job runner (the jobs come
# at boot, on a disk of their own).
as_root install -m 0755 "$TOP/standin/stage2" "$root/rig-stage2"
as_root install -D -m 0755 "$TOP/standin/rig-guest" "$root/usr/local/sbin/rig-guest"
as_root install -D -m 0644 -t "$root/etc/systemd/system" "$TOP/standin/rig.service" \
	"$TOP/standin/rig-numapolicy.service"

# The disk: 4 MiB, a 256 MiB FAT partition, the root file system.
boot_mib=256 root_mib=2048
# (mke2fs says on stdout that it creates the file; stdout is the image's path)
as_root mke2fs -q -t ext4 -L rootfs -d "$root" "$work/root.img" "${root_mib}M" >&2 ||
	die "mke2fs failed"
mkfs.vfat -F 32 -C -n bootfs "$work/boot.img" $((boot_mib * 1024)) >/dev/null 2>&1 ||
	die "mkfs.vfat failed"
# Raspberry Pi OS names the root by PARTUUID: the MBR's disk signature
# (below) and the partition number.
printf 'console=ttyAMA0 root=PARTUUID=6e756d61-02 rootfstype=ext4 fsck.repair=yes rootwait\n' \
	>"$work/cmdline.txt"
printf '[all]\narm_64bit=1\nkernel=kernel_2712.img\n' >"$work/config.txt"
mcopy -i "$work/boot.img" "$work/cmdline.txt" "$work/config.txt" ::
truncate -s $(((4 + boot_mib + root_mib + 1) * 1024 * 1024)) "$work/disk.img"
# An MBR with the two partitions (FAT32 LBA 0x0c, Linux 0x83).
python3 - "$work/disk.img" "$boot_mib" "$root_mib" <<'PY' || die "cannot write the partition table"
import struct, sys
img, boot, root = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
mib = 2048  # sectors
def entry(kind, start, size):
    return struct.pack("<B3sB3sII", 0, b"\xfe\xff\xff", kind, b"\xfe\xff\xff", start, size)
mbr = entry(0x0C, 4 * mib, boot * mib) + entry(0x83, (4 + boot) * mib, root * mib) + bytes(32)
with open(img, "r+b") as f:
    f.seek(440)
    f.write(struct.pack("<I", 0x6e756d61) + bytes(2) + mbr + b"\x55\xaa")
PY
dd if="$work/boot.img" of="$work/disk.img" bs=1M seek=4 conv=notrunc,sparse status=none
as_root dd if="$work/root.img" of="$work/disk.img" bs=1M seek=$((4 + boot_mib)) conv=notrunc,sparse status=none
as_root rm -rf "$root" "$work/dl" "$work/root.img"

# The second stage, once, in the guest.
log=$work/stage2.log
step "debootstrap --second-stage (in QEMU)" timeout --foreground -k 5 "${STANDIN_TIMEOUT:-2400}" \
	qemu-system-aarch64 -M virt -cpu cortex-a76 -smp 2 -m 2G -nographic -no-reboot -nic none \
	-kernel "$kernel" -append "console=ttyAMA0 panic=-1 root=PARTUUID=6e756d61-02 rw rootwait init=/rig-stage2" \
	-drive file="$work/disk.img",format=raw,if=none,id=d0 -device virtio-blk-pci,drive=d0 \
	</dev/null >"$log" 2>&1 || true
grep -q '^RIG stage2 ok' <(tr -d '\r' <"$log") || { tail -20 "$log" >&2; die "the second stage failed ($log)"; }
mv "$work/disk.img" "$img.tmp" && mv "$img.tmp" "$img"
trap - EXIT
say "stand-in: $img ($(du -m "$img" | cut -f1) MiB on disk)"
echo "$img"
