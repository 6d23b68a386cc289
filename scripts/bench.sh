#!/bin/bash
# make bench: what a fake node costs and what interleaving does, in one
# run on one QEMU machine (4 CPUs, 4 GiB unless said, 16K pages), two
# guests at a time (JOBS):
#   none, none-again   the unpatched 6.1 kernel, first and last (the noise)
#   ours-N             this series, numa=fake=N for N = 1, 2, 4, 8, 16
#   pol-N              the same with numa_policy=interleave, N = 1, 4, 8,
#                      16 (pol-8: what the Pi 5 firmware passes itself)
#   real-N             the unpatched kernel on N nodes that QEMU's firmware
#                      describes (CPUs on node 0, as with fake nodes): what
#                      N real nodes cost, without the series; N = 2, 4, 8, 16
#   mainline-N         mainline 6.12's emulation, N = 1 (no numa=fake), 2, 4, 8, 16
#   big-none, big-16   16 GiB: unpatched, and this series with numa=fake=16
#                      (nodes of 1 GiB, as large as ours-4's): what 16 nodes
#                      cost the allocation paths when their zones are not
#                      smaller than 4 nodes' are
#   small-none, small-4  1 GiB: unpatched, and numa=fake=4 (nodes of 256
#                      MiB, as small as ours-16's): what small zones cost
#                      with 4 nodes only
#   hd0-16             ours-16 with hashdist=0: what the boot hash tables
#                      moving to vmalloc (hashdist, on with a second node)
#                      cost
# Guests run with -icount: the guest's clock counts the instructions it
# executes (8 ns each), so boot times and the single-CPU figures measure
# what each kernel executes, not the load of the host. Only one CPU runs
# the benchmark: with -icount QEMU runs the vCPUs in turn on one thread, so
# a multi-CPU figure would measure QEMU's round robin, not the kernel.
# In each guest /init records, once its file systems are mounted, the
# guest time since reset and the memory the kernel holds, item by item
# (guest/bootclock.c, guest/cost.sh; initcall_debug gives each initcall's
# time), then runs guest/bench.c (-c 1, REPS timed runs of MIB MiB). Each
# configuration boots BOOTS times and runs the benchmark in every boot, so
# that every figure has a range over the boots. Writes
# build/bench/results.md and results.png (tests/bench-report.py).
. "$(dirname "$0")/lib.sh"
OUT=$BUILD/bench
rm -rf "$OUT/logs"
mkdir -p "$OUT/logs"
REPS=${REPS:-3}
MIB=${MIB:-16}
BOOTS=${BOOTS:-3}

# The three kernels, 16K pages.
step "checking packages" "$TOP/scripts/deps.sh"
EXTRA_PKGS=gnuplot-nox step "checking gnuplot" "$TOP/scripts/deps.sh"
"$TOP/scripts/tree.sh"
base_worktree
ours=$(PAGES=16k VARIANT=emu step "build this series (16k)" "$TOP/scripts/build.sh")
base=$(TREE=$BASE_TREE PAGES=16k VARIANT=noemu step "build unpatched 6.1 (16k)" "$TOP/scripts/build.sh")
KERNEL=6.12 step "checking packages (6.12)" "$TOP/scripts/deps.sh"
KERNEL=6.12 "$TOP/scripts/tree.sh"
main=$(KERNEL=6.12 TREE=$BUILD/linux-6.12 PAGES=16k VARIANT=emu \
	step "build mainline 6.12 (16k, CONFIG_NUMA_EMU)" "$TOP/scripts/build.sh")
step "building initramfs" "$TOP/scripts/initramfs.sh" >/dev/null
# The report counts kernel stacks apart from vmalloc: true without
# CONFIG_VMAP_STACK only.
for k in "$ours" "$base" "$main"; do
	grep -qx '# CONFIG_VMAP_STACK is not set' "${k%/arch/*}/.config" ||
		die "${k%/arch/*}: CONFIG_VMAP_STACK is set; the report's kernel stacks would be in vmalloc too"
done

# N nodes of 4G / N each as QEMU's firmware describes them, all CPUs on
# node 0.
real() {
	local k args=
	for ((k = 0; k < $1; k++)); do
		args+=" -object memory-backend-ram,id=m$k,size=$((4096 / $1))M -numa node,memdev=m$k"
		[ $k -eq 0 ] && args+=",cpus=0-3"
	done
	echo "$args"
}
# No emulation twice, first and last: how far apart two boots of the same
# kernel are is the noise of the run.
runs=(
	"none|$base||"
	"ours-1|$ours|numa=fake=1|"
	"ours-2|$ours|numa=fake=2|"
	"ours-4|$ours|numa=fake=4|"
	"ours-8|$ours|numa=fake=8|"
	"ours-16|$ours|numa=fake=16|"
	"pol-1|$ours|numa=fake=1 numa_policy=interleave|"
	"pol-4|$ours|numa=fake=4 numa_policy=interleave|"
	"pol-8|$ours|numa=fake=8 numa_policy=interleave|"
	"pol-16|$ours|numa=fake=16 numa_policy=interleave|"
	"real-2|$base||$(real 2)"
	"real-4|$base||$(real 4)"
	"real-8|$base||$(real 8)"
	"real-16|$base||$(real 16)"
	"mainline-1|$main||"
	"mainline-2|$main|numa=fake=2|"
	"mainline-4|$main|numa=fake=4|"
	"mainline-8|$main|numa=fake=8|"
	"mainline-16|$main|numa=fake=16|"
	"big-none|$base|||16G"
	"big-16|$ours|numa=fake=16||16G"
	"small-none|$base|||1G"
	"small-4|$ours|numa=fake=4||1G"
	"hd0-16|$ours|numa=fake=16 hashdist=0|"
	"none-again|$base||"
)
# The same for every guest: each initcall's time in the log, the initramfs
# unpacked inside its initcall (not beside the others), no NUMA balancing
# (the unpatched and the mainline kernel would turn it on with a second
# node; the series leaves it off on fake nodes), no transparent huge pages
# (the benchmark maps with MADV_NOHUGEPAGE; without THP no process leaves
# khugepaged a record to free later, which Slab would count), and the
# kernel's messages in its log but not on the serial console (quiet, as in
# Raspberry Pi OS's cmdline.txt): under -icount every character sent costs
# guest time, and the per-node lines would be counted as node cost.
common="quiet initcall_debug initramfs_async=0 numa_balancing=disable transparent_hugepage=never log_buf_len=4M"
# JOBS guests at a time (2 unless said): under -icount a guest's figures
# count its own instructions, so a guest beside it changes none of them.
JOBS=${JOBS:-2}
one() { # one boot: I NAME B IMAGE CMDLINE QEMU MEM
	local log=$OUT/logs/$2.b$3.log
	MEM=${7:-4G} SMP=4 TIMEOUT=1200 QEMU_ARGS="-icount shift=3,sleep=off$6" \
		CMDLINE="$5 $common rig.mode=bench rig.args=-c,1,-r,$REPS,-m,$MIB" \
		step "bench $1/${#runs[@]}: $2, boot $3/$BOOTS" "$TOP/scripts/boot.sh" "$4" "$log" ||
		die "bench $2 failed ($log)"
}
i=0 running=0
for r in "${runs[@]}"; do
	IFS='|' read -r name image cmd qemu mem <<<"$r"
	i=$((i + 1))
	for ((b = 1; b <= BOOTS; b++)); do
		if [ "$running" -ge "$JOBS" ]; then
			wait -n || die "a bench boot failed"
			running=$((running - 1))
		fi
		one "$i" "$name" "$b" "$image" "$cmd" "$qemu" "$mem" &
		running=$((running + 1))
	done
done
for ((; running > 0; running--)); do
	wait -n || die "a bench boot failed"
done
SERIES=$(series_id) JOBS=$JOBS BOOTS=$BOOTS REPS=$REPS MIB=$MIB python3 "$TOP/tests/bench-report.py" "$OUT" \
	"$(make -s -C "$TREE" kernelversion)" "$(make -s -C "$BUILD/linux-6.12" kernelversion)" "${runs[@]%%|*}" >"$OUT/results.md" ||
	die "report failed"
gnuplot "$OUT/chart.gp" || die "gnuplot failed"
sed -n '1,/^$/p' "$OUT/results.md"
cp "$OUT/results.md" "$TOP/results/bench.md"
cp "$OUT/results.png" "$TOP/results/bench.png"
say "results: $OUT/results.md, chart: $OUT/results.png (copied to results/)"
