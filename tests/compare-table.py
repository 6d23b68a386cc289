#!/usr/bin/env python3
"""Join two matrix runs into one markdown table.
Usage: compare-table.py MATRIX OURS.out MAINLINE.out"""
import sys

order = [l.split("|")[0].strip() for l in open(sys.argv[1])
         if l.strip() and not l.startswith("#")]


def load(path):
    out = {}
    for line in open(path):
        r, name, detail = line.rstrip("\n").split("|", 2)
        out[name] = (r, detail)
    return out


ours, main = load(sys.argv[2]), load(sys.argv[3])
esc = lambda t: t.replace("|", "\\|")[:300]
print("| case | this series (6.1) | mainline 6.12 | why a failure failed |")
print("|---|---|---|---|")
tot = {"ours": 0, "main": 0}
for name in order:
    o, m = ours.get(name, ("MISSING", "")), main.get(name, ("MISSING", ""))
    tot["ours"] += o[0] == "PASS"
    tot["main"] += m[0] == "PASS"
    why = "; ".join(f"{who}: {esc(d)}" for who, (r, d) in (("ours", o), ("mainline", m))
                    if r != "PASS")
    print(f"| {name} | {o[0].lower()} | {m[0].lower()} | {why} |")
print()
print(f"this series: {tot['ours']} of {len(order)} cases pass; "
      f"mainline 6.12: {tot['main']} of {len(order)} pass")
