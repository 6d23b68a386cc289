#!/usr/bin/env python3
"""Read tests/mutants.txt and apply one mutant to a kernel tree.

The file is a list of stanzas separated by blank lines, "key: value" per
line ('#' lines are comments):

  name:   a short identifier
  what:   the plausible defect, in one line
  file:   the file of the tree it changes
  old:    text that must occur exactly once in that file (\\n, \\t escapes)
  new:    its replacement
  cases:  a regex of tests/matrix.txt case names that can see the defect
  kunit:  yes or no: whether the KUnit suite is run first (default: yes for
          drivers/base/numa_emulation.c, the file the suite is built into)
  sample: yes for the mutants make check runs
  equivalent: why the mutant cannot be told apart from the series by any
          observable behaviour (only for a mutant that is)

Usage:
  mutate.py LIST [--sample]          names, one per line
  mutate.py GET NAME KEY             one field
  mutate.py CHECK TREE               every mutant applies exactly once
  mutate.py APPLY TREE NAME          change the tree
"""
import os
import re
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mutants.txt")
KEYS = {"name", "what", "file", "old", "new", "cases", "kunit", "sample", "equivalent"}


def load(path=DATA):
    out, cur = [], {}
    for n, ln in enumerate(open(path).read().splitlines() + [""], 1):
        if ln.startswith("#"):
            continue
        if not ln.strip():
            if cur:
                out.append(cur)
            cur = {}
            continue
        key, sep, val = ln.partition(":")
        if not sep or key not in KEYS or key in cur:
            sys.exit(f"{path}:{n}: bad line {ln!r}")
        cur[key] = val.strip()
    names = set()
    for m in out:
        for k in ("name", "what", "file", "old", "new", "cases"):
            if k not in m:
                sys.exit(f"{path}: mutant {m.get('name', '?')} has no {k}:")
        if m["name"] in names:
            sys.exit(f"{path}: mutant {m['name']} twice")
        names.add(m["name"])
        m.setdefault("kunit", "yes" if m["file"] == "drivers/base/numa_emulation.c" else "no")
        m.setdefault("sample", "no")
        m.setdefault("equivalent", "")
    return out


def unescape(s):
    return s.replace("\\n", "\n").replace("\\t", "\t")


def edit(tree, m):
    path = os.path.join(tree, m["file"])
    text = open(path).read()
    old, new = unescape(m["old"]), unescape(m["new"])
    hits = len(re.findall(re.escape(old), text))
    if hits != 1:
        return None, f"{m['name']}: 'old' occurs {hits} times in {m['file']}, not once"
    return (path, text.replace(old, new)), None


def main():
    muts = load()
    by = {m["name"]: m for m in muts}
    cmd = sys.argv[1:2]
    if cmd == ["LIST"]:
        for m in muts:
            if "--sample" not in sys.argv or m["sample"] == "yes":
                print(m["name"])
    elif cmd == ["GET"]:
        print(by[sys.argv[2]][sys.argv[3]])
    elif cmd == ["CHECK"]:
        bad = [err for m in muts for _, err in [edit(sys.argv[2], m)] if err]
        for err in bad:
            print(err)
        print(f"{len(muts)} mutants, {len(muts) - len(bad)} apply")
        sys.exit(1 if bad else 0)
    elif cmd == ["APPLY"]:
        res, err = edit(sys.argv[2], by[sys.argv[3]])
        if err:
            sys.exit(err)
        path, text = res
        open(path, "w").write(text)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
