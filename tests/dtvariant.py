#!/usr/bin/env python3
"""Apply a variant from tests/dt-variants.txt to a device tree source.

Usage: dtvariant.py VARIANTS NAME MEM IN.dts OUT.dts
Also importable: ranges(name, mem) gives the usable memory ranges.
"""
import re
import sys

MiB = 1 << 20
RAM_BASE = 1 << 30


def load(path):
    out = {}
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            name, changes = (x.strip() for x in line.split("|", 1))
            out[name] = dict(c.split("=", 1) for c in changes.split())
    return out


def span(text, mem):
    """'OFF+SIZE' in MiB from RAM start -> (start, end) physical bytes."""
    off, size = text.split("+")
    start = RAM_BASE + int(float(off) * MiB)
    end = RAM_BASE + mem if size == "end" else start + int(float(size) * MiB)
    return start, end


def usable(changes, mem):
    if "usable" not in changes:
        return [(RAM_BASE, RAM_BASE + mem)]
    return [span(s, mem) for s in changes["usable"].split(",")]


def cells(start, end):
    return "0x%x 0x%x 0x%x 0x%x" % (start >> 32, start & 0xffffffff,
                                    (end - start) >> 32, (end - start) & 0xffffffff)


def apply(changes, mem, dts):
    head, body = [], []
    resv = []
    for key, val in changes.items():
        if key == "usable":
            rngs = usable(changes, mem)
            body.append("\tchosen {\n\t\tlinux,usable-memory-range = <%s>;\n\t};\n"
                        % " ".join(cells(s, e) for s, e in rngs))
        elif key in ("nomap", "resv"):
            s, e = span(val, mem)
            resv.append("\t\t%s@%x {\n\t\t\treg = <%s>;\n%s\t\t};\n"
                        % (key, s, cells(s, e), "\t\t\tno-map;\n" if key == "nomap" else ""))
        elif key == "memreserve":
            s, e = span(val, mem)
            head.append("/memreserve/ 0x%x 0x%x;\n" % (s, e - s))
        elif key == "cma":
            size, rng = val.split("@")
            s, e = span(rng, mem)
            resv.append("\t\tlinux,cma {\n\t\t\tcompatible = \"shared-dma-pool\";\n"
                        "\t\t\treusable;\n\t\t\tsize = <0x0 0x%x>;\n"
                        "\t\t\talloc-ranges = <%s>;\n\t\t\tlinux,cma-default;\n\t\t};\n"
                        % (int(float(size) * MiB), cells(s, e)))
        elif key == "cmafixed":
            s, e = span(val, mem)
            resv.append("\t\tlinux,cma@%x {\n\t\t\tcompatible = \"shared-dma-pool\";\n"
                        "\t\t\treusable;\n\t\t\treg = <%s>;\n\t\t\tlinux,cma-default;\n\t\t};\n"
                        % (s, cells(s, e)))
        else:
            sys.exit(f"unknown change {key}")
    if resv:
        body.append("\treserved-memory {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n"
                    "\t\tranges;\n%s\t};\n" % "".join(resv))
    dts = dts.replace("/dts-v1/;\n", "/dts-v1/;\n" + "".join(head), 1)
    return dts + "\n/ {\n" + "".join(body) + "};\n"


def size(text):
    m = re.fullmatch(r"(\d+)([KMGT]?)", text, re.I)
    return int(m.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30, "t": 40}[m.group(2).lower()]


if __name__ == "__main__":
    variants, name, mem, src, dst = sys.argv[1:6]
    v = load(variants)
    if name not in v:
        sys.exit(f"no device tree variant {name!r} in {variants}")
    open(dst, "w").write(apply(v[name], size(mem), open(src).read()))
