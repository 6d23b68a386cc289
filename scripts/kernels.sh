#!/bin/bash
# Build the kernels the boot matrix names, for $KERNEL, once each:
# <pages>-emu for 4K/16K/64K, 16k-acpi (UEFI/ACPI; on 6.1 with the KUnit
# suite), rv-emu (riscv64, 6.1 only), 16k-noemu, and 16k-base (the unpatched
# source: a worktree at "base"; for a mainline comparison kernel, whose only
# patch is the selftest, the noemu kernel is the unpatched one); 16k-noemu's
# first build starts from a copy of 16k-emu's build directory.
# Usage: kernels.sh IMAGES_FILE LOGDIR
# Writes "key image-path" lines to IMAGES_FILE, and "key FAIL reason" for a
# build that failed (its log is LOGDIR/build-key.log).
. "$(dirname "$0")/lib.sh"
images=$1 logs=$2
mkdir -p "$logs"
: >"$images"

if [ "$KERNEL" = 6.1 ] && [ -z "${KERNEL_SRC:-}" ]; then
	base_worktree
fi

one() { # key pages variant tree [arch]
	local log=$logs/build-$1.log image
	if image=$(RIG_ARCH=${5:-arm64} TREE=$4 PAGES=$2 VARIANT=$3 step "build $(basename "$4") $1" \
		"$TOP/scripts/build.sh" 2> >(tee "$log" >&2)); then
		echo "$1 $image" >>"$images"
	else
		echo "$1 FAIL $(grep -m1 error "$log" || tail -1 "$log")" >>"$images"
	fi
}
for p in 16k 4k 64k; do one "$p-emu" "$p" emu "$TREE"; done
one 16k-acpi 16k acpi "$TREE"
[ "$KERNEL" = 6.1 ] && one rv-emu 4k emu "$TREE" riscv64
# 16k-noemu is 16k-emu without one option: a first build starts from a
# copy of 16k-emu's objects, and Kbuild compiles again only what reads
# CONFIG_NUMA_EMULATION (its per-option dependencies).
noemu=$(PAGES=16k VARIANT=noemu outdir) emu=$(PAGES=16k VARIANT=emu outdir)
if [ ! -e "$noemu/.config" ] && [ -e "$emu/vmlinux" ]; then
	rm -rf "$noemu" "$noemu.tmp"
	cp -a "$emu" "$noemu.tmp" && mv "$noemu.tmp" "$noemu" || rm -rf "$noemu.tmp"
fi
one 16k-noemu 16k noemu "$TREE"
if [ -d "$BASE_TREE" ]; then
	one 16k-base 16k noemu "$BASE_TREE"
else
	echo "16k-base $(awk '$1 == "16k-noemu" {print $2, $3, $4}' "$images")" >>"$images"
fi
