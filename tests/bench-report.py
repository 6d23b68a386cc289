#!/usr/bin/env python3
"""Turn the logs of "make bench" into results.md and a gnuplot chart.

Usage: bench-report.py OUTDIR VERSION-6.1 VERSION-6.12 NAME...
Reads OUTDIR/logs/NAME.log (the first NAME is the baseline, no emulation);
writes OUTDIR/chart.gp and OUTDIR/chart.dat, prints results.md.
"""
import datetime
import re
import sys


def parse(path):
    text = open(path, errors="replace").read()
    bench = {}
    for t, pol, th, med, best, spr in re.findall(
            r"^BENCH (\w+) policy=(\w+) threads=(\d+) median=([\d.]+) best=([\d.]+) "
            r"spread=([\d.]+)", text, re.M):
        bench[(t, pol, int(th))] = (float(best), float(spr), float(med))
    vm = {k: int(v) for k, v in re.findall(r"^BENCH vmstat (\w+) (\d+)", text, re.M)}
    free = re.search(r"^RIG boot memfree-kB (\d+)", text, re.M)
    pcp = re.search(r"^RIG boot pcp-free-pages (\d+)", text, re.M)
    init = re.search(r"^RIG boot run-init-s ([\d.]+)", text, re.M)
    nodes = len(re.findall(r"^RIG node \d+ ", text, re.M))
    page = re.search(r"^BENCH config .* page=(\d+)", text, re.M)
    present = sum(int(p) for p in re.findall(r"^RIG zone node \d+ .* present (\d+)$", text, re.M))
    # Memory the kernel holds after boot: every present page that is not
    # free (memblock allocations included, which MemTotal leaves out), with
    # the page cache dropped and the per-CPU free lists counted as free.
    used = None
    if free and pcp and page:
        kib = int(page.group(1)) // 1024
        used = present * kib - int(free.group(1)) - int(pcp.group(1)) * kib
    return {"bench": bench, "vm": vm, "used": used,
            "init": float(init.group(1)) if init else None, "nodes": nodes}


def main():
    out, v61, v612, *names = sys.argv[1:]
    runs = {n: parse(f"{out}/logs/{n}.log") for n in names}
    base = runs[names[0]]
    cpus = max(th for (_, _, th) in base["bench"])
    lines = []
    p = lines.append
    p(f"# make bench: ratios against no emulation ({datetime.date.today()})")
    p("")
    p(f"QEMU TCG guest, `-M virt -cpu cortex-a76 -smp 4 -m 4G`, 16K pages; Linux {v61} "
      f"(unpatched, and this series) and mainline {v612} (`CONFIG_NUMA_EMU`), one guest "
      "at a time, with `-icount shift=3,sleep=off`: the guest clock counts executed "
      "instructions, so timings measure what the kernels execute, not the load of the host. "
      "Each figure is the best of its timed runs of `guest/bench.c` (each at least 0.25 s "
      f"of guest time, after one warm-up run); the absolute column gives the spread of "
      "the baseline's runs. Single-CPU figures repeat from run to run to within about 1 %; "
      "multi-CPU figures vary with how QEMU interleaves the vCPUs. A ratio above 1 is better for throughput (MiB/s), below 1 for "
      "latency (ns). `none-again` boots the unpatched kernel a second time at the end: "
      "its distance from 1 is the noise of this run. Mainline's ratios also carry "
      "everything else that changed between 6.1 and 6.12. QEMU does not model DRAM "
      "banks or ranks: these ratios show what the kernel adds, not the bandwidth a "
      "real board gains.")
    p("")
    head = "| figure | policy | " + " | ".join(names[1:]) + f" | {names[0]} (absolute) |"
    p(head)
    p("|" + "---|" * (len(names) + 2))
    tests = [("fault", 1), ("fault", cpus), ("copy", 1), ("copy", cpus),
             ("triad", 1), ("triad", cpus), ("chase", 1)]
    for t, th in tests:
        ref = base["bench"].get((t, "default", th))
        if not ref:
            continue
        for pol in ("default", "interleave"):
            cells = []
            for n in names[1:]:
                v = runs[n]["bench"].get((t, pol, th))
                cells.append(f"{v[0] / ref[0]:.3f}" if v else "-")
            unit = "ns" if t == "chase" else "MiB/s"
            p(f"| {t}, {th} CPU{'s' if th > 1 else ''} | {pol} | " + " | ".join(cells) +
              f" | {ref[0]:.1f} {unit} ±{ref[1]:.0f}% |")
    p("")
    p("| per configuration | " + " | ".join(names) + " |")
    p("|" + "---|" * (len(names) + 1))
    p("| nodes | " + " | ".join(str(runs[n]["nodes"]) for n in names) + " |")
    p("| kernel memory after boot (MiB) | " +
      " | ".join(f"{runs[n]['used'] / 1024:.1f}" if runs[n]["used"] else "-" for n in names) + " |")
    cells = []
    for n in names:
        r = runs[n]
        k = r["nodes"]
        if n == names[0] or k < 2 or r["used"] is None:
            cells.append("-")
        else:
            cells.append(f"{(r['used'] - base['used']) / (k - 1):.0f}")
    p("| kernel memory per node added (KiB) | " + " | ".join(cells) + " |")
    p("| boot to /init (ratio) | " + " | ".join(
        f"{runs[n]['init'] / base['init']:.3f}" if runs[n]["init"] and base["init"] else "-"
        for n in names) + " |")
    for c in ("numa_pte_updates", "numa_hint_faults", "numa_pages_migrated"):
        p(f"| {c} | " + " | ".join(str(runs[n]["vm"].get(c, "-")) for n in names) + " |")
    p("")

    # Chart: the figures that repeat (single CPU, boot) and fault on all CPUs,
    # interleaved where there is more than one node, per configuration.
    with open(f"{out}/chart.dat", "w") as d:
        d.write("# config fault1 faultN copy1 boot\n")
        for n in names[1:]:
            vals = []
            for t, th in (("fault", 1), ("fault", cpus), ("copy", 1)):
                ref = base["bench"].get((t, "default", th))
                v = runs[n]["bench"].get((t, "interleave", th)) or runs[n]["bench"].get((t, "default", th))
                vals.append(f"{v[0] / ref[0]:.4f}" if v and ref else "NaN")
            init = runs[n]["init"]
            vals.append(f"{init / base['init']:.4f}" if init and base["init"] else "NaN")
            d.write(n + " " + " ".join(vals) + "\n")
    with open(f"{out}/chart.gp", "w") as g:
        g.write(f"""set terminal pngcairo size 900,450 noenhanced
set output '{out}/results.png'
set title 'make bench in QEMU (-icount): ratio to unpatched 6.1 without emulation'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:1.4]
set ylabel 'ratio (fault, copy: higher is better; boot: lower)'
set key top center horizontal
set grid ytics
set xtics rotate by -30
plot '{out}/chart.dat' using 2:xtic(1) title 'fault, 1 CPU', \\
     '' using 3 title 'fault, {cpus} CPUs', \\
     '' using 4 title 'copy, 1 CPU', \\
     '' using 5 title 'boot to /init', \\
     1 with lines lw 2 lc rgb 'black' notitle
""")
    print("\n".join(lines))


main()
