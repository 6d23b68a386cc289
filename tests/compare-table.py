#!/usr/bin/env python3
"""Join two matrix runs into one markdown table.
Usage: compare-table.py MATRIX OURS.out MAINLINE.out OURS_LOGS MAINLINE_LOGS

A case fails when the judge (tests/judge.py) finds anything wrong. Since
the judge compares layouts with this series' rule, the table also gives,
for each side, what the kselftest (rule-independent invariants) said.
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
    if "KSFT 1..0" in text or re.search(r"^KSFT ok \d+ # SKIP", text, re.M) and not bad:
        return "skip"
    if not re.search(r"^KSFT # Totals", text, re.M):
        return "did not run"
    return "; ".join(f"not ok {n} {d}" for n, d in bad) or "pass"


def kind(detail):
    """Which expectations a judge verdict names."""
    kinds = []
    if "layout:" in detail:
        kinds.append("layout differs from the rule")
    if "expected one log line" in detail or "Malformed early option" in detail:
        kinds.append("bad or capped value not named")
    if "could not be activated" in detail:
        kinds.append("CMA area not activated")
    if "cpulist" in detail or "distances" in detail:
        kinds.append("CPUs/distances off their physical node")
    if "kselftest" in detail:
        kinds.append("kselftest failed")
    return kinds or ["other"]


ours, main = load(ours_out), load(main_out)
esc = lambda t: t.replace("|", "\\|")[:240]
rows, tally = [], {}
for name in order:
    o, m = ours.get(name, ("MISSING", "")), main.get(name, ("MISSING", ""))
    ok_, mk = ksft(ours_logs, name), ksft(main_logs, name)
    why = "; ".join(f"{who}: {esc(d)}" for who, (r, d) in (("ours", o), ("mainline", m)) if r != "PASS")
    rows.append(f"| {name} | {o[0].lower()} | {m[0].lower()} | {esc(ok_)} | {esc(mk)} | {why} |")
    if m[0] != "PASS":
        for k in kind(m[1]):
            tally[k] = tally.get(k, 0) + 1
    if mk not in ("pass", "skip"):
        tally["kselftest invariant failures (mainline)"] = tally.get("kselftest invariant failures (mainline)", 0) + 1

n = len(order)
print(f"this series: {sum(ours.get(c, ('',))[0] == 'PASS' for c in order)} of {n} cases pass; "
      f"mainline 6.12: {sum(main.get(c, ('',))[0] == 'PASS' for c in order)} of {n} pass")
print()
print("| mainline finding | cases |")
print("|---|---|")
for k, v in sorted(tally.items(), key=lambda kv: -kv[1]):
    print(f"| {k} | {v} |")
print()
print("| case | this series (6.1) | mainline 6.12 | kselftest, ours | kselftest, mainline | why a failure failed |")
print("|---|---|---|---|---|---|")
print("\n".join(rows))
