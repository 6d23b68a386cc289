#!/usr/bin/env python3
"""The sweep's report: build/results/mutants-sweep.md from sweep.sh's lines.

Usage: sweep-report.py SWEEP_OUT TOTAL_SECONDS
Lines (tab-separated): ID, KEY, [file:]function:line, what, KILLED|SURVIVED|
EQUIVALENT, layer (kunit, boot or -), detail. tests/sweep-open.txt says
what would tell each open survivor apart (key, a tab, the note).
"""
import os
import sys
from collections import Counter

rows = [ln.rstrip("\n").split("\t") for ln in open(sys.argv[1]) if ln.strip()]
# What would tell each open survivor apart, by key (tests/sweep-open.txt).
here = os.path.dirname(os.path.abspath(__file__))
notes = dict(ln.rstrip("\n").split("\t", 1) for ln in open(os.path.join(here, "sweep-open.txt"))
             if ln.strip() and not ln.startswith("#"))
total = int(sys.argv[2])
series = os.environ.get("SERIES", "unknown none").split()
killed = [r for r in rows if r[4] == "KILLED"]
equiv = [r for r in rows if r[4] == "EQUIVALENT"]
alive = [r for r in rows if r[4] == "SURVIVED"]


def cell(s):
    return s.replace("|", "\\|")


print("# Mechanical mutants of the series' code\n")
print(f"Series `{series[0]}` (the last commit that changed `patches/`; `patches/` tree `{series[-1]}`), "
      "made by `make mutants-sweep`.\n")
print("`tests/sweep.py` makes a mutant of every relational operator, `&&`/`||`, `+ 1`/`- 1`,")
print("`min`/`max`, negation and early `continue`/`break`/`return` in")
print("`drivers/base/numa_emulation.c` and in the lines the other patches add to `drivers/base/arch_numa.c`,")
print("`mm/memory.c`, `mm/mempolicy.c`, `mm/mprotect.c`, `arch/arm64/mm/init.c` and `arch/riscv/mm/init.c`,")
print("all built into the sweep's kernels and switched on at boot")
print("one at a time (`numa_emu_mutant=ID`), so every mutant compiles (none is invalid).")
print("The KUnit suite sees each first; its survivors boot the cases of")
print("`tests/sweep-cases.txt` that reach its code until one fails (the judge's properties and")
print("the kselftest). A survivor shown equivalent (`tests/sweep-equivalent.txt`, the reason")
print("below) is not booted; each open one says what would tell it apart (`tests/sweep-open.txt`).\n")
by = Counter(r[5] for r in killed)
print(f"Generated {len(rows)}: killed {len(killed)} (" +
      ", ".join(f"{k} {v}" for k, v in sorted(by.items())) + f"), equivalent {len(equiv)}, "
      f"survived {len(alive)}. The run that wrote this report took {total} s ({total / 60:.0f} min),"
      " keeping the verdicts of the runs before it.\n")
if equiv:
    print("## Equivalent (why no input can tell)\n")
    print("| id | where | mutant | why |")
    print("|---|---|---|---|")
    for r in equiv:
        print(f"| {r[0]} | {r[2]} | {cell(r[3])} | {cell(r[6])} |")
    print()
print("## Survived (open)\n")
print("| id | key | where | mutant | boots | what would tell it apart |")
print("|---|---|---|---|---|---|")
for r in alive:
    print(f"| {r[0]} | {r[1]} | {r[2]} | {cell(r[3])} | {cell(r[6])} | {cell(notes.get(r[1], 'not known'))} |")
print()
print("## Killed\n")
print("| id | where | mutant | layer | first failure |")
print("|---|---|---|---|---|")
for r in killed:
    print(f"| {r[0]} | {r[2]} | {cell(r[3])} | {r[5]} | {cell(r[6])} |")
print()
scored = len(rows) - len(equiv)
pct = 100.0 * len(killed) / scored if scored else 0.0
print(f"{len(killed)} of {scored} non-equivalent mutants killed ({pct:.1f} %), "
      f"{len(alive)} survived, {len(equiv)} shown equivalent")
