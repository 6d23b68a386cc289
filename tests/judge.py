#!/usr/bin/env python3
"""Judge one boot: compare what the guest reported with the layout the
rules give for its memory size, page size and command line.

The expected layout is computed here from the documented rules, not from
the code under test:
  * QEMU virt RAM is one range starting at 1 GiB; mem= truncates it.
  * boundary unit: largest buddy block = pageblock (4K: 4 MiB, 16K: 32 MiB,
    64K: 512 MiB); memory block (section): 128 MiB (4K, 16K), 512 MiB (64K).
  * numa=fake=N: N capped at 16 (MAX_NUMNODES) and at memory/unit; boundary
    i at the multiple of the alignment nearest to i/N of the memory (lower
    on a tie); the alignment is the memory block when memory holds at least
    N blocks, the unit otherwise.
  * numa=fake=S: S rounded up to the unit; nodes of S, the last one takes
    the remainder (a remainder under one unit stays with the node before),
    at most 16 nodes.

Usage: judge.py LOG PAGES MEM "CMDLINE" EXPECTATION
Prints "ok" or the reasons for failure; exit status 0 or 1.
"""
import re
import sys

MiB = 1 << 20
GiB = 1 << 30
RAM_BASE = 1 * GiB
MAX_NUMNODES = 16
UNIT = {"4k": 4 * MiB, "16k": 32 * MiB, "64k": 512 * MiB}
BLOCK = {"4k": 128 * MiB, "16k": 128 * MiB, "64k": 512 * MiB}
PAGE = {"4k": 4096, "16k": 16384, "64k": 65536}
BAD = re.compile(r"WARNING:|BUG:|Oops|Kernel panic|Call trace|could not be activated")
# Known, reported separately: 6.1's workqueue builds its per-node "possible"
# masks from cpu_to_node() alone, so a CPU listed by several fake nodes
# makes it print this once (pr_warn_once, no backtrace) and fall back to the
# default pool for those nodes. Listed in the README's known issues.
KNOWN = re.compile(r"WARNING: workqueue cpumask: online intersect > possible intersect")


def size(text):
    m = re.fullmatch(r"(\d+)([KMGT]?)", text, re.I)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30, "t": 40}[m.group(2).lower()]


def count_layout(lo, hi, pages, n):
    total = hi - lo
    n = max(1, min(n, MAX_NUMNODES, total // UNIT[pages]))
    align = BLOCK[pages] if total // BLOCK[pages] >= n else UNIT[pages]
    bounds = [lo]
    for i in range(1, n):
        target = total * i // n
        x = lo + target
        down, up = x // align * align, -(-x // align) * align
        b = down if target - (down - lo) <= (up - lo) - target else up
        bounds.append(b)
    return bounds + [hi]


def size_layout(lo, hi, pages, s):
    unit = UNIT[pages]
    s = -(-s // unit) * unit
    bounds = [lo]
    while len(bounds) < MAX_NUMNODES and hi - bounds[-1] > s:
        b = bounds[-1] + s
        if hi - b < unit:
            break
        bounds.append(b)
    return bounds + [hi]


def main():
    log, pages, mem, cmdline, expect = sys.argv[1:6]
    text = open(log, errors="replace").read()
    errors = []
    if "RIG done" not in text:
        errors.append("guest did not finish")
    for line in text.splitlines():
        if BAD.search(line) and not KNOWN.search(line):
            errors.append("log: " + line.strip())
            break

    lo, hi = RAM_BASE, RAM_BASE + size(mem)
    m = re.search(r"(?:^|\s)mem=(\S+)", cmdline)
    if m:
        hi = min(hi, RAM_BASE + size(m.group(1)))

    words = expect.split(None, 1)
    mode = words[0]
    if mode.startswith("count="):
        bounds = count_layout(lo, hi, pages, int(mode[6:]))
    elif mode.startswith("size="):
        bounds = size_layout(lo, hi, pages, size(mode[5:]))
    elif mode == "none":
        bounds = [lo, hi]
    else:
        sys.exit(f"bad expectation {expect!r}")
    rest = words[1] if len(words) > 1 else ""
    for kind, what in re.findall(r"(nolog|log)=(.*?)(?=\s+(?:nolog|log)=|$)", rest):
        hits = [l for l in text.splitlines() if what in l]
        if kind == "log" and len(hits) != 1:
            errors.append(f"expected one log line with {what!r}, found {len(hits)}")
        if kind == "nolog" and hits:
            errors.append(f"unexpected log line: {hits[0].strip()}")
    if "Malformed early option" in text:
        errors.append("generic 'Malformed early option' message")

    rig = [l.split()[1:] for l in text.splitlines() if l.startswith("RIG ")]
    memtotal = next((int(w[2]) for w in rig if w[:2] == ["meminfo", "MemTotal"]), None)
    cpus = next((w[2] for w in rig if w[:2] == ["cpus", "online"]), "")
    nodes = {int(w[1]): w for w in rig if w[0] == "node"}
    zones = {int(w[2]): w for w in rig if w[0] == "zone"}
    page = PAGE[pages]

    expected = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
    got = [(int(zones[n][4]) * page, int(zones[n][6]) * page) for n in sorted(zones)]
    if got != expected:
        fmt = lambda l: ", ".join(f"{(e - s) // MiB}M@{s:#x}" for s, e in l)
        errors.append(f"layout: expected {len(expected)} nodes [{fmt(expected)}], got {len(got)} [{fmt(got)}]")
    if memtotal is None or not nodes:
        errors.append("guest reported no meminfo or nodes")
    elif sum(int(w[3]) for w in nodes.values()) != memtotal:
        errors.append(f"sum of node MemTotal {sum(int(w[3]) for w in nodes.values())} kB != MemTotal {memtotal} kB")
    for n, w in sorted(nodes.items()):
        if w[5] != cpus:
            errors.append(f"node {n} cpulist {w[5]}, online CPUs {cpus}")
        dist = [int(d) for d in w[7].split(",")]
        if len(dist) != len(nodes) or any(d != 10 for d in dist):
            errors.append(f"node {n} distances {w[7]}, expected all 10")

    if errors:
        print("; ".join(errors))
        sys.exit(1)
    print(f"ok: {len(got)} nodes " + " ".join(f"{(e - s) // MiB}M" for s, e in got))


main()
