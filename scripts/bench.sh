#!/bin/bash
# make bench: what NUMA emulation costs and what interleaving does, in one
# run on one QEMU machine (4 CPUs, 4 GiB, 16K pages): the unpatched 6.1
# kernel (no emulation), this series with numa=fake=1, 4, 8 and 16, and
# mainline 6.12's emulation with numa=fake=4 and 8. Each guest runs
# guest/bench.c after boot; guests run one at a time so that they do not
# disturb each other. Guests run with -icount: the guest's clock counts the
# instructions it executed (8 ns each), so single-CPU figures and boot
# times measure what each kernel executes, unaffected by the load of the
# host (without it, two boots of the same kernel differed by 50 % and more
# on a 2-core host). Multi-CPU figures still vary with how the vCPUs are
# interleaved: each figure is the best of its runs.
# Writes build/bench/results.md and results.png: ratios against no
# emulation (QEMU timings say nothing about real DRAM).
. "$(dirname "$0")/lib.sh"
OUT=$BUILD/bench
rm -rf "$OUT/logs"
mkdir -p "$OUT/logs"
REPS=${REPS:-3}
MIB=${MIB:-16}

# The three kernels, 16K pages.
step "checking packages" "$TOP/scripts/deps.sh"
EXTRA_PKGS=gnuplot-nox step "checking gnuplot" "$TOP/scripts/deps.sh"
"$TOP/scripts/tree.sh"
base_tree=$BUILD/linux-6.1-base
if [ ! -d "$base_tree" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$base_tree" base
fi
ours=$(PAGES=16k VARIANT=emu step "build this series (16k)" "$TOP/scripts/build.sh")
base=$(TREE=$base_tree PAGES=16k VARIANT=noemu step "build unpatched 6.1 (16k)" "$TOP/scripts/build.sh")
KERNEL=6.12 step "checking packages (6.12)" "$TOP/scripts/deps.sh"
KERNEL=6.12 "$TOP/scripts/tree.sh"
main=$(KERNEL=6.12 TREE=$BUILD/linux-6.12 PAGES=16k VARIANT=emu \
	step "build mainline 6.12 (16k, CONFIG_NUMA_EMU)" "$TOP/scripts/build.sh")
step "building initramfs" "$TOP/scripts/initramfs.sh" >/dev/null

# No emulation twice, first and last: how far apart two boots of the same
# kernel are is the noise of the run.
runs=(
	"none|$base|"
	"ours-1|$ours|numa=fake=1"
	"ours-4|$ours|numa=fake=4"
	"ours-8|$ours|numa=fake=8"
	"ours-16|$ours|numa=fake=16"
	"mainline-4|$main|numa=fake=4"
	"mainline-8|$main|numa=fake=8"
	"none-again|$base|"
)
i=0
for r in "${runs[@]}"; do
	IFS='|' read -r name image cmd <<<"$r"
	i=$((i + 1))
	MEM=4G SMP=4 TIMEOUT=1200 QEMU_ARGS="-icount shift=3,sleep=off" \
		CMDLINE="$cmd rig.mode=bench rig.args=-e,-r,$REPS,-m,$MIB" \
		step "bench $i/${#runs[@]}: $name" "$TOP/scripts/boot.sh" "$image" "$OUT/logs/$name.log" ||
		die "bench $name failed ($OUT/logs/$name.log)"
done
python3 "$TOP/tests/bench-report.py" "$OUT" "$(make -s -C "$TREE" kernelversion)" \
	"$(make -s -C "$BUILD/linux-6.12" kernelversion)" "${runs[@]%%|*}" >"$OUT/results.md" ||
	die "report failed"
gnuplot "$OUT/chart.gp" || die "gnuplot failed"
sed -n '1,/^$/p' "$OUT/results.md"
say "results: $OUT/results.md, chart: $OUT/results.png"
