#!/usr/bin/env python3
"""Mutants made mechanically over the series' C code, as "mutant schemata".

Every mutant is compiled into the kernel and switched on at boot by
"numa_emu_mutant=ID" (0, the default: the series as it is), so one kernel
build serves them all. Operators, in the conditions of if/while/for, in
return values, right-hand sides and call statements:

  <  <=  >  >=  ==  !=   each to its neighbours (< to <=, == to !=, ...)
  &&  ||                 swapped
  + 1  - 1               swapped
  min( max(  min_t( max_t(   swapped
  !x                     the negation dropped
and each continue, break or return inside a nested block skipped. Only
the lines the series adds are mutated: all of a file it creates, its
hunks in a file it changes.

Usage:
  sweep.py GEN LIST ORIG OUT FILE...
      ORIG/FILE is the file as the series leaves it, ORIG/FILE.added the
      numbers of the lines the series adds to it (one a line); OUT/FILE
      gets the schemata. The first FILE holds the switch, the others
      refer to it. LIST gets the mutants: ID, KEY, where and what
      (tab-separated).
The kernel logs "numa_emu_mutant: reached LIST" at late_initcall and
"numa_emu_mutant: reached by power-off LIST" when it powers off: the
mutants whose code ran (with none on) up to then.
Each mutant's KEY (function/hash of its statement and change, the file's
path before it outside the first FILE) stays the same while its statement
does: tests/sweep-equivalent.txt names equivalent mutants by it.
"""
import bisect
import hashlib
import os
import re
import sys

TYPES = re.compile(r"(?:const\s+)?(?:struct\s+\w+|u8|u16|u32|u64|s64|int|unsigned(?:\s+int|\s+long)?|long|bool|"
                   r"char|size_t|phys_addr_t|nodemask_t)\b[\s*]+\w+")
SWAPS = [("<=", ["<", ">="]), (">=", [">", "<="]), ("==", ["!="]), ("!=", ["=="]),
         ("<", ["<=", ">="]), (">", [">=", "<="]), ("&&", ["||"]), ("||", ["&&"])]


def code_mask(text):
    """True for each character of code (not comment, string or char)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    while i < n:
        two = text[i:i + 2]
        if text[i] == "#" and text[text.rfind("\n", 0, i) + 1:i].strip() == "":
            # A preprocessor line (with its continuations).
            j = i
            while text[text.index("\n", j) - 1] == "\\":
                j = text.index("\n", j) + 1
            j = text.index("\n", j)
        elif two == "/*":
            j = text.index("*/", i + 2) + 2
        elif two == "//":
            j = text.index("\n", i)
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while text[j] != q:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, j):
            mask[k] = False
        i = j
    return mask


def match_paren(text, mask, i):
    """Index after the parenthesis closing the one at i."""
    depth = 0
    while True:
        if mask[i]:
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
        i += 1


def variants(text, mask, lo, hi):
    """(start, end, replacement, what) for each operator in text[lo:hi]."""
    out = []
    i = lo
    while i < hi:
        if not mask[i]:
            i += 1
            continue
        c, two = text[i], text[i:i + 2]
        prev = text[i - 1]
        if two in ("<<", ">>", "->", "<<=", ">>="):
            i += 2
            continue
        done = False
        for op, repl in SWAPS:
            if text.startswith(op, i) and not (len(op) == 1 and (text[i + 1] in "<>=" or prev in "<>-")):
                if op in ("<", ">") and text[i + 1] == "=":
                    continue
                for r in repl:
                    out.append((i, i + len(op), r, f"{op} to {r}"))
                i += len(op)
                done = True
                break
        if done:
            continue
        m = re.match(r" ([+-]) 1\b", text[i:i + 5])
        if m and text[i + 5:i + 6] not in "0123456789":
            other = "-" if m.group(1) == "+" else "+"
            out.append((i, i + 4, f" {other} 1", f"{m.group(1)} 1 to {other} 1"))
            i += 4
            continue
        m = re.match(r"\b(min|max)(_t)?\(", text[i:i + 7])
        if m and not re.match(r"\w", prev):
            other = "max" if m.group(1) == "min" else "min"
            out.append((i, i + 3, other, f"{m.group(1)}{m.group(2) or ''}() to {other}{m.group(2) or ''}()"))
            i += 3
            continue
        if c == "!" and text[i + 1] != "=":
            out.append((i, i + 1, "", "! dropped"))
        i += 1
    return out


def statements(text, mask, lo, hi):
    """Sites in a function body: (kind, start, end) of conditions, statements
    (kind "stmt"), declarations' initializers ("init") and skippable jumps."""
    sites = []
    i = lo
    while i < hi:
        if not mask[i] or text[i] in " \t\n{};":
            i += 1
            continue
        m = re.match(r"(?:else\s+)?(if|while|switch|for)\s*\(", text[i:])
        if m:
            start = i + m.end() - 1
            end = match_paren(text, mask, start)
            if m.group(1) == "for":  # the condition: between the two ';'
                semis = [k for k in range(start, end) if mask[k] and text[k] == ";"]
                sites.append(("cond", semis[0] + 1, semis[1]))
            elif m.group(1) != "switch":
                sites.append(("cond", start + 1, end - 1))
            i = end
            continue
        if text.startswith("else", i) and not re.match(r"\w", text[i + 4]):
            i += 4
            continue
        if text.startswith("do", i) and not re.match(r"\w", text[i + 2]):
            i += 2
            continue
        m = re.match(r"(case\b[^:]*|default|\w+):(?!:)", text[i:])
        if m and not text.startswith("::", i + m.end() - 1):
            i += m.end()
            continue
        # A statement: to the ';' outside parentheses and braces.
        j, depth = i, 0
        while True:
            if mask[j]:
                if text[j] in "({":
                    depth += 1
                elif text[j] in ")}":
                    depth -= 1
                elif text[j] == ";" and depth == 0:
                    break
            j += 1
        stmt = text[i:j + 1]
        # A loop macro (for_each_...(x) { or a body on the next line).
        m = re.match(r"\w+\s*\(", stmt)
        if m:
            close = match_paren(text, mask, i + m.end() - 1)
            rest = text[close:j + 1].lstrip()
            if rest[:1] not in (";", "") and not re.match(r"[-+*/%&|^<>=!?.\[]", rest[:1]):
                i = close
                continue
        if re.match(r"pr_\w+\(|WARN|BUILD_BUG|BUG", stmt):
            i = j + 1
            continue
        indent = len(text[text.rfind("\n", 0, i) + 1:i].expandtabs(8)) // 8
        if re.fullmatch(r"(continue|break|return\b[^;]*);", stmt) and indent >= 2:
            sites.append(("jump", i, j + 1))
        if TYPES.match(stmt) and not stmt.startswith("return"):
            eq = next((k for k in range(i, j) if mask[k] and text[k] == "=" and text[k - 1] not in "=!<>"
                       and text[k + 1] != "="), None)
            commas = [k for k in range(i, j) if mask[k] and text[k] == "," and
                      text[i:k].count("(") == text[i:k].count(")")]
            if eq is not None and not commas:
                sites.append(("init", eq + 1, j))
        elif not stmt.startswith(("continue", "break")):
            sites.append(("stmt", i, j + 1))
        i = j + 1
    return sites


def functions(text):
    """(name, body start, body end) of each function definition."""
    for m in re.finditer(r"^(?![\s/*#])[\w \t*]*?\b(\w+)\([^;{]*?\)\n\{\n", text, re.M):
        end = text.index("\n}\n", m.end())
        yield m.group(1), m.end(), end + 1


def gen(text, added, first, prefix):
    """The schemata of one file and its mutants (IDs from first on), each
    a mutation of a line in added."""
    mask = code_mask(text)
    edits = {}          # (start, end) of a site -> (kind, [(id, new text)])
    muts = []
    pp = {m.start() for m in re.finditer(r"^[ \t]*#", text, re.M)}
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(i):
        return bisect.bisect_right(starts, i)

    for fname, lo, hi in functions(text):
        if not any(line(lo) <= n <= line(hi) for n in added):
            continue
        for kind, s, e in statements(text, mask, lo, hi):
            body = text[s:e]
            if any(s <= k < e for k in pp):
                continue
            found = []
            if kind == "jump":
                if line(s) in added:
                    found.append(("", f"'{' '.join(body.split())[:40]}' skipped"))
            else:
                for a, b, r, what in variants(text, mask, s, e):
                    if line(a) in added:
                        found.append((text[s:a] + r + text[b:e], what))
            for new, what in found:
                mid = first + len(muts)
                key = hashlib.sha1(f"{' '.join(body.split())}|{what}".encode()).hexdigest()[:8]
                muts.append((mid, f"{prefix}{fname}/{key}", f"{prefix}{fname}:{line(s)}",
                             f"{what}: {' '.join(body.split())[:70]}"))
                # A skipped jump is the statement replaced by nothing.
                edits.setdefault((s, e), ("stmt" if kind == "jump" else kind, []))[1].append((mid, new))
    out = []
    pos = 0
    for (s, e), (kind, alts) in sorted(edits.items()):
        orig = text[s:e]
        if kind == "cond":
            repl = "".join(f"NUMA_EMU_M({i}) ? !!({new}) : " for i, new in alts) + f"!!({orig})"
        elif kind == "init":
            repl = "".join(f"NUMA_EMU_M({i}) ? ({new}) : " for i, new in alts) + f"({orig})"
        else:
            repl = "{ " + "".join(f"if (NUMA_EMU_M({i})) {{ {new} }} else " for i, new in alts) + f"{{ {orig} }} }}"
        out.append(text[pos:s] + repl)
        pos = e
    out.append(text[pos:])
    return "".join(out), muts


def with_prelude(body, prelude):
    """body with prelude after its last #include before its first function."""
    first_fn = re.search(r"^(?![\s/*#])[\w \t*]*?\b\w+\([^;{]*?\)\n\{\n", body, re.M).start()
    last_inc = max(m.end() for m in re.finditer(r"^#include [^\n]*\n", body[:first_fn], re.M))
    return body[:last_inc] + prelude + body[last_inc:]


def preludes(n):
    """The first file's prelude (the switch, and which mutants' sites ran,
    for n mutants) and the others'."""
    # Set once, atomically: the sites in mm/ run on every CPU at once.
    use = ("#define NUMA_EMU_M(id) \\\n"
           "\t((void)(test_bit(id, numa_emu_reached) || (set_bit(id, numa_emu_reached), 0)), \\\n"
           "\t unlikely(numa_emu_mutant == (id)))\n")
    show = f"pr_info(\"numa_emu_mutant: reached%s %*pbl\\n\", when, {n + 1}, numa_emu_reached);"
    first = ("\n/* Mutant schemata (tests/sweep.py): numa_emu_mutant=ID switches one on. */\n"
             "#include <linux/reboot.h>\n"
             "int numa_emu_mutant __read_mostly;\n"
             "static int __init numa_emu_mutant_param(char *s)\n"
             "{\n\treturn kstrtoint(s, 10, &numa_emu_mutant);\n}\n"
             "early_param(\"numa_emu_mutant\", numa_emu_mutant_param);\n"
             # Which mutants' sites ran (with none on): each boot case
             # then runs only the mutants whose code it reaches.
             f"unsigned long numa_emu_reached[BITS_TO_LONGS({n + 1})];\n" + use +
             "static void numa_emu_reached_log(const char *when)\n{\n\t" + show + "\n}\n"
             "static int numa_emu_reached_off(struct notifier_block *nb, unsigned long action, void *data)\n"
             "{\n\tnuma_emu_reached_log(\" by power-off\");\n\treturn NOTIFY_DONE;\n}\n"
             "static struct notifier_block numa_emu_reached_nb = {\n"
             "\t.notifier_call = numa_emu_reached_off,\n};\n"
             "static int __init numa_emu_reached_show(void)\n{\n"
             "\tnuma_emu_reached_log(\"\");\n"
             "\treturn register_reboot_notifier(&numa_emu_reached_nb);\n"
             "}\nlate_initcall(numa_emu_reached_show);\n")
    other = ("\n/* Mutant schemata (tests/sweep.py): the switch is in the first file. */\n"
             "extern int numa_emu_mutant;\nextern unsigned long numa_emu_reached[];\n" + use)
    return first, other


def main():
    if sys.argv[1:2] != ["GEN"] or len(sys.argv) < 6:
        sys.exit(__doc__)
    lst, orig, out, files = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    bodies, muts = [], []
    for k, name in enumerate(files):
        text = open(os.path.join(orig, name)).read()
        added = {int(x) for x in open(os.path.join(orig, name) + ".added").read().split()}
        body, m = gen(text, added, len(muts) + 1, "" if k == 0 else name + ":")
        if not m:
            sys.exit(f"no mutant in {name}: the series adds no code there any more?")
        bodies.append(body)
        muts += m
        print(f"{len(m)} mutants in {name}")
    first, other = preludes(len(muts))
    for k, (name, body) in enumerate(zip(files, bodies)):
        open(os.path.join(out, name), "w").write(with_prelude(body, first if k == 0 else other))
    keys = [k for _, k, _, _ in muts]
    dup = {k for k in keys if keys.count(k) > 1}
    with open(lst, "w") as f:
        for i, key, where, what in muts:
            # Two mutants of one statement with the same change (the same
            # operator twice in it): told apart by their order.
            if key in dup:
                key += f".{sum(1 for j, k, _, _ in muts if k == key and j <= i)}"
            f.write(f"{i}\t{key}\t{where}\t{what}\n")


if __name__ == "__main__":
    main()
