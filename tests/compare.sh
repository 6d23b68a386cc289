#!/bin/bash
# make compare: the same boot matrix on this series (Linux 6.1) and on
# mainline 6.12's own NUMA emulation (CONFIG_NUMA_EMU, only the selftest
# patch applied), side by side in build/results/compare.md.
. "$(dirname "$0")/../scripts/lib.sh"
RES=$BUILD/results
mkdir -p "$RES"

run_side() { # kernel-version label
	local v=$1 label=$2 ksft
	KERNEL=$v step "checking packages ($v)" "$TOP/scripts/deps.sh"
	KERNEL=$v "$TOP/scripts/tree.sh"
	KERNEL=$v "$TOP/scripts/kernels.sh" "$RES/images-$v" "$BUILD/logs/compare-$v"
	ksft=$(KERNEL=$v "$TOP/scripts/kselftest.sh")
	# numactl's own suite, as in "make check" (it needs the initramfs's
	# arm64 libnuma first).
	step "initramfs ($label)" "$TOP/scripts/initramfs.sh" >/dev/null
	nt=$("$TOP/scripts/numactl-tests.sh") || die "cannot build numactl's test suite"
	GUEST_EXTRA="$ksft $nt" step "initramfs ($label)" "$TOP/scripts/initramfs.sh" >/dev/null
	# The riscv64 guest of this series' side, as in "make check".
	if grep -q '^rv-emu /' "$RES/images-$v"; then
		local rvksft
		rvksft=$(KERNEL=$v RIG_ARCH=riscv64 "$TOP/scripts/kselftest.sh")
		RIG_ARCH=riscv64 GUEST_EXTRA=$rvksft step "initramfs ($label, riscv64)" \
			"$TOP/scripts/initramfs.sh" >/dev/null
	fi
	# KERNEL decides whether the kselftest also checks this series' own
	# rules (-S): on mainline it must not.
	KERNEL=$v LOGS=$BUILD/logs/compare-$v step "boot matrix ($label)" \
		"$TOP/tests/matrix.sh" "$RES/images-$v" "$RES/compare-$v.out"
	# The real clients on the stand-in, with this side's stand-in kernel.
	KERNEL=$v LOGS=$BUILD/logs/compare-$v/clients step "real clients ($label)" \
		"$TOP/tests/clients.sh" >"$RES/clients-$v.out"
}

run_side 6.1 "this series"
run_side 6.12 "mainline 6.12"
python3 "$TOP/tests/compare-table.py" "$TOP/tests/matrix.txt" \
	"$RES/compare-6.1.out" "$RES/compare-6.12.out" \
	"$BUILD/logs/compare-6.1" "$BUILD/logs/compare-6.12" >"$RES/compare.md"
python3 "$TOP/tests/clients-table.py" "$TOP/tests/clients.txt" \
	"$BUILD/logs/compare-6.1/clients" "$BUILD/logs/compare-6.12/clients" >>"$RES/compare.md"
sed -n '1,/^| case/p' "$RES/compare.md" | head -n -1
say "table: $RES/compare.md"
