#!/usr/bin/env python3
"""Judge one boot by the properties the rules of NUMA emulation state.

The guest reports its nodes (RIG lines: spans and present pages from
/proc/zoneinfo, MemTotal, cpulist, distances, CPU links); the machine is
known from the case (QEMU virt: RAM from 1 GiB; a device tree variant may
leave holes or no-map regions; mem= truncates; "-numa node,memdev=" makes
physical nodes of consecutive memory). Each case is judged by properties
that follow from the rules alone, never from the algorithm:

  count     nodes per physical node: what the request (a size asks each
            physical node for as many nodes as hold it, less a unit), the
            free node ids,
            the unit-aligned windows that hold memory and the minimum node
            size allow (or the case's nodes=K);
            where reservations could leave an even node below the minimum,
            between the most nodes that fit wherever they lie and that
  nothing   every byte of memory the case gives the machine lies in
  lost      exactly one node, of its own physical node (the nodes' MemTotal
            add up to MemTotal by construction: not a check)
  bounds    spans disjoint; between two nodes of one physical node a
            multiple of the boundary unit, and of the memory block when
            every node can hold one
  spread    each node within one alignment step (plus the case's slack)
            of its physical node's fair share; where an even split could
            leave a node below the minimum, of the fair share of the memory
            not reserved at the split instead
  floor     with more than one node per physical node, each keeps the
            minimum node size outside CMA pools
  ids       the first node of physical node P is P; others above the
            highest firmware id, ascending with the address
  cpus      the first node (lowest address) of each physical node lists
            exactly its CPUs, every other node none; every CPU links one
            node, the one that lists it
  distance  10 within a physical node, the firmware's between them
  reserve   every CMA area (the device tree's, cma= or the default one)
            created with its size, in its range and in one node; the
            default one and the crash kernel made before the split when
            the option asks for one (a size, or more nodes than one),
            after numa=fake=1's node (as without the option), and
            without emulation asked for after the zones are set up (as
            by the unpatched kernel); no reservation failed; the log's
            reservations before the split that the case does not explain
            stay under a bound
  log       no WARNING/BUG/Oops/panic/OOM; expected lines present once; a
            cut request logged with a cap that holds and the rules' figures

A second opinion recomputes the exact layout with a simple model of the
splitter (flat machines where no CMA area shapes the layout) and must
agree.

Prints "ok: ..." or the reasons for failure; exit status 0 or 1.
"judge.py --selftest" shows that each property check fails on a layout
that breaks it.
"""
import argparse
from fractions import Fraction
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dtvariant  # noqa: E402

MiB = 1 << 20
RAM_BASE = 1 << 30
MAX_NUMNODES = 16
# numactl 2.0.16's own tests that guest/numactl-suite.sh runs (its
# Makefile.am lists prefered and randmap as known to be broken).
NUMACTL_TESTS = ("bind_range checkaffinity checktopology distance move_pages nodemap "
                 "numademo regress tbitmap migrate_pages mbind_mig_pages").split()
UNIT = {"4k": 4 * MiB, "16k": 32 * MiB, "64k": 512 * MiB}
BLOCK = {"4k": 128 * MiB, "16k": 128 * MiB, "64k": 512 * MiB}
PAGE = {"4k": 4096, "16k": 16384, "64k": 65536}
MIN_NODE = 32 * MiB
DEFAULT_CMA = 16 * MiB      # CONFIG_CMA_SIZE_MBYTES of the test kernels
# Memory the kernel reserves for itself before the split (its image, page
# tables, early allocations; under 10 MiB on the test kernels): a log that
# shows more is a reservation the case does not explain.
BOOT_RESERVED_MAX = 32 * MiB
# CMA areas are aligned to the pageblock (CMA_MIN_ALIGNMENT_BYTES).
CMA_ALIGN = {"4k": 4 * MiB, "16k": 32 * MiB, "64k": 512 * MiB}
# The default CMA area and cma= lie below the DMA zone's limit: 4 GiB
# (QEMU's device tree and ACPI tables give no narrower DMA ranges).
DMA_LIMIT = 4 << 30
BAD = re.compile(r"WARNING:|BUG:|Oops|Kernel panic|Call trace|could not be activated"
                 r"|Out of memory|oom-kill")
size = dtvariant.size


def overlap(ranges, lo, hi):
    return sum(max(0, min(e, hi) - max(s, lo)) for s, e in ranges)


def union(ranges):
    out = []
    for s, e in sorted(r for r in ranges if r[0] < r[1]):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def subtract(ranges, holes):
    out = list(ranges)
    for hs, he in union(holes):
        out = [x for s, e in out for x in ((s, min(e, hs)), (max(s, he), e)) if x[0] < x[1]]
    return out


MEMBLOCK = re.compile(r"memblock_(reserve|phys_free): \[(0x[0-9a-f]+)-(0x[0-9a-f]+)\]")


def freed_initrd(lines):
    """The initramfs, if the kernel freed it once unpacked ("Freeing initrd
    memory"), as memblock=debug logged it: its release (free_initrd_mem;
    riscv keeps no memblock then, and logs none) or else its reservation
    (reserve_initrd_mem); or None."""
    if not any("Freeing initrd memory" in ln for ln in lines):
        return None
    for kind, caller in (("phys_free", "free_initrd_mem"), ("reserve", "reserve_initrd_mem")):
        for ln in lines:
            mm = MEMBLOCK.search(ln)
            if mm and mm.group(1) == kind and caller in ln:
                return (int(mm.group(2), 16), int(mm.group(3), 16) + 1)
    return None


def fdt_totalsize(path):
    with open(path, "rb") as f:
        head = f.read(8)
    return int.from_bytes(head[4:8], "big")


def reserved_at(lines, stop):
    """memblock.reserved as memblock=debug logged it, up to the first line
    that matches stop (or the end), or None without such a log. Only the
    device tree's own copy is reserved before the option is parsed."""
    cur, seen = [], False
    for ln in lines:
        if stop.search(ln):
            break
        mm = MEMBLOCK.search(ln)
        if mm:
            seen = True
            r = (int(mm.group(2), 16), int(mm.group(3), 16) + 1)
            cur = union(cur + [r]) if mm.group(1) == "reserve" else subtract(cur, [r])
    return cur if seen else None


def numactl_suite(text):
    """{test: None if it passed, else why} for numactl's own suite
    (guest/numactl-suite.sh's RIG numactl and NUMACTL lines)."""
    rcs = dict(re.findall(r"^RIG numactl (\S+) rc (\d+)$", text, re.M))
    out = {}
    for t in NUMACTL_TESTS:
        last = [ln for ln in text.splitlines() if ln.startswith(f"NUMACTL {t}:")]
        out[t] = None if rcs.get(t) == "0" else \
            ("did not run" if t not in rcs else f"rc {rcs[t]} {last[-1] if last else ''}".strip())
    return out


def cpus(text):
    out = set()
    for part in filter(None, text.strip("-").split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def addr_of(ranges, x, amount=None, step=1):
    """The lowest address below which ranges hold x bytes; amount(lo, hi)
    counts only some of them (found to step: it need not be linear)."""
    acc = 0
    for s, e in ranges:
        here = amount(s, e) if amount else e - s
        if x <= acc + here:
            if not amount:
                return s + x - acc
            a = s
            while amount(s, a) < x - acc and a < e:
                a += step
            return a
        acc += here
    return ranges[-1][1]


def windows(ranges, unit):
    return len({w for s, e in ranges for w in range(s // unit, (e - 1) // unit + 1)})


class Machine:
    """The machine as the case describes it, and the request."""

    def __init__(self, a, text):
        global RAM_BASE
        # QEMU virt RAM starts at 1 GiB on arm64, at 2 GiB on riscv64.
        RAM_BASE = dtvariant.RAM_BASE = (2 << 30) if getattr(a, "arch", "") == "riscv64" else (1 << 30)
        self.pages = a.pages
        self.arch = getattr(a, "arch", "arm64")
        self.uefi = "-bios" in a.qemu
        self.cmdline = a.cmdline
        self.unit, self.block = UNIT[a.pages], BLOCK[a.pages]
        changes = dtvariant.load(a.variants).get(a.dt, {}) if a.dt != "-" else {}
        mem = size(a.mem)
        ranges = dtvariant.usable(changes, mem)
        if "nomap" in changes:
            ns, ne = dtvariant.span(changes["nomap"], mem)
            ranges = subtract(ranges, [(ns, ne)])
        m = re.search(r"(?:^|\s)mem=(\S+)", a.cmdline)
        if m:
            cap = RAM_BASE + size(m.group(1))
            ranges = [(s, min(e, cap)) for s, e in ranges if s < cap]
        if getattr(a, "arch", "") == "riscv64":
            # OpenSBI keeps the first 2 MiB; the kernel's memory starts above.
            ranges = [(max(s, RAM_BASE + 2 * MiB), e) for s, e in ranges if e > RAM_BASE + 2 * MiB]
        self.ranges = ranges
        # CMA pools the device tree variant declares: (size, lowest start,
        # highest end). Each must be created, inside its range, with its size.
        self.pools = []
        if "cma" in changes:
            sz, rng = changes["cma"].split("@")
            self.pools.append((int(sz) * MiB,) + dtvariant.span(rng, mem))
        if "cmafixed" in changes:
            lo, hi = dtvariant.span(changes["cmafixed"], mem)
            self.pools.append((hi - lo, lo, hi))
        created = [(int(b, 16), int(sz) * MiB) for b, sz in
                   re.findall(r"created CMA memory pool at (0x[0-9a-f]+), size (\d+) MiB", text)]
        # The default CMA area (unless the device tree has a default pool)
        # or cma=: aligned up, below the DMA limit, anywhere memblock finds
        # room; it must exist (the unpatched kernel makes it).
        # The riscv test kernels have no CMA (configs/arch-riscv64.config).
        cma = re.search(r"(?:^|\s)cma=(\d+[KMGkmg]?)(?:\s|$)", a.cmdline)
        late = 0 if self.pools or self.arch == "riscv64" else size(cma.group(1)) if cma else DEFAULT_CMA
        late_pool = None
        if late:
            late = -(-late // CMA_ALIGN[a.pages]) * CMA_ALIGN[a.pages]
            top = max(e for _, e in ranges)
            late_pool = (late, RAM_BASE, min(top, DMA_LIMIT) if top > RAM_BASE else top)
            self.pools.append(late_pool)
        self.late_pool = late_pool
        created += [(int(b, 16), int(sz) * MiB) for sz, b in
                    re.findall(r"cma: Reserved (\d+) MiB at (0x[0-9a-f]+)", text)]
        # Where the pools are: (size, start, end).
        self.pools_at = [(sz, b, b + sz) for b, sz in created]
        self.keep, self.missing, self.excused = [], [], False
        # crashkernel=SIZE: the crash kernel the unpatched kernel reserves
        # on every machine of the matrix, with or without numa=fake=.
        ck = re.search(r"(?:^|\s)crashkernel=(\d+[KMGkmg]?)(?:\s|$)", a.cmdline)
        self.crash = size(ck.group(1)) if ck else 0
        self.crashed = [(int(b, 16), int(e, 16)) for b, e in re.findall(
            r"crashkernel(?: reserved:|: reserved) (0x[0-9a-f]+) - (0x[0-9a-f]+) \(\d+ MB\)", text)]
        lines = text.splitlines()
        # Memory reserved when the split runs: the device tree's carve-outs
        # and CMA areas, and, where memblock=debug logged them, the
        # kernel's own reservations (image, initramfs, early allocations).
        self.booted = reserved_at(lines, re.compile(r"NUMA: Faking node"))
        initrd = freed_initrd(lines)
        if self.booted is not None and initrd:
            # The initramfs does not count: it is freed once unpacked. The
            # device tree blob, which arm64 reserves before memblock=debug
            # is parsed, does: QEMU's direct kernel boot loads it at the
            # first 2 MiB boundary after the initramfs; its size is the
            # blob's totalsize (the -dtb file's, or 1 MiB for QEMU's own
            # virt tree, as dumpdtb shows). Under UEFI (-bios) the EFI stub
            # places it: not modelled.
            self.booted = subtract(self.booted, [initrd])
            if self.arch == "arm64" and "-bios" not in a.qemu:
                at = -(-initrd[1] // (2 * MiB)) * (2 * MiB)
                dtb = re.search(r"-dtb (\S+)", a.qemu)
                self.booted = union(self.booted + [(at, at + (fdt_totalsize(dtb.group(1)) if dtb else MiB))])
        for sz, lo, hi in self.pools:
            at = next((b for b, z in created if z == sz and lo <= b and b + sz <= hi), None)
            if at is None:
                # Missing, unless no aligned window of its size was free
                # when the split ran (small 64K machines, with or without
                # emulation): the area is made before it.
                if (sz, lo, hi) != late_pool or self.booted is None or \
                        self.window(ranges, self.booted, sz, CMA_ALIGN[a.pages], lo, hi):
                    self.missing.append((sz, lo, hi))
                else:
                    self.excused = True
                continue
            self.keep.append((at, at + sz))
        # The crash kernel: reserved before the split too, and no boundary
        # may cut it (its resource must nest in one System RAM resource).
        self.keep += self.crashed
        # Physical nodes: (firmware id, ranges, cpus); memory-less ones too.
        self.phys = []
        addr = RAM_BASE
        backends = dict(re.findall(r"memory-backend-ram,id=(\w+),size=(\w+)", a.qemu))
        for i, opts in enumerate(re.findall(r"-numa node,(\S+)", a.qemu)):
            kv = dict(x.split("=", 1) for x in opts.split(",") if "=" in x)
            nid = int(kv.get("nodeid", i))
            rng = []
            if "memdev" in kv:
                end = addr + size(backends[kv["memdev"]])
                rng = [(max(s, addr), min(e, end)) for s, e in ranges if s < end and e > addr]
                addr = end
            self.phys.append((nid, rng, cpus(kv.get("cpus", ""))))
        # A firmware node with neither memory nor CPUs is named by QEMU's
        # ACPI tables as the owner of the hotplug range (the last node, with
        # -m slots=), and by its device tree's distance map, which lists
        # every node once -numa dist is given (of_numa parses each node it
        # names): elsewhere the kernel never learns of it.
        self.phys = [p for p in self.phys if p[1] or p[2] or
                     (self.uefi and "slots=" in a.qemu and p is self.phys[-1]) or
                     (not self.uefi and "-numa dist," in a.qemu)]
        if not self.phys or re.search(r"(?:^|\s)fallback(?:\s|$)", a.expect):
            # No firmware NUMA, or firmware NUMA the kernel refused: one node.
            self.phys = [(0, ranges, set(range(int(a.smp))))]
        self.fw_dist = {}
        for x, y, d in re.findall(r"-numa dist,src=(\d+),dst=(\d+),val=(\d+)", a.qemu):
            self.fw_dist[(int(x), int(y))] = self.fw_dist[(int(y), int(x))] = int(d)
        self.floor = MIN_NODE
        self.carveouts = dt_taken = [dtvariant.span(changes[k], mem) for k in ("resv", "memreserve") if k in changes]
        self.taken = union(dt_taken + self.keep + (self.booted or []))
        # What the log reserves at the split beyond the case's own
        # reservations (the kernel image, page tables, early allocations)
        # the case cannot know: taken from the log up to a bound only.
        self.unexplained = sum(e - s for s, e in subtract(self.booted or [], union(
            dt_taken + self.keep + [(b, b + sz) for b, sz in created])))
        self.free = subtract(ranges, self.taken)

    @staticmethod
    def window(ranges, taken, sz, align, lo, hi):
        """Whether an align-aligned window of sz bytes in [lo, hi) is
        memory and not taken."""
        for s, e in ranges:
            a = -(-max(s, lo) // align) * align
            while a + sz <= min(e, hi):
                if not overlap(taken, a, a + sz):
                    return True
                a += align
        return False

    def dist(self, p, q):
        if p == q:
            return 10
        return self.fw_dist.get((p, q), 20)

    def ordinary(self, lo, hi):
        """Memory of [lo, hi) not reserved when the split ran."""
        return overlap(self.free, lo, hi)


def caps_of(m):
    """Most fake nodes each physical node with memory can be split into."""
    return [min(MAX_NUMNODES, max(1, min(windows(r, m.unit),
                                         sum(m.ordinary(s, e) for s, e in r) // m.floor)))
            for _, r, _ in m.phys if r]


def fair_shares(mems, caps, total):
    """Every composition of total fake nodes over the physical nodes (each
    1..cap) that makes the largest fake node as small as it can be."""
    best, out = None, []

    def walk(i, left, acc):
        nonlocal best, out
        if i == len(mems):
            if left:
                return
            worst = max(Fraction(mm, k) for mm, k in zip(mems, acc))
            if best is None or worst < best:
                best, out = worst, [tuple(acc)]
            elif worst == best:
                out.append(tuple(acc))
            return
        for k in range(1, min(caps[i], left - (len(mems) - i - 1)) + 1):
            walk(i + 1, left - k, acc + [k])

    walk(0, total, [])
    return out


def by_size(m, mem, mode):
    """Nodes a size= mode asks of mem bytes: as many as hold it, less a unit."""
    return max(1, (mem + m.unit) // size(mode[5:]))


def granted(m, mode):
    """Nodes per physical node with memory that the rules allow."""
    mem = [(nid, r) for nid, r, _ in m.phys if r]
    caps = caps_of(m)
    ids = MAX_NUMNODES - (max(nid for nid, _, _ in m.phys) + 1)
    if mode.endswith("U") or mode.startswith("size="):
        # Per physical node: N with "U"; as many nodes as hold the size.
        each = [int(mode[6:-1])] * len(mem) if mode.endswith("U") else \
            [by_size(m, overlap(r, 0, 1 << 64), mode) for _, r in mem]
        want = [min(e, c) for e, c in zip(each, caps)]
        total = min(sum(want), len(mem) + ids)
        if total < sum(want):
            return None, total      # shares then depend on sizes: count only
        return want, total
    n = int(mode[6:])
    total = max(len(mem), min(n, sum(caps), len(mem) + ids))
    if len(mem) == 1:
        return [total], total
    return None, total


class Guest:
    """What the guest reported."""

    def __init__(self, text, page):
        self.text = text
        self.lines = text.splitlines()
        rig = [ln.split()[1:] for ln in self.lines if ln.startswith("RIG ")]
        self.memtotal = next((int(w[2]) for w in rig if w[:2] == ["meminfo", "MemTotal"]), None)
        self.nodes = {int(w[1]): {"memtotal": int(w[3]), "cpus": cpus(w[5]),
                                  "dist": [int(d) for d in w[7].split(",")]}
                      for w in rig if w[0] == "node"}
        for w in rig:
            if w[0] == "zone" and int(w[2]) in self.nodes:
                self.nodes[int(w[2])].update(start=int(w[4]) * page, end=int(w[6]) * page,
                                             present=int(w[8]) * page)
        self.links = {}
        for w in rig:
            if w[0] == "cpu" and len(w) > 3:
                self.links[int(w[1])] = {int(x) for x in w[3].split(",") if x}
            elif w[0] == "cpu":
                self.links[int(w[1])] = set()


def count_rules(m, expect):
    """What the rules say of the node count: (want, total, upper, bracket,
    uneven): nodes per physical node with memory (or None), memory nodes in
    all (or None), whether total is only an upper bound, {physical node:
    (lo, hi)} where a reservation leaves the count between two bounds, and
    the physical nodes where an even split could leave a node below its
    minimum (their nodes may share the memory not reserved instead)."""
    mode = expect.split()[0]
    explicit = re.search(r"(?:^|\s)nodes=(\d+)", expect)
    if mode == "none":
        want = {nid: 1 for nid, r, _ in m.phys if r}
        total = len(want)
    elif mode.startswith("count=") or mode.startswith("size="):
        per, total = granted(m, mode)
        want = None
        if per is None and mode.startswith("count=") and not mode.endswith("U"):
            # Shared among firmware nodes so that the largest fake node is
            # as small as it can be: when one composition does that, it is
            # the target.
            opts = fair_shares([overlap(r, 0, 1 << 64) for _, r, _ in m.phys if r], caps_of(m), total)
            if len(opts) == 1:
                per = opts[0]
        if per is not None:
            want = {nid: k for (nid, r, _), k in zip([p for p in m.phys if p[1]], per)}
    else:
        want, total = None, None
    upper = False
    bracket, uneven = {}, set()
    # Reserved memory (CMA areas, carve-outs, the kernel's own) that could
    # leave an even node of the smallest size below its minimum may cost
    # nodes: how many, the rules leave to where the reservations lie. The
    # count then lies between the most nodes that keep their minimum
    # wherever the reservations are, in an even split of the usable memory
    # (a boundary moved around a CMA area costs a node at most the area
    # again) or of the memory not reserved, and the rules' count; with
    # several physical nodes whose shares the rules leave open, only the
    # upper bound is known.
    if total is not None and mode != "none":
        withmem = [p for p in m.phys if p[1]]
        for nid, r, _ in withmem:
            k = (want or {}).get(nid) or (total if len(withmem) == 1 else None)
            mem = overlap(r, 0, 1 << 64)
            free = sum(m.ordinary(s, e) for s, e in r)
            resv = mem - free + sum(overlap(r, a, e) for a, e in m.keep)

            def holds(c):
                return resv <= mem / c - (m.block if mem // m.block >= c else m.unit) - m.floor

            def fits(c):
                # Nodes that share the memory not reserved evenly keep the
                # minimum when each share exceeds it by three boundary units
                # (one rounded boundary on either side, a move out of a CMA
                # area): as many nodes as that are never cut.
                return c <= windows(r, m.unit) and free >= c * (m.floor + 3 * m.unit)
            if k is None:
                upper = upper or not holds(total)
            elif k > 1 and not holds(k) and not fits(k):
                bracket[nid] = (max([c for c in range(1, k) if holds(c) or fits(c)] or [1]), k)
            if k and k > 1 and not holds(k):
                uneven.add(nid)
    if explicit:
        total = int(explicit.group(1))
        want = {m.phys[0][0]: total} if len([p for p in m.phys if p[1]]) == 1 else None
        upper = False
        bracket = {}
    shares = re.search(r"(?:^|\s)shares=([\d,]+)", expect)
    if shares:
        want = {nid: int(k) for (nid, r, _), k in
                zip([p for p in m.phys if p[1]], shares.group(1).split(","))}
    return want, total, upper, bracket, uneven


def expected_nodes(m, expect):
    """(least, most) of all nodes (memory-less firmware nodes too) where
    the rules bound the count, for the kselftest's -n; else None."""
    want, total, upper, bracket, uneven = count_rules(m, expect)
    if total is None or upper:
        return None
    less = 0
    if bracket:
        per = dict(want or {nid: total for nid, r, _ in m.phys if r})
        less = sum(per[nid] - lo for nid, (lo, _) in bracket.items())
    extra = sum(1 for _, r, _ in m.phys if not r)
    return total - less + extra, total + extra


def properties(m, g, expect, slack):
    """Yield (property, error) for each property the boot breaks."""
    mode = expect.split()[0]
    explicit = re.search(r"(?:^|\s)nodes=(\d+)", expect)
    mem_nodes = {n: v for n, v in g.nodes.items() if v.get("end", 0) > v.get("start", 0)}
    # Physical node of every memory node: the one whose memory it spans.
    phys_of = {}
    for n, v in mem_nodes.items():
        owners = [nid for nid, r, _ in m.phys if overlap(r, v["start"], v["end"])]
        if len(owners) != 1:
            yield "nothing lost", f"node {n} [{v['start']:#x}-{v['end']:#x}) holds memory of physical nodes {owners}"
            continue
        phys_of[n] = owners[0]
    fw_ids = {nid for nid, _, _ in m.phys}
    for nid, r, c in m.phys:
        if not r:
            if nid not in g.nodes:
                yield "ids", f"memory-less firmware node {nid} is gone"
            phys_of.setdefault(nid, nid)

    # count
    want, total, upper, bracket, uneven = count_rules(m, expect)
    shares = re.search(r"(?:^|\s)shares=([\d,]+)", expect)
    got = {}
    for n, p in phys_of.items():
        if n in mem_nodes:
            got[p] = got.get(p, 0) + 1
    if bracket:
        for nid, (lo, hi) in bracket.items():
            if not lo <= got.get(nid, 0) <= hi:
                yield "count", (f"physical node {nid} has {got.get(nid, 0)} nodes; with the memory"
                                f" reserved at the split the rules allow {lo} to {hi}")
        for nid, k in (want or {}).items():
            if nid not in bracket and got.get(nid, 0) != k:
                yield "count", f"nodes per physical node {got}, the rules give {k} on node {nid}"
    elif total is not None and upper:
        if sum(got.values()) > total:
            yield "count", f"{sum(got.values())} memory nodes, the rules give at most {total}"
    elif total is not None and sum(got.values()) != total:
        yield "count", f"{sum(got.values())} memory nodes, the rules give {total}"
    elif want and got != want:
        yield "count", (f"nodes per physical node {got}, the rules give {want}" +
                        (" (the split that makes the largest node smallest)" if len(want) > 1 and
                         not mode.endswith("U") else ""))
    elif (mode.startswith("count=") and not mode.endswith("U") and not explicit and not shares
          and not upper and not bracket and want is None and total is not None):
        # Shared among firmware nodes so that the largest fake node is as
        # small as it can be (any composition that achieves it).
        withmem = [(nid, overlap(r, 0, 1 << 64)) for nid, r, _ in m.phys if r]
        ok = fair_shares([mm for _, mm in withmem], caps_of(m), total)
        have = tuple(got.get(nid, 0) for nid, _ in withmem)
        if have not in ok:
            yield "count", (f"nodes per physical node {dict(zip([n for n, _ in withmem], have))},"
                            f" the rules give one of {[dict(zip([n for n, _ in withmem], o)) for o in ok]}")

    # The log accounts for every node a count did not make: the nodes
    # requested are the command line's, a "granted" line only where fewer
    # (or, below the physical nodes, more) were granted, and each physical
    # node that "gets K nodes instead of" S has K; the rest are made.
    req = re.findall(r"(?:^|\s)numa=fake=(\d+)([uU]?)(?::\S*)?(?=\s|$)", m.cmdline)
    if mode.startswith("count=") and req:
        asked = int(req[-1][0]) * (len([p for p in m.phys if p[1]]) if req[-1][1] else 1)
        cut = re.findall(r"numa=fake=\S+: (\d+) nodes requested, (\d+) granted", g.text)
        short = re.findall(r"numa=fake=\S+: physical node (\d+) gets (\d+) nodes instead of (\d+)", g.text)
        if cut and int(cut[0][0]) != asked:
            yield "log", f"the log says {cut[0][0]} nodes requested, the command line asks for {asked}"
        if cut and int(cut[0][1]) == int(cut[0][0]):
            yield "log", f"a line says {cut[0][1]} of {cut[0][0]} nodes were granted: nothing was cut"
        made = (int(cut[0][1]) if cut else asked) - sum(int(want) - int(k) for _, k, want in short)
        if made != len(mem_nodes):
            yield "log", (f"{len(mem_nodes)} memory nodes, the log accounts for {made}"
                          f" ({asked} requested{', %s granted' % cut[0][1] if cut else ''}"
                          f"{', %d fewer on physical nodes' % (asked - made) if short else ''})")
        for p, k, _ in short:
            if got.get(int(p), 0) != int(k):
                yield "log", f"the log says physical node {p} gets {k} nodes, it has {got.get(int(p), 0)}"
        # Its reason names a cap that holds, and its figures are the rules':
        # the node ids (one per physical node with memory, and those above
        # the highest firmware id) and the minimum node size.
        why = re.search(r"granted: (.*?) \((\d+) node ids, nodes of at least (\d+) MiB\)$", g.text, re.M)
        phys = len([p for p in m.phys if p[1]])
        ids = phys + MAX_NUMNODES - (max(nid for nid, _, _ in m.phys) + 1)
        caps = [min(c, int(req[-1][0])) if req[-1][1] else c for c in caps_of(m)]
        fit = sum(caps)
        if not cut and (asked > ids or min(asked, ids) > fit or min(asked, ids, fit) < phys):
            yield "log", (f"no 'granted' line, yet the rules cut the {asked} requested ({ids} node ids,"
                          f" {fit} nodes fit, {phys} physical nodes)")
        if cut and not why:
            yield "log", "the 'granted' line gives no reason or figures"
        elif cut:
            # The kernel cuts the request to the node ids, then to the nodes
            # that fit (each physical node's cap, at most N with "U"), then
            # raises it to the physical nodes: the reason is the last cut.
            n = int(cut[0][1])
            holds = {"more than MAX_NUMNODES allows": asked > ids and n == ids,
                     "nodes would be smaller than the boundary unit or the minimum node size":
                         min(asked, ids) > fit and n == fit,
                     "fewer than the physical nodes": min(asked, ids, fit) < phys and n == phys}
            if not holds.get(why.group(1)):
                yield "log", f"'granted: {why.group(1)}': no such cap holds ({asked} requested, {ids} node ids," \
                             f" {fit} nodes fit, {phys} physical nodes)"
            if int(why.group(2)) != ids or int(why.group(3)) != m.floor // MiB:
                yield "log", (f"'granted' line: {why.group(2)} node ids, nodes of at least {why.group(3)} MiB;"
                              f" the rules give {ids} and {m.floor // MiB}")

    # nothing lost
    if g.memtotal is None or not g.nodes:
        yield "nothing lost", "guest reported no meminfo or nodes"
    # Every byte of memory in a node's span is present in that node (the
    # zones' present pages), so memory that fell out of every node shows.
    for n, v in mem_nodes.items():
        have = overlap(m.ranges, v["start"], v["end"])
        if v.get("present", 0) < have:
            yield "nothing lost", (f"node {n} has {v.get('present', 0) // MiB} MiB present, its span"
                                   f" [{v['start']:#x}-{v['end']:#x}) holds {have // MiB} MiB of memory")
    for nid, r, _ in m.phys:
        for s, e in r:
            covered = sum(max(0, min(e, v["end"]) - max(s, v["start"]))
                          for n, v in mem_nodes.items() if phys_of.get(n) == nid)
            if covered != e - s:
                yield "nothing lost", f"memory [{s:#x}-{e:#x}) of physical node {nid}: {covered // MiB} of {(e - s) // MiB} MiB in its nodes"

    # bounds, spread, floor, ids
    order = sorted(mem_nodes, key=lambda n: mem_nodes[n]["start"])
    for a, b in zip(order, order[1:]):
        if mem_nodes[a]["end"] > mem_nodes[b]["start"]:
            yield "bounds", f"nodes {a} and {b} overlap"
    for nid, r, _ in m.phys:
        mine = [n for n in order if phys_of.get(n) == nid]
        if not r or not mine:
            continue
        mem = overlap(r, 0, 1 << 64)
        k = len(mine)
        # Whole blocks when every node can get enough of them for the
        # floor; where reservations could leave a node below it, nodes
        # may need the finer unit to keep it.
        align = m.block if mem // m.block >= k * max(1, -(-m.floor // m.block)) else m.unit

        def cut_ok(a, b, step):
            # The boundary lies between the end of one node's memory and
            # the start of the next (in a hole, it is anywhere between).
            return -(-mem_nodes[a]["end"] // step) * step <= mem_nodes[b]["start"]
        if align == m.block and nid in uneven and \
                not all(cut_ok(a, b, align) for a, b in zip(mine, mine[1:])):
            # Where reservations could leave a node below its minimum, the
            # nodes may need the finer unit to keep it.
            align = m.unit
        for a, b in zip(mine, mine[1:]):
            if not cut_ok(a, b, align):
                yield "bounds", (f"no multiple of {align // MiB} MiB between nodes {a} (to {mem_nodes[a]['end']:#x})"
                                 f" and {b} (from {mem_nodes[b]['start']:#x})")
        use = {n: overlap(r, mem_nodes[n]["start"], mem_nodes[n]["end"]) for n in mine}
        if k > 1:
            for n in mine:
                own = m.ordinary(mem_nodes[n]["start"], mem_nodes[n]["end"])
                if own < m.floor:
                    yield "floor", f"node {n} keeps {own // MiB} MiB that was not reserved at the split, less than {m.floor // MiB} MiB"
        # A boundary that would cut a CMA area moves to an edge of it: at
        # most the area (on the alignment) further, where a boundary lies
        # at the area's aligned edges.
        inner = [mem_nodes[n]["start"] for n in mine[1:]]

        def near(s, e):
            return any(s // align * align <= b <= -(-e // align) * align for b in inner)

        if mode != "none" and not explicit and not upper:
            # A boundary that would cut a CMA pool moves to an edge of it:
            # at most the pool (on the alignment) further. Only a pool that
            # lies where a boundary of an even split falls (of the usable
            # memory, or of the memory not reserved) can have moved one.
            free = sum(m.ordinary(lo, hi) for lo, hi in r)
            ideal = [addr_of(r, mem * i / k) for i in range(1, k)] + \
                [addr_of(r, free * i / k, m.ordinary, m.unit) for i in range(1, k)]

            def cut(s, e):
                return any(s < c < e for x in ideal for c in (x // align * align, -(-x // align) * align))
            moved = sum(-(-(min(e, hi) - max(s, lo)) // align) * align
                        for s, e in m.keep for lo, hi in r if s < hi and lo < e and near(s, e) and cut(s, e))
            tol = align + moved + slack
            fair = mem / k
            off = [n for n in mine if abs(use[n] - fair) > tol]
            if off and nid in uneven:
                # Where an even split could leave a node below its minimum,
                # the nodes may share the memory not reserved evenly instead.
                if all(abs(m.ordinary(mem_nodes[n]["start"], mem_nodes[n]["end"]) - free / k) <= tol
                       for n in mine):
                    off = []
            for n in off:
                yield "spread", (f"node {n} holds {use[n] // MiB} MiB, fair share {fair / MiB:.0f}"
                                 f" MiB, allowed {tol // MiB} MiB off" +
                                 (", nor is the memory not reserved shared evenly" if nid in uneven else ""))
        if mine[0] != nid and mode != "none":
            yield "ids", f"first node of physical node {nid} is node {mine[0]}"
        extra = mine[1:]
        if any(x <= max(fw_ids) for x in extra) or extra != sorted(extra):
            yield "ids", f"nodes {extra} of physical node {nid}: not above {max(fw_ids)} in address order"

    # reserve: no reservation failed (the unpatched kernel makes them all on
    # these machines).
    fail = next((ln for ln in g.lines if re.search(r"[Ff]ailed to reserve|cannot allocate crashkernel", ln)
                 and not (m.excused and "cma: Failed to reserve" in ln)), None)
    if fail:
        yield "reserve", fail.strip()
    if m.booted is not None and m.unexplained > BOOT_RESERVED_MAX and re.search(r"NUMA: Faking node", g.text):
        yield "reserve", (f"{m.unexplained // MiB} MiB reserved before the split that the case does not explain"
                          f" (more than the {BOOT_RESERVED_MAX // MiB} MiB a kernel takes for itself)")
    # The crash kernel asked for exists, of the size asked for.
    if m.crash and [e - b for b, e in m.crashed] != [m.crash]:
        yield "reserve", (f"crash kernel of {m.crash // MiB} MiB not reserved" if not m.crashed else
                          f"crash kernel reserved as {[(e - b) // MiB for b, e in m.crashed]} MiB, "
                          f"not {m.crash // MiB}")
    # The default CMA area (or cma=; arm64) and the crash kernel (arm64
    # with ZONE_DMA or ZONE_DMA32, as the test kernels have, and riscv),
    # which the architecture makes once the nodes exist, are made before
    # the split when the option asks for one (a size, or more nodes than
    # one); numa=fake=1 (or 1U) splits nothing and reserves as without the
    # option, after its nodes are made.
    def line_of(rx):
        return next((i for i, ln in enumerate(g.lines) if re.search(rx, ln)), None)

    made = [("the crash kernel", line_of(r"crashkernel(?: reserved:|: reserved) 0x"))]
    if m.late_pool:
        made.append(("the default CMA area", line_of(r"cma: Reserved \d+ MiB at")))
    first_fake = line_of(r"NUMA: Faking node \d")
    if first_fake is not None and mode != "none":
        split = mode.startswith("size=") or int(mode[6:].rstrip("U")) > 1
        for what, at in made:
            if at is not None and (at < first_fake) != split:
                yield "reserve", (f"{what} is reserved {'after' if split else 'before'} the split, which"
                                  f" {'the option asks for' if split else 'numa=fake=1 does not ask for'}")
    # Without emulation asked for (no option, numa=off, an option refused
    # as it is read) they are made once the zones are set up (the last
    # "Initmem setup node" line), as by the unpatched kernel; a request the
    # split refuses (a size above the memory, no memory for the layout)
    # made them before the nodes were registered (their NODE_DATA lines).
    registered = line_of(r"NUMA: NODE_DATA \[mem")
    zones = [i for i, ln in enumerate(g.lines) if re.search(r"\] Initmem setup node \d", ln)]
    at_split = re.search(r"numa=fake=\S* ignored: (?:the node size exceeds the memory|out of memory for the layout);",
                         g.text)
    if mode == "none" and at_split and registered is not None:
        for what, at in made:
            if at is not None and at > registered:
                yield "reserve", f"{what} is reserved after the nodes are registered, yet a split was asked for"
    elif mode == "none" and zones:
        for what, at in made:
            if at is not None and at < zones[-1]:
                yield "reserve", f"{what} is reserved before the zones are set up, without emulation"
    # Every CMA area and the crash kernel exist, each inside one node.
    for sz, lo, hi in m.missing:
        yield "reserve", f"no CMA pool of {sz // MiB} MiB created in [{lo:#x}-{hi:#x})"
    for a, b in m.keep:
        holders = [n for n, v in mem_nodes.items() if v["start"] < b and a < v["end"]]
        if len(holders) != 1:
            what = "crash kernel" if (a, b) in m.crashed else "CMA pool"
            yield "reserve", f"{what} [{a:#x}-{b:#x}) lies in nodes {sorted(holders)}, not in one"

    # cpus: the first node (lowest address) of each physical node lists
    # its CPUs, every other node none; each CPU links that node alone.
    first_of = {}
    for n, v in g.nodes.items():
        p = phys_of.get(n)
        if p is not None and (p not in first_of or v.get("start", 0) < g.nodes[first_of[p]].get("start", 0)):
            first_of[p] = n
    for n, v in g.nodes.items():
        p = phys_of.get(n)
        want_cpus = next((c for nid, _, c in m.phys if nid == p), set()) if first_of.get(p) == n else set()
        if m.arch == "riscv64" and len(m.phys) > 1:
            # riscv numbers the boot hart CPU 0, and OpenSBI picks the boot
            # hart at random: the CPUs of a physical node are known by
            # count, not by number.
            if len(v["cpus"]) != len(want_cpus):
                yield "cpus", f"node {n} lists {len(v['cpus'])} cpus, expected {len(want_cpus)} (physical node {p})"
        elif v["cpus"] != want_cpus:
            yield "cpus", (f"node {n} lists cpus {sorted(v['cpus'])}, expected {sorted(want_cpus)}"
                           f" ({'first' if first_of.get(p) == n else 'not the first'} node of physical node {p})")
    for cpu, linked in g.links.items():
        listed = {n for n, v in g.nodes.items() if cpu in v["cpus"]}
        if len(linked) != 1 or linked != listed:
            yield "cpus", f"cpu{cpu} links nodes {sorted(linked)}, not the one node that lists it ({sorted(listed)})"
            continue
        own = next(iter(linked))
        first = first_of.get(phys_of.get(own), own)
        if own != first:
            yield "cpus", (f"cpu{cpu} is on node {own}, not on node {first}, the first node "
                           f"of physical node {phys_of.get(own)}")

    # distance
    ids = sorted(g.nodes)
    for i, n in enumerate(ids):
        for j, q in enumerate(ids):
            d = g.nodes[n]["dist"][j] if j < len(g.nodes[n]["dist"]) else None
            want_d = m.dist(phys_of.get(n), phys_of.get(q))
            if d != want_d:
                yield "distance", f"node {n} to {q}: {d}, the rules give {want_d}"
                break

    # The kernel's account of the layout: one "Faking node" line for each
    # memory node, whose range holds the node's span, with the memory the
    # case gives that range (where the case knows all of it: not under
    # UEFI, whose runtime regions are no-map), no more reserved than that,
    # and, with several physical nodes, the one the node lies in.
    fakes = re.findall(r"Faking node (\d+) at \[mem (0x[0-9a-f]+)-(0x[0-9a-f]+)\] \((\d+) MiB, (\d+) MiB reserved\)"
                       r"(?: on physical node (\d+))?", g.text)
    several = len([p for p in m.phys if p[1]]) > 1
    if fakes and mode == "none":
        yield "log", (f"'Faking node' lines for nodes {[int(f[0]) for f in fakes]}, yet the case asks for no"
                      " emulation (no option, a refused one, numa=off)")
    elif fakes and sorted(int(f[0]) for f in fakes) != sorted(mem_nodes):
        yield "log", f"'Faking node' lines for nodes {[int(f[0]) for f in fakes]}, memory nodes {sorted(mem_nodes)}"
    elif not fakes and mode != "none" and len(mem_nodes) > len([p for p in m.phys if p[1]]):
        yield "log", f"no 'Faking node' line, yet {len(mem_nodes)} memory nodes"
    for f in fakes:
        n, lo, hi, mib, resv = int(f[0]), int(f[1], 16), int(f[2], 16) + 1, int(f[3]), int(f[4])
        v = mem_nodes.get(n)
        # (A node's span may reach beyond its range over no-map memory:
        # the firmware's at the start of a node, or memory no firmware node
        # held, which joins the nearest node.)
        if v and overlap(m.ranges, v["start"], v["end"]) != overlap(m.ranges, max(v["start"], lo), min(v["end"], hi)):
            yield "log", (f"Faking node {n} at [{lo:#x}-{hi:#x}), the node spans [{v['start']:#x}-{v['end']:#x})"
                          f" with memory outside that range")
        if not m.uefi and mib != overlap(m.ranges, lo, hi) >> 20:
            yield "log", f"Faking node {n}: {mib} MiB, the case gives [{lo:#x}-{hi:#x}) {overlap(m.ranges, lo, hi) >> 20} MiB"
        if resv > mib:
            yield "log", f"Faking node {n}: {resv} MiB reserved of {mib} MiB"
        if (f[5] or None) != (str(phys_of.get(n)) if several else None):
            yield "log", (f"Faking node {n}: physical node {f[5] or 'not named'}, the node lies in "
                          f"physical node {phys_of.get(n)}" + ("" if several else " (the only one)"))

    # reserve, log
    for ln in g.lines:
        if BAD.search(ln):
            yield "log", ln.strip()
            break
    if "Malformed early option" in g.text:
        yield "log", "generic 'Malformed early option' message"
    # The 16K UEFI/ACPI kernel carries the KUnit suite, off unless a boot
    # asks: a matrix boot that ran it judged a kernel the case did not name.
    if re.search(r"^\s*(?:\[[^\]]*\]\s*)*(?:KTAP version|# Subtest: )", g.text, re.M):
        yield "log", "KUnit ran at this boot (the matrix's kernels keep it off)"


def got_nodes(g):
    """(start, end) of every node with memory, in address order."""
    return sorted((v["start"], v["end"]) for v in g.nodes.values() if v.get("end", 0) > v.get("start", 0))


def mem_nodes_of(g):
    return {n for n, v in g.nodes.items() if v.get("end", 0) > v.get("start", 0)}


def second_opinion(m, g, mode):
    """Exact layout of a flat machine without CMA pools, or None."""
    if len(m.phys) != 1 or not (mode.startswith("count=") or mode.startswith("size=")):
        return None
    b = model_bounds(m, mode)
    # A CMA area the model's boundaries would cut, or that leaves one of
    # its nodes below the floor, shapes the layout: no opinion then.
    for i in range(len(b) - 1 if b else 0):
        if any(a < b[i] < e for a, e in m.keep) or m.ordinary(b[i], b[i + 1]) < m.floor and len(b) > 2:
            return None
    return b


def model_bounds(m, mode):
    r = m.ranges
    total = overlap(r, 0, 1 << 64)

    if mode.endswith("U"):
        return None
    n = int(mode[6:]) if mode.startswith("count=") else by_size(m, total, mode)
    n = min(n, MAX_NUMNODES, windows(r, m.unit), max(1, m.ordinary(0, 1 << 64) // m.floor))
    while n > 1:
        for align in ([m.block] if total // m.block >= n else []) + [m.unit]:
            b = [r[0][0]]
            for i in range(1, n):
                x = addr_of(r, total * i // n)
                down, up = x // align * align, -(-x // align) * align
                t = total * i // n
                c = down if t - overlap(r, 0, down) <= overlap(r, 0, up) - t else up
                if c <= b[-1]:
                    c = up
                b.append(c)
            b.append(r[-1][1])
            if all(overlap(r, b[i], b[i + 1]) >= m.floor for i in range(n)) and b == sorted(set(b)):
                return b
        n -= 1
    return [r[0][0], r[-1][1]]


def judge(a, text):
    errors = []
    g = Guest(text, PAGE[a.pages])
    m = Machine(a, text)
    if "RIG done" not in text:
        errors.append("guest did not finish")
    # The reservations are read from the early lines: a log whose start
    # was lost (the log buffer overflowed before the console started)
    # cannot be judged.
    if not re.search(r"^\[ *[0-9.]+\] Linux version ", text, re.M):
        errors.append("log lost its start: no 'Linux version' line")
    rest = a.expect.split(None, 1)[1] if len(a.expect.split(None, 1)) > 1 else ""
    mode = a.expect.split()[0]
    # The kselftest's -s is the harness's knowledge for the kselftest; the
    # judge allows imbalance only where the case states it (slack=MIB).
    sl = re.search(r"(?:^|\s)slack=(\d+)", a.expect)
    slack = int(sl.group(1)) * MiB if sl else 0
    for prop, err in properties(m, g, a.expect, slack):
        errors.append(f"{prop}: {err}")
    # A count the harness gives the kselftest (-n) must be the rules' count
    # wherever the rules fix it.
    # -u (boundaries on units where blocks are the rule) only where
    # reservations could leave an even node below its minimum.
    if re.search(r"rig\.args=\S*(?<=[=,])-u(?:,|\s|$)", a.cmdline) and not count_rules(m, a.expect)[4]:
        errors.append("harness: the kselftest is given -u, but no reservation shapes this layout")
    hn = re.search(r"-n,(\d+)(?:-(\d+))?", a.cmdline)
    if hn and (mode == "none" or mode.startswith("count=") or mode.startswith("size=")):
        rule = expected_nodes(m, a.expect)
        given = (int(hn.group(1)), int(hn.group(2) or hn.group(1)))
        # Where the rules give bounds, a count derived by hand
        # (tests/matrix.txt) may narrow them, and a harness range may be
        # wider (the bounds move with what the initramfs takes; the count
        # itself is judged against them above); a fixed count must match.
        inside = rule is not None and rule[0] <= given[0] <= given[1] <= rule[1]
        around = rule is not None and given[0] <= rule[0] <= rule[1] <= given[1] and rule[0] < rule[1]
        if rule is not None and not (inside or around):
            fmt = lambda b: f"{b[0]}" if b[0] == b[1] else f"{b[0]} to {b[1]}"
            errors.append(f"harness: the kselftest is given -n {hn.group(0)[3:]}, the rules give {fmt(rule)} nodes")
    # The imbalance the harness allows the kselftest (-s) is what the case
    # can justify: its reservations (CMA areas, the crash kernel, the device
    # tree's carve-outs), each rounded up to the boundary unit, and one
    # memory block (the coarsest boundary step).
    ra = re.search(r"(?:^|\s)rig\.args=(\S+)", a.cmdline)
    hs = ra.group(1).split(",") if ra else []
    if "-s" in hs[:-1] and hs[hs.index("-s") + 1].isdigit():
        up = lambda x: -(-x // m.unit) * m.unit
        allow = sum(up(sz) for sz, _, _ in m.pools) + up(m.crash) + \
            sum(up(e - s) for s, e in m.carveouts) + m.block
        if int(hs[hs.index("-s") + 1]) * MiB > allow:
            errors.append(f"harness: the kselftest is given -s {hs[hs.index('-s') + 1]}, the case's"
                          f" reservations justify at most {allow // MiB} MiB")
    if not errors:
        want = second_opinion(m, g, mode)
        got = sorted((v["start"], v["end"]) for v in g.nodes.values() if v.get("end", 0) > v.get("start", 0))
        if want is not None:
            # Boundary i lies between the end of node i and the start of
            # node i + 1 (anywhere in a hole between them).
            inner = want[1:-1]
            if len(inner) != len(got) - 1 or any(not (got[i][1] <= b <= got[i + 1][0])
                                                  for i, b in enumerate(inner)):
                fmt = lambda b: " ".join(f"{x:#x}" for x in b)
                errors.append(f"second opinion: nodes {fmt([s for s, _ in got])}, model boundaries {fmt(inner)}")

    if rest.split()[:1] == ["memfill"]:
        per = {int(w[2]): int(w[4]) for w in (ln.split()[1:] for ln in g.lines
               if ln.startswith("RIG memfill node "))}
        if not any(ln.startswith("RIG memfill done") for ln in g.lines):
            errors.append("memfill did not finish: " + next(
                (ln for ln in g.lines if "memfill" in ln and "error" in ln), "killed?"))
        empty = [n for n in g.nodes if not per.get(n)]
        if empty:
            errors.append(f"memfill: no pages on nodes {empty} ({per})")
    phys_of = {n: next((nid for nid, r, _ in m.phys if overlap(r, v["start"], v["end"])), None)
               for n, v in g.nodes.items() if v.get("end", 0) > v.get("start", 0)}
    # numaload: balancing left the workload alone; CPUs spread over the nodes.
    load = next((ln for ln in g.lines if ln.startswith("RIG numaload vmstat")), None)
    if re.search(r"(?:^|\s)quiet(?:\s|$)", rest):
        if not load:
            errors.append("quiet: numaload did not report")
        else:
            busy = [w for w in load.split()[3:] if re.match(r"numa_(hint_faults|pages_migrated|pte_updates)=[1-9]", w)]
            if busy:
                errors.append("balancing was busy: " + " ".join(busy))
    # nomigrate: balancing was active (hint faults) but moved no page, and
    # counted every fault local; the workload runs on the CPUs of one
    # physical node (oncpus.sh), so every move would be between fake nodes
    # of that node.
    if re.search(r"(?:^|\s)nomigrate(?:\s|$)", rest):
        vm = dict(re.findall(r"(numa_\w+)=(\d+)", load or ""))
        if not load:
            errors.append("nomigrate: numaload did not report")
        elif int(vm.get("numa_hint_faults", 0)) == 0:
            errors.append("nomigrate: no NUMA hint faults, balancing was not active")
        elif int(vm.get("numa_pages_migrated", 0)):
            errors.append(f"balancing migrated {vm['numa_pages_migrated']} pages between fake nodes of one physical node")
        elif vm.get("numa_hint_faults_local") != vm["numa_hint_faults"]:
            # A fault on a fake sibling's page is as local as on its own node's.
            errors.append(f"nomigrate: {vm.get('numa_hint_faults_local', 'no')} of {vm['numa_hint_faults']} NUMA hint"
                          " faults counted local, yet every page lies on the workers' physical node")
    # migrate: numaload's workers run on the CPUs of one physical node
    # (oncpus.sh) and placed every page of their buffer on nodes of another
    # (move_pages); balancing brought some back to the workers' node.
    if re.search(r"(?:^|\s)migrate(?:\s|$)", rest):
        vm = dict(re.findall(r"(numa_\w+)=(\d+)", load or ""))
        moved = re.search(r"^RIG numaload moved (\d+) of (\d+) pages over nodes ([\d.]+)$", g.text, re.M)
        line = lambda what: next((ln.split()[3:] for ln in g.lines if ln.startswith(f"RIG numaload {what} ")), [])
        cpu_node = dict(w.split(":") for w in line("cpu-node"))
        home = {phys_of.get(int(cpu_node[c]), -1) for c in line("cpus") if c in cpu_node}
        placed = {phys_of.get(int(n), -1) for n in moved.group(3).split(".")} if moved else set()
        back = sum(int(p) for n, p in (w.split(":") for w in line("pages shared")[1:])
                   if phys_of.get(int(n), -1) in home)
        if not load or not moved or not home:
            errors.append("migrate: numaload did not report")
        elif moved.group(1) != moved.group(2) or placed & home or -1 in placed | home:
            errors.append(f"migrate: the buffer was not all placed on another physical node than its workers'"
                          f" ({moved.group(0)[13:]}; workers on physical nodes {sorted(home)})")
        elif int(vm.get("numa_hint_faults_local", 0)) >= int(vm.get("numa_hint_faults", 0)):
            errors.append(("migrate: no NUMA hint fault" if not int(vm.get("numa_hint_faults", 0)) else
                           f"migrate: every NUMA hint fault counted local ({vm.get('numa_hint_faults_local')} of"
                           f" {vm.get('numa_hint_faults')})") + ", yet the buffer lay on another physical node")
        elif not int(vm.get("numa_pages_migrated", 0)) or not back:
            errors.append(f"migrate: balancing moved no page to the workers' physical node"
                          f" ({int(vm.get('numa_hint_faults', 0))} hint faults,"
                          f" {int(vm.get('numa_pages_migrated', 0))} pages migrated, {back} back)")
    # numactl's own suite: every test passes.
    if re.search(r"(?:^|\s)numactl-suite(?:\s|$)", rest):
        for t, why in numactl_suite(g.text).items():
            if why:
                errors.append(f"numactl {t}: {why}")
    # Memory hot-added to firmware node F lands on node F (the first fake
    # node of that physical node), online; the kselftest passes after it.
    hp = re.search(r"(?:^|\s)hotplug=\w+:(\d+)", rest)
    if hp:
        blocks = re.findall(r"^RIG hotplug (memory\d+) node (\S*) state (\S+)$", g.text, re.M)
        if not blocks:
            errors.append("hotplug: no memory block was added")
        for b, n, st in blocks:
            if n != hp.group(1) or st != "online":
                errors.append(f"hotplug: {b} on node {n or '?'} ({st}), the firmware named node {hp.group(1)}")
        tot = next((ln for ln in g.lines if ln.startswith("KSFTHP # Totals")), "")
        if not re.search(r"(?:^|\s)fail:0\s.*(?:^|\s)error:0\b", tot):
            bad = [ln[7:] for ln in g.lines if ln.startswith("KSFTHP not ok")]
            errors.append("kselftest after hotplug: " + (bad[0] if bad else tot or "no totals"))
    # Two cpusets with disjoint cpuset.mems: each workload's pages stay on
    # its own nodes.
    if re.search(r"(?:^|\s)cpuset(?:\s|$)", rest):
        sets = re.findall(r"^RIG cpuset (\w+) mems (\S+) pages (.*)$", g.text, re.M)
        if len(sets) != 2:
            errors.append("cpuset: " + next((ln for ln in g.lines if "RIG cpuset error" in ln),
                                             f"{len(sets)} cpusets reported"))
        for name, mems, pages in sets:
            allowed = cpus(mems)
            used = {int(p.split(":")[0]) for p in pages.split()}
            if not used or not used <= allowed:
                errors.append(f"cpuset {name}: pages on nodes {sorted(used)}, cpuset.mems {mems}")
    # kthreads: the initramfs, which a kernel thread unpacks, lies on the
    # CPUs' nodes (kernel threads allocate on their local node whatever
    # numa_policy= says): at most 1/64 of the page cache /init finds on a
    # node without CPUs. Only a layout with such a node can tell.
    if re.search(r"(?:^|\s)kthreads(?:\s|$)", rest):
        pc = re.search(r"^RIG pagecache-at-init((?: \d+:\d+)+)$", g.text, re.M)
        per = {int(n): int(kb) for n, kb in (w.split(":") for w in pc.group(1).split())} if pc else {}
        home = {n for ns in g.links.values() for n in ns}
        away = sum(kb for n, kb in per.items() if n not in home)
        if sum(per.values()) < 1024:
            errors.append(f"kthreads: no page cache reported at /init ({pc.group(0) if pc else 'no line'})")
        elif not set(per) - home:
            errors.append(f"kthreads: every node has CPUs, so the check cannot tell ({sorted(per)})")
        elif away * 64 > sum(per.values()):
            errors.append(f"kthreads: {away} of {sum(per.values())} kB of the page cache at /init lie on nodes"
                          f" without CPUs ({pc.group(1).strip()}; CPUs on nodes {sorted(home)})")
    # A PCI device the firmware places on node F reports node F.
    dev = re.search(r"(?:^|\s)device=(\d+)", rest)
    if dev:
        nodes = dict(re.findall(r"^RIG pci (\S+) numa_node (-?\d+)$", g.text, re.M))
        if dev.group(1) not in nodes.values():
            errors.append(f"device: no PCI device on node {dev.group(1)} ({nodes})")
    # getcpu: on every CPU, getcpu() reports the node the CPU links.
    if re.search(r"(?:^|\s)getcpu(?:\s|$)", rest):
        line = next((ln for ln in g.lines if ln.startswith("RIG numaload cpu-node")), "")
        pairs = dict(tuple(map(int, w.split(":"))) for w in line.split()[3:])
        if not pairs or set(pairs) != set(g.links):
            errors.append(f"getcpu: reported for cpus {sorted(pairs)}, links of cpus {sorted(g.links)}")
        for cpu, node in sorted(pairs.items()):
            if g.links.get(cpu) != {node}:
                errors.append(f"getcpu on cpu{cpu} says node {node}, the cpu links {sorted(g.links.get(cpu, ()))}")
    # banks=K: every boundary between two nodes lies within one boundary
    # unit of a bank region's edge, RAM split into K equal regions from
    # its start (the Pi 5 with SDRAM_BANKLOW=1 takes bank[3:1] from the
    # top address bits: K = 8).
    bk = re.search(r"(?:^|\s)banks=(\d+)", rest)
    if bk:
        k = int(bk.group(1))
        lo, span_ = RAM_BASE, size(a.mem)
        edges = [lo + span_ * j // k for j in range(1, k)]
        worst, excused, dists = 0, [], []
        for (_, e0), (s1, _) in zip(got_nodes(g), got_nodes(g)[1:]):
            far = min(max(0, b - s1, e0 - b) for b in edges)
            dists.append(str(far // MiB))
            # A CMA pool over an edge keeps its node: the boundary may
            # then sit on the memory block edge outside the pool that is
            # nearest to the bank region's edge (below the pool or above).
            def nearest(ps, pe, b):
                lo, hi = ps // m.block * m.block, -(-pe // m.block) * m.block
                return lo if b - lo <= hi - b else hi
            at_pool = any(ps < b < pe and max(0, nearest(ps, pe, b) - s1, e0 - nearest(ps, pe, b)) <= m.unit
                          for _, ps, pe in m.pools_at for b in edges)
            if not at_pool:
                worst = max(worst, far)
            elif far:
                excused.append(far // MiB)
            if far > m.unit and not at_pool:
                errors.append(f"banks: the boundary at {e0:#x}-{s1:#x} lies {far // MiB} MiB from a bank "
                              f"region's edge (RAM in {k} regions of {span_ // k // MiB} MiB), "
                              f"more than one unit ({m.unit // MiB} MiB)")
        bank_note = f" banks: distances {','.join(dists)} MiB, largest {worst // MiB} MiB" + \
            (f", at a CMA pool's edge {','.join(map(str, excused))} MiB" if excused else "")
    keys = r"(?:(?:nolog|log|nodes|shares|slack|timeout|hotplug|device|banks)=|(?:quiet|nomigrate|migrate|getcpu|numactl-suite|fallback|cpuset|kthreads)(?:\s|$))"
    for kind, what in re.findall(r"(nolog|log)=(.*?)(?=\s+" + keys + r"|$)", rest):
        hits = [ln for ln in g.lines if what in ln]
        if kind == "log" and len(hits) != 1:
            errors.append(f"expected one log line with {what!r}, found {len(hits)}")
        if kind == "nolog" and hits:
            errors.append(f"unexpected log line: {hits[0].strip()}")

    # The kselftest, when it ran: all its results must pass (or it skipped
    # because numa=fake= is absent).
    ksft = [ln[5:] for ln in g.lines if ln.startswith("KSFT ")]
    if ksft:
        totals = next((ln for ln in ksft if ln.startswith("# Totals")), "")
        if not re.search(r"(?:^|\s)numa=fake", a.cmdline):
            if not any("SKIP" in ln for ln in ksft):
                errors.append("kselftest did not skip without numa=fake=")
        elif not re.search(r"(?:^|\s)fail:0\s.*(?:^|\s)error:0\b", totals):
            bad = [ln for ln in ksft if ln.startswith("not ok")]
            errors.append("kselftest: " + (bad[0] if bad else totals or "no totals"))
    got = sorted((v["start"], v["end"]) for v in g.nodes.values() if v.get("end", 0) > v.get("start", 0))
    summary = f"{len(g.nodes)} nodes " + " ".join(f"{(e - s) // MiB}M" for s, e in got) + \
        (bank_note if bk else "")
    return errors, summary + (" (kselftest passed)" if ksft and "numa=fake" in a.cmdline else "")


def check_sites():
    """Every place in properties() and judge() that reports an error, as
    (line, pattern of the messages it can give: a group for each value)."""
    import ast

    def rx(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return re.escape(node.value)
        if isinstance(node, ast.JoinedStr):
            return "".join(re.escape(v.value) if isinstance(v, ast.Constant) else "(.*?)" for v in node.values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return rx(node.left) + rx(node.right)
        if isinstance(node, ast.IfExp):
            return "(?:" + rx(node.body) + "|" + rx(node.orelse) + ")"
        return "(.*?)"

    sites = []
    for fn in ast.parse(open(os.path.abspath(__file__)).read()).body:
        if not isinstance(fn, ast.FunctionDef) or fn.name not in ("properties", "judge"):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Yield) and isinstance(node.value, ast.Tuple):
                prop, msg = node.value.elts
                pat = re.escape(prop.value + ": ") + rx(msg)
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "append" and \
                    getattr(node.func.value, "id", "") == "errors" and \
                    ast.unparse(node.args[0]) != "f'{prop}: {err}'":
                pat = rx(node.args[0])
            else:
                continue
            sites.append((node.lineno, pat))
    return sites


def selftest():
    """Each property and verdict check fails on a guest report that breaks it."""
    G = 1 << 30
    variants = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dt-variants.txt")
    fw2 = ("-object memory-backend-ram,id=m0,size={a} -numa node,memdev=m0,cpus=0-1 "
           "-object memory-backend-ram,id=m1,size={b} -numa node,memdev=m1,cpus=2-3")

    def case(**kw):
        d = dict(pages="16k", mem="4G", smp="4", dt="-", qemu="", cmdline="numa=fake=4",
                 expect="count=4", variants=variants, arch="arm64")
        d.update(kw)
        return argparse.Namespace(**d)

    def faking(nodes, a=None):
        """The kernel's "Faking node" lines: the memory of each node's span
        (as case a gives it, else the whole span); the physical node of
        each is the lowest of those 10 away from it."""
        mib = (lambda lo, hi: overlap(Machine(a, "").ranges, lo, hi) // MiB) if a else \
            (lambda lo, hi: (hi - lo) // MiB)
        ids = sorted(n[0] for n in nodes)
        at = {n[0]: n for n in nodes}
        near = {n[0]: [ids[j] for j, d in enumerate(n[4].split(",")) if d == "10"] for n in nodes}
        several = len({min(near[i], key=lambda x: at[x][1]) for i in ids}) > 1
        return [f"[    0.000000] NUMA: Faking node {n[0]} at [mem {n[1]:#018x}-{n[2] - 1:#018x}]"
                f" ({mib(n[1], n[2])} MiB, 0 MiB reserved)" +
                (f" on physical node {min(near[n[0]], key=lambda x: at[x][1])}" if several else "")
                for n in sorted(nodes, key=lambda n: n[1])]

    def report(nodes, page=16384, extra=(), memtotal=None, links=None, done=True, late=True, start=True,
               fakes=None, reserved="before"):
        """nodes: (id, start, end, cpus, distances[, present bytes[, kB]]);
        late: the default CMA area's line, at the top below 4 GiB; fakes:
        the "Faking node" lines (by default faking(nodes), with more than
        one node)."""
        out = []
        if late:
            sz = -(-DEFAULT_CMA // CMA_ALIGN[{4096: "4k", 16384: "16k", 65536: "64k"}[page]]) * \
                CMA_ALIGN[{4096: "4k", 16384: "16k", 65536: "64k"}[page]]
            top = min(max(n[2] for n in nodes), DMA_LIMIT)
            extra = [f"cma: Reserved {sz // MiB} MiB at 0x{top - sz:016x}"] + list(extra)
        kbs = []
        for n in nodes:
            nid, st, en, cl, dist = n[:5]
            present = n[5] if len(n) > 5 else en - st
            kb = n[6] if len(n) > 6 else present // 1024 - 4096
            kbs.append(kb)
            out.append(f"RIG node {nid} memtotal {kb} cpulist {cl or '-'} distance {dist}")
            out.append(f"RIG zone node {nid} start_pfn {st // page} end_pfn {en // page} present {present // page}")
        out.insert(0, f"RIG meminfo MemTotal {sum(kbs) if memtotal is None else memtotal}")
        if start:
            out.insert(0, "[    0.000000] Linux version 6.1.0 (rig@rig)")
        if links is None:
            # Every CPU on the first (lowest) node that lists it.
            links = {}
            for n in sorted(nodes, key=lambda n: n[1]):
                for c in cpus(n[3]):
                    links.setdefault(c, [n[0]])
        for c, ns in sorted(links.items()):
            out.append(f"RIG cpu {c} node {','.join(map(str, ns))}")
        # The kernel's own lines (reservations) come before the split's, the
        # CMA area's and crash kernel's too (made before a split), unless
        # reserved=after.
        kernel = [x if x.startswith("[") else "[    0.000000] " + x for x in extra
                  if x.startswith("[") or re.match(r"cma: Reserved|crashkernel reserved", x)]
        fake = faking(nodes) if fakes is None and len(nodes) > 1 else fakes or []
        out += fake + kernel if reserved == "after" else kernel + fake
        return "\n".join(out + [x for x in extra if not x.startswith("[") and
                                 not re.match(r"cma: Reserved|crashkernel reserved", x)] + (["RIG done"] if done else []))

    def flat(k, total=4 * G, cl="0-3", ids=None, sizes=None):
        sizes = sizes or [total // k] * k
        ids = ids or list(range(k))
        out, at = [], G
        for i, sz in zip(ids, sizes):
            out.append((i, at, at + sz, cl if at == G else "", ",".join(["10"] * k)))
            at += sz
        return out

    def two(shares, a=2 * G, b=2 * G, ids=None):
        """Two firmware nodes split into shares[0] and shares[1] nodes."""
        ks = shares[0] + shares[1]
        ids = ids or [0] + list(range(2, 2 + shares[0] - 1)) + [1] + list(range(1 + shares[0], ks))
        spans, at = [], G
        for mem, k, cl in ((a, shares[0], "0-1"), (b, shares[1], "2-3")):
            for j in range(k):
                spans.append((at + mem * j // k, at + mem * (j + 1) // k, "" if j else cl))
            at += mem
        phys = [0] * shares[0] + [1] * shares[1]
        out = []
        order = sorted(range(ks), key=lambda x: ids[x])
        for x in range(ks):
            dist = ",".join("10" if phys[x] == phys[y] else "20" for y in order)
            out.append((ids[x], spans[x][0], spans[x][1], spans[x][2], dist))
        return sorted(out)

    def suite_rcs(**rc):
        return [f"RIG numactl {t} rc {rc.get(t, 0)}" for t in NUMACTL_TESTS]

    ok_ksft = ["KSFT # Totals: pass:11 fail:0 xfail:0 xpass:0 skip:0 error:0"]
    node_data = "[    0.000000] NUMA: NODE_DATA [mem 0x13fffe000-0x13fffffff]"
    zones = "[    0.000000] Initmem setup node 0 [mem 0x0000000040000000-0x000000013fffffff]"
    too_big = "numa=fake=8G ignored: the node size exceeds the memory; booting without NUMA emulation"
    qemu32 = fw2.format(a="3G", b="1G")
    qemu22 = fw2.format(a="2G", b="2G")
    cma_line = "OF: reserved mem: created CMA memory pool at 0x{:x}, size 64 MiB"
    mb = "[    0.000000] memblock_reserve: [0x{:016x}-0x{:016x}] arm64_memblock_init+0x15c/0x1f8"
    ok_mb = [mb.format(G + 2 * MiB, G + 20 * MiB)]
    def load_remote(nodes, shared, migrated, local=30000, faults=40000):
        """numaload siblings on CPUs 0-1, its buffer placed over @nodes."""
        return ["RIG numaload cpu-node 0:0 1:0 2:1 3:1", f"RIG numaload moved 8192 of 8192 pages over nodes {nodes}",
                "RIG numaload cpus 0 1", f"RIG numaload pages shared {shared}",
                f"RIG numaload vmstat numa_hint_faults={faults} numa_hint_faults_local={local}"
                f" numa_pages_migrated={migrated}"]

    good = [
        ("numa=fake=1: the CMA area and crash kernel reserved after its one node, as without the option",
         case(cmdline="numa=fake=1 crashkernel=256M", expect="count=1"),
         report(flat(1), fakes=faking(flat(1)), reserved="after",
                extra=["crashkernel reserved: 0x00000000ee000000 - 0x00000000fe000000 (256 MB)"] + ok_ksft)),
        ("two firmware nodes, balancing brings pages back", case(qemu=qemu22, expect="count=4 migrate"),
         report(two((2, 2)), extra=load_remote("1.3", "0:3000 1:2596 3:2596", 3000))),
        ("fake siblings, balancing active, nothing moved, every fault local", case(expect="count=4 nomigrate"),
         report(flat(4), extra=["RIG numaload vmstat numa_hint_faults=40 numa_hint_faults_local=40 numa_pages_migrated=0"])),
        ("flat count=4", case(), report(flat(4), extra=ok_ksft)),
        ("no option: the CMA area reserved once the zones are set up", case(cmdline="", expect="none"),
         report(flat(1), fakes=[zones], reserved="after")),
        ("a size the split refused: the CMA area reserved before the nodes are registered",
         case(cmdline="numa=fake=8G", expect="none"), report(flat(1), fakes=[node_data], extra=[too_big])),
        ("no option: arch_numa's own fallback line is no 'Faking node' line", case(cmdline="", expect="none"),
         report(flat(1), extra=["[    0.000000] NUMA: Faking a node at [mem 0x0000000040000000-0x000000013fffffff]"])),
        ("two firmware nodes 3G+1G, 3+1", case(qemu=qemu32), report(two((3, 1), 3 * G, G))),
        ("two firmware nodes 2G+2G, 2+2", case(qemu=qemu22), report(two((2, 2)))),
        ("two firmware nodes, cma= in one, crashkernel=",
         case(qemu=qemu22, cmdline="numa=fake=4 cma=512M crashkernel=256M"),
         report(two((2, 2)), late=False, extra=["cma: Reserved 512 MiB at 0x00000000a0000000",
                                                "crashkernel reserved: 0x00000000e0000000 - "
                                                "0x00000000f0000000 (256 MB)"])),
        ("size=1G", case(cmdline="numa=fake=1G", expect="size=1G"), report(flat(4))),
        ("kthreads: the initramfs on the CPUs' node", case(cmdline="numa=fake=4 numa_policy=interleave",
                                                           expect="count=4 kthreads"),
         report(flat(4), extra=["RIG pagecache-at-init 0:14300 1:12 2:0 3:0"])),
        ("64K 1G numa=fake=8: cut to the 2 nodes that fit", case(pages="64k", mem="1G", smp="1",
                                                                  cmdline="numa=fake=8", expect="count=8"),
         report([(0, G, G + 512 * MiB, "0", "10,10"), (1, G + 512 * MiB, 2 * G, "", "10,10")], page=65536,
                late=False, extra=[mb.format(G + 2 * MiB, G + 20 * MiB), mb.format(2 * G - 64 * 1024, 2 * G),
                                   "cma: Failed to reserve 512 MiB",
                                   "numa=fake=8: 8 nodes requested, 2 granted: nodes would be smaller than the"
                                   " boundary unit or the minimum node size (16 node ids, nodes of at least 32 MiB)"])),
        ("numa=fake=32: cut to the 16 node ids", case(cmdline="numa=fake=32", expect="count=32"),
         report(flat(16), extra=["numa=fake=32: 32 nodes requested, 16 granted: more than MAX_NUMNODES allows"
                                 " (16 node ids, nodes of at least 32 MiB)"])),
        ("64K 2G numa=fake=4: the 512M CMA area merges the last two", case(pages="64k", mem="2G", smp="1",
                                                                             expect="count=4 nodes=3"),
         report([(0, G, G + 512 * MiB, "0", "10,10,10"), (1, G + 512 * MiB, 2 * G, "", "10,10,10"),
                 (2, 2 * G, 3 * G, "", "10,10,10")], page=65536, extra=[
                     "numa=fake=4: physical node 0 gets 3 nodes instead of 4: its memory cannot be split"
                     " that finely (nodes keep 32 MiB that is not reserved)"])),
        ("Pi 5 CMA pool inside node 0", case(dt="cma-pi5"),
         report(flat(4), extra=[cma_line.format(G + 960 * MiB)])),
        ("64K 1G: no free 512M window for the default CMA area", case(pages="64k", mem="1G", smp="1",
                                                                      cmdline="numa=fake=2", expect="count=2"),
         report([(0, G, G + 512 * MiB, "0", "10,10"), (1, G + 512 * MiB, 2 * G, "", "10,10")],
                page=65536, late=False,
                extra=[mb.format(G + 2 * MiB, G + 20 * MiB), mb.format(2 * G - 64 * 1024, 2 * G),
                       "cma: Failed to reserve 512 MiB"])),
        ("Pi 5 map, 6.1's 320M pool over the first eighth: its node ends a block below it",
         case(dt="pi5-map-61", cmdline="numa=fake=8", expect="count=8 banks=8 slack=256"),
         report(flat(8, sizes=[384 * MiB, 640 * MiB] + [512 * MiB] * 6),
                extra=[cma_line.replace("64 MiB", "320 MiB").format(G + 416 * MiB)],
                fakes=faking(flat(8, sizes=[384 * MiB, 640 * MiB] + [512 * MiB] * 6), case(dt="pi5-map-61")))),
        ("Pi 5 map, banks=8: boundaries on the eighths", case(dt="pi5-map", cmdline="numa=fake=8",
                                                           expect="count=8 banks=8"),
         report(flat(8), extra=[cma_line.format(G + 928 * MiB)], fakes=faking(flat(8), case(dt="pi5-map")))),
        ("numactl-suite: every test passes", case(expect="count=4 numactl-suite"),
         report(flat(4), extra=suite_rcs() + ["NUMACTL checktopology: Skipping cpu less node1"])),
    ]
    bad = [
        ("count", "count", case(), report(flat(3, sizes=[2 * G, G, G]))),
        ("count: firmware split 3G+1G as 2+2", "count", case(qemu=qemu32), report(two((2, 2), 3 * G, G))),
        ("count: firmware split 2G+2G as 3+1", "count", case(qemu=qemu22), report(two((3, 1)))),
        ("count: 2U as 3+1", "count", case(qemu=qemu22, cmdline="numa=fake=2U", expect="count=2U"),
         report(two((3, 1)))),
        ("count: size mode, room for one more node", "count", case(cmdline="numa=fake=1G", expect="size=1G"),
         report(flat(3, sizes=[G, G, 2 * G]))),
        ("spread: size mode, a node below the size", "spread", case(cmdline="numa=fake=1G", expect="size=1G"),
         report(flat(4, sizes=[512 * MiB, 1536 * MiB, G, G]))),
        ("spread: size mode, a node a step above the size", "spread",
         case(cmdline="numa=fake=1G", expect="size=1G"),
         report(flat(3, sizes=[1152 * MiB, G, 1920 * MiB]))),
        ("nothing lost: spans", "nothing lost", case(),
         report(flat(4)[:3] + [(3, 4 * G, 5 * G - 256 * MiB, "0-3", "10,10,10,10")])),
        ("nothing lost: present pages missing from a node", "nothing lost", case(),
         report([n if n[0] != 3 else n + (G - 256 * MiB,) for n in flat(4)])),
        ("bounds", "bounds", case(), report(flat(4, sizes=[G + 16 * MiB, G - 16 * MiB, G, G]))),
        ("spread", "spread", case(), report(flat(4, sizes=[512 * MiB, 1536 * MiB, G, G]))),
        ("ids: first node of a physical node", "ids", case(), report(flat(4, ids=[1, 0, 2, 3]))),
        ("ids: extra ids not in address order", "ids", case(), report(flat(4, ids=[0, 2, 1, 3]))),
        ("ids: second firmware node renumbered", "ids", case(qemu=qemu22),
         report(two((2, 2), ids=[0, 1, 2, 3]))),
        ("cpus: cpulist", "cpus", case(), report([(0, G, 2 * G, "0-2", "10,10,10,10")] + flat(4)[1:])),
        ("cpus: a sibling lists the CPUs too (x86's layout)", "cpus", case(),
         report([(n[0], n[1], n[2], "0-3", n[4]) for n in flat(4)])),
        ("cpus: CPUs listed by their own node only, spread", "cpus", case(),
         report([(n[0], n[1], n[2], str(n[0]), n[4]) for n in flat(4)])),
        ("cpus: second physical node's CPUs on its second node", "cpus", case(qemu=qemu22),
         report([(n[0], n[1], n[2], {2: "", 3: "2-3"}.get(n[0], n[3]), n[4]) for n in two([2, 2])])),
        ("cpus: two links", "cpus", case(), report(flat(4), links={c: [0, 1] for c in range(4)})),
        ("cpus: a CPU on a later fake node", "cpus", case(),
         report(flat(4), links={0: [0], 1: [1], 2: [0], 3: [0]})),
        ("cpus: a CPU linked to a node that does not list it", "cpus", case(qemu=qemu22),
         report(two([2, 2]), links={0: [1], 1: [0], 2: [1], 3: [1]})),
        ("distance", "distance", case(), report(flat(4)[:3] + [(3, 4 * G, 5 * G, "0-3", "10,10,10,20")])),
        ("log: warning", "log", case(), report(flat(4), extra=["WARNING: CPU: 0 PID: 1 at mm/page_alloc.c"])),
        ("floor", "floor", case(pages="4k", mem="256M", smp="1", expect="count=16", cmdline="numa=fake=16"),
         report([(i, G + i * 16 * MiB, G + (i + 1) * 16 * MiB, "0", ",".join(["10"] * 16)) for i in range(16)],
                page=4096)),
        ("reserve: the default CMA area missing", "reserve", case(), report(flat(4), late=False)),
        ("reserve: the default CMA area failed with a window free", "reserve",
         case(pages="64k", mem="1G", smp="1", cmdline="numa=fake=2", expect="count=2"),
         report([(0, G, G + 512 * MiB, "0", "10,10"), (1, G + 512 * MiB, 2 * G, "", "10,10")],
                page=65536, late=False, extra=ok_mb + ["cma: Failed to reserve 512 MiB"])),
        ("floor: a reservation memblock logged leaves a node 16 MiB", "floor", case(),
         report(flat(4), extra=[mb.format(2 * G, 3 * G - 16 * MiB - 1)])),
        ("reserve: more reserved before the split than a kernel takes", "the case does not explain",
         case(), report(flat(4), extra=[mb.format(2 * G, 2 * G + 40 * MiB - 1)])),
        ("reserve: Failed to reserve", "reserve", case(),
         report(flat(4), extra=["cma: Failed to reserve 16 MiB"])),
        ("reserve: CMA pool of the device tree missing", "reserve", case(dt="cma-pi5"), report(flat(4))),
        ("reserve: crash kernel missing", "reserve", case(cmdline="numa=fake=4 crashkernel=256M"),
         report(flat(4))),
        ("reserve: crash kernel of another size", "reserve", case(cmdline="numa=fake=4 crashkernel=256M"),
         report(flat(4), extra=["crashkernel reserved: 0x00000000e0000000 - 0x00000000e8000000 (128 MB)"])),
        ("reserve: crash kernel across two nodes", "reserve", case(cmdline="numa=fake=4 crashkernel=256M"),
         report(flat(4), extra=["crashkernel reserved: 0x00000000b8000000 - 0x00000000c8000000 (256 MB)"])),
        ("reserve: CMA pool across two firmware nodes", "reserve",
         case(qemu=qemu22, cmdline="numa=fake=4 cma=1280M"),
         report(two((2, 2)), late=False, extra=["cma: Reserved 1280 MiB at 0x00000000b0000000"])),
        ("reserve: CMA pool across two nodes", "reserve", case(dt="cma-straddle"),
         report(flat(4), extra=[cma_line.format(G + 992 * MiB)])),
        ("second opinion", "second opinion", case(cmdline="numa=fake=3", expect="count=3"),
         report(flat(3, sizes=[1280 * MiB, 1408 * MiB, 1408 * MiB]))),
        ("guest did not finish", "guest did not finish", case(), report(flat(4), done=False)),
        ("log lost its start", "log lost its start", case(), report(flat(4), start=False)),
        ("harness: -n against the rules", "harness", case(cmdline="numa=fake=4 rig.args=-n,3"),
         report(flat(4))),
        ("spread: a boundary moved to a CMA area that no even boundary falls in", "spread", case(),
         report([(0, G, 2 * G + 256 * MiB, "0-3", "10,10,10,10"), (1, 2 * G + 256 * MiB, 3 * G, "", "10,10,10,10"),
                 (2, 3 * G, 4 * G, "", "10,10,10,10"), (3, 4 * G, 5 * G, "", "10,10,10,10")], late=False,
                extra=[f"cma: Reserved 32 MiB at {2 * G + 256 * MiB:#018x}"])),
        ("harness: -s that nothing in the case justifies", "reservations justify at most 160",
         case(cmdline="numa=fake=4 rig.args=-S,-s,1024"), report(flat(4))),
        ("floor: a node that is all CMA", "floor", case(pages="64k", mem="2G", smp="1"),
         report([(i, G + i * 512 * MiB, G + (i + 1) * 512 * MiB, "0", "10,10,10,10") for i in range(4)],
                page=65536)),
        ("log= line missing", "expected one log line", case(expect="count=4 log=numa=fake=4 replaces"),
         report(flat(4))),
        ("nolog= line present", "unexpected log line", case(expect="count=4 nolog=Enabling automatic"),
         report(flat(4), extra=["Enabling automatic NUMA balancing."])),
        ("kselftest failed", "kselftest", case(),
         report(flat(4), extra=["KSFT not ok 4 balance", "KSFT # Totals: pass:10 fail:1 xfail:0 xpass:0 skip:0 error:0"])),
        ("kselftest without numa=fake= did not skip", "kselftest did not skip", case(cmdline="", expect="none"),
         report(flat(1), extra=ok_ksft)),
        ("hotplug: the kselftest fails after it", "kselftest after hotplug",
         case(qemu=qemu22, expect="count=4 hotplug=mem1:1"),
         report(two((2, 2)), extra=["RIG hotplug memory40 node 1 state online",
                                    "KSFTHP not ok 12 default policy",
                                    "KSFTHP # Totals: pass:11 fail:1 xfail:0 xpass:0 skip:0 error:0"])),
        ("hotplug: memory on the wrong node", "hotplug", case(qemu=qemu22, expect="count=4 hotplug=mem1:1"),
         report(two((2, 2)), extra=["RIG hotplug memory40 node 0 state online"] + ["KSFTHP " + ok_ksft[0][5:]])),
        ("device: on the wrong node", "device", case(qemu=qemu22, expect="count=4 device=1"),
         report(two((2, 2)), extra=["RIG pci 0000:01:00.0 numa_node 0"])),
        ("memfill: a node without pages", "memfill", case(expect="count=4 memfill"),
         report(flat(4), extra=[f"RIG memfill node {i} pages 100" for i in range(3)] + ["RIG memfill done"])),
        ("quiet: balancing busy", "balancing was busy", case(expect="count=4 quiet"),
         report(flat(4), extra=["RIG numaload vmstat numa_hint_faults=12 numa_pages_migrated=0"])),
        ("nomigrate: pages moved", "migrated 12 pages", case(expect="count=4 nomigrate"),
         report(flat(4), extra=["RIG numaload vmstat numa_hint_faults=40 numa_pages_migrated=12"])),
        ("nomigrate: a fault on a fake sibling not local", "30 of 40 NUMA hint faults counted local",
         case(expect="count=4 nomigrate"),
         report(flat(4), extra=["RIG numaload vmstat numa_hint_faults=40 numa_hint_faults_local=30 numa_pages_migrated=0"])),
        ("migrate: faults on the other physical node local", "every NUMA hint fault counted local",
         case(qemu=qemu22, expect="count=4 migrate"),
         report(two((2, 2)), extra=load_remote("1.3", "0:3000 1:2596 3:2596", 3000, local=40000))),
        ("migrate: no hint fault on the other physical node's pages", "no NUMA hint fault, yet",
         case(qemu=qemu22, expect="count=4 migrate"),
         report(two((2, 2)), extra=load_remote("1.3", "0:3000 1:2596 3:2596", 3000, local=0, faults=0))),
        ("migrate: no page moved", "balancing moved no page", case(qemu=qemu22, expect="count=4 migrate"),
         report(two((2, 2)), extra=load_remote("1.3", "1:4096 3:4096", 0))),
        ("migrate: pages moved elsewhere", "balancing moved no page", case(qemu=qemu22, expect="count=4 migrate"),
         report(two((2, 2)), extra=load_remote("1.3", "1:6000 3:2192", 1904))),
        ("migrate: buffer on the workers' physical node", "not all placed", case(qemu=qemu22, expect="count=4 migrate"),
         report(two((2, 2)), extra=load_remote("0.2", "0:4096 2:4096", 10))),
        ("migrate: no report", "migrate: numaload did not report", case(qemu=qemu22, expect="count=4 migrate"),
         report(two((2, 2)))),
        ("nomigrate: balancing idle", "not active", case(expect="count=4 nomigrate"),
         report(flat(4), extra=["RIG numaload vmstat numa_hint_faults=0 numa_pages_migrated=0"])),
        ("getcpu: a node other than the link", "getcpu", case(expect="count=4 getcpu"),
         report(flat(4), extra=["RIG numaload cpu-node 0:0 1:1 2:0 3:0"])),
        ("getcpu: a CPU not reported", "getcpu", case(expect="count=4 getcpu"),
         report(flat(4), extra=["RIG numaload cpu-node 0:0 1:0 2:0"])),
        ("cpuset: pages outside cpuset.mems", "cpuset", case(expect="count=4 cpuset"),
         report(flat(4), extra=["RIG cpuset a mems 0-1 pages 0:10 2:5", "RIG cpuset b mems 2-3 pages 2:10"])),
        ("banks: a boundary a block off its bank region", "banks",
         case(dt="pi5-map", cmdline="numa=fake=4", expect="count=4 banks=8 slack=512"),
         report(flat(4, sizes=[G + 128 * MiB, G - 128 * MiB, G, G]), extra=[cma_line.format(G + 928 * MiB)])),
        ("banks: a pool over an eighth, the boundary two blocks below it", "banks",
         case(dt="pi5-map-61", cmdline="numa=fake=8", expect="count=8 banks=8 slack=512"),
         report(flat(8, sizes=[256 * MiB, 768 * MiB] + [512 * MiB] * 6),
                extra=[cma_line.replace("64 MiB", "320 MiB").format(G + 416 * MiB)])),
        ("banks: a pool over an eighth, the boundary on the block above it (farther)", "banks",
         case(dt="pi5-map-61", cmdline="numa=fake=8", expect="count=8 banks=8 slack=512"),
         report(flat(8, sizes=[768 * MiB, 256 * MiB] + [512 * MiB] * 6),
                extra=[cma_line.replace("64 MiB", "320 MiB").format(G + 416 * MiB)])),
        ("numactl-suite: checkaffinity fails", "checkaffinity", case(expect="count=4 numactl-suite"),
         report(flat(4), extra=suite_rcs(checkaffinity=1) + [
             "NUMACTL checkaffinity: --show doesn't agree with cpunodebind for node 1"])),
        ("numactl-suite: checktopology fails", "checktopology", case(expect="count=4 numactl-suite"),
         report(flat(4), extra=suite_rcs(checktopology=1) + [
             "NUMACTL checktopology: node3 doesn't have cpu 0"])),
        ("numactl-suite: a test failed", "numactl", case(expect="count=4 numactl-suite"),
         report(flat(4), extra=suite_rcs(distance=1))),
    ]
    # Three firmware nodes of 3, 2 and 2 GiB; a memory-less fourth.
    fw3 = fw2.format(a="3G", b="2G") + " -object memory-backend-ram,id=m2,size=2G -numa node,memdev=m2"
    rv = [(n[0], n[1] + G, n[2] + G, n[3], n[4]) for n in two((2, 2))]
    bad += [
        ("nothing lost: a node over two physical nodes", "holds memory of physical nodes", case(qemu=qemu22),
         report([n if n[0] not in (1, 2) else (n[0], 3 * G + G // 2, 4 * G, n[3], n[4]) if n[0] == 1 else
                 (n[0], 2 * G, 3 * G + G // 2, n[3], n[4]) for n in two((2, 2))])),
        ("ids: a memory-less firmware node gone", "memory-less firmware node 2 is gone",
         case(qemu=qemu22.replace("cpus=2-3", "cpus=2") + " -numa node,nodeid=2,cpus=3"),
         report(two((2, 2), ids=[0, 3, 1, 4]))),
        ("count: a physical node the reservations leave alone is short", "the rules give 3 on node 1",
         case(pages="4k", qemu=qemu32, cmdline="numa=fake=3U cma=2944M", expect="count=3U"),
         report(two((3, 2), 3 * G, G), page=4096, late=False,
                extra=[f"cma: Reserved 2944 MiB at {4 * G - 2944 * MiB:#018x}"])),
        ("count: more nodes than the most the reservations allow", "the rules give at most 3",
         case(qemu=qemu22, cmdline="numa=fake=3 cma=1024M", expect="count=3"),
         report(two((2, 2)), late=False, extra=[f"cma: Reserved 1024 MiB at {3 * G:#018x}"])),
        ("count: shares that do not make the largest node smallest", "the rules give one of",
         case(mem="7G", qemu=fw3, cmdline="numa=fake=5", expect="count=5"),
         report([(0, G, 4 * G, "0-1", "10,20,20,20,20"), (1, 4 * G, 5 * G, "2-3", "20,10,20,10,20"),
                 (3, 5 * G, 6 * G, "", "20,10,20,10,20"), (2, 6 * G, 7 * G, "", "20,20,10,20,10"),
                 (4, 7 * G, 8 * G, "", "20,20,10,20,10")])),
        ("nothing lost: no nodes reported", "guest reported no meminfo or nodes", case(),
         "[    0.000000] Linux version 6.1.0 (rig@rig)\nRIG done"),
        ("bounds: two nodes overlap", "nodes 0 and 1 overlap", case(),
         report([(0, G, 2 * G + 32 * MiB, "0-3", "10,10,10,10")] + flat(4)[1:])),
        ("cpus: riscv64, a node with a CPU too many", "lists 3 cpus, expected 2",
         case(arch="riscv64", pages="4k", qemu=qemu22),
         report([(n[0], n[1], n[2], "0-2" if n[3] == "0-1" else n[3], n[4]) for n in rv], page=4096, late=False)),
        ("log: the generic message of a refused option", "Malformed early option", case(),
         report(flat(4), extra=["Malformed early option 'numa'"])),
        ("log: KUnit ran at a matrix boot", "KUnit ran at this boot", case(),
         report(flat(4), extra=["[    1.250000]     KTAP version 1", "[    1.250001]     # Subtest: numa_emulation"])),
        ("log: KUnit ran at a matrix boot (no timestamps)", "KUnit ran at this boot", case(),
         report(flat(4), extra=["    # Subtest: numa_emulation"])),
        ("harness: -u where nothing shapes the layout", "is given -u", case(cmdline="numa=fake=4 rig.args=-S,-u"),
         report(flat(4))),
        ("memfill: it did not finish", "memfill did not finish", case(expect="count=4 memfill"),
         report(flat(4), extra=[f"RIG memfill node {i} pages 100" for i in range(4)])),
        ("quiet: no report", "quiet: numaload did not report", case(expect="count=4 quiet"), report(flat(4))),
        ("nomigrate: no report", "nomigrate: numaload did not report", case(expect="count=4 nomigrate"),
         report(flat(4))),
        ("hotplug: nothing added", "no memory block was added", case(qemu=qemu22, expect="count=4 hotplug=mem1:1"),
         report(two((2, 2)), extra=["KSFTHP " + ok_ksft[0][5:]])),
        ("kthreads: the initramfs interleaved", "lie on nodes without CPUs", case(expect="count=4 kthreads"),
         report(flat(4), extra=["RIG pagecache-at-init 0:3600 1:3580 2:3580 3:3580"])),
        ("kthreads: no page cache line", "kthreads: no page cache", case(expect="count=4 kthreads"),
         report(flat(4))),
        ("kthreads: every node has CPUs", "the check cannot tell", case(expect="count=4 kthreads"),
         report(flat(4), links={c: [c] for c in range(4)}, extra=["RIG pagecache-at-init 0:3600 1:3580 2:3580 3:3580"])),
        ("cpuset: its setup failed", "cpuset: RIG cpuset error", case(expect="count=4 cpuset"),
         report(flat(4), extra=["RIG cpuset error: cannot write cpuset.mems"])),
    ]
    fk = faking(flat(4))
    bad += [
        ("count: a physical node below the bounds its reservations allow", "the rules allow 2 to 3",
         case(pages="4k", qemu=qemu32, cmdline="numa=fake=3U cma=2944M", expect="count=3U"),
         report(two((1, 3), 3 * G, G), page=4096, late=False,
                extra=[f"cma: Reserved 2944 MiB at {4 * G - 2944 * MiB:#018x}"])),
        ("log: a node without its 'Faking node' line", "'Faking node' lines for nodes [0, 1, 2]", case(),
         report(flat(4), fakes=fk[:3])),
        ("log: no 'Faking node' line at all", "no 'Faking node' line", case(), report(flat(4), fakes=[])),
        ("reserve: a split with the CMA area reserved once the nodes exist", "the default CMA area is reserved after the split",
         case(), report(flat(4), reserved="after")),
        ("reserve: no option, the CMA area reserved before the zones are set up", "before the zones are set up",
         case(cmdline="", expect="none"), report(flat(1), fakes=[zones])),
        ("reserve: a size the split refused, the CMA area reserved once the nodes are registered",
         "after the nodes are registered", case(cmdline="numa=fake=8G", expect="none"),
         report(flat(1), fakes=[node_data], reserved="after", extra=[too_big])),
        ("reserve: numa=fake=1 with the crash kernel reserved before its node", "the crash kernel is reserved before the split",
         case(cmdline="numa=fake=1 crashkernel=256M", expect="count=1"),
         report(flat(1), fakes=faking(flat(1)), reserved="before",
                extra=["crashkernel reserved: 0x00000000ee000000 - 0x00000000fe000000 (256 MB)"])),
        ("log: a 'Faking node' line where the option was refused", "yet the case asks for no emulation",
         case(cmdline="numa=fake=0", expect="none"), report(flat(1), fakes=faking(flat(1)))),
        ("log: a 'Faking node' range that does not hold the node", "with memory outside that range", case(),
         report(flat(4), fakes=fk[:1] + [fk[1].replace("0x00000000bfffffff", "0x00000000beffffff")] + fk[2:])),
        ("log: a 'Faking node' line with the wrong memory", "the case gives", case(),
         report(flat(4), fakes=[fk[0].replace("(1024 MiB", "(1008 MiB")] + fk[1:])),
        ("log: more reserved than the node has", "MiB reserved of", case(),
         report(flat(4), fakes=[fk[0].replace("0 MiB reserved", "2048 MiB reserved")] + fk[1:])),
        ("log: a 'Faking node' line naming the wrong physical node", "the node lies in physical node",
         case(qemu=qemu22), report(two((2, 2)), fakes=[ln.replace("on physical node 1", "on physical node 0")
                                                       for ln in faking(two((2, 2)))])),
    ]
    granted = "numa=fake=8: 8 nodes requested, {} granted: more than MAX_NUMNODES allows (16 node ids, nodes of at least 32 MiB)"
    bad += [
        ("log: a cut line with the wrong request", "the command line asks for 4", case(),
         report(flat(4), extra=[granted.format(4)])),
        ("log: a cut line that cuts nothing", "nothing was cut", case(),
         report(flat(4), extra=[granted.replace("8 nodes", "4 nodes").format(4)])),
        ("log: a request the rules cut, without its 'granted' line", "no 'granted' line, yet the rules cut",
         case(cmdline="numa=fake=32", expect="count=32"), report(flat(16))),
        ("log: a granted line with the wrong node ids", "the rules give 16 and 32",
         case(cmdline="numa=fake=32", expect="count=32"),
         report(flat(16), extra=[granted.replace("8 nodes", "32 nodes").replace("16 node ids", "15 node ids").format(16)])),
        ("log: a granted line without its figures", "gives no reason or figures",
         case(cmdline="numa=fake=32", expect="count=32"),
         report(flat(16), extra=["numa=fake=32: 32 nodes requested, 16 granted"])),
        ("log: a granted line naming a cap that does not hold", "no such cap holds",
         case(cmdline="numa=fake=32", expect="count=32"),
         report(flat(16), extra=[granted.replace("8 nodes", "32 nodes").format(16)
                                 .replace("more than MAX_NUMNODES allows", "fewer than the physical nodes")])),
        ("log: a node missing without a line", "the log accounts for 4", case(expect="count=4 nodes=3"),
         report(flat(3, sizes=[1408 * MiB, 1344 * MiB, 1344 * MiB]))),
        ("log: a physical node's line with the wrong count", "the log says physical node 0 gets 2 nodes",
         case(expect="count=4 nodes=3"),
         report(flat(3, sizes=[1408 * MiB, 1344 * MiB, 1344 * MiB]), extra=[
             "numa=fake=4: physical node 0 gets 2 nodes instead of 4: its memory cannot be split that finely"])),
    ]
    failed = []
    sites = check_sites()
    fired = {}
    for name, a, text in good:
        errs, _ = judge(a, text)
        print(f"{'passes' if not errs else 'REJECTED'}: {name}{': ' + '; '.join(errs) if errs else ''}")
        if errs:
            failed.append(name)
    for name, want, a, text in bad:
        errs, _ = judge(a, text)
        hit = [e for e in errs if e.startswith(want) or want in e]
        for e in hit:
            # The check whose message this is: of those whose pattern it
            # matches, the one whose values take the fewest characters.
            at = min(((len("".join(g for g in mt.groups() if g)), n) for n, mt in
                      ((n, re.fullmatch(pat, e, re.S)) for n, pat in sites) if mt), default=None)
            if at:
                fired.setdefault(at[1], name)
        print(f"{'caught' if hit else 'MISSED'}: {name}: {hit[0] if hit else errs}")
        if not hit:
            failed.append(name)
    # Every place that reports an error must have fired on some report
    # above: a check added without a report that breaks it is seen here.
    for n, pat in sorted(sites):
        print(f"{'fired' if n in fired else 'NEVER FIRED'}: judge.py line {n}: {fired.get(n, pat)}")
        if n not in fired:
            failed.append(f"line {n}")
    if failed:
        print("checks that did not behave: " + ", ".join(failed))
        return 1
    print(f"{len(good)} good layouts pass; each of the {len(sites)} checks fires on a report that breaks it"
          f" ({len(bad)} reports)")
    return 0


def main():
    ap = argparse.ArgumentParser()
    for opt in ("log", "pages", "mem", "smp", "dt", "qemu", "cmdline", "expect", "variants"):
        ap.add_argument("--" + opt, default="")
    ap.add_argument("--arch", default="arm64")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--expected", action="store_true",
                    help="print the node count (or LEAST-MOST) the rules give the case (nothing if they do not)")
    a = ap.parse_args()
    if a.selftest:
        sys.exit(selftest())
    if a.expected:
        # The kernel's own reservations come from a boot's log (--log).
        m = Machine(a, open(a.log, errors="replace").read() if a.log else "")
        n = expected_nodes(m, a.expect) if a.expect.split()[0] in ("none",) or \
            a.expect.startswith("count=") else None
        if n is not None:
            print(n[0] if n[0] == n[1] else f"{n[0]}-{n[1]}")
        return
    errors, summary = judge(a, open(a.log, errors="replace").read())
    if errors:
        print("; ".join(errors))
        sys.exit(1)
    print("ok: " + summary)


if __name__ == "__main__":
    main()
