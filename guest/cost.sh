#!/bin/sh
# What the kernel holds after boot, item by item, and where its boot went
# (make bench). Run after the page cache has been dropped; shrinks every
# slab cache first. The per-CPU
# vmstat deltas are folded first (vm/stat_refresh), and /proc/zoneinfo and
# /proc/meminfo are read by one process, back to back, so that free pages,
# per-CPU lists and the other counters describe one moment. Prints:
#   RIG cost meminfo KEY KB            (/proc/meminfo)
#   RIG cost zone NODE ZONE present P managed M free F pcp-count C batch B high H
#                                      (pages; batch and high of CPU 0's set)
#   RIG cost hash NAME-WITH-DASHES bytes B where linear|vmalloc|vmalloc-hugepage when boot|later
#                                      (boot: before mem_init's "Memory:" line,
#                                      from memblock, inside present - managed)
#   RIG cost percpu-first-kB K         (the embedded first per-cpu chunk, a boot
#                                      allocation that Percpu counts as well)
#   RIG cost threads total T kswapd K kcompactd C kworker W   (all tasks)
#   RIG cost initcall NAME USECS       (initcall_debug: from the printk time
#                                      stamps of its "calling" and "returned"
#                                      lines; the kernel's own figure counts
#                                      jiffies until the clocksource switch)
#   RIG cost stamp WHAT SECONDS        (printk time stamps of boot landmarks;
#                                      rigclock: guest/bootclock.c's marker)
# What waits for an RCU grace period (the task structs of exited
# processes, their files' dentries) is freed first: guest time runs on
# while the CPUs idle, so a second is enough. Then empty slabs go back
# (SLUB keeps some per cache and node), so that Slab counts what the
# caches hold, not when they were last trimmed.
sleep 1
echo 3 >/proc/sys/vm/drop_caches
for f in /sys/kernel/slab/*/shrink; do
	echo 1 >"$f"
done 2>/dev/null
echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
cat /proc/zoneinfo /proc/meminfo >/tmp/snap.cost
for k in MemTotal MemFree Slab SReclaimable SUnreclaim KernelStack PageTables Percpu \
	VmallocUsed Cached Buffers AnonPages Shmem; do
	echo "RIG cost meminfo $k $(awk -v k="$k:" '$1 == k {print $2}' /tmp/snap.cost)"
done
awk '
function flush() { if (z != "") printf "RIG cost zone %s %s present %d managed %d free %d pcp-count %d batch %d high %d\n", n, z, p, m, f, c, b, h; z = "" }
/^Node [0-9]+, zone/ { flush(); n = $2; sub(",", "", n); z = $4; p = m = f = c = b = h = 0; cpu = -1 }
/^MemTotal:/ { flush() }
$1 == "pages" && $2 == "free" { f = $3 }
$1 == "present" { p = $2 }
$1 == "managed" { m = $2 }
$1 == "cpu:" { cpu = $2 }
$1 == "count:" { c += $2 }
$1 == "high:" && cpu == 0 { h = $2 }
$1 == "batch:" && cpu == 0 { b = $2 }
END { flush() }
' /tmp/snap.cost
dmesg >/tmp/dmesg.cost
awk '
/\] Memory: / { later = 1 }
/ hash table entries: / {
	name = $0; sub(/^\[[^]]*\] /, "", name); sub(/ hash table entries:.*/, "", name); gsub(/ /, "-", name)
	b = $0; sub(/.*order: [-0-9]+, /, "", b); where = b; sub(/ bytes.*/, "", b)
	sub(/^[0-9]+ bytes, /, "", where); sub(/\)$/, "", where); gsub(/ /, "-", where)
	printf "RIG cost hash %s bytes %d where %s when %s\n", name, b, where, later ? "later" : "boot"
}
' /tmp/dmesg.cost
# "percpu: Embedded P pages/cpu ...": P pages for each possible CPU.
awk -v pk="$(awk '/^KernelPageSize:/ {print $2 * 1024; exit}' /proc/self/smaps)" -v cpus="$(cat /sys/devices/system/cpu/possible)" '
BEGIN { n = 0; k = split(cpus, r, ","); for (i = 1; i <= k; i++) { if (split(r[i], e, "-") == 2) n += e[2] - e[1] + 1; else n++ } }
/percpu: Embedded [0-9]+ pages\/cpu/ { p = $0; sub(/.*Embedded /, "", p); sub(/ .*/, "", p); printf "RIG cost percpu-first-kB %d\n", p * pk / 1024 * n; found = 1 }
END { if (!found) print "RIG cost percpu-first-kB none" }
' /tmp/dmesg.cost
t=0 s=0 c=0 w=0
for d in /proc/[0-9]*; do
	read -r name <"$d/comm" 2>/dev/null || continue
	t=$((t + 1))
	case $name in
	kswapd*) s=$((s + 1)) ;;
	kcompactd*) c=$((c + 1)) ;;
	kworker*) w=$((w + 1)) ;;
	esac
done
echo "RIG cost threads total $t kswapd $s kcompactd $c kworker $w"
awk '
function ts() { t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t); return t + 0 }
/\] calling  / { c = $0; sub(/.*calling  /, "", c); sub(/ .*/, "", c); start[c] = ts() }
/\] initcall .* returned .* usecs$/ {
	c = $0; sub(/.*\] initcall /, "", c); sub(/ .*/, "", c)
	if (c in start) { n = c; sub(/\+.*/, "", n); printf "RIG cost initcall %s %d\n", n, (ts() - start[c]) * 1e6 + 0.5; delete start[c] }
}
function stamp(what) { if (!(what in seen)) printf "RIG cost stamp %s %s\n", what, ts(); seen[what] = 1 }
/\] sched_clock: / { stamp("clock") }
/\] Memory: / { stamp("memory") }
/\] calling / { stamp("first-initcall") }
/\] smp: Bringing up secondary CPUs/ { stamp("smp-start") }
/\] smp: Brought up / { stamp("smp-done") }
/\] Run \/init/ { stamp("run-init") }
/\] rigclock / { stamp("rigclock") }
' /tmp/dmesg.cost
rm -f /tmp/dmesg.cost /tmp/snap.cost
