#!/bin/bash
# Make a device tree variant for a QEMU virt guest of MEM and SMP from
# QEMU's own tree (dumpdtb) and tests/dt-variants.txt. Prints its path.
# Usage: dtb.sh VARIANT MEM SMP [QEMU-ARGS]   the -object and -numa options
# of QEMU-ARGS shape the dumped tree (the CPUs' nodes, the distance map);
# other options that would shape it are refused, as the -dtb replaces it.
. "$(dirname "$0")/lib.sh"
name=$1 mem=$2 smp=$3
read -ra args <<<"${4:-}"
numa=()
for ((i = 0; i + 1 < ${#args[@]}; i++)); do
	case ${args[i]} in
	-object|-numa) numa+=("${args[i]}" "${args[i + 1]}"); i=$((i + 1)) ;;
	-m|-M|-machine|-smp|-cpu|-device) die "dtb.sh: ${args[i]} ${args[i + 1]} would shape the tree, which $name replaces" ;;
	esac
done
tag=$mem-$smp
[ ${#numa[@]} -eq 0 ] || tag=$tag-numa$(echo "${numa[*]}" | sha1sum | cut -c1-8)
dir=$BUILD/dtb
out=$dir/$name-$tag.dtb
mkdir -p "$dir"
base=$dir/virt-$tag
# QEMU's tree is dumped again when QEMU changes, a variant when its inputs do.
ver=$(qemu-system-aarch64 --version | head -1)
if [ ! -f "$base.dts" ] || [ "$(cat "$base.qemu" 2>/dev/null)" != "$ver" ]; then
	qemu-system-aarch64 -M "virt,dumpdtb=$base.dtb" -cpu cortex-a76 -smp "$smp" \
		-m "$mem" -nographic -nic none "${numa[@]}" >/dev/null 2>&1 || die "qemu dumpdtb failed"
	dtc -q -I dtb -O dts -o "$base.dts" "$base.dtb" || die "dtc failed"
	echo "$ver" >"$base.qemu"
fi
if [ ! -f "$out" ] || [ "$TOP/tests/dt-variants.txt" -nt "$out" ] ||
	[ "$TOP/tests/dtvariant.py" -nt "$out" ] || [ "$base.dts" -nt "$out" ]; then
	python3 "$TOP/tests/dtvariant.py" "$TOP/tests/dt-variants.txt" "$name" "$mem" \
		"$base.dts" "$dir/$name-$tag.dts" || die "variant $name failed"
	dtc -q -I dts -O dtb -o "$out" "$dir/$name-$tag.dts" || die "dtc failed on $name"
fi
echo "$out"
