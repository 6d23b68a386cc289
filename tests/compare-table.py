#!/usr/bin/env python3
"""Join two matrix runs into one markdown table.
Usage: compare-table.py MATRIX OURS.out MAINLINE.out OURS_LOGS MAINLINE_LOGS

A case fails when the judge (tests/judge.py) finds anything wrong. Since
the judge compares layouts with this series' rule, the table also gives,
for each side, what the kselftest said (on mainline without -S, so only
checks that do not depend on this series' rules).
"""
import os
import re
import sys

matrix, ours_out, main_out, ours_logs, main_logs = sys.argv[1:6]
order = [l.split("|")[0].strip() for l in open(matrix)
         if l.strip() and not l.startswith("#")]


def load(path):
    out = {}
    for line in open(path):
        r, name, detail = line.rstrip("\n").split("|", 2)
        out[name] = (r, detail)
    return out


def ksft(logs, name):
    path = os.path.join(logs, f"boot-{name}.log")
    if not os.path.exists(path):
        return "no log"
    text = open(path, errors="replace").read()
    bad = re.findall(r"^KSFT not ok (\d+) (.*)$", text, re.M)
    if "KSFT 1..0" in text:
        return "skip"
    if not re.search(r"^KSFT # Totals", text, re.M):
        return "did not run"
    skipped = len(re.findall(r"^KSFT ok \d+ # SKIP", text, re.M))
    if not bad and skipped:
        return f"pass ({skipped} skipped)"
    return "; ".join(f"not ok {n} {d}" for n, d in bad) or "pass"


FINDINGS = [
    ("count:", "node count differs from the rules"),
    ("nothing lost:", "memory outside its nodes, or MemTotal does not add up"),
    ("bounds:", "boundaries off the unit or memory block"),
    ("spread:", "nodes unbalanced"),
    ("floor:", "a node below the minimum size"),
    ("ids:", "node ids lose their firmware meaning"),
    ("cpus:", "CPU lists or sysfs links wrong"),
    ("cpu_to_node", "CPUs not spread over fake nodes"),
    ("distance:", "distances wrong"),
    ("reserve:", "a reservation failed or has no room"),
    ("could not be activated", "a CMA area not activated"),
    ("expected one log line", "bad or capped value not named"),
    ("Malformed early option", "bad or capped value not named"),
    ("unexpected log line", "a log line that should not be there"),
    ("log:", "warnings in the log"),
    ("kselftest", "kselftest failed"),
    ("hotplug", "hot-added memory off its firmware node"),
    ("device:", "a device off its firmware node"),
    ("numactl", "numactl's own suite failed"),
    ("balancing was busy", "NUMA balancing churn on one physical node"),
    ("cpuset", "cpusets not confined"),
    ("second opinion", "layout differs from the model"),
]


def kind(detail):
    """Which properties a judge verdict names."""
    kinds = sorted({f for key, f in FINDINGS if key in detail})
    return kinds or ["other"]


ours, main = load(ours_out), load(main_out)
esc = lambda t: t.replace("|", "\\|")[:240]
rows, tally = [], {}
for name in order:
    o, m = ours.get(name, ("MISSING", "")), main.get(name, ("MISSING", ""))
    if m[1].startswith("no kernel rv-"):
        m = ("N/A", "")     # no mainline riscv64 kernel in the comparison
    ok_, mk = ksft(ours_logs, name), ksft(main_logs, name)
    why = "; ".join(f"{who}: {esc(d)}" for who, (r, d) in (("ours", o), ("mainline", m)) if r != "PASS")
    rows.append(f"| {name} | {o[0].lower()} | {m[0].lower()} | {esc(ok_)} | {esc(mk)} | {why} |")
    if m[0] not in ("PASS", "N/A"):
        for k in kind(m[1]):
            tally[k] = tally.get(k, 0) + 1
    if m[0] == "N/A" or mk == "skip" or mk.startswith("pass"):
        pass
    elif mk in ("no log", "did not run"):
        tally["kselftest did not run (mainline)"] = tally.get("kselftest did not run (mainline)", 0) + 1
    else:
        tally["kselftest failures without -S (mainline)"] = tally.get("kselftest failures without -S (mainline)", 0) + 1

n = len(order)
both = [c for c in order if not main.get(c, ("", ""))[1].startswith("no kernel rv-")]
print(f"this series: {sum(ours.get(c, ('',))[0] == 'PASS' for c in order)} of {n} cases pass; "
      f"mainline 6.12: {sum(main.get(c, ('',))[0] == 'PASS' for c in both)} of {len(both)} pass "
      f"(the {n - len(both)} riscv64 cases run on this series only)")
print()
print("| mainline finding | cases |")
print("|---|---|")
for k, v in sorted(tally.items(), key=lambda kv: -kv[1]):
    print(f"| {k} | {v} |")
print()
print("| case | this series (6.1) | mainline 6.12 | kselftest, ours | kselftest, mainline | why a failure failed |")
print("|---|---|---|---|---|---|")
print("\n".join(rows))
