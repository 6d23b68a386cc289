#!/usr/bin/env python3
"""Judge one boot: compare what the guest reported with the layout the
rules give for its memory map, page size and command line.

The expected layout is computed here from the documented rules, not from
the code under test:
  * memory: QEMU virt RAM starts at 1 GiB; a device tree variant may leave
    holes (tests/dt-variants.txt); mem= truncates; "-numa node,memdev=" makes
    physical nodes of consecutive memory.
  * boundary unit: largest buddy block = pageblock (4K: 4 MiB, 16K: 32 MiB,
    64K: 512 MiB); memory block: 128 MiB (4K, 16K), 512 MiB (64K).
  * numa=fake=N: N capped at 16 (MAX_NUMNODES) and at memory/unit, at least
    one per physical node, shared among physical nodes by their memory
    (D'Hondt); within one, boundary i at the multiple of the alignment whose
    usable memory below is nearest to i/N of the node's memory (lower on a
    tie); the alignment is the memory block when the memory holds at least
    N blocks, the unit otherwise. A boundary inside a CMA pool moves to the
    nearer aligned edge of the pool.
  * numa=fake=S: S rounded up to the unit; nodes of at least S of memory,
    the last one takes the remainder (a remainder under one unit stays with
    the node before), at most 16 nodes; a boundary in a CMA pool moves up.
  * every fake node lists the CPUs of its physical node; distances are 10
    within a physical node, the firmware's between them (QEMU: 20).
Prints "ok: ..." or the reasons for failure; exit status 0 or 1.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dtvariant  # noqa: E402

MiB = 1 << 20
RAM_BASE = 1 << 30
MAX_NUMNODES = 16
UNIT = {"4k": 4 * MiB, "16k": 32 * MiB, "64k": 512 * MiB}
BLOCK = {"4k": 128 * MiB, "16k": 128 * MiB, "64k": 512 * MiB}
PAGE = {"4k": 4096, "16k": 16384, "64k": 65536}
BAD = re.compile(r"WARNING:|BUG:|Oops|Kernel panic|Call trace|could not be activated"
                 r"|Out of memory|oom-kill")
size = dtvariant.size


def below(ranges, addr):
    return sum(min(e, addr) - s for s, e in ranges if s < addr)


def cut(keep, b):
    return next(((s, e) for s, e in keep if s < b < e), None)


def split_count(ranges, n, align, keep):
    total = below(ranges, 1 << 64)
    hi = ranges[-1][1]
    bounds = [ranges[0][0]]
    for i in range(1, n):
        target = total * i // n
        acc, x = 0, hi
        for s, e in ranges:        # lowest address with target bytes below
            if target <= acc + e - s:
                x = s + target - acc
                break
            acc += e - s
        down, up = x // align * align, -(-x // align) * align
        b = down if target - below(ranges, down) <= below(ranges, up) - target else up
        if b <= bounds[-1]:
            b = up
        for _ in range(len(keep) + 1):
            k = cut(keep, b)
            if not k:
                break
            d, u = k[0] // align * align, -(-k[1] // align) * align
            b = d if (abs(below(ranges, d) - target) <= abs(below(ranges, u) - target)
                      and not cut(keep, d)) else u
        else:
            return None
        if b <= bounds[-1] or b >= hi:
            return None
        bounds.append(b)
    bounds.append(hi)
    if any(below(ranges, bounds[i + 1]) == below(ranges, bounds[i]) for i in range(n)):
        return None
    return bounds


def plan_count(ranges, n, pages, keep):
    total = below(ranges, 1 << 64)
    n = min(n, total // UNIT[pages])
    while n > 1:
        if total // BLOCK[pages] >= n:
            b = split_count(ranges, n, BLOCK[pages], keep)
            if b:
                return b
        b = split_count(ranges, n, UNIT[pages], keep)
        if b:
            return b
        n -= 1
    return [ranges[0][0], ranges[-1][1]]


def plan_size(ranges, s, pages, keep, room):
    unit = UNIT[pages]
    s = -(-s // unit) * unit
    total, hi = below(ranges, 1 << 64), ranges[-1][1]
    bounds = [ranges[0][0]]
    while len(bounds) < room:
        used = below(ranges, bounds[-1])
        if total - used <= s:
            break
        acc, x = 0, hi
        for a, e in ranges:
            if used + s <= acc + e - a:
                x = a + used + s - acc
                break
            acc += e - a
        b = -(-x // unit) * unit
        while cut(keep, b):
            b = -(-cut(keep, b)[1] // unit) * unit
        if b >= hi or total - below(ranges, b) < unit:
            break
        bounds.append(b)
    return bounds + [hi]


def dhondt(mem, count):
    share = [1] * len(mem)
    for _ in range(count - len(mem)):
        best = max(range(len(mem)), key=lambda i: (mem[i] / (share[i] + 1), -i))
        share[best] += 1
    return share


def cpus(text):
    out = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def fake_value(cmdline):
    vals = re.findall(r"(?:^|\s)numa=fake(?:=(\S*))?", cmdline)
    return vals


def expected(a, text):
    """Expected fake nodes: list of (ranges, cpus, phys index)."""
    changes = dtvariant.load(a.variants).get(a.dt, {}) if a.dt != "-" else {}
    mem = size(a.mem)
    ranges = dtvariant.usable(changes, mem)
    m = re.search(r"(?:^|\s)mem=(\S+)", a.cmdline)
    if m:
        cap = RAM_BASE + size(m.group(1))
        ranges = [(s, min(e, cap)) for s, e in ranges if s < cap]
    keep = [(int(b, 16), int(b, 16) + int(sz) * MiB) for b, sz in
            re.findall(r"created CMA memory pool at (0x[0-9a-f]+), size (\d+) MiB", text)]

    # Physical nodes from -numa, else one with every CPU.
    phys = []
    addr = RAM_BASE
    backends = dict(re.findall(r"memory-backend-ram,id=(\w+),size=(\w+)", a.qemu))
    for mid, cp in re.findall(r"-numa node,memdev=(\w+),cpus=([\d-]+)", a.qemu):
        end = addr + size(backends[mid])
        phys.append(([(max(s, addr), min(e, end)) for s, e in ranges
                      if s < end and e > addr], cpus(cp)))
        addr = end
    if not phys:
        phys = [(ranges, set(range(int(a.smp))))]
    phys = [p for p in phys if p[0]]

    mode = a.expect.split()[0]
    out = []
    if mode == "none":
        for i, (r, c) in enumerate(phys):
            out.append((r, c, i))
        return out
    if mode.startswith("count="):
        want = min(int(mode[6:]), MAX_NUMNODES)
        cap = sum(max(1, below(r, 1 << 64) // UNIT[a.pages]) for r, _ in phys)
        want = max(len(phys), min(want, cap))
        share = dhondt([below(r, 1 << 64) for r, _ in phys], want)
    for i, (r, c) in enumerate(phys):
        if mode.startswith("count="):
            b = plan_count(r, share[i], a.pages, keep)
        else:
            room = MAX_NUMNODES - sum(len(x) for x in out) - (len(phys) - 1 - i)
            b = plan_size(r, size(mode[5:]), a.pages, keep, room)
        for j in range(len(b) - 1):
            out.append(([(max(s, b[j]), min(e, b[j + 1])) for s, e in r
                         if s < b[j + 1] and e > b[j]], c, i))
    return out


def main():
    ap = argparse.ArgumentParser()
    for opt in ("log", "pages", "mem", "smp", "dt", "qemu", "cmdline", "expect", "variants"):
        ap.add_argument("--" + opt, default="")
    a = ap.parse_args()
    text = open(a.log, errors="replace").read()
    lines = text.splitlines()
    errors = []
    if "RIG done" not in text:
        errors.append("guest did not finish")
    for line in lines:
        if BAD.search(line):
            errors.append("log: " + line.strip())
            break
    if "Malformed early option" in text:
        errors.append("generic 'Malformed early option' message")
    rest = a.expect.split(None, 1)[1] if len(a.expect.split(None, 1)) > 1 else ""
    if rest.split()[:1] == ["memfill"]:
        # The guest filled most of MemAvailable under the default policy:
        # it must finish (no OOM kill) and have pages on every node.
        rest = rest[len("memfill"):].strip()
        per = {int(w[2]): int(w[4]) for w in (ln.split()[1:] for ln in lines
               if ln.startswith("RIG memfill node "))}
        if not any(ln.startswith("RIG memfill done") for ln in lines):
            errors.append("memfill did not finish: " + next(
                (ln for ln in lines if "memfill" in ln and "error" in ln), "killed?"))
        nids = [int(ln.split()[2]) for ln in lines if ln.startswith("RIG node ")]
        empty = [n for n in nids if not per.get(n)]
        if empty:
            errors.append(f"memfill: no pages on nodes {empty} ({per})")
    for kind, what in re.findall(r"(nolog|log)=(.*?)(?=\s+(?:nolog|log)=|$)", rest):
        hits = [ln for ln in lines if what in ln]
        if kind == "log" and len(hits) != 1:
            errors.append(f"expected one log line with {what!r}, found {len(hits)}")
        if kind == "nolog" and hits:
            errors.append(f"unexpected log line: {hits[0].strip()}")

    rig = [ln.split()[1:] for ln in lines if ln.startswith("RIG ")]
    memtotal = next((int(w[2]) for w in rig if w[:2] == ["meminfo", "MemTotal"]), None)
    nodes = {int(w[1]): w for w in rig if w[0] == "node"}
    zones = {int(w[2]): w for w in rig if w[0] == "zone"}
    page = PAGE[a.pages]

    exp = expected(a, text)
    want = [(r[0][0], r[-1][1]) for r, _, _ in exp]
    got = [(int(zones[n][4]) * page, int(zones[n][6]) * page) for n in sorted(zones)]
    if want != got:
        fmt = lambda l: ", ".join(f"{(e - s) // MiB}M@{s:#x}" for s, e in l)
        errors.append(f"layout: expected {len(want)} nodes [{fmt(want)}], got {len(got)} [{fmt(got)}]")
    if memtotal is None or not nodes:
        errors.append("guest reported no meminfo or nodes")
    elif sum(int(w[3]) for w in nodes.values()) != memtotal:
        errors.append(f"sum of node MemTotal {sum(int(w[3]) for w in nodes.values())} kB != MemTotal {memtotal} kB")
    if len(exp) == len(nodes):
        for (n, w), (_, c, p) in zip(sorted(nodes.items()), exp):
            if cpus(w[5]) != c:
                errors.append(f"node {n} cpulist {w[5]}, expected {sorted(c)}")
            dist = [int(d) for d in w[7].split(",")]
            want_d = [10 if q == p else 20 for _, _, q in exp]
            if dist != want_d:
                errors.append(f"node {n} distances {w[7]}, expected {want_d}")

    # The kselftest, when it ran: all its results must pass (or it skipped
    # because numa=fake= is absent).
    ksft = [ln[5:] for ln in lines if ln.startswith("KSFT ")]
    if ksft:
        totals = next((ln for ln in ksft if ln.startswith("# Totals")), "")
        if not fake_value(a.cmdline):
            if not any("SKIP" in ln for ln in ksft):
                errors.append("kselftest did not skip without numa=fake=")
        elif not re.search(r"fail:0 .*error:0", totals):
            bad = [ln for ln in ksft if ln.startswith("not ok")]
            errors.append("kselftest: " + (bad[0] if bad else totals or "no totals"))

    if errors:
        print("; ".join(errors))
        sys.exit(1)
    print(f"ok: {len(got)} nodes " + " ".join(f"{(e - s) // MiB}M" for s, e in got)
          + (" (kselftest passed)" if ksft and fake_value(a.cmdline) else ""))


main()
