#!/bin/bash
# Make a device tree variant for a QEMU virt guest of MEM and SMP from
# QEMU's own tree (dumpdtb) and tests/dt-variants.txt. Prints its path.
# Usage: dtb.sh VARIANT MEM SMP
. "$(dirname "$0")/lib.sh"
name=$1 mem=$2 smp=$3
dir=$BUILD/dtb
out=$dir/$name-$mem-$smp.dtb
mkdir -p "$dir"
base=$dir/virt-$mem-$smp
# QEMU's tree is dumped again when QEMU changes, a variant when its inputs do.
ver=$(qemu-system-aarch64 --version | head -1)
if [ ! -f "$base.dts" ] || [ "$(cat "$base.qemu" 2>/dev/null)" != "$ver" ]; then
	qemu-system-aarch64 -M "virt,dumpdtb=$base.dtb" -cpu cortex-a76 -smp "$smp" \
		-m "$mem" -nographic -nic none >/dev/null 2>&1 || die "qemu dumpdtb failed"
	dtc -q -I dtb -O dts -o "$base.dts" "$base.dtb" || die "dtc failed"
	echo "$ver" >"$base.qemu"
fi
if [ ! -f "$out" ] || [ "$TOP/tests/dt-variants.txt" -nt "$out" ] ||
	[ "$TOP/tests/dtvariant.py" -nt "$out" ] || [ "$base.dts" -nt "$out" ]; then
	python3 "$TOP/tests/dtvariant.py" "$TOP/tests/dt-variants.txt" "$name" "$mem" \
		"$base.dts" "$dir/$name-$mem-$smp.dts" || die "variant $name failed"
	dtc -q -I dts -O dtb -o "$out" "$dir/$name-$mem-$smp.dts" || die "dtc failed on $name"
fi
echo "$out"
