#!/usr/bin/env python3
"""Turn the logs of "make bench" into results.md and a gnuplot chart.

Usage: bench-report.py OUTDIR VERSION-6.1 VERSION-6.12 NAME...
Reads OUTDIR/logs/NAME.log; the names follow scripts/bench.sh: none and
none-again (unpatched 6.1), ours-N and pol-N (this series), real-N (the
unpatched kernel on N firmware nodes), mainline-N (6.12). Writes
OUTDIR/chart.gp and OUTDIR/chart.dat, prints results.md.

Every per-node figure is a difference against the same kernel with one
node: ours-N and pol-N against ours-1, real-N against none, mainline-N
against mainline-1, divided by the N - 1 nodes added. The noise of the run
is what none-again differs from none (the same kernel booted twice).
"""
import datetime
import re
import sys

NS_PER_INSN = 8  # -icount shift=3


def parse(path):
    text = open(path, errors="replace").read()
    r = {"bench": {}, "meminfo": {}, "zones": [], "hash": [], "initcall": {},
         "stamp": {}, "threads": {}}
    for t, pol, th, med, best, spr in re.findall(
            r"^BENCH (\w+) policy=(\w+) threads=(\d+) median=([\d.]+) best=([\d.]+) "
            r"spread=([\d.]+)", text, re.M):
        r["bench"][(t, pol, int(th))] = (float(best), float(spr), float(med))
    r["vm"] = {k: int(v) for k, v in re.findall(r"^BENCH vmstat (\w+) (\d+)", text, re.M)}
    m = re.search(r"^BENCH config .* page=(\d+)(?: bind=(-?\d+))?", text, re.M)
    r["page_kib"] = int(m.group(1)) // 1024 if m else None
    r["bind"] = m.group(2) if m else None
    for k, v in re.findall(r"^RIG cost meminfo (\w+) (\d+)", text, re.M):
        r["meminfo"][k] = int(v)
    for n, z, p, mg, f, c, b, h in re.findall(
            r"^RIG cost zone (\d+) (\w+) present (\d+) managed (\d+) free (\d+) pcp-count (\d+) "
            r"batch (\d+) high (\d+)", text, re.M):
        r["zones"].append((int(n), z, int(p), int(mg), int(c), int(b), int(h), int(f)))
    for name, b, where, when in re.findall(
            r"^RIG cost hash (\S+) bytes (\d+) where (\S+) when (\w+)", text, re.M):
        r["hash"].append((name, int(b), where, when))
    m = re.search(r"^RIG cost percpu-first-kB (\d+)", text, re.M)
    r["percpu_first"] = int(m.group(1)) if m else None
    m = re.search(r"^RIG cost threads total (\d+) kswapd (\d+) kcompactd (\d+) kworker (\d+)",
                  text, re.M)
    if m:
        r["threads"] = dict(zip(("total", "kswapd", "kcompactd", "kworker"),
                                map(int, m.groups())))
    for name, us in re.findall(r"^RIG cost initcall (\S+) (\d+)$", text, re.M):
        r["initcall"][name] = r["initcall"].get(name, 0) + int(us)
    for what, s in re.findall(r"^RIG cost stamp (\S+) ([\d.]+)", text, re.M):
        r["stamp"][what] = float(s)
    m = re.search(r"^RIG boot counter-s ([\d.]+) boottime-s ([\d.]+)", text, re.M)
    r["counter"] = float(m.group(1)) if m else None
    r["nodes"] = len(re.findall(r"^RIG node \d+ ", text, re.M))
    r["items"] = items(r)
    return r


def items(r):
    """Kernel memory after boot (KiB), split into items that do not overlap."""
    mi, pk = r["meminfo"], r["page_kib"]
    need = ("Slab", "KernelStack", "PageTables", "Percpu", "VmallocUsed",
            "Cached", "Buffers", "AnonPages")
    if not pk or not r["zones"] or r["percpu_first"] is None or any(k not in mi for k in need):
        return None
    present = sum(z[2] for z in r["zones"]) * pk
    managed = sum(z[3] for z in r["zones"]) * pk
    pcp = sum(z[4] for z in r["zones"]) * pk
    # Free pages from the same read of /proc/zoneinfo as the per-CPU lists.
    free = sum(z[7] for z in r["zones"]) * pk
    used = present - free - pcp
    hash_boot = sum(b for _, b, w, when in r["hash"] if when == "boot" and w == "linear") // 1024
    hash_vm = sum(b for _, b, w, _ in r["hash"] if w.startswith("vmalloc")) // 1024
    hash_all = sum(b for _, b, _, _ in r["hash"]) // 1024
    it = {
        # memmap, pg_data_t, the kernel image, page tables made at boot...
        "boot reservations": present - managed - hash_boot - r["percpu_first"],
        "per-cpu (Percpu)": mi["Percpu"],
        "slab (Slab)": mi["Slab"],
        "kernel stacks": mi["KernelStack"],
        "vmalloc (without hash tables)": mi["VmallocUsed"] - hash_vm,
        "boot hash tables (all)": hash_all,
        "user pages, page cache, page tables": mi["Cached"] + mi["Buffers"] +
        mi["AnonPages"] + mi["PageTables"],
    }
    it["pages no counter covers"] = used - sum(it.values())
    it["total (present - free)"] = used
    return it


def base_of(name, names):
    if name.startswith(("ours-", "pol-")) and name != "ours-1":
        return "ours-1"
    if name.startswith("real-") or name == "none-again":
        return "none"
    if name.startswith("mainline-") and name != "mainline-1":
        return "mainline-1"
    return None


def added(name, runs):
    """Nodes added against the one-node baseline of the same kernel."""
    return runs[name]["nodes"] - 1


def families(runs):
    """The one-node run and the N-node runs of each kernel, by node count."""
    fam = {"this series": ["ours-1"], "real nodes (unpatched)": ["none"],
           "mainline 6.12": ["mainline-1"]}
    pre = {"this series": "ours-", "real nodes (unpatched)": "real-",
           "mainline 6.12": "mainline-"}
    out = {}
    for f, names in fam.items():
        more = [n for n in runs if n.startswith(pre[f]) and n not in names]
        pts = [(runs[n]["nodes"], n) for n in names + more if n in runs]
        out[f] = sorted(pts)
    return out


def slope(points):
    """Least-squares slope and the one-off step from 1 to 2 nodes.

    points: (nodes, value). The slope is fitted over 2 nodes and more, so
    what happens once when a second node appears (hashdist, NUMA balancing
    switching on) is not spread over the nodes; the one-off step is the
    2-node value less the 1-node value less one slope.
    """
    pts = [(x, y) for x, y in points if x >= 2 and y is not None]
    one = [y for x, y in points if x == 1 and y is not None]
    two = [y for x, y in points if x == 2 and y is not None]
    if len(pts) < 2:
        return None, None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    b = sum((x - mx) * (y - my) for x, y in pts) / sxx
    return b, (two[0] - one[0] - b if one and two else None)


def boot(r):
    """Guest time from reset to /init and its parts, ms (at -icount)."""
    if r["counter"] is None or "rigclock" not in r["stamp"]:
        return None
    total = r["counter"] * 1000
    # printk's clock is the counter less its value at time_init().
    pre = (r["counter"] - r["stamp"]["rigclock"]) * 1000
    calls = sum(r["initcall"].values()) / 1000
    return {"total": total, "before the kernel's clock": pre, "initcalls": calls,
            "rest": total - pre - calls}


def main():
    out, v61, v612, *names = sys.argv[1:]
    runs = {n: parse(f"{out}/logs/{n}.log") for n in names}
    none = runs["none"]
    lines = []
    p = lines.append
    fmt = lambda v, d=0: "-" if v is None else f"{v:.{d}f}"
    pn = [n for n in names if base_of(n, names) and n != "none-again"]

    p(f"# make bench ({datetime.date.today()})")
    p("")
    p(f"QEMU TCG guest, `-M virt -cpu cortex-a76 -smp 4 -m 4G`, 16K pages; Linux {v61} "
      f"(unpatched, and this series) and mainline {v612} (`CONFIG_NUMA_EMU`), one guest "
      "at a time, with `-icount shift=3,sleep=off`: the guest clock counts executed "
      f"instructions ({NS_PER_INSN} ns each, and timer waits jump ahead), so times measure "
      "what the kernels execute, not the load of the host. `none` and `none-again` boot "
      "the unpatched kernel first and last: their difference is the noise of the run. "
      "`ours-N` is this series with `numa=fake=N`, `pol-N` the same with "
      "`numa_policy=interleave` (a Pi 5's firmware default), `real-N` the unpatched kernel "
      "on N nodes that QEMU's firmware describes (all CPUs on node 0, as with fake nodes), "
      "`mainline-N` mainline's `numa=fake=N` (`mainline-1`: without it). Per-node figures "
      "are differences against the same kernel with one node (`ours-1`, `none`, "
      "`mainline-1`) divided by the nodes added. QEMU does not model DRAM banks or ranks, "
      "and with `-icount` it runs the vCPUs in turn on one host thread: the benchmark uses "
      "one CPU only, and nothing here shows the bandwidth a real board gains.")
    p("")

    # 1. Kernel memory per node, item by item.
    p("## Kernel memory per added node (KiB)")
    p("")
    p("Read in each guest right after boot, with the page cache dropped (`guest/cost.sh`): "
      "`/proc/zoneinfo` (present, managed, the free pages on per-CPU lists), `/proc/meminfo`, "
      "the boot hash tables from the kernel log (counted in one row wherever they are: "
      "in boot reservations without `hashdist`, in vmalloc with it, which the kernel turns "
      "on with a second node). The rows add up to the total by construction; what they "
      "explain is the row of pages no counter covers. `noise` is none-again − none in KiB "
      "(not per node): at N nodes a per-node figure carries that noise divided by N − 1.")
    p("")
    keys = list(none["items"].keys()) if none["items"] else []
    fams = families(runs)
    p("Per added node: the least-squares slope over 2 to 16 nodes; once: what the "
      "second node adds beyond one slope (hashdist, NUMA balancing and the like switch "
      "on there).")
    p("")
    p("| item | " + " | ".join(f"{f}: per node | once" for f in fams) + " | noise |")
    p("|" + "---|" * (2 * len(fams) + 2))
    for k in keys:
        cells = []
        for f, pts in fams.items():
            b, once = slope([(x, runs[n]["items"][k] if runs[n]["items"] else None)
                             for x, n in pts])
            cells += [fmt(b), fmt(once)]
        ag = runs.get("none-again")
        noise = (f"{ag['items'][k] - none['items'][k]:+d}"
                 if ag and ag["items"] and none["items"] else "-")
        p(f"| {k} | " + " | ".join(cells) + f" | {noise} |")
    p("")
    p("Each configuration against its one-node run, divided by the nodes added:")
    p("")
    p("| item | " + " | ".join(pn) + " | noise |")
    p("|" + "---|" * (len(pn) + 2))
    for k in keys:
        cells = []
        for n in pn:
            b = runs[base_of(n, names)]
            a = added(n, runs)
            if runs[n]["items"] and b["items"] and a > 0:
                cells.append(f"{(runs[n]['items'][k] - b['items'][k]) / a:.0f}")
            else:
                cells.append("-")
        ag = runs.get("none-again")
        noise = (f"{ag['items'][k] - none['items'][k]:+d}"
                 if ag and ag["items"] and none["items"] else "-")
        p(f"| {k} | " + " | ".join(cells) + f" | {noise} |")
    p("")
    p("| per configuration | " + " | ".join(names) + " |")
    p("|" + "---|" * (len(names) + 1))
    p("| nodes | " + " | ".join(str(runs[n]["nodes"]) for n in names) + " |")
    p("| kernel memory (MiB) | " + " | ".join(
        fmt(runs[n]["items"]["total (present - free)"] / 1024, 1) if runs[n]["items"] else "-"
        for n in names) + " |")

    def hashes(r):
        w = {}
        for _, b, where, when in r["hash"]:
            key = "vmalloc" if where.startswith("vmalloc") else (
                "boot" if when == "boot" else "pages")
            w[key] = w.get(key, 0) + b // 1024
        return ", ".join(f"{k} {v}" for k, v in sorted(w.items())) or "-"
    p("| hash tables: where (KiB) | " + " | ".join(hashes(runs[n]) for n in names) + " |")
    p("| kswapd + kcompactd threads | " + " | ".join(
        str(runs[n]["threads"].get("kswapd", 0) + runs[n]["threads"].get("kcompactd", 0))
        for n in names) + " |")
    p("| kernel threads in all | " + " | ".join(
        str(runs[n]["threads"].get("total", "-")) for n in names) + " |")

    def batches(r):
        b = sorted({(z[1], z[5]) for z in r["zones"] if z[2]})
        return ", ".join(f"{z} {x}" for z, x in b) or "-"
    p("| per-CPU list batch (pages) | " + " | ".join(batches(runs[n]) for n in names) + " |")
    p("")

    # 2. Boot.
    p("## Boot, reset to /init (guest ms at -icount)")
    p("")
    p("`guest/bootclock.c` reads the arm64 virtual counter (time since reset) at the start "
      "of /init and writes a line to the kernel log; the kernel's clock starts only in "
      "`time_init()`, after the memory map, the zones, the zonelists and the page "
      "allocator are set up, so the counter less that line's time stamp is that early "
      "part. `initcalls` adds every initcall's time (`initcall_debug`, "
      "from the time stamps of its calling and returned lines); "
      "`rest` is the remainder (the rest of `start_kernel`, bringing up the CPUs, the "
      "scheduler's domains, unpacking the initramfs). Per added node: against the same "
      "kernel with one node. At `-icount` 1 ms is 125 000 instructions executed, on all "
      "CPUs together, or a timer wait skipped ahead. `series beyond real nodes`: "
      "(ours-N − ours-1) − (real-N − none), what the series adds that N nodes from the "
      "firmware do not cost.")
    p("")
    bt = {n: boot(runs[n]) for n in names}
    parts = ["total", "before the kernel's clock", "initcalls", "rest"]
    p("| | " + " | ".join(names) + " |")
    p("|" + "---|" * (len(names) + 1))
    for part in parts:
        p(f"| {part} | " + " | ".join(fmt(bt[n][part], 1) if bt[n] else "-" for n in names) + " |")
    cells = []
    for n in names:
        b = base_of(n, names)
        if n == "none-again" or not b or not bt[n] or not bt[b] or added(n, runs) < 1:
            cells.append("-")
        else:
            cells.append(f"{(bt[n]['total'] - bt[b]['total']) / added(n, runs):.2f}")
    p("| per added node (ms) | " + " | ".join(cells) + " |")
    cells = []
    for n in names:
        m = re.match(r"ours-(\d+)$", n)
        rn = f"real-{m.group(1)}" if m else None
        if rn in runs and bt[n] and bt[rn] and bt["ours-1"] and bt["none"]:
            d = (bt[n]["total"] - bt["ours-1"]["total"]) - (bt[rn]["total"] - bt["none"]["total"])
            cells.append(f"{d:+.2f}")
        else:
            cells.append("-")
    p("| series beyond real nodes (ms) | " + " | ".join(cells) + " |")
    p("")
    p("| boot, ms per added node (slope over 2 to 16) | " + " | ".join(fams) + " |")
    p("|" + "---|" * (len(fams) + 1))
    for part in parts:
        cells = []
        for f, pts in fams.items():
            b, once = slope([(x, bt[n][part] if bt[n] else None) for x, n in pts])
            cells.append(f"{fmt(b, 2)} (once {fmt(once, 2)})")
        p(f"| {part} | " + " | ".join(cells) + " |")
    ag = runs.get("none-again")
    if ag and bt.get("none-again") and bt["none"]:
        p("")
        p(f"Noise: none-again − none = {bt['none-again']['total'] - bt['none']['total']:+.2f} ms.")
    p("")
    # Where the added boot time of the largest N goes, by initcall.
    for n in [x for x in names if x.endswith("-16")] or []:
        b = base_of(n, names)
        if not b or not runs[n]["initcall"]:
            continue
        d = {k: runs[n]["initcall"].get(k, 0) - runs[b]["initcall"].get(k, 0)
             for k in set(runs[n]["initcall"]) | set(runs[b]["initcall"])}
        top = sorted(d.items(), key=lambda kv: -abs(kv[1]))[:6]
        p(f"{n} against {b}, initcalls that changed most (µs): " +
          ", ".join(f"`{k}` {v:+d}" for k, v in top) +
          f"; all initcalls {sum(d.values()):+d}.")
        p("")

    # 3. The allocation paths.
    p("## Allocation paths, 1 CPU (ratio to `none`)")
    p("")
    p("`guest/bench.c -c 1`: fault is the first touch of fresh anonymous memory, churn "
      "`mmap()` of four pages, a write to each and `munmap()`; each under the default "
      "policy (in `pol-N` that is the boot-time `numa_policy=interleave`), an explicit "
      "`MPOL_INTERLEAVE` over all nodes and `MPOL_BIND` to one node (the one with the most "
      "free memory). Best of REPS timed runs of at least 0.25 s each after a warm-up; "
      "above 1 is faster. copy, triad and chase count the loop's instructions at "
      "`-icount` (QEMU has no cache or DRAM timing), so they are flat by construction and "
      "shown only as a check that nothing else moved.")
    p("")
    cols = [n for n in names if n != "none"]
    p("| figure | policy | " + " | ".join(cols) + " | none (absolute) |")
    p("|" + "---|" * (len(cols) + 3))
    for t in ("fault", "churn", "copy", "triad", "chase"):
        ref = none["bench"].get((t, "default", 1))
        if not ref:
            continue
        for pol in ("default", "interleave", "bind"):
            cells = []
            for n in cols:
                v = runs[n]["bench"].get((t, pol, 1))
                if not v:
                    cells.append("-")
                elif t == "chase":
                    cells.append(f"{ref[0] / v[0]:.3f}")
                else:
                    cells.append(f"{v[0] / ref[0]:.3f}")
            if all(c == "-" for c in cells):
                continue
            unit = {"chase": "ns", "churn": "kcycles/s"}.get(t, "MiB/s")
            p(f"| {t} | {pol} | " + " | ".join(cells) +
              f" | {ref[0]:.1f} {unit} ±{ref[1]:.1f}% |")
    p("")
    p("| NUMA counters over the run | " + " | ".join(names) + " |")
    p("|" + "---|" * (len(names) + 1))
    for c in ("numa_interleave", "numa_pte_updates", "numa_hint_faults", "numa_pages_migrated"):
        p(f"| {c} | " + " | ".join(str(runs[n]["vm"].get(c, "-")) for n in names) + " |")
    p("")

    with open(f"{out}/chart.dat", "w") as d:
        d.write("# config fault-default fault-interleave churn-default boot-per-base\n")
        for n in names[1:]:
            vals = []
            for t, pol in (("fault", "default"), ("fault", "interleave"), ("churn", "default")):
                ref = none["bench"].get((t, "default", 1))
                v = runs[n]["bench"].get((t, pol, 1))
                vals.append(f"{v[0] / ref[0]:.4f}" if v and ref else "NaN")
            b = base_of(n, names) or "none"
            vals.append(f"{bt[n]['total'] / bt[b]['total']:.4f}" if bt[n] and bt[b] else "NaN")
            d.write(n + " " + " ".join(vals) + "\n")
    with open(f"{out}/chart.gp", "w") as g:
        g.write(f"""set terminal pngcairo size 1000,450 noenhanced
set output '{out}/results.png'
set title 'make bench in QEMU (-icount, 1 CPU): ratio to unpatched 6.1; boot: to the same kernel with one node'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:1.4]
set ylabel 'ratio (fault, churn: higher is better; boot: lower)'
set key top center horizontal
set grid ytics
set xtics rotate by -30
plot '{out}/chart.dat' using 2:xtic(1) title 'fault, default', \\
     '' using 3 title 'fault, interleave', \\
     '' using 4 title 'churn, default', \\
     '' using 5 title 'boot to /init', \\
     1 with lines lw 2 lc rgb 'black' notitle
""")
    print("\n".join(lines))


main()
