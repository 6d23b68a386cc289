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
    for t, pol, th, med, spr in re.findall(
            r"^BENCH (\w+) policy=(\w+) threads=(\d+) median=([\d.]+) spread=([\d.]+)", text, re.M):
        bench[(t, pol, int(th))] = (float(med), float(spr))
    vm = {k: int(v) for k, v in re.findall(r"^BENCH vmstat (\w+) (\d+)", text, re.M)}
    used = re.search(r"^RIG boot kernel-used-kB (\d+)", text, re.M)
    init = re.search(r"^RIG boot run-init-s ([\d.]+)", text, re.M)
    nodes = len(re.findall(r"^RIG node \d+ ", text, re.M))
    return {"bench": bench, "vm": vm, "used": int(used.group(1)) if used else None,
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
      f"(unpatched, and this series) and mainline {v612} (`CONFIG_NUMA_EMU`). "
      "Each figure is the median of the runs of `guest/bench.c`; a ratio above 1 "
      "is better for throughput (MiB/s), below 1 for latency (ns). QEMU does not "
      "model DRAM banks or ranks: these ratios show what the kernel adds, not the "
      "bandwidth a real board gains.")
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

    # Chart: interleaved throughput on all CPUs and latency, per configuration.
    with open(f"{out}/chart.dat", "w") as d:
        d.write("config fault copy triad chase\n")
        for n in names[1:]:
            vals = []
            for t, th in (("fault", cpus), ("copy", cpus), ("triad", cpus), ("chase", 1)):
                ref = base["bench"].get((t, "default", th))
                v = runs[n]["bench"].get((t, "interleave", th)) or runs[n]["bench"].get((t, "default", th))
                vals.append(f"{v[0] / ref[0]:.4f}" if v and ref else "NaN")
            d.write(n + " " + " ".join(vals) + "\n")
    with open(f"{out}/chart.gp", "w") as g:
        g.write(f"""set terminal pngcairo size 900,500 noenhanced
set output '{out}/results.png'
set title 'make bench, QEMU TCG: interleaved, ratio to no emulation (not DRAM)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
set ylabel 'ratio to unpatched 6.1, no emulation'
set key outside right
set grid ytics
plot '{out}/chart.dat' using 2:xtic(1) title 'fault, {cpus} CPUs', \\
     '' using 3 title 'copy, {cpus} CPUs', \\
     '' using 4 title 'triad, {cpus} CPUs', \\
     '' using 5 title 'chase latency (lower is better)', \\
     1 with lines lw 2 lc rgb 'black' notitle
""")
    print("\n".join(lines))


main()
