#!/bin/bash
# Guest userland: Debian's real arm64 busybox and numactl (fetched with
# apt-get download, unpacked with dpkg -x, never installed on the host),
# static helpers from guest/, and guest/init as /init. Debian 12 has no
# riscv64 binaries: the riscv64 guest (RIG_ARCH=riscv64) gets the static
# helpers and guest/mininit.c as /init.
. "$(dirname "$0")/lib.sh"

out=$BUILD/initramfs$SUFFIX.cpio
root=$BUILD/rootfs$SUFFIX
debs=$BUILD/debs
# shellcheck disable=SC2086
inputs=$( (cat "$TOP"/guest/* "$0"; for x in ${GUEST_EXTRA:-}; do find "$x" -type f -exec cat {} +; done) | sha1sum | cut -c1-40)
[ -f "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$inputs" ] && { echo "$out"; exit 0; }

# bash and GNU grep (and their libraries) for numactl's own test scripts.
pkgs=(busybox-static numactl libnuma1 libc6 bash libtinfo6 grep libpcre2-8-0)
[ "$RIG_ARCH" = arm64 ] || pkgs=()
mkdir -p "$debs"
for p in "${pkgs[@]}"; do
	ls "$debs/${p}_"*_arm64.deb >/dev/null 2>&1 && continue
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		as_root dpkg --add-architecture arm64 || die "cannot add the arm64 architecture (need root)"
		as_root apt-get update -qq || die "apt-get update failed"
	fi
	(cd "$debs" && apt-get download -qq "$p:arm64" >/dev/null 2>&1) || {
		as_root apt-get update -qq >/dev/null 2>&1 || true
		(cd "$debs" && apt-get download -qq "$p:arm64") || die "cannot download $p:arm64"
	}
done

rm -rf "$root"
mkdir -p "$root"
for p in "${pkgs[@]}"; do dpkg -x "$(ls "$debs/${p}_"*_arm64.deb | head -1)" "$root"; done
rm -rf "$root"/usr/share "$root"/usr/lib/aarch64-linux-gnu/gconv "$root"/usr/libexec "$root"/etc/ld.so.conf.d
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,root,usr/bin,usr/sbin,opt/rig}
[ "$RIG_ARCH" = arm64 ] && install -m 0755 "$TOP/guest/init" "$root/init"
for src in "$TOP"/guest/*.c; do
	[ -f "$src" ] || continue
	"${CROSS_COMPILE}gcc" -static -pthread -O2 -Wall -Werror -o "$root/opt/rig/$(basename "$src" .c)" "$src" -lm ||
		die "cannot build guest helper $src"
done
[ "$RIG_ARCH" = arm64 ] || mv "$root/opt/rig/mininit" "$root/init"
for sh in "$TOP"/guest/*.sh; do
	[ -f "$sh" ] && install -m 0755 "$sh" "$root/opt/rig/"
done
for extra in ${GUEST_EXTRA:-}; do cp -a "$extra" "$root/opt/rig/"; done

# gen_init_cpio from the kernel tree builds the archive without root.
gen=$BUILD/gen_init_cpio
[ -x "$gen" ] || gcc -O2 -o "$gen" "$TREE/usr/gen_init_cpio.c" || die "cannot build gen_init_cpio"
list=$BUILD/initramfs.list
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	cpio_list "$root"
} >"$list"
"$gen" "$list" >"$out.tmp" || die "gen_init_cpio failed"
mv "$out.tmp" "$out"
echo "$inputs" >"$out.stamp"
echo "$out"
