#!/usr/bin/env python3
"""Judge what the tools people run printed on the stand-in (standin/clients).

The kernel's own view (the RIG node, cpu and has_cpu lines: cpulists, the
one cpuX/nodeY link of each CPU, has_cpu, MemTotal per node) is first
held to the rules of the case: the node count; a node lists the CPUs of
one physical node as the firmware gave them, or none (loosely, so that
mainline's layout, which lists them in every fake node, is judged by the
same rules); every CPU links one node that lists it, the first node of
its physical node (which keeps the firmware's id, the physical node's
index here). Then every tool is held to that view, by what it prints:
node count, CPUs per node, the node of each CPU, memory per node, an
interleave where a policy asks for one, no crash and no warning.

With --job numactl-suite, the job is numactl's own test suite
(guest/numactl-suite.sh): every test it runs must pass.

Usage: clients.py OUT --nodes N --phys CPUS[;CPUS...] [--policy interleave]
                  [--job clients|numactl-suite] [--strict]

--strict holds sysfs to this series' own rule too (a physical node's
CPUs listed by one node, has_cpu naming exactly the nodes that list
CPUs); without it mainline's layout passes the sysfs check as well.
Prints one line per tool, "ok TOOL: ...", "FAIL TOOL: ..." or "skip TOOL:
why", then a summary; exit status 1 if anything failed.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge import numactl_suite  # noqa: E402


def cpuset(text):
    out = set()
    for part in text.replace(" ", ",").split(","):
        if part:
            a, _, b = part.partition("-")
            out.update(range(int(a), int(b or a) + 1))
    return out


def sections(text):
    """{name: (rc, [lines])} from RIG begin/end brackets."""
    out, cur, buf = {}, None, []
    for ln in text.splitlines():
        m = re.match(r"RIG begin (\S+)$", ln)
        if m:
            cur, buf = m.group(1), []
            continue
        m = re.match(r"RIG end (\S+) rc (\d+)$", ln)
        if m and m.group(1) == cur:
            out[cur] = (int(m.group(2)), buf)
            cur = None
            continue
        if cur:
            buf.append(ln)
    return out


def even(counts, nodes, total):
    """Pages spread over exactly these nodes, each within 1 of its share."""
    share = total / len(nodes)
    return set(counts) == set(nodes) and all(abs(counts[n] - share) <= 1 for n in nodes)


def page_counts(line):
    return {int(a): int(b) for a, b in re.findall(r" (\d+):(\d+)", line.split(":", 1)[1])}


def judge(text, nodes, phys, policy, job="clients", strict=False):
    res = []

    def check(tool, errs, detail):
        res.append((tool, errs, detail))

    rig = [ln.split() for ln in text.splitlines() if ln.startswith("RIG ")]
    knodes = {int(w[2]): {"cpus": cpuset(w[4]) if w[3] == "cpulist" and len(w) > 6 else set(),
                          "kb": int(w[-1])} for w in rig if w[1] == "node"}
    links = {int(w[2]): [int(x[4:]) for x in w[4:]] for w in rig if w[1] == "cpu"}
    has_cpu = next((cpuset(w[2]) for w in rig if w[1] == "has_cpu" and len(w) > 2), None)
    mem_nodes = sorted(n for n, v in knodes.items() if v["kb"] > 0)
    sec = sections(text)
    errs = []
    if len(knodes) != nodes:
        errs.append(f"{len(knodes)} nodes in sysfs, the case gives {nodes}")
    for n, v in sorted(knodes.items()):
        if v["cpus"] and v["cpus"] not in phys:
            errs.append(f"node{n} lists cpus {sorted(v['cpus'])}, not the CPUs of one physical node")
    if strict:
        # This series: each physical node's CPUs listed by one node
        # alone, and has_cpu naming exactly the nodes that list CPUs.
        for i, p in enumerate(phys):
            listing = sorted(n for n, v in knodes.items() if v["cpus"] & p)
            if p and len(listing) != 1:
                errs.append(f"the CPUs of physical node {i} are listed by nodes {listing}, not by one")
        with_cpus = {n for n, v in knodes.items() if v["cpus"]}
        if has_cpu is not None and has_cpu != with_cpus:
            errs.append(f"has_cpu {sorted(has_cpu)}, the nodes that list CPUs {sorted(with_cpus)}")
    own = {}
    for c, ls in sorted(links.items()):
        first = next((i for i, p in enumerate(phys) if c in p), None)
        if len(ls) != 1 or c not in knodes.get(ls[0], {}).get("cpus", set()):
            errs.append(f"cpu{c} links nodes {ls}, not one node that lists it")
            continue
        if ls[0] != first:
            errs.append(f"cpu{c} links node{ls[0]}, not node{first}, the first node of its physical node")
        own[c] = ls[0]
    if not re.search(r"^RIG job rc 0$", text, re.M):
        errs.append("the job did not finish (no 'RIG job rc 0')")
    if not links:
        errs.append("no CPUs reported")
    if has_cpu is None or not set(own.values()) <= has_cpu:
        errs.append(f"has_cpu {sorted(has_cpu or [])} lacks a node the CPUs link ({sorted(set(own.values()))})")
    check("sysfs", errs, f"{len(knodes)} nodes, cpu nodes {sorted(own.items())}")
    if job == "numactl-suite":
        for t, why in numactl_suite(text).items():
            check(f"numactl-{t}", [why] if why else [], "passed")
        return res

    def tool(name, fn):
        if name not in sec:
            check(name, ["did not run (no RIG begin/end)"], "")
            return
        rc, lines = sec[name]
        errs = []
        bad = [ln for ln in lines if re.search(r"(?i)\b(warning|error)\b|segmentation fault|core dumped|\baborted\b", ln)]
        if bad:
            errs.append(f"says: {bad[0].strip()[:120]}")
        if rc:
            errs.append(f"exit status {rc}")
        detail = fn(lines, errs) or ""
        check(name, errs, detail)

    def apt(lines, errs):
        if not any(re.match(r"Setting up numactl ", ln) for ln in lines):
            errs.append("numactl was not set up")
        return "numactl installed from the local repository"
    tool("apt-install", apt)

    def count_and_cpus(txt, errs, count_re, cpus_re, label):
        """A tool's node count (count_re) and each node's CPU list
        (cpus_re, formatted with the node) against sysfs."""
        m = re.search(count_re, txt, re.M)
        if not m or int(m.group(1)) != nodes:
            errs.append(f"{label}: {m.group(1) if m else '?'} nodes, expected {nodes}")
        for n, v in knodes.items():
            c = re.search(cpus_re.format(n=n), txt, re.M)
            if not c or cpuset(c.group(1).strip()) != v["cpus"]:
                errs.append(f"{label}: node {n} CPUs {c.group(1).strip() if c else '?'}, sysfs {sorted(v['cpus'])}")

    def numactl(lines, errs):
        txt = "\n".join(lines)
        count_and_cpus(txt, errs, r"^available: (\d+) nodes", r"^node {n} cpus:(.*)$", "numactl")
        for n, v in knodes.items():
            s = re.search(rf"^node {n} size: (\d+) MB", txt, re.M)
            if not s or abs(int(s.group(1)) - v["kb"] // 1024) > 1:
                errs.append(f"node {n} size {s.group(1) if s else '?'} MB, MemTotal {v['kb'] // 1024} MB")
        return f"{nodes} nodes, CPUs and sizes as sysfs"
    tool("numactl-hardware", numactl)

    def lscpu(lines, errs):
        count_and_cpus("\n".join(lines), errs, r"^\s*NUMA node\(s\):\s+(\d+)",
                       r"^\s*NUMA node{n} CPU\(s\):[ \t]*(.*)$", "lscpu")
        return f"{nodes} NUMA nodes, CPU lists as sysfs"
    tool("lscpu", lscpu)

    def lscpu_e(lines, errs):
        got = {int(a): int(b) for a, b in (ln.split() for ln in lines[1:] if re.match(r"\s*\d+\s+\d+\s*$", ln))}
        if got != own:
            errs.append(f"lscpu -e CPU:NODE {sorted(got.items())}, the links {sorted(own.items())}")
        return "every CPU on its linked node"
    tool("lscpu-e", lscpu_e)

    def lstopo(lines, errs):
        got = sorted(int(x) for x in re.findall(r"NUMANode L#\d+ \(P#(\d+)", "\n".join(lines)))
        if got != sorted(knodes):
            errs.append(f"NUMANodes {got}, sysfs has {sorted(knodes)}")
        return f"NUMANodes {got}"
    tool("lstopo", lstopo)

    def lstopo_xml(lines, errs):
        txt = "\n".join(lines)
        got = sorted(int(x) for x in re.findall(r'type="NUMANode" os_index="(\d+)"', txt))
        if got != sorted(knodes):
            errs.append(f"XML NUMANodes {got}, sysfs has {sorted(knodes)}")
        return f"XML NUMANodes {got}"
    tool("lstopo-xml", lstopo_xml)

    def numastat(lines, errs):
        # Wide tables come in blocks of columns, each with its header.
        cols, mem = [], {}
        for ln in lines:
            if re.match(r"\s+(Node \d+|Total)", ln):
                cols = [int(x) for x in re.findall(r"Node (\d+)", ln)]
            elif ln.startswith("MemTotal") and cols:
                mem.update(zip(cols, map(float, ln.split()[1:1 + len(cols)])))
        if sorted(mem) != sorted(knodes):
            errs.append(f"numastat -m shows nodes {sorted(mem)}, sysfs has {sorted(knodes)}")
        for n, mb in sorted(mem.items()):
            if n in knodes and abs(mb - knodes[n]["kb"] / 1024) > 1:
                errs.append(f"numastat MemTotal of node {n}: {mb} MB, sysfs {knodes[n]['kb'] / 1024:.0f}")
        return f"MemTotal of nodes {sorted(mem)} as sysfs"
    tool("numastat-m", numastat)

    def atop(lines, errs):
        num = {int(ln.split()[6]) for ln in lines if ln.startswith("NUM ") and len(ln.split()) > 6}
        nuc = {int(w[6]): int(w[7]) for w in (ln.split() for ln in lines) if w[:1] == ["NUC"] and len(w) > 7}
        if num != set(knodes):
            errs.append(f"atop NUM lines for nodes {sorted(num)}, sysfs has {sorted(knodes)}")
        if sum(nuc.values()) != len(own):
            errs.append(f"atop NUC counts {sum(nuc.values())} CPUs over the nodes ({sorted(nuc.items())}), "
                        f"the machine has {len(own)}")
        return f"NUM lines for nodes {sorted(num)}, NUC CPUs {sorted(nuc.items())}"
    tool("atop", atop)

    def mpstat(lines, errs):
        # Per-node CPU statistics, for the nodes CPUs link (sysstat reads
        # the cpuX/nodeY links).
        plain = [re.sub(r"\x1b\[[0-9;]*m", "", ln).split() for ln in lines]
        got = sorted({int(w[1]) for w in plain if len(w) > 1 and w[0] == "Average:" and w[1].isdigit()})
        if got != sorted(set(own.values())):
            errs.append(f"mpstat -N ALL shows nodes {got}, the CPUs link {sorted(set(own.values()))}")
        return f"nodes {got}"
    tool("mpstat", mpstat)

    def stress(lines, errs):
        if not any("successful run completed" in ln for ln in lines):
            errs.append("no 'successful run completed'")
        return "stress-ng --numa completed"
    tool("stress-ng", stress)

    def nodeofcpu(lines, errs):
        got = {int(w[3]): (int(w[5]), int(w[7])) for w in (ln.split() for ln in lines)
               if w[:2] == ["RIG", "nodeofcpu"]}
        if set(got) != set(own):
            errs.append(f"reported cpus {sorted(got)}, sysfs {sorted(own)}")
        for c, (g, l) in sorted(got.items()):
            if not (g == l == own.get(c)):
                errs.append(f"cpu{c}: getcpu {g}, numa_node_of_cpu {l}, link {own.get(c)}")
        return "getcpu, numa_node_of_cpu and the link agree on every CPU"
    tool("nodeofcpu", nodeofcpu)

    def spread(lines, errs, want_policy, shown):
        """Pages of a task under want_policy; shown: whether the tool
        printed the policy /proc/self/numa_maps shows."""
        pol = next((ln.strip() for ln in lines if re.fullmatch(r"(interleave:\S+|default)", ln.strip())), "")
        pg = next((ln for ln in lines if ln.startswith("RIG pages ")), "")
        counts = page_counts(pg) if pg else {}
        if not counts:
            errs.append("no page counts")
        if shown and want_policy == "interleave" and \
                (not pol.startswith("interleave:") or cpuset(pol.split(":", 1)[1]) != set(mem_nodes)):
            errs.append(f"numa_maps shows {pol or 'nothing'}, expected interleave over {mem_nodes}")
        if want_policy == "interleave" and counts and not even(counts, mem_nodes, sum(counts.values())):
            errs.append(f"pages {sorted(counts.items())} not even over nodes {mem_nodes}")
        return f"{pol + ', ' if pol else ''}pages {sorted(counts.items())}"

    if policy == "interleave":
        tool("default-pages", lambda ln, e: spread(ln, e, policy, False))
    else:
        def local(lines, errs):
            """The default (local) policy: the pages on a node that CPUs
            link, while it has free memory (64 MiB here)."""
            pg = next((ln for ln in lines if ln.startswith("RIG pages ")), "")
            counts = page_counts(pg) if pg else {}
            if not counts:
                errs.append("no page counts")
            elif not set(counts) <= set(own.values()):
                errs.append(f"pages {sorted(counts.items())} on nodes no CPU links ({sorted(set(own.values()))})")
            return f"pages {sorted(counts.items())}, local"
        tool("default-pages", local)
    tool("service", lambda ln, e: spread(ln, e, "interleave", True))

    def system_conf(lines, errs):
        """PID 1 after daemon-reload, then a service it starts: both
        interleave over the memory nodes, and so do the service's pages.
        Under numa_policy=interleave they would without system.conf."""
        pols = [ln.strip() for ln in lines if re.fullmatch(r"(interleave:\S+|default)", ln.strip())]
        if len(pols) != 2:
            errs.append(f"policies shown {pols}, expected PID 1's and the service's")
        for who, pol in zip(("PID 1", "the service"), pols):
            if not pol.startswith("interleave:") or cpuset(pol.split(":", 1)[1]) != set(mem_nodes):
                errs.append(f"{who}: {pol}, expected interleave over {mem_nodes}")
        detail = spread([ln for ln in lines if ln.startswith("RIG pages ")], errs, "interleave", False)
        return f"PID 1 and a service: {', '.join(pols)}; {detail}" + \
            (" (numa_policy=interleave would give this alone)" if policy == "interleave" else "")
    tool("system-conf", system_conf)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out", nargs="?")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--phys", default="")
    ap.add_argument("--policy", default="")
    ap.add_argument("--job", default="clients")
    ap.add_argument("--strict", action="store_true",
                    help="this series' rule: CPUs listed by one node each, has_cpu those nodes")
    a = ap.parse_args()
    phys = [cpuset(p) for p in a.phys.split(";")]
    res = judge(open(a.out, errors="replace").read().replace("\r", ""), a.nodes, phys, a.policy, a.job,
                a.strict)
    bad = 0
    for tool, errs, detail in res:
        if errs is None:
            print(f"skip {tool}: {detail}")
        elif errs:
            bad += 1
            print(f"FAIL {tool}: " + "; ".join(errs))
        else:
            print(f"ok {tool}: {detail}")
    judged = [r for r in res if r[1] is not None]
    print(f"{len(judged) - bad} of {len(judged)} checks agree, {bad} disagree, {len(res) - len(judged)} not judged")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
