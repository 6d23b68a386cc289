#!/usr/bin/env python3
"""The mutation report: build/results/mutants.md from mutants.sh's lines.

Usage: mutants-report.py MUTANTS_OUT TOTAL_SECONDS
Lines: "KILLED|name|layer|detail|secs", "SURVIVED|...", "EQUIVALENT|...",
"INVALID|..." (did not build), "ERROR|..." (the rig failed: not judged).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

rows = [ln.rstrip("\n").split("|", 4) for ln in open(sys.argv[1]) if ln.strip()]
total = int(sys.argv[2])
what = {m["name"]: m for m in mutate.load()}
killed = [r for r in rows if r[0] == "KILLED"]
equiv = [r for r in rows if r[0] == "EQUIVALENT"]
alive = [r for r in rows if r[0] == "SURVIVED"]
invalid = [r for r in rows if r[0] == "INVALID"]
errors = [r for r in rows if r[0] == "ERROR"]
print("# Mutation score\n")
print(f"Series `{os.environ.get('SERIES', 'unknown none').split()[0]}` (the last commit that changed "
      f"`patches/`; `patches/` tree `{os.environ.get('SERIES', 'unknown none').split()[-1]}`), "
      "made by `make mutants`.\n")
print("Each mutant is a plausible defect of the series (`tests/mutants.txt`), built")
print("into the kernels its boot cases need; the layers run in order (KUnit for the")
print("splitter, then the boot cases: the judge's properties and the kselftest inside")
print("the guest) and the first that fails kills it.\n")
print("| mutant | file | defect | result | first layer | detail | s |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    m = what.get(r[1], {})
    res = {"KILLED": "killed", "SURVIVED": "**survived**", "EQUIVALENT": "equivalent",
           "INVALID": "invalid (does not build)", "ERROR": "**not judged** (the rig failed)"}[r[0]]
    det = r[3].replace("|", "/")
    print(f"| {r[1]} | {m.get('file', '?').split('/')[-1]} | {m.get('what', '?')} | {res} | {r[2]} | {det} | {r[4]} |")
by = {}
for r in killed:
    by[r[2]] = by.get(r[2], 0) + 1
booted = [r for r in killed if r[2] in ("judge", "kselftest", "boot")]
ksft = [r for r in booted if int((re.search(r"kselftest (\d+)", r[3]) or [0, 0])[1])]
judged = [r for r in booted if int((re.search(r"judge (\d+)", r[3]) or [0, 0])[1])]
print()
print(f"Of the {len(booted)} mutants killed in boots, the judge's properties caught {len(judged)}"
      f" and the kselftest (the layer that also runs on a Pi) {len(ksft)}.")
print("First layer to kill: " + ", ".join(f"{k} {v}" for k, v in sorted(by.items())) + ".")
print(f"Run time: {total} s ({total / 60:.0f} min) for {len(rows)} mutants.\n")
scored = len(rows) - len(equiv) - len(invalid) - len(errors)
pct = 100.0 * len(killed) / scored if scored else 0.0
print(f"{len(killed)} of {scored} non-equivalent mutants killed ({pct:.1f} %), "
      f"{len(alive)} survived, {len(equiv)} shown equivalent, {len(invalid)} invalid"
      + (f", {len(errors)} not judged (the rig failed)" if errors else ""))
