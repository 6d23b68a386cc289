#!/usr/bin/env python3
"""The real-client group side by side: one row per case and tool, what
tests/clients.py said on this series and on mainline 6.12.

Usage: clients-table.py CLIENTS_TXT LOGS_6.1 LOGS_6.12   (markdown on stdout)
"""
import os
import re
import sys


def verdicts(logs, name):
    """{tool: (word, detail)} from LOGS/NAME.verdict, or {} if the case did not run."""
    path = os.path.join(logs, name + ".verdict")
    if not os.path.exists(path):
        return {}
    out = {}
    for ln in open(path, errors="replace"):
        m = re.match(r"(ok|FAIL|skip) ([\w-]+): (.*)$", ln.rstrip("\n"))
        if m:
            out[m.group(2)] = (m.group(1), m.group(3))
    return out


def cell(v):
    if not v:
        return "did not run"
    word, detail = v
    detail = detail.replace("|", "/")
    return {"ok": "ok", "FAIL": f"**FAIL**: {detail}", "skip": f"not judged: {detail}"}[word]


def main():
    clients_txt, a, b = sys.argv[1:4]
    names = [ln.split("|")[0].strip() for ln in open(clients_txt)
             if ln.strip() and not ln.startswith("#")]
    print()
    print("## Real clients on the Raspberry Pi OS stand-in (tests/clients.txt)")
    print()
    tally = {a: [0, 0], b: [0, 0]}
    rows = []
    for name in names:
        va, vb = verdicts(a, name), verdicts(b, name)
        for tool in list(dict.fromkeys(list(va) + list(vb))):
            for logs, v in ((a, va), (b, vb)):
                if tool in v and v[tool][0] != "skip":
                    tally[logs][0 if v[tool][0] == "ok" else 1] += 1
            rows.append(f"| {name} | {tool} | {cell(va.get(tool))} | {cell(vb.get(tool))} |")
        if not va and not vb:
            rows.append(f"| {name} | - | did not run | did not run |")
    print(f"This series: {tally[a][0]} agree, {tally[a][1]} disagree; "
          f"mainline 6.12: {tally[b][0]} agree, {tally[b][1]} disagree.")
    print()
    print("| case | tool | this series (6.1) | mainline 6.12 |")
    print("|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
