#!/bin/bash
# make compare: the same boot matrix on this series (Linux 6.1) and on
# mainline 6.12's own NUMA emulation (CONFIG_NUMA_EMU, only the selftest
# patch applied), side by side in build/results/compare.md.
. "$(dirname "$0")/../scripts/lib.sh"
RES=$BUILD/results
mkdir -p "$RES"

run_side() { # kernel-version label
	local v=$1 label=$2 key O
	declare -A img=()
	KERNEL=$v step "checking packages ($v)" "$TOP/scripts/deps.sh"
	KERNEL=$v "$TOP/scripts/tree.sh"
	for key in 16k-emu 4k-emu 64k-emu 16k-noemu; do
		KERNEL=$v PAGES=${key%%-*} VARIANT=${key#*-} \
			step "build $label $key" "$TOP/scripts/build.sh" >/dev/null || continue
		O=$(KERNEL=$v PAGES=${key%%-*} VARIANT=${key#*-} bash -c ". '$TOP/scripts/lib.sh'; outdir")
		img[$key]=$O/arch/arm64/boot/Image
	done
	# "base" is the unpatched kernel: for 6.1 the pristine tree, for
	# mainline the same tree without emulation (only the selftest differs).
	if [ "$v" = 6.1 ]; then
		base=$BUILD/linux-6.1-base
		[ -d "$base" ] || git -C "$BUILD/linux-6.1" worktree add -q --detach "$base" base
		TREE=$base PAGES=16k VARIANT=noemu step "build $label 16k-base" "$TOP/scripts/build.sh" >/dev/null &&
			img[16k-base]=$(TREE=$base PAGES=16k VARIANT=noemu bash -c ". '$TOP/scripts/lib.sh'; outdir")/arch/arm64/boot/Image
	else
		img[16k-base]=${img[16k-noemu]:-}
	fi
	ksft=$(KERNEL=$v "$TOP/scripts/kselftest.sh")
	GUEST_EXTRA=$ksft step "initramfs ($label)" "$TOP/scripts/initramfs.sh" >/dev/null
	IMAGES=$(for k in "${!img[@]}"; do printf '[%s]=%q ' "$k" "${img[$k]}"; done) \
		LOGS=$BUILD/logs/compare-$v step "boot matrix ($label)" \
		"$TOP/tests/matrix.sh" "$RES/compare-$v.out"
}

run_side 6.1 "this series"
run_side 6.12 "mainline 6.12"
python3 "$TOP/tests/compare-table.py" "$TOP/tests/matrix.txt" \
	"$RES/compare-6.1.out" "$RES/compare-6.12.out" \
	"$BUILD/logs/compare-6.1" "$BUILD/logs/compare-6.12" >"$RES/compare.md"
sed -n '1,/^| case/p' "$RES/compare.md" | head -n -1
say "table: $RES/compare.md"
