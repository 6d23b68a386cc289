#!/bin/bash
# make guide: the README's Raspberry Pi 5 guide, followed as written. Its
# code blocks that start with "# on the PC" run here, in one bash, with
# HOME=build/guide/home and the clone as the working directory; those that
# start with "# on the Pi" run in QEMU guests (other blocks are not steps), one boot per "sudo reboot",
# with /boot/firmware/cmdline.txt carried from boot to boot. The host plays
# the firmware: it puts the firmware's options in front of cmdline.txt.
# Prints "PASS|guide-...|..." or "FAIL|guide-...|..." lines.
. "$(dirname "$0")/../scripts/lib.sh"
G=$BUILD/guide
H=$G/home
README=$TOP/README.md

# What cannot be done here, and what stands in for it (README line ->
# command run instead). A line named here that the README no longer has
# is an error: the guide changed and this list must follow it.
declare -A standin=(
	# No GitHub access here: Debian's 6.1.y source, without Raspberry Pi's changes.
	["git clone --depth 1 --branch rpi-6.1.y https://github.com/raspberrypi/linux ~/rpi-linux"]="mkdir -p ~/rpi-linux && tar -xf /usr/src/linux-source-6.1.tar.xz -C ~/rpi-linux --strip-components=1"
	# bcm2712_defconfig exists only in the Raspberry Pi tree: the rig's QEMU
	# configuration with 16K pages as on the Pi 5, and without NUMA, so that
	# the guide's own lines must switch it on.
	['make O="$HOME/pi5" bcm2712_defconfig']="KCONFIG_ALLCONFIG=$G/pi5-standin.config make O=\"\$HOME/pi5\" allnoconfig"
	# That configuration has no modules, and QEMU gives the device tree.
	['make O="$HOME/pi5" -j"$(nproc)" Image.gz modules dtbs']='make O="$HOME/pi5" -j"$(nproc)" Image.gz'
)
# The firmware's part of the command line, for three kinds of firmware:
# none (another boot loader), the Pi 5's options with numa_policy=, and
# those with the numa=fake=8 that recent Pi 5 firmware adds. The rig.*
# options run the guide's commands in the guest.
kinds="none policy fake8"
firmware_none=
firmware_policy="reboot=w coherent_pool=1M 8250.nr_uarts=1 pci=pcie_bus_safe cgroup_disable=memory numa_policy=interleave"
firmware_fake8="$firmware_policy nvme.max_host_mem_size_mb=0 numa=fake=8 system_heap.max_order=0"
# Raspberry Pi OS's cmdline.txt; its consoles (serial0, tty1) are the Pi's,
# the guest's serial console is ttyAMA0.
cmdline_txt="console=ttyAMA0,115200 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait"

# Whatever stops this script early is a failure that "make check" counts.
trap 'rc=$?; [ $rc -eq 0 ] || echo "FAIL|guide|stopped early (exit $rc), see $G/logs"' EXIT
rm -rf "$G"
mkdir -p "$H" "$G/logs" "$BUILD/debs"
# The packages of the rig, and rsync for "make tree" with KERNEL_SRC.
EXTRA_PKGS=rsync step "checking packages" "$TOP/scripts/deps.sh" >&2

# The guide's command lines, "PC<TAB>line" and "PI<TAB>line", in order.
awk '
/^## Raspberry Pi 5/ { s = 1; next }
/^## / { s = 0 }
s && /^ *```sh/ { b = 1; where = ""; next }
s && b && /^ *```/ { b = 0; next }
s && b {
	sub(/^ +/, "")
	if ($0 ~ /^# on the PC/) { where = "PC"; next }
	if ($0 ~ /^# on the Pi/) { where = "PI"; next }
	if (where == "") { b = 0; next }	# a block outside the guide
	print where "\t" $0
}' "$README" >"$G/steps"
if ! grep -q '^PC' "$G/steps" || ! grep -q '^PI' "$G/steps"; then
	echo "FAIL|guide-readme|the README's Pi 5 guide has no blocks starting with '# on the PC' and '# on the Pi'"
	exit 0
fi
for l in "${!standin[@]}"; do
	grep -qxF "PC	$l" "$G/steps" || {
		echo "FAIL|guide-readme|the README no longer has '$l' (tests/guide.sh stands in for it)"
		exit 0
	}
done

say "the Pi 5 guide: what stands in for what cannot be done here"
for l in "${!standin[@]}"; do echo "    '$l' -> '${standin[$l]}'" >&2; done
echo "    installing the kernel and copying the kselftest -> QEMU boots Image.gz, the initramfs holds ~/numa_emu-ksft" >&2
echo "    sudo on the Pi -> the guest runs as root; its sudo runs its arguments" >&2
echo "    Raspberry Pi OS's coreutils and /dev links -> its timeout and /dev/std* links, for the kselftest runner (busybox has the rest)" >&2

# The PC part: one bash script, each line echoed before it runs.
{
	cat "$TOP/configs/qemu.config" "$TOP/configs/arch-arm64.config" "$TOP/configs/pages-16k.config"
	echo "# What a Pi 5 configuration has besides: page migration and compaction, SysV IPC, cpusets."
	printf 'CONFIG_%s=y\n' MIGRATION COMPACTION SYSVIPC CGROUPS CPUSETS
} >"$G/pi5-standin.config"
{
	echo 'set -euo pipefail'
	echo "cd \"$TOP\""
	grep '^PC' "$G/steps" | cut -f2- | while IFS= read -r l; do
		run=$l
		[ -n "${standin[$l]+set}" ] && run=${standin[$l]}
		printf 'echo %q\n' "\$ $run"
		printf '%s\n' "$run"
	done
} >"$G/pc.sh"
# ccache for the guide's own build when it is there (no change to its commands).
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
pcpath=$PATH
[ -d /usr/lib/ccache ] && pcpath=/usr/lib/ccache:$PATH
rm -rf "$BUILD/linux-custom"
if ! step "the guide's PC steps (tree, configuration, kernel, kselftest)" \
	env -u KERNEL_SRC -u ARCH -u CROSS_COMPILE -u TREE HOME="$H" PATH="$pcpath" bash "$G/pc.sh" >"$G/logs/pc.log" 2>&1; then
	tail -15 "$G/logs/pc.log" >&2
	echo "FAIL|guide-pc|a PC step failed: $(grep '^\$ ' "$G/logs/pc.log" | tail -1) ($G/logs/pc.log)"
	exit 0
fi
image=$H/pi5/arch/arm64/boot/Image.gz
cfg=$H/pi5/.config
if [ -f "$image" ] && grep -qx CONFIG_NUMA=y "$cfg" && grep -qx CONFIG_NUMA_EMULATION=y "$cfg" &&
	! grep -q '^CONFIG_NUMA' "$G/pi5-standin.config" && [ -x "$H/numa_emu-ksft/run_kselftest.sh" ]; then
	echo "PASS|guide-pc|series applied to a copy of KERNEL_SRC, NUMA and NUMA_EMULATION switched on by the guide's lines, Image.gz and the kselftest built"
else
	echo "FAIL|guide-pc|no Image.gz, NUMA/NUMA_EMULATION not =y in $cfg, or no kselftest in ~/numa_emu-ksft"
	exit 0
fi

# The Pi part: boots separated by "sudo reboot".
base=$BUILD/initramfs.cpio
gen=$BUILD/gen_init_cpio
if [ ! -f "$base" ] || [ ! -x "$gen" ]; then
	base=$(TREE=$BUILD/linux-custom "$TOP/scripts/initramfs.sh") || die "no initramfs"
fi
# Raspberry Pi OS has GNU coreutils; the kselftest runner calls its
# "timeout --foreground", which the guest's busybox timeout lacks.
deb=$(ls "$BUILD"/debs/coreutils_*_arm64.deb 2>/dev/null | head -1 || true)
if [ -z "$deb" ]; then
	(cd "$BUILD/debs" && apt-get download -qq coreutils:arm64 >/dev/null 2>&1) ||
		die "cannot download coreutils:arm64"
	deb=$(ls "$BUILD"/debs/coreutils_*_arm64.deb | head -1)
fi
dpkg -x "$deb" "$G/coreutils"
awk -F'\t' '$1 == "PI" { if ($2 == "sudo reboot") n++; else print n + 0 "\t" $2 }' "$G/steps" >"$G/pi-steps"
boots=$(($(grep -c -x 'PI	sudo reboot' "$G/steps") + 1))
dtb=$("$TOP/scripts/dtb.sh" pi5-like 4G 4) || die "no device tree"

guest_script() { # boot -> the commands of that boot as a guest script
	echo '#!/bin/bash'
	echo 'export HOME=/root; cd /root'
	# What a booted Raspberry Pi OS has and a bare devtmpfs lacks: the
	# /dev/fd and /dev/std* links (the kselftest runner writes to /dev/stdout).
	echo 'ln -sf /proc/self/fd /dev/fd; for i in 0:stdin 1:stdout 2:stderr; do ln -sf "/proc/self/fd/${i%:*}" "/dev/${i#*:}"; done'
	awk -F'\t' -v b="$1" '$1 == b { print $2 }' "$G/pi-steps" | while IFS= read -r l; do
		printf 'echo %q\n' "RIG guide \$ $l"
		printf '%s\n' "$l"
		echo 'echo "RIG guide rc $?"'
	done
	echo 'echo "RIG cmdline.txt $(cat /boot/firmware/cmdline.txt)"'
}

one_firmware() { # kind: the guide's boots with that firmware
	local kind=$1 b d txt=$cmdline_txt log fw=firmware_$1
	for ((b = 0; b < boots; b++)); do
		d=$G/$kind-$b
		mkdir -p "$d/root/opt/rig" "$d/root/boot/firmware" "$d/root/root" "$d/root/usr/bin"
		echo "$txt" >"$d/root/boot/firmware/cmdline.txt"
		printf '#!/bin/sh\nexec "$@"\n' >"$d/root/usr/bin/sudo"
		guest_script "$b" >"$d/root/opt/rig/guide.sh"
		chmod 0755 "$d/root/usr/bin/sudo" "$d/root/opt/rig/guide.sh"
		cp -a "$H/numa_emu-ksft" "$d/root/root/"
		cp "$G/coreutils/usr/bin/timeout" "$d/root/usr/bin/timeout"
		(cd "$d/root" && find . -mindepth 1 | sort) | while read -r f; do
			p=${f#.}
			if [ -d "$d/root$p" ]; then
				echo "dir $p 0755 0 0"
			else
				echo "file $p $d/root$p $(stat -c %a "$d/root$p") 0 0"
			fi
		done >"$d/list"
		"$gen" "$d/list" >"$d/extra.cpio" && cat "$base" "$d/extra.cpio" >"$d/initrd.cpio" ||
			{ echo "boot $b: initramfs failed" >"$G/$kind.err"; return; }
		log=$G/logs/$kind-$b.log
		# The firmware's options first, then cmdline.txt, as on the Pi.
		MEM=4G SMP=4 TIMEOUT=400 INITRD=$d/initrd.cpio QEMU_ARGS="-dtb $dtb" \
			CMDLINE="${!fw} rig.mode=facts rig.run=guide.sh $txt" \
			"$TOP/scripts/boot.sh" "$image" "$log" 2>/dev/null ||
			{ echo "boot $b did not finish ($log)" >"$G/$kind.err"; return; }
		txt=$(sed -n 's/^RIG cmdline.txt //p' "$log")
		rm -rf "$d"
	done
}
export -f one_firmware guest_script
export G H boots image dtb base gen cmdline_txt TOP BUILD firmware_none firmware_policy firmware_fake8
step "the guide's Pi steps: $boots boots for each firmware ($kinds), two at a time" \
	bash -c "printf '%s\n' $kinds | xargs -P2 -I{} bash -c 'one_firmware {}'"

# Each kind of firmware, judged by what the guide promises.
want_nodes() { # kind boot -> online nodes
	case $2 in
	0) [ "$1" = fake8 ] && echo 0-7 || echo 0 ;;
	1 | 2) echo 0-3 ;;
	*) echo 0 ;;
	esac
}
for kind in $kinds; do
	if [ -f "$G/$kind.err" ]; then
		echo "FAIL|guide-pi-$kind|$(cat "$G/$kind.err")"
		continue
	fi
	why=()
	for ((b = 0; b < boots; b++)); do
		log=$G/logs/$kind-$b.log
		bad=$(grep '^RIG guide rc ' "$log" | grep -vc '^RIG guide rc 0$' || true)
		ran=$(grep -c '^RIG guide rc ' "$log" || true)
		[ "$ran" -eq "$(awk -F'\t' -v b="$b" '$1 == b' "$G/pi-steps" | wc -l)" ] || why+=("boot $b: $ran commands ran")
		[ "$bad" -eq 0 ] || why+=("boot $b: $bad command(s) failed")
		n=$(sed -n 's/^RIG nodes online //p' "$log")
		[ "$n" = "$(want_nodes "$kind" "$b")" ] || why+=("boot $b: nodes online '$n', want $(want_nodes "$kind" "$b")")
	done
	l1=$G/logs/$kind-1.log l2=$G/logs/$kind-2.log l3=$G/logs/$kind-3.log
	grep -q '^available: 4 nodes (0-3)$' "$l1" || why+=("numactl --hardware does not show 4 nodes")
	grep -Eq '^ok 1 selftests: numa_emu: numa_emu_test' "$l1" &&
		grep -Eq 'Totals: pass:[1-9][0-9]* fail:0 ' "$l1" ||
		why+=("the kselftest did not pass")
	grep -q '^policy: interleave' "$l1" || why+=("numactl --interleave=all numactl --show does not say 'policy: interleave'")
	if [ "$kind" = fake8 ]; then
		grep -q 'numa=fake=4 replaces numa=fake=8 given before' "$l1" || why+=("no 'replaces' line for the firmware's numa=fake=8")
	fi
	grep -Eq 'interleave:0-3' "$l2" || why+=("numa_maps does not show interleave:0-3 after numa_policy=interleave")
	grep -q '^available: 1 nodes (0)$' "$l3" || why+=("numactl --hardware does not show one node after the undo")
	[ "$(sed -n 's/^RIG cmdline.txt //p' "$l3")" = "$cmdline_txt numa=off" ] ||
		why+=("cmdline.txt after the undo is not the original plus numa=off")
	if [ ${#why[@]} -eq 0 ]; then
		echo "PASS|guide-pi-$kind|$boots boots: nodes $(for ((b = 0; b < boots; b++)); do sed -n 's/^RIG nodes online //p' "$G/logs/$kind-$b.log"; done | paste -sd' '), kselftest $(grep -Eo 'Totals: pass:[0-9]+ fail:0' "$l1" | head -1 | sed 's/Totals: //'), every command succeeded"
	else
		echo "FAIL|guide-pi-$kind|$(printf '%s; ' "${why[@]}")"
	fi
done
