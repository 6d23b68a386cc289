#!/usr/bin/env python3
"""Turn the logs of "make bench" into results.md and a gnuplot chart.

Usage: bench-report.py OUTDIR VERSION-6.1 VERSION-6.12 NAME...
Reads OUTDIR/logs/NAME.bK.log, one log for each boot K = 1..BOOTS; the
names follow scripts/bench.sh: none and none-again (unpatched 6.1), ours-N
and pol-N (this series), real-N (the unpatched kernel on N firmware
nodes), mainline-N (6.12), big-*, small-* (other memory sizes), hd0-16
(hashdist=0). Writes OUTDIR/chart.gp and OUTDIR/chart.dat, prints
results.md. Fails when a boot is missing or its benchmark did not run.

Every per-node figure is a difference against the same kernel with one
node: ours-N and pol-N against ours-1, real-N against none, mainline-N
against mainline-1, divided by the N - 1 nodes added. Memory and boot
figures are the means over a configuration's boots; their noise is the
range over those boots, and what none-again differs from none (the same
kernel booted first and last). A per-node slope comes with its 95 %
interval from the scatter of its points about the line (Student's t with
points - 2 degrees of freedom): under -icount the boots repeat almost
exactly, so the range over boots alone would understate what one step of
a slab page or a timer tick does to a slope.
"""
import datetime
import glob
import os
import re
import textwrap
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
    need = ("SUnreclaim", "SReclaimable", "KernelStack", "PageTables", "Percpu", "VmallocUsed",
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
        "slab, unreclaimable (SUnreclaim)": mi["SUnreclaim"],
        "slab, reclaimable (SReclaimable)": mi["SReclaimable"],
        "kernel stacks": mi["KernelStack"],
        "vmalloc (without hash tables)": mi["VmallocUsed"] - hash_vm,
        "boot hash tables (all)": hash_all,
        "user pages, page cache, page tables": mi["Cached"] + mi["Buffers"] +
        mi["AnonPages"] + mi["PageTables"],
    }
    it["pages no counter covers"] = used - sum(it.values())
    it["total (present - free)"] = used
    return it


def load(out, name, want):
    """@name's boots: the benchmark's figures, memory items and boot parts
    averaged over all of them, with their ranges."""
    paths = sorted(glob.glob(f"{out}/logs/{name}.b*.log"))
    if want and len(paths) != want:
        sys.exit(f"bench-report: {name}: {len(paths)} boots logged, BOOTS={want}")
    boots = [parse(p) for p in paths]
    for p, b in zip(paths, boots):
        if not b["bench"]:
            sys.exit(f"bench-report: {p}: the benchmark did not run")
    r = boots[0]
    r["boots"] = len(boots)
    # Per figure: (mean of the boots' best runs, the largest spread of the
    # REPS runs within a boot (%), the mean median, the lowest and the
    # highest best run of the boots).
    bench = {}
    for k in boots[0]["bench"]:
        v = [b["bench"][k] for b in boots if k in b["bench"]]
        if len(v) != len(boots):
            sys.exit(f"bench-report: {name}: {k} missing in a boot")
        bench[k] = (sum(x[0] for x in v) / len(v), max(x[1] for x in v),
                    sum(x[2] for x in v) / len(v), min(x[0] for x in v), max(x[0] for x in v))
    r["bench"] = bench
    its = [b["items"] for b in boots if b["items"]]
    if its:
        r["items"] = {k: sum(i[k] for i in its) / len(its) for k in its[0]}
        r["items_range"] = {k: max(i[k] for i in its) - min(i[k] for i in its) for k in its[0]}
    else:
        r["items"], r["items_range"] = None, {}
    bts = [boot(b) for b in boots if boot(b)]
    if bts:
        r["boot"] = {k: sum(b[k] for b in bts) / len(bts) for k in bts[0]}
        r["boot_range"] = {k: max(b[k] for b in bts) - min(b[k] for b in bts) for k in bts[0]}
        calls = [b["initcall"] for b in boots if boot(b)]
        r["initcall"] = {k: sum(c.get(k, 0) for c in calls) / len(calls)
                         for k in set().union(*calls)}
    else:
        r["boot"], r["boot_range"] = None, {}
    return r


T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571}


def fit(points):
    """Least-squares line over the points with 2 nodes or more: slope, and
    the half-width of its 95 % interval (t * standard error; None with
    fewer than three points)."""
    pts = [(x, y) for x, y in points if x >= 2 and y is not None]
    if len(pts) < 2:
        return None, None
    b, _ = slope(points)
    if len(pts) < 3:
        return b, None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    ssr = sum((y - (my + b * (x - mx))) ** 2 for x, y in pts)
    df = len(pts) - 2
    return b, T95.get(df, 2.5) * (ssr / df / sxx) ** 0.5


def base_of(name, names):
    if name.startswith(("ours-", "pol-")) and name != "ours-1":
        return "ours-1"
    if name.startswith("real-") or name == "none-again":
        return "none"
    if name in ("big-16", "small-4"):
        return name.split("-")[0] + "-none"
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


def ref_of(name):
    """The run an allocation-path figure is divided by: the same kernel
    without emulation (mainline's own kernel for mainline)."""
    if name.startswith("mainline-"):
        return "mainline-1"
    if name.startswith(("big-", "small-")):
        return name.split("-")[0] + "-none"
    return "none"


def cover_block(runs, fams, bt):
    """The cost figures of the cover letter, wrapped as it wraps them."""
    def ratio(n, pol="default"):
        v = runs.get(n, {}).get("bench", {}).get(("fault", pol, 1))
        ref = runs.get(ref_of(n), {}).get("bench", {}).get(("fault", "default", 1)) if n in runs else None
        return f"{v[0] / ref[0]:.3f}" if v and ref else "-"

    def per_node(pick, d, unit):
        cells = []
        for pts in fams.values():
            vals = [(x, pick(n)) for x, n in pts]
            b, half = fit(vals)
            cells.append(f"{b:.{d}f} +- {half:.{d}f} {unit}" if b is not None and half is not None
                         else "-")
        return cells
    mem = per_node(lambda n: runs[n]["items"]["total (present - free)"] if runs[n]["items"] else None,
                   0, "KiB")
    ms = per_node(lambda n: bt[n]["total"] if bt.get(n) else None, 2, "ms")
    if "-" in mem + ms or not all(bt.get(n) for n in ("ours-1", "ours-16")):
        return []
    d16 = {k: bt["ours-16"][k] - bt["ours-1"][k] for k in bt["ours-1"]}
    one = runs["none"]["bench"].get(("fault", "interleave", 1))
    ref = runs["none"]["bench"].get(("fault", "default", 1))
    out = ["  per added node      this series      real nodes       6.12 emulation",
           "  kernel memory       " + "".join(f"{c:<17}" for c in mem).rstrip(),
           "  boot to /init       " + "".join(f"{c:<17}" for c in ms).rstrip(),
           ""]
    pre = d16["before the kernel's clock"]
    il1 = f"{one[0] / ref[0]:.3f}" if one and ref else "-"
    prose = (f"16 nodes add {d16['total']:.1f} ms to the boot: {pre:.1f} before the kernel's "
             f"clock starts, {d16['initcalls']:.1f} in initcalls, {d16['rest']:.1f} in the "
             "rest. Page faults on one CPU, default policy, against the unpatched kernel: "
             f"{ratio('ours-4')} with 4 nodes, {ratio('ours-8')} with 8, {ratio('ours-16')} "
             f"with 16 (real nodes: {ratio('real-4')}, {ratio('real-8')}, {ratio('real-16')}); "
             f"{ratio('small-4')} with 4 nodes of 256 MiB, {ratio('big-16')} with 16 of 1 GiB. "
             f"Interleaving, per page: {il1} over one node, {ratio('ours-4', 'interleave')} "
             f"over 4 nodes, {ratio('ours-16', 'interleave')} over 16 (real nodes: "
             f"{ratio('real-4', 'interleave')}, {ratio('real-16', 'interleave')}).")
    out += textwrap.wrap(prose, 70)
    return out


def main():
    out, v61, v612, *names = sys.argv[1:]
    want = int(os.environ.get("BOOTS", "0") or 0)
    runs = {n: load(out, n, want) for n in names}
    none = runs["none"]
    boots, reps, mib, jobs = (os.environ.get(k, "?") for k in ("BOOTS", "REPS", "MIB", "JOBS"))
    lines = []
    p = lines.append
    fmt = lambda v, d=0: "-" if v is None else f"{v:.{d}f}"
    pn = [n for n in names if base_of(n, names) and n != "none-again"]
    fams = families(runs)

    p(f"# make bench ({datetime.date.today()})")
    p("")
    p(f"Series `{os.environ.get('SERIES', 'unknown none').split()[0]}` (the last commit that changed "
      f"`patches/`; `patches/` tree `{os.environ.get('SERIES', 'unknown none').split()[-1]}`), "
      "made by `make bench`.")
    p("")
    p(f"QEMU TCG guest, `-M virt -cpu cortex-a76 -smp 4 -m 4G`, 16K pages; Linux {v61} "
      f"(unpatched, and this series) and mainline {v612} (`CONFIG_NUMA_EMU`), {jobs} guests "
      "at a time, with `-icount shift=3,sleep=off`: the guest clock counts executed "
      f"instructions ({NS_PER_INSN} ns each, and timer waits jump ahead), so times measure "
      "what the kernels execute, not the load of the host. Every guest boots with "
      "`quiet initcall_debug initramfs_async=0 numa_balancing=disable "
      "transparent_hugepage=never`. `none` and `none-again` "
      "boot the unpatched kernel first and last. "
      "`ours-N` is this series with `numa=fake=N`, `pol-N` the same with "
      "`numa_policy=interleave` (a Pi 5's firmware default), `real-N` the unpatched kernel "
      "on N nodes of 4096/N MiB that QEMU's firmware describes (all CPUs on node 0, as "
      "with fake nodes), `mainline-N` mainline's `numa=fake=N` (`mainline-1`: without it), "
      "`big-none`/`big-16` and `small-none`/`small-4` the unpatched kernel and this series "
      "with 16 GiB (nodes of 1 GiB) and 1 GiB (nodes of 256 MiB), `hd0-16` `ours-16` with "
      "`hashdist=0`. "
      f"Effort: each configuration boots {boots} times (`BOOTS`); memory and boot figures "
      "are means over those boots, and a range is the largest minus the smallest of them. "
      f"Every boot runs `guest/bench.c -c 1 -r {reps} -m {mib}` (`REPS`, `MIB`). "
      "QEMU does not model caches, DRAM banks or ranks, and with `-icount` it runs the "
      "vCPUs in turn on one host thread: the benchmark uses one CPU only, nothing here "
      "shows the bandwidth a real board gains, and there are no multi-CPU figures.")
    p("")

    # 1. Kernel memory per node, item by item.
    p("## Kernel memory per added node (KiB)")
    p("")
    p("Read in each guest right after boot, with the page cache dropped and every slab "
      "cache shrunk (`guest/cost.sh`): `/proc/zoneinfo` (present, managed, free, the free "
      "pages on per-CPU lists), `/proc/meminfo`, the boot hash tables from the kernel log, "
      "counted in one row wherever they are (in boot reservations without `hashdist`, in "
      "vmalloc with it; the kernel turns `hashdist` on with a second node, and the tables "
      "keep their size). The rows add up to the total by construction; what they explain "
      "is the row of pages no counter covers.")
    p("")
    p("Per node: the least-squares slope over 2, 4, 8 and 16 nodes; once: what the "
      "second node adds beyond one slope; `±`: half the slope's 95 % interval, from the "
      "points' scatter about the line (t with 2 degrees of freedom: a single step of one "
      "slab page at 16 nodes alone moves the slope by about 1/9 of that step). "
      "`range`: the largest range between the boots of one configuration, over all "
      "configurations, KiB; `again`: none-again − none, KiB. Kernel stacks are not in "
      "vmalloc (`CONFIG_VMAP_STACK` is off in these kernels; `make bench` checks).")
    p("")
    keys = list(none["items"].keys()) if none["items"] else []
    p("| item | " + " | ".join(f"{f}: per node | ± | once" for f in fams) +
      " | range | again |")
    p("|" + "---|" * (3 * len(fams) + 3))
    for k in keys:
        cells = []
        for f, pts in fams.items():
            vals = [(x, runs[n]["items"][k] if runs[n]["items"] else None) for x, n in pts]
            b, once = slope(vals)
            _, half = fit(vals)
            cells += [fmt(b), fmt(half), fmt(once)]
        rng = max((runs[n]["items_range"].get(k, 0) for n in names), default=0)
        ag = runs.get("none-again")
        again = (f"{ag['items'][k] - none['items'][k]:+.0f}"
                 if ag and ag["items"] and none["items"] else "-")
        p(f"| {k} | " + " | ".join(cells) + f" | {rng:.0f} | {again} |")
    p("")
    pairs = [(n, "real-" + n[5:]) for n in names
             if n.startswith("ours-") and "real-" + n[5:] in runs]
    if pairs and none["items"]:
        p("This series against the same number of real nodes, whole machine (KiB, not per "
          "node): ours-N − real-N; `ours-1 − none` is what the series holds with one node.")
        p("")
        heads = ["ours-1 − none"] + [f"{a} − {b}" for a, b in pairs]
        p("| item | " + " | ".join(heads) + " |")
        p("|" + "---|" * (len(heads) + 1))
        for k in keys:
            cells = []
            for a, b in [("ours-1", "none")] + pairs:
                if runs.get(a, {}).get("items") and runs.get(b, {}).get("items"):
                    cells.append(f"{runs[a]['items'][k] - runs[b]['items'][k]:+.0f}")
                else:
                    cells.append("-")
            p(f"| {k} | " + " | ".join(cells) + " |")
        p("")
    if runs.get("hd0-16", {}).get("items") and runs.get("ours-16", {}).get("items"):
        a, b = runs["ours-16"], runs["hd0-16"]
        p("`hashdist` (on with a second node): the boot hash tables in vmalloc, spread over "
          "the nodes, instead of boot reservations on one; ours-16 − hd0-16 (KiB, whole "
          "machine): " + ", ".join(f"{k} {a['items'][k] - b['items'][k]:+.0f}" for k in keys
                                   if round(a["items"][k] - b["items"][k])) +
          (f"; boot {a['boot']['total'] - b['boot']['total']:+.2f} ms"
           if a["boot"] and b["boot"] else "") + ".")
        p("")
    p("Each configuration against its one-node run, divided by the nodes added:")
    p("")
    p("| item | " + " | ".join(pn) + " |")
    p("|" + "---|" * (len(pn) + 1))
    for k in keys:
        cells = []
        for n in pn:
            b = runs[base_of(n, names)]
            a = added(n, runs)
            if runs[n]["items"] and b["items"] and a > 0:
                cells.append(f"{(runs[n]['items'][k] - b['items'][k]) / a:.0f}")
            else:
                cells.append("-")
        p(f"| {k} | " + " | ".join(cells) + " |")
    p("")
    p("| per configuration | " + " | ".join(names) + " |")
    p("|" + "---|" * (len(names) + 1))
    p("| nodes | " + " | ".join(str(runs[n]["nodes"]) for n in names) + " |")
    p("| kernel memory (MiB) | " + " | ".join(
        fmt(runs[n]["items"]["total (present - free)"] / 1024, 2) if runs[n]["items"] else "-"
        for n in names) + " |")
    p("| its range over the boots (KiB) | " + " | ".join(
        fmt(runs[n]["items_range"].get("total (present - free)"), 0) for n in names) + " |")

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
    p("| tasks in all | " + " | ".join(
        str(runs[n]["threads"].get("total", "-")) for n in names) + " |")

    def pcp(r, node0):
        b = sorted({(z[1], z[5], z[6]) for z in r["zones"] if z[2] and (z[0] == 0) == node0})
        return ", ".join(f"{z} {x}/{h}" for z, x, h in b) or "-"
    p("| per-CPU lists of node 0 (CPU 0's), batch/high (pages) | " + " | ".join(
        pcp(runs[n], True) for n in names) + " |")
    p("| per-CPU lists of the other nodes, batch/high (the values found) | " + " | ".join(
        pcp(runs[n], False) for n in names) + " |")
    p("")

    # 2. Boot.
    p("## Boot, reset to /init's first reading (guest ms at -icount: instructions at "
      f"{NS_PER_INSN} ns each, and timer waits skipped ahead)")
    p("")
    p("`guest/bootclock.c` reads the arm64 virtual counter (time since reset) in /init "
      "once busybox has made its links and the file systems are mounted, and writes a line "
      "to the kernel log; the kernel's clock starts only in "
      "`time_init()`, after the memory map, the zones, the zonelists and the page "
      "allocator are set up, so the counter less that line's time stamp is that early "
      "part. `initcalls` adds every initcall's time (`initcall_debug`, from the time "
      "stamps of its calling and returned lines; the initramfs is unpacked inside one); "
      "`rest` is the remainder (the rest of `start_kernel`, bringing up the CPUs, the "
      "scheduler's domains). Per added node: against the same kernel with one node. At "
      "`-icount` 1 ms is 125 000 instructions executed, on all CPUs together, or a timer "
      "wait skipped ahead. `series beyond real nodes`: (ours-N − ours-1) − (real-N − none), "
      "what the series adds that N nodes from the firmware do not cost.")
    p("")
    bt = {n: runs[n]["boot"] for n in names}
    parts = ["total", "before the kernel's clock", "initcalls", "rest"]
    p("| | " + " | ".join(names) + " |")
    p("|" + "---|" * (len(names) + 1))
    for part in parts:
        p(f"| {part} | " + " | ".join(fmt(bt[n][part], 1) if bt[n] else "-" for n in names) + " |")
    p("| total: range over the boots | " + " | ".join(
        fmt(runs[n]["boot_range"].get("total"), 2) for n in names) + " |")
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
    p("| boot, ms per added node (slope over 2 to 16 ± 95 %) | " + " | ".join(fams) + " |")
    p("|" + "---|" * (len(fams) + 1))
    for part in parts:
        cells = []
        for f, pts in fams.items():
            vals = [(x, bt[n][part] if bt[n] else None) for x, n in pts]
            b, once = slope(vals)
            _, half = fit(vals)
            cells.append(f"{fmt(b, 2)} ± {fmt(half, 2)} (once {fmt(once, 2)})")
        p(f"| {part} | " + " | ".join(cells) + " |")
    if runs.get("none-again") and bt.get("none-again") and bt["none"]:
        p("")
        p(f"none-again − none: {bt['none-again']['total'] - bt['none']['total']:+.2f} ms.")
    p("")
    # Where the added boot time of the largest N goes, by initcall.
    for n in [x for x in names if x.endswith("-16")]:
        b = base_of(n, names)
        if not b or not runs[n]["initcall"]:
            continue
        d = {k: runs[n]["initcall"].get(k, 0) - runs[b]["initcall"].get(k, 0)
             for k in set(runs[n]["initcall"]) | set(runs[b]["initcall"])}
        top = sorted(d.items(), key=lambda kv: -abs(kv[1]))[:5]
        p(f"{n} against {b}, the initcalls that changed most (µs, means over the boots): " +
          ", ".join(f"`{k}` {v:+.0f}" for k, v in top) +
          f"; all initcalls {sum(d.values()):+.0f}.")
        p("")

    # 3. The allocation paths.
    p("## Allocation paths, 1 CPU")
    p("")
    p("`guest/bench.c -c 1`, the thread pinned to CPU 0: fault is the first touch of fresh "
      "anonymous memory (2 × MIB MiB mapped, written once a page, unmapped), churn a write to "
      "each of 64 pages of one mapping and `MADV_DONTNEED`, over and over (pages that "
      "cycle through the per-CPU free lists). Each under the default policy (in `pol-N` "
      "that is the boot-time `numa_policy=interleave`), an explicit `MPOL_INTERLEAVE` over "
      "all nodes, and `MPOL_BIND` to node 0 (CPU 0's node); mainline 6.12 has no "
      "`numa_policy=`, so its only interleave is the explicit one. In each boot the best of REPS "
      "timed runs of at least 0.25 s each after a warm-up; a cell is the mean of the boots' "
      "figures as a ratio to the mean of the same kernel without emulation under the "
      "default policy (`none` for 6.1, `mainline-1` for mainline, `big-none` and "
      "`small-none` for their sizes); above 1 is faster. The brackets hold the lowest and "
      "highest ratio any pair of boots gives (lowest over highest, highest over lowest); "
      "where they hold 1, the runs show no difference. copy, triad and "
      "chase count the loop's instructions at `-icount` (QEMU has no cache or DRAM "
      "timing), so they are flat by construction and shown only as a check that nothing "
      "else moved. The last columns give the references' absolute figures and the range "
      "of their REPS runs (max − min over the median).")
    p("")
    refs = [n for n in ("none", "mainline-1", "big-none", "small-none") if n in runs]
    cols = [n for n in names if n not in refs]
    p("| figure | policy | " + " | ".join(cols) + " | " +
      " | ".join(f"{n} (absolute)" for n in refs) + " |")
    p("|" + "---|" * (len(cols) + 2 + len(refs)))
    for t in ("fault", "churn", "copy", "triad", "chase"):
        if not none["bench"].get((t, "default", 1)):
            continue
        unit = "ns" if t == "chase" else "MiB/s"
        for pol in ("default", "interleave", "bind"):
            cells = []
            for n in cols:
                v = runs[n]["bench"].get((t, pol, 1))
                ref = runs[ref_of(n)]["bench"].get((t, "default", 1))
                if not v or not ref:
                    cells.append("-")
                elif t == "chase":
                    cells.append(f"{ref[0] / v[0]:.3f} [{ref[3] / v[4]:.3f}, {ref[4] / v[3]:.3f}]")
                else:
                    cells.append(f"{v[0] / ref[0]:.3f} [{v[3] / ref[4]:.3f}, {v[4] / ref[3]:.3f}]")
            if all(c == "-" for c in cells):
                continue
            ab = []
            for n in refs:
                v = runs[n]["bench"].get((t, pol, 1))
                d = runs[n]["bench"].get((t, "default", 1))
                if not v or not d:
                    ab.append("")
                elif pol == "default":
                    ab.append(f"{v[0]:.1f} {unit}, boots {v[3]:.1f}-{v[4]:.1f}, "
                              f"within a boot {v[1]:.1f} %")
                else:
                    # One node: the policy's own cost on the same memory.
                    r = d[0] / v[0] if t == "chase" else v[0] / d[0]
                    ab.append(f"{v[0]:.1f} {unit} ({r:.3f} of default)")
            p(f"| {t} | {pol} | " + " | ".join(cells) + " | " + " | ".join(ab) + " |")
    p("")
    if "mainline-1" in runs:
        r1, r0 = runs["mainline-1"]["bench"], none["bench"]
        pairs = [(t, r1.get((t, "default", 1)), r0.get((t, "default", 1)))
                 for t in ("fault", "churn")]
        p("mainline-1 against none (a different kernel, not emulation): " + ", ".join(
            f"{t} {a[0] / b[0]:.3f}" for t, a, b in pairs if a and b) + ".")
        p("")
    p("The references' interleave and bind cells (one node: the interleave and the bind "
      "hold node 0 alone) are what each policy costs by itself against the default policy "
      "on the same memory; the rest of an N-node ratio is what the N nodes add.")
    p("")
    p("| NUMA counters over the benchmark | " + " | ".join(names) + " |")
    p("|" + "---|" * (len(names) + 1))
    for c in ("numa_interleave", "numa_pte_updates", "numa_hint_faults", "numa_pages_migrated"):
        p(f"| {c} | " + " | ".join(str(runs[n]["vm"].get(c, "-")) for n in names) + " |")
    p("| bind node | " + " | ".join(str(runs[n]["bind"]) if runs[n]["bind"] not in (None, "-1")
                                     else "-" for n in names) + " |")
    p("")

    # 4. What the cover letter quotes, word for word (tests/docs_check.py).
    cover = cover_block(runs, fams, bt)
    if cover:
        p("## For the cover letter")
        p("")
        p("The cover letter quotes this block as it stands; `make check` (its docs layer) "
          "checks that it does.")
        p("")
        p("```")
        lines.extend(cover)
        p("```")
        p("")

    with open(f"{out}/chart.dat", "w") as d:
        d.write("# config fault-default fault-interleave churn-default boot-per-base\n")
        for n in cols + (["none-again"] if "none-again" in runs and "none-again" not in cols
                         else []):
            vals = []
            for t, pol in (("fault", "default"), ("fault", "interleave"), ("churn", "default")):
                ref = runs[ref_of(n)]["bench"].get((t, "default", 1))
                v = runs[n]["bench"].get((t, pol, 1))
                vals.append(f"{v[0] / ref[0]:.4f}" if v and ref else "NaN")
            b = base_of(n, names) or "none"
            vals.append(f"{bt[n]['total'] / bt[b]['total']:.4f}" if bt[n] and bt[b] else "NaN")
            d.write(n + " " + " ".join(vals) + "\n")
    with open(f"{out}/chart.gp", "w") as g:
        g.write(f"""set terminal pngcairo size 1000,450 noenhanced
set output '{out}/results.png'
set title 'make bench in QEMU (-icount, 1 CPU): ratio to the same kernel without emulation; boot: with one node'
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
