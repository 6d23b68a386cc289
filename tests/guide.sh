#!/bin/bash
# make guide: the Raspberry Pi 5 guide (docs/pi5.md), followed as written.
# The code blocks of its sections from "## Do you need it?" to the one
# before "## Measuring interleaving" start with "# on the PC" or "# on
# the Pi". PC blocks run here, in one bash, in a copy of this
# repository, with HOME=build/guide/home; Pi blocks run on the Raspberry
# Pi OS stand-in (scripts/standin.sh) in QEMU, as the user pi with real
# sudo, apt-get and systemd, one boot per "sudo reboot" (run as written),
# the same disk from boot to boot. The host plays the firmware between
# boots, on that disk's FAT partition (mtools, no mounts): config.txt or,
# after "reboot '0 tryboot'", tryboot.txt; os_prefix=; kernel_2712.img,
# the device tree and cmdline.txt from there; its own options in front
# of cmdline.txt. Then the guide's measurement, in a guest under -icount.
# Prints "PASS|guide-...|..." or "FAIL|guide-...|...".
. "$(dirname "$0")/../scripts/lib.sh"
G=$BUILD/guide
H=$G/home
GUIDE=$TOP/docs/pi5.md

# What cannot be done here, and what stands in for it (guide line ->
# command run instead). A line named here that the guide no longer has
# is an error: the guide changed and this list must follow it.
declare -A standin=(
	# No GitHub access here: Debian's 6.1.y source, without Raspberry Pi's
	# changes (the stamp lets the end check that the tree was not changed).
	["git clone --depth 1 --branch rpi-6.1.y https://github.com/raspberrypi/linux ~/rpi-linux"]="mkdir -p ~/rpi-linux && tar -xf /usr/src/linux-source-6.1.tar.xz -C ~/rpi-linux --strip-components=1 && touch ~/.rpi-linux.stamp"
	# bcm2712_defconfig exists only in the Raspberry Pi tree: the rig's QEMU
	# configuration with 16K pages as on the Pi 5, without NUMA (checked),
	# so that the guide's own lines must switch it on.
	['make O="$HOME/pi5" bcm2712_defconfig']="KCONFIG_ALLCONFIG=$G/pi5-standin.config make O=\"\$HOME/pi5\" allnoconfig && test -z \"\$(grep -x 'CONFIG_NUMA=y' ~/pi5/.config)\""
	# The Pi 5's device trees and overlays are only in the Raspberry Pi
	# tree: QEMU's tree with the Pi 5's 6.1 memory map, and an overlays/README.
	['make O="$HOME/pi5" -j"$(nproc)" Image.gz modules dtbs']='make O="$HOME/pi5" -j"$(nproc)" Image.gz modules'
	["cp ~/pi5/arch/arm64/boot/dts/broadcom/bcm2712*.dtb ~/pi5-install/numa61/"]="cp $G/pi5.dtb ~/pi5-install/numa61/bcm2712-rpi-5-b.dtb"
	["cp ~/pi5/arch/arm64/boot/dts/overlays/*.dtb* arch/arm64/boot/dts/overlays/README ~/pi5-install/numa61/overlays/"]="cp $G/overlays/README ~/pi5-install/numa61/overlays/"
	# The rig puts both in pi's home at the stand-in's first boot.
	["scp -r ~/pi5-install ~/numa_emu-ksft pi@raspberrypi.local:"]="test -d ~/pi5-install/root/lib/modules"
	# No rpi-eeprom-config and no vcgencmd (no bootloader EEPROM in QEMU).
	['sudo rpi-eeprom-config | grep SDRAM_BANKLOW || echo "SDRAM_BANKLOW not set: the bootloader'"'"'s default"']="echo 'no rpi-eeprom-config in the stand-in'"
	["vcgencmd bootloader_version"]="echo 'no vcgencmd in the stand-in'"
)
# The guide's measurement (section "Measuring interleaving"):
# its lines, and what runs instead in the -icount guest.
declare -A measure=(
	["cc -O2 -pthread -o bench ~/pi5-install/bench.c -lm"]="cp /opt/rig/bench ./bench"
	["./bench -A -r 10 -m 16 -o fake8.txt"]="./bench -A -r 3 -m 8 -o fake8.txt"
)
# The firmware's part of the command line, for three kinds of firmware:
# none (the rpi-6.1.y device trees, or another boot loader), the later
# device trees' numa_policy=, and that with the numa=fake=8 that boards
# with recent firmware show. The rig.* options run the guide's commands.
kinds="none policy fake8"
firmware_none=
firmware_policy="reboot=w coherent_pool=1M 8250.nr_uarts=1 pci=pcie_bus_safe cgroup_disable=memory numa_policy=interleave"
firmware_fake8="$firmware_policy nvme.max_host_mem_size_mb=0 numa=fake=8 system_heap.max_order=0 iommu_dma_numa_policy=interleave"
# Raspberry Pi OS's cmdline.txt; its consoles (serial0, tty1) are the Pi's,
# the guest's serial console is ttyAMA0; the root is the stand-in's.
cmdline_txt="console=ttyAMA0,115200 root=PARTUUID=6e756d61-02 rootfstype=ext4 fsck.repair=yes rootwait"

# Whatever stops this script early is a failure that "make check" counts.
trap 'rc=$?; [ $rc -eq 0 ] || echo "FAIL|guide|stopped early (exit $rc), see $G/logs"' EXIT
rm -rf "$G"
mkdir -p "$H" "$G/logs"
# The packages of the rig, rsync for "make tree" with KERNEL_SRC, kmod for
# modules_install, mtools and dosfstools for the boot partition, debootstrap
# and dpkg-dev for the stand-in.
EXTRA_PKGS="rsync kmod mtools dosfstools debootstrap dpkg-dev" step "checking packages" "$TOP/scripts/deps.sh" >&2

# The guide's command lines, "PC<TAB>line" and "PI<TAB>line", in order;
# "BAD<TAB>line" for a code block of those sections without either marker.
awk '
/^## Do you need it/ { s = 1; next }
/^## Measuring interleaving/ { s = 0 }
s && /^ *```/ && !b { b = 1; where = "?"; next }
s && b && /^ *```/ { b = 0; next }
s && b {
	sub(/^ +/, "")
	if (where == "?") {
		if ($0 ~ /^# on the PC$/) { where = "PC"; next }
		if ($0 ~ /^# on the Pi$/) { where = "PI"; next }
		where = "BAD"
	}
	print where "\t" $0
}' "$GUIDE" >"$G/steps"
if grep -q '^BAD' "$G/steps" || ! grep -q '^PC' "$G/steps" || ! grep -q '^PI' "$G/steps"; then
	echo "FAIL|guide-doc|every code block of docs/pi5.md's steps must start with '# on the PC' or '# on the Pi' ($(grep -m1 '^BAD' "$G/steps" | cut -f2-))"
	exit 0
fi
for l in "${!standin[@]}"; do
	grep -qxF -e "PC	$l" -e "PI	$l" "$G/steps" || {
		echo "FAIL|guide-doc|docs/pi5.md no longer has '$l' (tests/guide.sh stands in for it)"
		exit 0
	}
done
for l in "${!measure[@]}"; do
	grep -qxF "$l" "$GUIDE" || {
		echo "FAIL|guide-doc|docs/pi5.md's measurement no longer has '$l' (tests/guide.sh stands in for it)"
		exit 0
	}
done

# The measurement tool's arithmetic first: it needs no kernel.
"$TOP/tests/bench-arith.sh"

say "the Pi 5 guide: what stands in for what cannot be done here"
for l in "${!standin[@]}"; do echo "    '$l' -> '${standin[$l]}'" >&2; done
for l in "${!measure[@]}"; do echo "    '$l' -> '${measure[$l]}' (in a guest under -icount)" >&2; done
echo "    the Pi's SD card -> a copy of the stand-in's disk (virtio), kept from boot to boot; its firmware -> the host, reading config.txt/tryboot.txt on its FAT partition with mtools, the reboot's argument from the kernel's log" >&2
echo "    the installed kernel -> the same configuration built from the unchanged ~/rpi-linux (no NUMA)" >&2
echo "    Raspberry Pi OS -> the stand-in (Debian 12 arm64, systemd, sudo, the user pi, a local apt repository); ~/pi5-install and ~/numa_emu-ksft put in pi's home at the first boot" >&2

# The PC part: one bash script in a copy of the repository's files (the
# user's build/ is never touched, and its history is not needed), each
# line echoed before it runs.
{
	cat "$TOP/configs/qemu.config" "$TOP/configs/arch-arm64.config" "$TOP/configs/pages-16k.config"
	echo "# What a Pi 5 configuration has besides: modules, compaction, SysV IPC, cpusets,"
	echo "# a block device (virtio for the SD card) and FAT for /boot/firmware."
	printf 'CONFIG_%s=y\n' MODULES COMPACTION SYSVIPC CGROUPS CPUSETS \
		BLOCK BLK_DEV VIRTIO_MENU VIRTIO_MMIO VIRTIO_BLK VFAT_FS NLS NLS_CODEPAGE_437 NLS_ISO8859_1
	# What Raspberry Pi OS (the stand-in) needs to boot: its disk, ext4, systemd.
	cat "$TOP/configs/standin.config"
} | grep -v -e '^CONFIG_MEMORY_HOTPLUG=' -e '^CONFIG_MIGRATION=' >"$G/pi5-standin.config"
# (Memory hotplug and migration are left to the guide's own lines, which
# the kselftest's options need; CMA selects migration anyway.)
# The Pi's device tree and overlays, for the guide's copy lines.
"$TOP/scripts/dtb.sh" pi5-map-61 8G 4 >/dev/null || die "no device tree"
cp "$("$TOP/scripts/dtb.sh" pi5-map-61 8G 4)" "$G/pi5.dtb"
mkdir -p "$G/overlays"
echo "Overlays of the stand-in: none." >"$G/overlays/README"
clone=$G/clone
rsync -a --exclude=/build --exclude=/.git "$TOP/" "$clone/"
{
	echo 'set -euo pipefail'
	echo "cd \"$clone\""
	grep '^PC' "$G/steps" | cut -f2- | while IFS= read -r l; do
		run=$l
		[ -n "${standin[$l]+set}" ] && run=${standin[$l]}
		printf 'echo %q\n' "\$ $run"
		printf '%s\n' "$run"
	done
} >"$G/pc.sh"
# A clean environment (no make variables or rig knobs leak in); ccache for
# the guide's own build when it is there (no change to its commands).
pcpath=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
[ -d /usr/lib/ccache ] && pcpath=/usr/lib/ccache:$pcpath
if ! step "the guide's PC steps (tree, configuration, kernel, kselftest)" \
	env -i HOME="$H" PATH="$pcpath" LANG=C.UTF-8 CCACHE_DIR="$CCACHE_DIR" CCACHE_BASEDIR="$CCACHE_BASEDIR" CCACHE_DEPEND=1 CCACHE_MAXSIZE="$CCACHE_MAXSIZE" \
	bash "$G/pc.sh" >"$G/logs/pc.log" 2>&1; then
	tail -15 "$G/logs/pc.log" >&2
	echo "FAIL|guide-pc|a PC step failed: $(grep '^\$ ' "$G/logs/pc.log" | tail -1) ($G/logs/pc.log)"
	exit 0
fi
image=$H/pi5/arch/arm64/boot/Image.gz
cfg=$H/pi5/.config
custom=$clone/build/linux-custom
npatches=$(grep -vc -e '^#' -e '^[[:space:]]*$' "$TOP/patches/series")
inst=$H/pi5-install
why=()
[ -f "$image" ] || why+=("no Image.gz")
for o in NUMA NUMA_EMULATION MIGRATION MEMORY_HOTPLUG; do
	grep -qx "CONFIG_$o=y" "$cfg" || why+=("CONFIG_$o is not =y")
done
grep -qx 'CONFIG_LOCALVERSION="-numa-emu"' "$cfg" || why+=("LOCALVERSION is not -numa-emu")
[ "$(git -C "$custom" rev-list --count base..HEAD 2>/dev/null)" = "$npatches" ] || why+=("the $npatches patches are not on the copy")
[ -d "$H/rpi-linux" ] && [ -z "$(find "$H/rpi-linux" -newer "$H/.rpi-linux.stamp" -print -quit)" ] || why+=("~/rpi-linux missing or changed")
[ -x "$H/numa_emu-ksft/run_kselftest.sh" ] && [ -x "$H/numa_emu-ksft/numa_emu/numa_emu_test" ] || why+=("no kselftest in ~/numa_emu-ksft")
cmp -s "$image" "$inst/numa61/kernel_2712.img" && [ -f "$inst/numa61/bcm2712-rpi-5-b.dtb" ] &&
	[ -f "$inst/numa61/overlays/README" ] || why+=("~/pi5-install/numa61 lacks the kernel, the device tree or overlays/README")
ls -d "$inst"/root/lib/modules/*-numa-emu* >/dev/null 2>&1 || why+=("no modules directory of the -numa-emu kernel")
[ -z "$(find "$inst" -type l)" ] || why+=("~/pi5-install holds links: $(find "$inst" -type l | head -2 | paste -sd' ')")
[ -f "$inst/bench.c" ] && [ -f "$inst/vmstat.h" ] || why+=("no bench.c and vmstat.h in ~/pi5-install")
if [ ${#why[@]} -gt 0 ]; then
	echo "FAIL|guide-pc|$(printf '%s; ' "${why[@]}")($G/logs/pc.log)"
	exit 0
fi
echo "PASS|guide-pc|$npatches patches on a copy of the unchanged KERNEL_SRC, NUMA, NUMA_EMULATION, MIGRATION, MEMORY_HOTPLUG and -numa-emu set by the guide's lines, Image.gz, modules, the kselftest and ~/pi5-install built"

# The kernel the Pi runs before the guide: the stand-in configuration,
# from the unchanged ~/rpi-linux (no NUMA emulation, no NUMA).
old=$G/old
if ! step "the installed kernel's stand-in (the unchanged tree)" \
	env -i HOME="$H" PATH="$pcpath" LANG=C.UTF-8 CCACHE_DIR="$CCACHE_DIR" CCACHE_BASEDIR="$CCACHE_BASEDIR" CCACHE_DEPEND=1 CCACHE_MAXSIZE="$CCACHE_MAXSIZE" \
	bash -c "cd ~/rpi-linux && export ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- &&
		KCONFIG_ALLCONFIG=$G/pi5-standin.config make O=$old allnoconfig &&
		make O=$old -j\$(nproc) Image.gz" >"$G/logs/old.log" 2>&1; then
	echo "FAIL|guide-old|the installed kernel's stand-in does not build ($G/logs/old.log)"
	exit 0
fi
# Both kernels must have what the stand-in needs (an option Kconfig drops
# would show as a boot that hangs).
for c in "$old/.config" "$cfg"; do
	if ! "$TOP/scripts/config-check.sh" "$G/pi5-standin.config" "$c" >"$G/logs/config-check.log" 2>&1; then
		echo "FAIL|guide-config|$c lacks options of $G/pi5-standin.config: $(head -3 "$G/logs/config-check.log" | paste -sd' ')"
		exit 0
	fi
done

# The Pi part, on the Raspberry Pi OS stand-in (scripts/standin.sh): one
# disk per kind of firmware, written by the guest and kept from boot to
# boot; a boot ends where the guide says "sudo reboot" (or "sudo reboot
# '0 tryboot'"), run by pi as written, and the host, as the firmware,
# boots the same disk again. Its first stage needs a kernel that boots
# the stand-in: the installed kernel's stand-in does.
if ! disk=$(step "the Raspberry Pi OS stand-in" "$TOP/scripts/standin.sh" "$old/arch/arm64/boot/Image.gz" \
	2>"$G/logs/standin.log"); then
	echo "FAIL|guide-standin|the stand-in cannot be made ($G/logs/standin.log)"
	exit 0
fi
# "boot<TAB>line<TAB>run" per Pi command; $G/reboots: "boot<TAB>line"
# for each boot that ends in a reboot.
grep '^PI' "$G/steps" | cut -f2- | while IFS= read -r l; do
	if [[ $l == "sudo reboot"* ]]; then
		printf 'REBOOT\t%s\n' "$l"
	elif [ -n "${standin[$l]+set}" ]; then
		printf '%s\t%s\n' "$l" "${standin[$l]}"
	else
		printf '%s\t%s\n' "$l" "$l"
	fi
done | awk -F'\t' -v r="$G/reboots" '
	$1 == "REBOOT" { print n + 0 "\t" $2 >r; n++; next }
	{ print n + 0 "\t" $0 }' >"$G/pi-steps"
boots=$(($(wc -l <"$G/reboots") + 1))

# The jobs disk of every boot: for boot B, guide-B (run by the stand-in's
# job runner as root) and guide-B.pi (the guide's commands of that boot,
# run by pi in a login shell, each between "RIG guide $ LINE" and "RIG
# guide rc N"; a boot that ends in a reboot ends in the guide's reboot
# line itself); home.tar, what "scp" would have copied.
J=$G/jobs
mkdir -p "$J"
tar -C "$H" -cf "$J/home.tar" pi5-install numa_emu-ksft
for ((b = 0; b < boots; b++)); do
	r=$(awk -F'\t' -v b="$b" '$1 == b { print $2 }' "$G/reboots")
	{
		echo '#!/bin/bash'
		echo "# The guide's boot $b, as the user pi; exits with the number of commands that failed."
		echo 'cd ~; rig_failed=0'
		awk -F'\t' -v b="$b" '$1 == b { print $2 "\t" $3 }' "$G/pi-steps" | while IFS=$'\t' read -r l run; do
			printf 'echo %q\n' "RIG guide \$ $l"
			printf '%s\n' "$run"
			echo 'rig_rc=$?; echo "RIG guide rc $rig_rc"; [ "$rig_rc" -eq 0 ] || rig_failed=$((rig_failed + 1))'
		done
		if [ -n "$r" ]; then
			printf 'echo %q\n' "RIG guide reboot: $r"
			printf '%s\n' "$r"
		fi
		echo 'exit "$rig_failed"'
	} >"$J/guide-$b.pi"
	{
		echo '#!/bin/bash'
		echo "# The guide's boot $b on the stand-in (rig.run=guide-$b)."
		echo 'if [ -d /sys/devices/system/node ]; then echo "RIG nodes online $(cat /sys/devices/system/node/online)"; else echo "RIG nodes none"; fi'
		echo 'mountpoint -q /boot/firmware || echo "RIG guide no /boot/firmware"'
		if [ "$b" = 0 ]; then
			echo '# What "scp -r ~/pi5-install ~/numa_emu-ksft pi@raspberrypi.local:" copies.'
			echo 'tar -C /home/pi --no-same-owner -m -xf "$RIG_JOBS/home.tar" && chown -R pi:pi /home/pi/pi5-install /home/pi/numa_emu-ksft || echo "RIG guide no home files"'
		fi
		echo "runuser -l pi -c \"bash \$RIG_JOBS/guide-$b.pi\""
		if [ -n "$r" ]; then
			echo '# pi rebooted: systemd stops this job on the way down.'
			echo 'rc=$?; sleep 120'
			echo 'echo "RIG guide no reboot"; exit "$rc"'
		fi
	} >"$J/guide-$b"
done

# The firmware, from the boot partition: "config-file|prefix|
# kernel|cmdline-file" for this boot (tryboot: 1 for the boot after
# "reboot '0 tryboot'"). Sections: [all], [pi5], and [tryboot] on a
# tryboot; others ([cm4], [cm5], ...) do not apply to a Pi 5.
firmware() { # fat tryboot
	local cf=config.txt
	[ "$2" = 1 ] && mtype -i "$1" ::tryboot.txt >/dev/null 2>&1 && cf=tryboot.txt
	mtype -i "$1" "::$cf" | tr -d '\r' | awk -v tb="$2" -v cf="$cf" '
		/^\[/ { on = $0 == "[all]" || $0 == "[pi5]" || ($0 == "[tryboot]" && tb == 1); next }
		NR == 1 { on = 1 }
		on && /^[a-z_0-9]+=/ { i = index($0, "="); c[substr($0, 1, i - 1)] = substr($0, i + 1) }
		END { printf "%s|%s|%s|%s\n", cf, c["os_prefix"], c["kernel"] ? c["kernel"] : "kernel_2712.img",
			c["cmdline"] ? c["cmdline"] : "cmdline.txt" }'
}

# The boot partition as Raspberry Pi OS ships it (pi-gen, bookworm:
# stage1/00-boot-files/files/config.txt without its comments), with the
# installed kernel and a device tree, on a copy of the stand-in's disk.
rpios_config() {
	printf '%s\n' dtparam=audio=on camera_auto_detect=1 display_auto_detect=1 auto_initramfs=1 \
		dtoverlay=vc4-kms-v3d max_framebuffers=2 disable_fw_kms_setup=1 arm_64bit=1 \
		disable_overscan=1 arm_boost=1 '[cm4]' otg_mode=1 '[cm5]' dtoverlay=dwc2,dr_mode=host '[all]'
}
rpios_config >"$G/config.txt"
echo "$cmdline_txt" >"$G/cmdline.txt"
export MTOOLS_SKIP_CHECK=1
fat=$G/original.img@@4M
cp --sparse=always "$disk" "$G/original.img" &&
	mcopy -o -i "$fat" "$G/config.txt" "$G/cmdline.txt" ::/ &&
	mcopy -o -i "$fat" "$old/arch/arm64/boot/Image.gz" ::/kernel_2712.img &&
	mcopy -o -i "$fat" "$G/pi5.dtb" ::/bcm2712-rpi-5-b.dtb &&
	mmd -i "$fat" ::/overlays && mcopy -i "$fat" "$G/overlays/README" ::/overlays/README ||
	die "cannot lay out the stand-in's boot partition"
for f in config.txt cmdline.txt kernel_2712.img bcm2712-rpi-5-b.dtb overlays/README; do
	mcopy -n -i "$fat" "::$f" "$G/orig-${f//\//-}"
done

one_firmware() { # kind: the guide's boots with that firmware, on one disk
	local kind=$1 b d=$G/$1 fw=firmware_$1 img=$G/$1-disk.img tb=0 f cf p k c
	local fat=$G/$1-disk.img@@4M
	mkdir -p "$d"
	cp --sparse=always "$G/original.img" "$img"
	for ((b = 0; b < boots; b++)); do
		IFS="|" read -r cf p k c < <(firmware "$fat" "$tb")
		# os_prefix= holds only where the kernel and the device tree are.
		if [ -n "$p" ] && ! { mtype -i "$fat" "::$p$k" >/dev/null 2>&1 &&
			mtype -i "$fat" "::${p}bcm2712-rpi-5-b.dtb" >/dev/null 2>&1; }; then
			p=
		fi
		echo "RIG firmware $cf prefix=${p:--} kernel=$p$k cmdline=$p$c" >"$G/logs/$kind-$b.fw"
		mcopy -n -i "$fat" "::$p$k" "$d/kernel" && mcopy -n -i "$fat" "::${p}bcm2712-rpi-5-b.dtb" "$d/dtb" ||
			{ echo "boot $b: the firmware finds no $p$k or ${p}bcm2712-rpi-5-b.dtb" >"$G/$kind.err"; return; }
		# The firmware's options first, then the command line file, as on
		# the Pi; the rig's job among the firmware's.
		MEM=8G SMP=4 TIMEOUT=600 PERSIST=1 JOBS=$J CMDLINE_TXT=$p$c QEMU_ARGS="-dtb $d/dtb" \
			PRE_CMDLINE="${!fw} rig.run=guide-$b" \
			"$TOP/scripts/standin-boot.sh" "$d/kernel" "$img" "$G/logs/$kind-$b.log" "$G/logs/$kind-$b.out" \
			2>"$G/logs/$kind-$b.err" ||
			{ echo "boot $b: $(tail -1 "$G/logs/$kind-$b.err")" >"$G/$kind.err"; return; }
		# The reboot's argument, as the kernel passed it to the firmware
		# (standin-boot.sh wrote it next to the job's output).
		tb=0
		[ "$(cat "$G/logs/$kind-$b.reboot")" = "with '0 tryboot'" ] && tb=1
	done
	for f in config.txt cmdline.txt kernel_2712.img bcm2712-rpi-5-b.dtb overlays/README; do
		mcopy -n -i "$fat" "::$f" "$G/$kind-end-${f//\//-}" || true
	done
	rm -rf "$d" "$img"
}

# The guide's measurement, in a guest under -icount (instructions for
# time: placement cannot change a figure there, the kernel's path can),
# with numa_policy=interleave, under which a "default" run would be
# interleaved too; then the same with every interleaved pass 25 % longer.
# It runs in the rig's initramfs (the stand-in's systemd under -icount
# would take most of the time): the benchmark as the guide builds it.
base=$BUILD/initramfs.cpio
gen=$BUILD/gen_init_cpio
if [ ! -f "$base" ] || [ ! -x "$gen" ]; then
	base=$(TREE=$custom "$TOP/scripts/initramfs.sh") || die "no initramfs"
fi
aarch64-linux-gnu-gcc -static -pthread -O2 -Wall -Werror -o "$G/bench" "$TOP/guest/bench.c" -lm ||
	die "cannot build guest/bench.c"
one_measure() {
	local d=$G/measure
	mkdir -p "$d/root/opt/rig" "$d/root/root"
	cp "$G/bench" "$d/root/opt/rig/bench"
	cp "$G/measure.sh" "$d/root/opt/rig/measure.sh"
	cpio_list "$d/root" >"$d/list"
	"$gen" "$d/list" >"$d/extra.cpio" && cat "$base" "$d/extra.cpio" >"$d/initrd.cpio" ||
		{ echo "initramfs failed" >"$G/measure.err"; return; }
	MEM=8G SMP=4 TIMEOUT=900 INITRD=$d/initrd.cpio QEMU_ARGS="-icount shift=3,sleep=off -dtb $G/pi5.dtb" \
		CMDLINE="numa=fake=8 numa_policy=interleave rig.mode=facts rig.run=measure.sh" \
		"$TOP/scripts/boot.sh" "$image" "$G/logs/measure.log" 2>/dev/null ||
		echo "the measurement's boot did not finish ($G/logs/measure.log)" >"$G/measure.err"
}
{
	echo '#!/bin/sh'
	echo 'cd /root'
	for l in "cc -O2 -pthread -o bench ~/pi5-install/bench.c -lm" "./bench -A -r 10 -m 16 -o fake8.txt"; do
		printf 'echo %q\n' "RIG guide \$ $l"
		printf '%s\n' "${measure[$l]}"
		echo 'echo "RIG guide rc $?"'
	done
	# -A's arithmetic, again from the runs it saved (bench-arith.sh checks -P).
	printf 'echo %q\n' "RIG guide \$ ./bench -P fake8.txt"
	echo './bench -P fake8.txt'
	echo 'echo "RIG guide rc $?"'
	printf 'echo %q\n' "RIG guide \$ ./bench -A -r 3 -m 8 -I 25"
	echo './bench -A -r 3 -m 8 -I 25'
	echo 'echo "RIG guide rc $?"'
} >"$G/measure.sh"
chmod 0755 "$G/measure.sh"
one_job() { if [ "$1" = measure ]; then one_measure; else one_firmware "$1"; fi; }
export -f one_firmware one_measure one_job cpio_list firmware
export G H J boots image base gen TOP BUILD MTOOLS_SKIP_CHECK firmware_none firmware_policy firmware_fake8
step "the guide's Pi steps: $boots boots for each firmware ($kinds), and the measurement, two at a time" \
	bash -c "printf '%s\\n' $kinds measure | xargs -P2 -I{} bash -c 'one_job {}'"

# What a command printed: the lines between its "RIG guide $" line and
# its "RIG guide rc" line, in the given boot's job output.
out() { # kind boot command
	C="RIG guide \$ $3" awk '$0 == ENVIRON["C"] { on = 1; next } on && /^RIG guide rc / { exit } on' \
		"$G/logs/$1-$2.out"
}
# Per boot: the kernel (old or new) and the nodes online the guide
# promises: the old kernel has no NUMA ("none") before the install and
# after the undo; the new one 8 nodes, 1 with numa=off (boot 4).
want_kernel() { case $1 in 0 | 5) echo old ;; *) echo new ;; esac; }
want_nodes() { case $1 in 0 | 5) echo none ;; 4) echo 0 ;; *) echo 0-7 ;; esac; }
for kind in $kinds; do
	if [ -f "$G/$kind.err" ]; then
		echo "FAIL|guide-pi-$kind|$(cat "$G/$kind.err")"
		continue
	fi
	why=()
	[ "$boots" -eq 6 ] || why+=("$boots boots, the checks below know 6")
	for ((b = 0; b < boots; b++)); do
		log=$G/logs/$kind-$b.log o=$G/logs/$kind-$b.out
		bad=$(grep '^RIG guide rc ' "$o" | grep -vc '^RIG guide rc 0$' || true)
		ran=$(grep -c '^RIG guide rc ' "$o" || true)
		[ "$ran" -eq "$(awk -F'\t' -v b="$b" '$1 == b' "$G/pi-steps" | wc -l)" ] || why+=("boot $b: $ran commands ran")
		[ "$bad" -eq 0 ] || why+=("boot $b: $bad command(s) failed")
		! grep -q -e '^RIG guide no /boot/firmware' -e '^RIG guide no home files' -e '^RIG guide no reboot' "$o" ||
			why+=("boot $b: $(grep -m1 '^RIG guide no ' "$o")")
		# A boot the guide ends in "sudo reboot" ends in that reboot (its
		# argument reaching the kernel), the last one in the job's end.
		r=$(awk -F'\t' -v b="$b" '$1 == b { print $2 }' "$G/reboots")
		case "$r" in
		"sudo reboot") want=plain ;;
		"sudo reboot '0 tryboot'") want="with '0 tryboot'" ;;
		"") want= ;;
		*) want="?" ;;
		esac
		if [ -z "$r" ]; then
			grep -qx 'RIG job rc 0' "$o" || why+=("boot $b: the job did not end well ($(grep -m1 '^RIG job' "$o" | tail -1))")
		elif [ "$(cat "$G/logs/$kind-$b.reboot")" != "$want" ]; then
			why+=("boot $b: '$r' ended in '$(cat "$G/logs/$kind-$b.reboot")', want '$want'")
		fi
		n=$(sed -n 's/^RIG nodes online //p; s/^RIG nodes none$/none/p' "$o")
		[ "$n" = "$(want_nodes "$b")" ] || why+=("boot $b: nodes online '$n', want $(want_nodes "$b")")
		v=$(sed -n 's/^Linux version \([^ ]*\) .*/\1/p; s/^\[[ 0-9.]*\] Linux version \([^ ]*\) .*/\1/p' "$log" | head -1)
		case "$(want_kernel "$b"):$v" in
		old:*-numa-emu* | old: | new:) why+=("boot $b: kernel '$v', want the $(want_kernel "$b") one") ;;
		new:*-numa-emu*) ;;
		new:*) why+=("boot $b: kernel '$v', want the new one") ;;
		esac
	done
	fwl() { sed -n 's/^RIG firmware //p' "$G/logs/$kind-$1.fw"; }
	[ "$(fwl 1)" = "tryboot.txt prefix=numa61/ kernel=numa61/kernel_2712.img cmdline=numa61/cmdline.txt" ] ||
		why+=("boot 1 (after reboot '0 tryboot'): firmware read '$(fwl 1)'")
	[ "$(fwl 2)" = "config.txt prefix=numa61/ kernel=numa61/kernel_2712.img cmdline=numa61/cmdline.txt" ] ||
		why+=("boot 2 (after step 5's config.txt line): firmware read '$(fwl 2)'")
	[ "$(fwl 5)" = "config.txt prefix=- kernel=kernel_2712.img cmdline=cmdline.txt" ] ||
		why+=("boot 5 (after the undo): firmware read '$(fwl 5)'")
	out "$kind" 0 'uname -r' | grep -q -- '-numa-emu' && why+=("boot 0: uname -r names the new kernel")
	out "$kind" 1 'uname -r' | grep -q -- '-numa-emu' || why+=("tryboot boot: uname -r does not name the new kernel")
	out "$kind" 1 'cat /proc/cmdline' | grep -q ' numa=fake=8$' || why+=("/proc/cmdline does not end in numa=fake=8")
	hw=$(out "$kind" 1 'numactl --hardware')
	echo "$hw" | grep -qx 'available: 8 nodes (0-7)' &&
		echo "$hw" | grep -qx 'node 0 cpus: 0 1 2 3' &&
		[ "$(echo "$hw" | grep -cx 'node [1-7] cpus: *')" -eq 7 ] ||
		why+=("numactl --hardware does not show 8 nodes, every CPU on node 0 and none on nodes 1-7")
	if [ "$kind" = fake8 ]; then
		out "$kind" 1 "sudo dmesg | grep 'NUMA:'" | grep -q 'NUMA: numa=fake=8 replaces numa=fake=8 given before' ||
			why+=("no 'replaces' line for the firmware's numa=fake=8")
		grep -Eq 'Unknown kernel command line parameters ".*iommu_dma_numa_policy=interleave.*", will be passed to user space' \
			"$G/logs/$kind-1.log" || why+=("no 'passed to user space' line for iommu_dma_numa_policy=")
	fi
	ks=$(out "$kind" 1 'sudo ~/numa_emu-ksft/run_kselftest.sh')
	echo "$ks" | grep -qx 'ok 1 selftests: numa_emu: numa_emu_test' &&
		echo "$ks" | grep -Eq 'Totals: pass:[1-9][0-9]* fail:0 ' || why+=("the kselftest did not pass")
	kss=$(out "$kind" 1 'sudo ~/numa_emu-ksft/numa_emu/numa_emu_test -S')
	echo "$kss" | grep -Eq '^# Totals: pass:[1-9][0-9]* fail:0 xfail:0 xpass:0 skip:[0-9]+ error:0' ||
		why+=("the kselftest with -S did not pass: $(echo "$kss" | grep -m1 '^not ok' || echo "$kss" | tail -1)")
	out "$kind" 2 'uname -r' | grep -q -- '-numa-emu' || why+=("after step 5: uname -r does not name the new kernel")
	out "$kind" 2 'numactl --interleave=all numactl --show' | grep -qx 'policy: interleave' ||
		why+=("numactl --interleave=all numactl --show does not say 'policy: interleave'")
	out "$kind" 3 "sudo dmesg | grep 'numa_policy=interleave:'" |
		grep -q 'numa_policy=interleave: tasks without a memory policy of their own allocate interleaved over nodes 0-7' ||
		why+=("no numa_policy= line after step 6")
	out "$kind" 3 'grep -m1 interleave /proc/self/numa_maps' | grep -q ' interleave:0-7 ' ||
		why+=("numa_maps does not show interleave:0-7 after step 6")
	out "$kind" 3 'numactl --show | head -1' | grep -qx 'policy: default' ||
		why+=("numactl --show does not say 'policy: default' after step 6, as the guide says it does")
	out "$kind" 4 'numactl --hardware' | grep -qx 'available: 1 nodes (0)' ||
		why+=("numactl --hardware does not show one node with numa=off")
	out "$kind" 5 'uname -r' | grep -q -- '-numa-emu' && why+=("after the undo: uname -r names the new kernel")
	for f in config.txt cmdline.txt kernel_2712.img bcm2712-rpi-5-b.dtb overlays/README; do
		cmp -s "$G/orig-${f//\//-}" "$G/$kind-end-${f//\//-}" || why+=("/boot/firmware/$f is not the original at the end")
	done
	if [ ${#why[@]} -eq 0 ]; then
		echo "PASS|guide-pi-$kind|$boots boots: kernels $(for ((b = 0; b < boots; b++)); do want_kernel "$b"; done | paste -sd' '), nodes $(for ((b = 0; b < boots; b++)); do sed -n 's/^RIG nodes online //p; s/^RIG nodes none$/none/p' "$G/logs/$kind-$b.out"; done | paste -sd' '), kselftest $(echo "$ks" | grep -Eo 'Totals: pass:[0-9]+ fail:0' | head -1 | sed 's/Totals: //'), every command succeeded, the old kernel's files unchanged"
	else
		echo "FAIL|guide-pi-$kind|$(printf '%s; ' "${why[@]}")"
	fi
done

# The measurement: two different placements under numa_policy=, no
# difference for copy, triad and chase (QEMU has no banks), a slowdown
# found for every test where one was injected.
why=()
if [ -f "$G/measure.err" ]; then
	why+=("$(cat "$G/measure.err")")
else
	mlog=$G/logs/measure.log
	mout() { C="RIG guide \$ $1" awk '$0 == ENVIRON["C"] { on = 1; next } on && /^RIG guide rc / { exit } on' "$mlog"; }
	plain=$(mout "./bench -A -r 10 -m 16 -o fake8.txt")
	inj=$(mout "./bench -A -r 3 -m 8 -I 25")
	[ "$(grep -c '^RIG guide rc 0$' "$mlog")" -eq 4 ] || why+=("a measurement command failed")
	# The verdicts -A printed are those of its saved pairs, recomputed.
	[ -n "$(grep '^VERDICT' <<<"$plain")" ] && [ "$(grep '^VERDICT' <<<"$plain")" = "$(mout "./bench -P fake8.txt" | grep '^VERDICT')" ] ||
		why+=("bench -P fake8.txt does not give -A's verdicts: $(diff <(grep '^VERDICT' <<<"$plain") <(mout "./bench -P fake8.txt" | grep '^VERDICT') | head -2 | paste -sd' ')")
	for t in fault copy triad chase; do
		for th in 1 4; do
			[ "$t" = chase ] && [ "$th" = 4 ] && continue
			echo "$plain" | grep -q "^PLACEMENT $t threads=$th policy=bind pages [0-9]*:[0-9]*$" ||
				why+=("$t/$th: bind not on one node")
			echo "$plain" | grep -Eq "^PLACEMENT $t threads=$th policy=interleave pages 0:[0-9]+ 1:[0-9]+ 2:[0-9]+ 3:[0-9]+ 4:[0-9]+ 5:[0-9]+ 6:[0-9]+ 7:[0-9]+$" ||
				why+=("$t/$th: interleave not on all eight nodes")
			v=$(echo "$plain" | grep "^VERDICT $t threads=$th ")
			[ "$t" = fault ] || echo "$v" | grep -q ' no difference the runs can show' ||
				why+=("$t/$th: '${v#VERDICT }' where QEMU can show none")
			v=$(echo "$inj" | grep "^VERDICT $t threads=$th ")
			echo "$v" | grep -q " interleave is slower by " || why+=("$t/$th with -I 25: '${v#VERDICT }'")
			# Under -icount a pass 25 % longer is 1/1.25 of the rate: the
			# tool's arithmetic, not a timing of the machine.
			if [ "$t" != fault ] && [ "$th" = 1 ]; then
				r=$(echo "$v" | sed -n 's/.* ratio=\([0-9.]*\) .*/\1/p')
				awk -v r="$r" 'BEGIN { exit !(r >= 0.78 && r <= 0.82) }' ||
					why+=("$t/1 with -I 25: ratio '$r', want 0.78 to 0.82")
			fi
		done
	done
fi
if [ ${#why[@]} -eq 0 ]; then
	echo "PASS|guide-measure|under numa_policy=interleave: bind on one node, interleave on 0-7; copy, triad, chase: no difference (fault: $(echo "$plain" | sed -n 's/^VERDICT fault threads=1 .*ci=[^ ]* //p')); -I 25: slower on every test ($(echo "$inj" | sed -n 's/^VERDICT copy threads=1 ratio=\([^ ]*\) .*/copy ratio \1/p'))"
else
	echo "FAIL|guide-measure|$(printf '%s; ' "${why[@]}")"
fi
