#!/bin/bash
# Build an arm64 (or riscv64, RIG_ARCH) Image out of tree: allnoconfig +
# configs/ fragments. Usage: build.sh [extra fragment...]   (PAGES,
# KERNEL, VARIANT, RIG_ARCH from env)
. "$(dirname "$0")/lib.sh"
check_pages "$PAGES"

ver=$KERNEL
[ -n "${KERNEL_SRC:-}" ] && ver=custom
# RIG_O: another build directory than the one of PAGES and VARIANT.
O=${RIG_O:-$(outdir)}
mkdir -p "$O"

frags=("$TOP/configs/qemu.config" "$TOP/configs/arch-$RIG_ARCH.config")
[ "$RIG_ARCH" = arm64 ] && frags+=("$TOP/configs/pages-$PAGES.config")
case "$VARIANT" in
emu|noemu)
	frags+=("$TOP/configs/numa.config")
	f=$TOP/configs/$VARIANT-${KERNEL}.config
	[ -f "$f" ] && frags+=("$f") ;;
standin)	# emulation, booting the Raspberry Pi OS stand-in from a disk
	frags+=("$TOP/configs/numa.config" "$TOP/configs/standin.config")
	f=$TOP/configs/emu-${KERNEL}.config
	[ -f "$f" ] && frags+=("$f") ;;
acpi)	# emulation on a UEFI/ACPI kernel, with the KUnit suite (6.1)
	frags+=("$TOP/configs/numa.config" "$TOP/configs/acpi.config")
	for f in "$TOP/configs/emu-${KERNEL}.config" "$TOP/configs/acpi-${KERNEL}.config"; do
		[ -f "$f" ] && frags+=("$f")
	done ;;
nonuma) ;;
*) die "VARIANT=$VARIANT is not known (emu, noemu, acpi, standin, nonuma)" ;;
esac
frags+=("$@")

# Merge the fragments on top of allnoconfig, then check that every option
# they ask for made it into .config.
cat "${frags[@]}" >"$O/fragments.config"
if ! grep -qx "CONFIG_$KSYM=y" "$O/.config" 2>/dev/null || ! cmp -s "$O/fragments.config" "$O/fragments.used"; then
	(cd "$TREE" && KCONFIG_ALLCONFIG="$O/fragments.config" \
		make -s O="$O" allnoconfig >/dev/null) || die "allnoconfig failed"
	cp "$O/fragments.config" "$O/fragments.used"
fi
"$TOP/scripts/config-check.sh" "$O/fragments.config" "$O/.config" ||
	die "config fragments not satisfied in $O/.config"

cc="${CROSS_COMPILE}gcc"
command -v ccache >/dev/null && cc="ccache $cc"
make -C "$TREE" -s O="$O" CC="$cc" KBUILD_BUILD_TIMESTAMP="2000-01-01" \
	KBUILD_BUILD_USER=rig KBUILD_BUILD_HOST=rig \
	-j"$(nproc)" Image ${W:+W=$W} ${C:+C=$C} >"$O/build.log" 2>&1 ||
	{ tail -30 "$O/build.log" >&2; die "kernel build failed ($O/build.log)"; }
# The series' emulation is linked exactly when the configuration asks for
# it (a build directory may have held the other configuration before).
if [ -f "$TREE/drivers/base/numa_emulation.c" ] &&
	[ "$(grep -cx 'CONFIG_NUMA_EMULATION=y' "$O/.config")" != "$(grep -c ' T numa_emu_init$' "$O/System.map")" ]; then
	die "$O: CONFIG_NUMA_EMULATION and the linked numa_emu_init() disagree"
fi
echo "$O/$IMAGE"
