#!/bin/bash
# make guide: the README's Raspberry Pi 5 guide, followed as written. The
# code blocks of its "## Raspberry Pi 5" section start with "# on the PC"
# or "# on the Pi". PC blocks run here, in one bash, in a copy of this
# repository, with HOME=build/guide/home; Pi blocks run in QEMU guests,
# one boot per "sudo reboot", with /boot/firmware carried from boot to
# boot. The host plays the firmware: it puts the firmware's options in
# front of cmdline.txt. Prints "PASS|guide-...|..." or "FAIL|guide-...|...".
. "$(dirname "$0")/../scripts/lib.sh"
G=$BUILD/guide
H=$G/home
README=$TOP/README.md

# What cannot be done here, and what stands in for it (README line ->
# command run instead). A line named here that the README no longer has
# is an error: the guide changed and this list must follow it.
declare -A standin=(
	# No GitHub access here: Debian's 6.1.y source, without Raspberry Pi's
	# changes (the stamp lets the end check that the tree was not changed).
	["git clone --depth 1 --branch rpi-6.1.y https://github.com/raspberrypi/linux ~/rpi-linux"]="mkdir -p ~/rpi-linux && tar -xf /usr/src/linux-source-6.1.tar.xz -C ~/rpi-linux --strip-components=1 && touch ~/.rpi-linux.stamp"
	# bcm2712_defconfig exists only in the Raspberry Pi tree: the rig's QEMU
	# configuration with 16K pages as on the Pi 5, without NUMA (checked),
	# so that the guide's own lines must switch it on.
	['make O="$HOME/pi5" bcm2712_defconfig']="KCONFIG_ALLCONFIG=$G/pi5-standin.config make O=\"\$HOME/pi5\" allnoconfig && test -z \"\$(grep -x 'CONFIG_NUMA=y' ~/pi5/.config)\""
	# The Pi 5's device trees are only in the Raspberry Pi tree; QEMU gives its own.
	['make O="$HOME/pi5" -j"$(nproc)" Image.gz modules dtbs']='make O="$HOME/pi5" -j"$(nproc)" Image.gz modules'
	# The guest's initramfs has Debian's arm64 numactl already.
	["sudo apt-get install -y numactl"]="command -v numactl"
)
# The firmware's part of the command line, for three kinds of firmware:
# none (the rpi-6.1.y device trees, or another boot loader), the later
# device trees' numa_policy=, and that with the numa=fake=8 that boards
# with recent firmware show. The rig.* options run the guide's commands.
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

# The guide's command lines, "PC<TAB>line" and "PI<TAB>line", in order;
# "BAD<TAB>line" for a code block of the section without either marker.
awk '
/^## Raspberry Pi 5/ { s = 1; next }
/^## / { s = 0 }
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
}' "$README" >"$G/steps"
if grep -q '^BAD' "$G/steps" || ! grep -q '^PC' "$G/steps" || ! grep -q '^PI' "$G/steps"; then
	echo "FAIL|guide-readme|every code block of the README's Pi 5 section must start with '# on the PC' or '# on the Pi' ($(grep -m1 '^BAD' "$G/steps" | cut -f2-))"
	exit 0
fi
for l in "${!standin[@]}"; do
	grep -qxF -e "PC	$l" -e "PI	$l" "$G/steps" || {
		echo "FAIL|guide-readme|the README no longer has '$l' (tests/guide.sh stands in for it)"
		exit 0
	}
done

say "the Pi 5 guide: what stands in for what cannot be done here"
for l in "${!standin[@]}"; do echo "    '$l' -> '${standin[$l]}'" >&2; done
echo "    installing the kernel and copying the kselftest -> QEMU boots Image.gz, the initramfs holds ~/numa_emu-ksft" >&2
echo "    Raspberry Pi OS -> the guest's initramfs: root with a sudo that runs its arguments, busybox, Debian's numactl, bash and grep, GNU timeout and /dev/std* links for the kselftest runner" >&2

# The PC part: one bash script in a copy of the repository's files (the
# user's build/ is never touched, and its history is not needed), each
# line echoed before it runs.
{
	cat "$TOP/configs/qemu.config" "$TOP/configs/arch-arm64.config" "$TOP/configs/pages-16k.config"
	echo "# What a Pi 5 configuration has besides: modules, page migration and compaction, SysV IPC, cpusets."
	printf 'CONFIG_%s=y\n' MODULES MIGRATION COMPACTION SYSVIPC CGROUPS CPUSETS
} >"$G/pi5-standin.config"
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
	env -i HOME="$H" PATH="$pcpath" LANG=C.UTF-8 CCACHE_DIR="${CCACHE_DIR:-$BUILD/ccache}" \
	bash "$G/pc.sh" >"$G/logs/pc.log" 2>&1; then
	tail -15 "$G/logs/pc.log" >&2
	echo "FAIL|guide-pc|a PC step failed: $(grep '^\$ ' "$G/logs/pc.log" | tail -1) ($G/logs/pc.log)"
	exit 0
fi
image=$H/pi5/arch/arm64/boot/Image.gz
cfg=$H/pi5/.config
custom=$clone/build/linux-custom
npatches=$(grep -vc -e '^#' -e '^[[:space:]]*$' "$TOP/patches/series")
why=()
[ -f "$image" ] || why+=("no Image.gz")
grep -qx CONFIG_NUMA=y "$cfg" && grep -qx CONFIG_NUMA_EMULATION=y "$cfg" || why+=("NUMA or NUMA_EMULATION not =y")
[ "$(git -C "$custom" rev-list --count base..HEAD 2>/dev/null)" = "$npatches" ] || why+=("the $npatches patches are not on the copy")
[ -d "$H/rpi-linux" ] && [ -z "$(find "$H/rpi-linux" -newer "$H/.rpi-linux.stamp" -print -quit)" ] || why+=("~/rpi-linux missing or changed")
[ -x "$H/numa_emu-ksft/run_kselftest.sh" ] && [ -x "$H/numa_emu-ksft/numa_emu/numa_emu_test" ] || why+=("no kselftest in ~/numa_emu-ksft")
if [ ${#why[@]} -gt 0 ]; then
	echo "FAIL|guide-pc|$(printf '%s; ' "${why[@]}")($G/logs/pc.log)"
	exit 0
fi
echo "PASS|guide-pc|$npatches patches on a copy of the unchanged KERNEL_SRC, NUMA and NUMA_EMULATION switched on by the guide's lines, Image.gz, modules and the kselftest built"

# The Pi part: boots separated by "sudo reboot".
base=$BUILD/initramfs.cpio
gen=$BUILD/gen_init_cpio
if [ ! -f "$base" ] || [ ! -x "$gen" ]; then
	base=$(TREE=$custom "$TOP/scripts/initramfs.sh") || die "no initramfs"
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
grep '^PI' "$G/steps" | cut -f2- | while IFS= read -r l; do
	if [ "$l" = "sudo reboot" ]; then
		echo REBOOT
	elif [ -n "${standin[$l]+set}" ]; then
		printf '%s\t%s\n' "$l" "${standin[$l]}"
	else
		printf '%s\t%s\n' "$l" "$l"
	fi
done | awk -F'\t' '$0 == "REBOOT" { n++; next } { print n + 0 "\t" $0 }' >"$G/pi-steps"
boots=$(($(grep -c -x 'PI	sudo reboot' "$G/steps") + 1))
dtb=$("$TOP/scripts/dtb.sh" pi5-like 4G 4) || die "no device tree"

guest_script() { # boot -> the commands of that boot as a guest script
	echo '#!/bin/bash'
	echo 'export HOME=/root; cd /root'
	# What a booted Raspberry Pi OS has and a bare devtmpfs lacks: the
	# /dev/fd and /dev/std* links (the kselftest runner writes to /dev/stdout).
	echo 'ln -sf /proc/self/fd /dev/fd; for i in 0:stdin 1:stdout 2:stderr; do ln -sf "/proc/self/fd/${i%:*}" "/dev/${i#*:}"; done'
	awk -F'\t' -v b="$1" '$1 == b { print $2 "\t" $3 }' "$G/pi-steps" | while IFS=$'\t' read -r l run; do
		printf 'echo %q\n' "RIG guide \$ $l"
		printf '%s\n' "$run"
		echo 'echo "RIG guide rc $?"'
	done
	# /boot/firmware, carried to the next boot by the host.
	echo 'for f in /boot/firmware/*; do echo "RIG file ${f##*/} $(cat "$f")"; done'
}

one_firmware() { # kind: the guide's boots with that firmware
	local kind=$1 b d log fw=firmware_$1 files=$G/$1-firmware
	mkdir -p "$files"
	echo "$cmdline_txt" >"$files/cmdline.txt"
	for ((b = 0; b < boots; b++)); do
		d=$G/$kind-$b
		mkdir -p "$d/root/opt/rig" "$d/root/boot" "$d/root/root" "$d/root/usr/bin"
		cp -a "$files" "$d/root/boot/firmware"
		printf '#!/bin/sh\nexec "$@"\n' >"$d/root/usr/bin/sudo"
		guest_script "$b" >"$d/root/opt/rig/guide.sh"
		chmod 0755 "$d/root/usr/bin/sudo" "$d/root/opt/rig/guide.sh"
		cp -a "$H/numa_emu-ksft" "$d/root/root/"
		cp "$G/coreutils/usr/bin/timeout" "$d/root/usr/bin/timeout"
		cpio_list "$d/root" >"$d/list"
		"$gen" "$d/list" >"$d/extra.cpio" && cat "$base" "$d/extra.cpio" >"$d/initrd.cpio" ||
			{ echo "boot $b: initramfs failed" >"$G/$kind.err"; return; }
		log=$G/logs/$kind-$b.log
		# The firmware's options first, then cmdline.txt, as on the Pi.
		MEM=4G SMP=4 TIMEOUT=400 INITRD=$d/initrd.cpio QEMU_ARGS="-dtb $dtb" \
			CMDLINE="${!fw} rig.mode=facts rig.run=guide.sh $(cat "$files/cmdline.txt")" \
			"$TOP/scripts/boot.sh" "$image" "$log" 2>/dev/null ||
			{ echo "boot $b did not finish ($log)" >"$G/$kind.err"; return; }
		rm -rf "$files" "$d"
		mkdir -p "$files"
		sed -n 's/^RIG file \([^ ]*\) \(.*\)$/\1 \2/p' "$log" | while read -r f content; do
			printf '%s\n' "$content" >"$files/$f"
		done
	done
}
export -f one_firmware guest_script cpio_list
export G H boots image dtb base gen cmdline_txt TOP BUILD firmware_none firmware_policy firmware_fake8
step "the guide's Pi steps: $boots boots for each firmware ($kinds), two at a time" \
	bash -c "printf '%s\\n' $kinds | xargs -P2 -I{} bash -c 'one_firmware {}'"

# What a command printed: the lines between its "RIG guide $" line and
# its "RIG guide rc" line, in the given boot's log.
out() { # kind boot command
	awk -v c="RIG guide \$ $3" '$0 == c { on = 1; next } on && /^RIG guide rc / { exit } on' \
		"$G/logs/$1-$2.log"
}
# Online nodes per boot as the guide promises them: the firmware's before
# step 3 and after the undo (boot 3), 4 with numa=fake=4, 1 with numa=off.
want_nodes() { # kind boot
	case $2 in
	0 | 3) [ "$1" = fake8 ] && echo 0-7 || echo 0 ;;
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
	[ "$boots" -eq 5 ] || why+=("$boots boots, the checks below know 5")
	for ((b = 0; b < boots; b++)); do
		log=$G/logs/$kind-$b.log
		bad=$(grep '^RIG guide rc ' "$log" | grep -vc '^RIG guide rc 0$' || true)
		ran=$(grep -c '^RIG guide rc ' "$log" || true)
		[ "$ran" -eq "$(awk -F'\t' -v b="$b" '$1 == b' "$G/pi-steps" | wc -l)" ] || why+=("boot $b: $ran commands ran")
		[ "$bad" -eq 0 ] || why+=("boot $b: $bad command(s) failed")
		n=$(sed -n 's/^RIG nodes online //p' "$log")
		[ "$n" = "$(want_nodes "$kind" "$b")" ] || why+=("boot $b: nodes online '$n', want $(want_nodes "$kind" "$b")")
	done
	out "$kind" 1 'cat /proc/cmdline' | grep -q ' numa=fake=4$' || why+=("/proc/cmdline does not end in numa=fake=4")
	hw=$(out "$kind" 1 'numactl --hardware')
	echo "$hw" | grep -qx 'available: 4 nodes (0-3)' &&
		[ "$(echo "$hw" | grep -cx 'node [0-3] cpus: 0 1 2 3')" -eq 4 ] ||
		why+=("numactl --hardware does not show 4 nodes with every CPU in each")
	if [ "$kind" = fake8 ]; then
		out "$kind" 1 "sudo dmesg | grep 'NUMA:'" | grep -q 'NUMA: numa=fake=4 replaces numa=fake=8 given before' ||
			why+=("no 'replaces' line for the firmware's numa=fake=8")
	fi
	ks=$(out "$kind" 1 'sudo ~/numa_emu-ksft/run_kselftest.sh')
	echo "$ks" | grep -qx 'ok 1 selftests: numa_emu: numa_emu_test' &&
		echo "$ks" | grep -Eq 'Totals: pass:[1-9][0-9]* fail:0 ' || why+=("the kselftest did not pass")
	kss=$(out "$kind" 1 'sudo ~/numa_emu-ksft/numa_emu/numa_emu_test -S')
	echo "$kss" | grep -Eq '^# Totals: pass:[1-9][0-9]* fail:0 xfail:0 xpass:0 skip:[0-9]+ error:0' ||
		why+=("the kselftest with -S did not pass: $(echo "$kss" | grep -m1 '^not ok' || echo "$kss" | tail -1)")
	out "$kind" 1 'numactl --interleave=all numactl --show' | grep -qx 'policy: interleave' ||
		why+=("numactl --interleave=all numactl --show does not say 'policy: interleave'")
	out "$kind" 2 "sudo dmesg | grep 'numa_policy=interleave:'" |
		grep -q 'numa_policy=interleave: tasks without a memory policy of their own allocate interleaved over nodes 0-3' ||
		why+=("no numa_policy= line after step 6")
	out "$kind" 2 'grep -m1 interleave /proc/self/numa_maps' | grep -q ' interleave:0-3 ' ||
		why+=("numa_maps does not show interleave:0-3 after step 6")
	[ "$(sed -n 's/^RIG file cmdline.txt //p' "$G/logs/$kind-2.log")" = "$cmdline_txt" ] ||
		why+=("cmdline.txt after the undo is not the original")
	out "$kind" 3 'numactl --hardware' | grep -qx "available: $([ "$kind" = fake8 ] && echo '8 nodes (0-7)' || echo '1 nodes (0)')" ||
		why+=("numactl --hardware after the undo does not show the nodes from before")
	out "$kind" 4 'numactl --hardware' | grep -qx 'available: 1 nodes (0)' ||
		why+=("numactl --hardware does not show one node with numa=off")
	if [ ${#why[@]} -eq 0 ]; then
		echo "PASS|guide-pi-$kind|$boots boots: nodes $(for ((b = 0; b < boots; b++)); do sed -n 's/^RIG nodes online //p' "$G/logs/$kind-$b.log"; done | paste -sd' '), kselftest $(echo "$ks" | grep -Eo 'Totals: pass:[0-9]+ fail:0' | head -1 | sed 's/Totals: //'), every command succeeded"
	else
		echo "FAIL|guide-pi-$kind|$(printf '%s; ' "${why[@]}")"
	fi
done
