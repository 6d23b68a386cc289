#!/usr/bin/env python3
"""The docs do not go stale: make check's "docs" layer.

* counts: every count README.md and docs/ state (boot cases, riscv64
  cases, mutants, patches, KUnit cases, bench configurations) equals what
  the files that define it hold, and each is stated at least once;
* results: every results/*.md names the series it was made from, and that
  is the series as it is (the tree id of patches/ it names holds the
  patches of HEAD, with no changes of their own; with history, the commit
  it names is the last that changed a patch, or a later one with the same
  patches): the cover letter is no input of a report, so it may change
  after one;
* cover letter: it quotes results/bench.md's block "For the cover
  letter" word for word, so its cost figures are those of the last
  make bench;
* wording: no dated run or process wording in README.md or docs/ (dated
  runs are generated into results/);
* selftest: each check fails on a copy broken in one place.

Prints "PASS|docs-...|..." or "FAIL|docs-...|..." lines.
"""
import glob
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "tests"))
import mutate  # noqa: E402


def lines_of(path):
    with open(os.path.join(TOP, path)) as f:
        return [ln for ln in f.read().splitlines() if ln.strip() and not ln.startswith("#")]


def defined_counts():
    """What the defining files hold, each counted its own way."""
    matrix = lines_of("tests/matrix.txt")
    rv = [ln for ln in matrix if ln.split("|")[1].strip().startswith("rv-")]
    kunit = [p for p in glob.glob(os.path.join(TOP, "patches", "*KUnit*.patch"))]
    kcases = sum(len(re.findall(r"^\+\s*KUNIT_CASE(?:_PARAM)?\(", open(p).read(), re.M)) for p in kunit)
    bench = open(os.path.join(TOP, "scripts/bench.sh")).read()
    runs = re.search(r"^runs=\(\n(.*?)^\)", bench, re.M | re.S).group(1)
    return {
        "boot cases": len(matrix),
        "riscv64 cases": len(rv),
        "mutants": len(mutate.load()),
        "patches": len(lines_of("patches/series")),
        "KUnit cases": kcases,
        "bench configurations": len(re.findall(r'^\s*"[a-z0-9-]+\|', runs, re.M)),
    }


# How the docs state each count: "<n> <phrase>".
PHRASES = {
    "boot cases": r"(?:(?:boot|matrix)\s+cases|memory\s+maps)",
    "riscv64 cases": r"riscv64\s+(?:boot\s+)?cases",
    "mutants": r"mutants",
    "patches": r"patches",
    "KUnit cases": r"KUnit\s+cases",
    "bench configurations": r"bench(?:mark)?\s+configurations",
}


def docs_texts(root=TOP):
    paths = ["README.md"] + sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
    return {os.path.relpath(os.path.join(root, p), root): open(os.path.join(root, p)).read() for p in paths}


def cover_letter():
    """The cover letter states counts too (its dates are history, not runs)."""
    p = os.path.join(TOP, "patches", "0000-cover-letter.patch")
    return {"patches/0000-cover-letter.patch": open(p).read()} if os.path.exists(p) else {}


def check_counts(texts, counts):
    errors, seen = [], {k: 0 for k in counts}
    for path, text in texts.items():
        for key, phrase in PHRASES.items():
            for m in re.finditer(r"\b(\d+)\s+" + phrase + r"\b", text):
                seen[key] += 1
                if int(m.group(1)) != counts[key]:
                    line = text.count("\n", 0, m.start()) + 1
                    errors.append(f"{path}:{line}: '{' '.join(m.group(0).split())}', the files hold {counts[key]}")
    errors += [f"no document states the number of {k} ({counts[k]})" for k, n in seen.items() if not n]
    return errors, sum(seen.values())


SERIES_LINE = re.compile(r"^Series `([0-9a-f]+)(\+dirty)?` .*`patches/` tree `([0-9a-f]+)`", re.M)


def git(*args):
    r = subprocess.run(["git", "-C", TOP, *args], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


COVER = "0000-cover-letter.patch"
BUT_COVER = ":(exclude)patches/" + COVER


def series_now():
    tree = git("rev-parse", "HEAD:patches")
    clean = git("status", "--porcelain", "--", "patches", BUT_COVER) == ""
    shallow = git("rev-parse", "--is-shallow-repository") == "true"
    commit = None if shallow else git("log", "-1", "--format=%H", "--", "patches", BUT_COVER)
    return tree, clean, commit, shallow


def patches_equal(a, b):
    """Whether trees @a and @b (of patches/) hold the same patches."""
    return git("diff", "--quiet", a, b, "--", ".", ":(exclude)" + COVER) == ""


def same_patches(named, tree):
    """Whether the patches/ tree a report names holds the patches of @tree."""
    if not tree or not named:
        return False
    full = git("rev-parse", "--verify", "--quiet", named + "^{tree}")
    return tree.startswith(named) or bool(full) and patches_equal(full, tree)


def same_commit(named, last):
    """Whether @named is @last, or a later commit whose patches are @last's
    (one that changed the cover letter only)."""
    if last.startswith(named):
        return True
    full = git("rev-parse", "--verify", "--quiet", named + "^{commit}")
    return bool(full) and subprocess.run(
        ["git", "-C", TOP, "merge-base", "--is-ancestor", last, full]).returncode == 0 and \
        patches_equal(full + ":patches", "HEAD:patches")


def check_results(reports, now):
    tree, clean, commit, _ = now
    errors = []
    if not clean:
        errors.append("patches/ has uncommitted changes: no report can describe it")
    if not reports:
        errors.append("no results/*.md")
    for path, text in reports.items():
        m = SERIES_LINE.search(text)
        if not m:
            errors.append(f"{path} does not name the series it was made from (a 'Series `HASH` ...' line)")
            continue
        if m.group(2):
            errors.append(f"{path} was made from a series with uncommitted changes ({m.group(1)}+dirty)")
        if not same_patches(m.group(3), tree):
            missing = not git("rev-parse", "--verify", "--quiet", m.group(3) + "^{tree}")
            errors.append(f"{path} describes the series with patches/ tree {m.group(3)}, "
                          f"patches/ is now {(tree or 'unknown')[:12]}: run the command that makes it" +
                          (" (or, in a shallow clone, git fetch --unshallow: the tree it names is"
                           " not here)" if missing and now[3] else ""))
        elif commit and not same_commit(m.group(1), commit):
            errors.append(f"{path} names commit {m.group(1)}, the last commit that changed a patch "
                          f"is {commit[:7]}")
    return errors


COVER_BLOCK = re.compile(r"^## For the cover letter\n.*?^```\n(.*?)^```", re.M | re.S)


def check_cover(bench, letter):
    """The cover letter quotes bench.md's block for it word for word."""
    m = COVER_BLOCK.search(bench or "")
    if not m:
        return ["results/bench.md has no block 'For the cover letter' (run make bench)"]
    lines = [ln for ln in m.group(1).splitlines() if ln.strip()]
    text = "\n".join(letter.splitlines())
    missing = [ln.strip() for ln in lines if ln.rstrip() not in text]
    if missing:
        return [f"the cover letter does not quote results/bench.md's line '{missing[0]}'"
                + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")]
    return []


WORDING = [
    (r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|"
     r"November|December) 20\d\d\b", "a dated run (dated results go to results/)"),
    (r"\bissue \d+\b", "process wording (an issue number)"),
    (r"\b(?:this|last|previous|next) session\b", "process wording (a session)"),
    (r"\breview of issue\b", "process wording (a review)"),
]


def check_wording(texts):
    errors = []
    for path, text in texts.items():
        for rx, why in WORDING:
            for m in re.finditer(rx, text):
                line = text.count("\n", 0, m.start()) + 1
                errors.append(f"{path}:{line}: '{m.group(0)}': {why}")
        # A placeholder left for a figure: an upper-case token with hyphens
        # alone on a line, outside code blocks.
        fence = False
        for n, ln in enumerate(text.splitlines(), 1):
            if ln.lstrip().startswith("```"):
                fence = not fence
            elif not fence and re.fullmatch(r"\s*[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\s*", ln):
                errors.append(f"{path}:{n}: '{ln.strip()}': a placeholder, not a figure")
    return errors


def report(name, errors, good):
    if errors:
        print(f"FAIL|{name}|{'; '.join(errors[:4])}{' ...' if len(errors) > 4 else ''}")
    else:
        print(f"PASS|{name}|{good}")


def main():
    counts = defined_counts()
    texts = docs_texts()
    reports = {os.path.relpath(p, TOP): open(p).read() for p in sorted(glob.glob(os.path.join(TOP, "results", "*.md")))}
    now = series_now()

    errors, stated = check_counts({**texts, **cover_letter()}, counts)
    report("docs-counts", errors, f"{stated} counts stated in {len(texts) + 1} documents agree with the files "
           f"({', '.join(f'{v} {k}' for k, v in counts.items())})")
    bench = reports.get("results/bench.md")
    letter = next(iter(cover_letter().values()), "")
    errors = check_results(reports, now) + check_cover(bench, letter)
    report("docs-results", errors, f"{len(reports)} reports name the series as it is "
           f"(patches/ tree {(now[0] or '')[:12]}), and the cover letter quotes results/bench.md's "
           "block for it word for word")
    errors = check_wording(texts)
    report("docs-wording", errors, f"no dated run or process wording in {len(texts)} documents")

    # Each check fails on a copy broken in one place only.
    missed = []
    found = next(((p, t) for p, t in texts.items() if re.search(r"\b\d+\s+(?:boot|matrix)\s+cases\b", t)), None)
    if found:
        broken = dict(texts)
        broken[found[0]] = re.sub(r"\b(\d+)(\s+(?:boot|matrix)\s+cases)\b",
                                  lambda m: f"{int(m.group(1)) + 1}{m.group(2)}", found[1], count=1)
    if not found or not check_counts(broken, counts)[0]:
        missed.append("a boot case count changed in one place")
    tree, _, commit, _ = now
    good = (f"Series `{(commit or '0')[:7]}` (the last commit that changed `patches/`; "
            f"`patches/` tree `{(tree or '0')[:12]}`), made by `make x`.\n")
    bad = good.replace(f"tree `{(tree or '0')[:12]}`", "tree `" + "0" * 12 + "`")
    if not any("describes the series with patches/ tree" in e for e in check_results({"results/x.md": bad}, now)):
        missed.append("a report of another series")
    broken = dict(texts)
    broken["README.md"] = texts["README.md"] + "\nMeasured on 3 December 2026.\n"
    if not check_wording(broken):
        missed.append("a dated run")
    broken["README.md"] = texts["README.md"] + "\nSOME-FIGURES\n"
    if not any("SOME-FIGURES" in e for e in check_wording(broken)):
        missed.append("a placeholder")
    listing = git("ls-tree", "HEAD:patches") or ""
    other = next((ln.split()[2] for ln in listing.splitlines() if ln.endswith("\tseries")), None)

    def tree_with(name):  # patches/ at HEAD with @name's contents replaced
        text = "\n".join(ln.replace(ln.split()[2], other) if ln.endswith("\t" + name) else ln
                         for ln in listing.splitlines()) + "\n"
        r = subprocess.run(["git", "-C", TOP, "mktree"], input=text, capture_output=True, text=True)
        return r.stdout.strip()[:12] if r.returncode == 0 else ""
    patch = next((ln.split("\t")[1] for ln in listing.splitlines() if ln.endswith(".patch")
                  and not ln.endswith(COVER)), "")
    if other and (not same_patches(tree_with(COVER), tree) or same_patches(tree_with(patch), tree)):
        missed.append("a report whose series differs from HEAD's in the cover letter only, or in a patch")
    if commit and (not same_commit((git("rev-parse", "HEAD") or "")[:7], commit) or
                   same_commit((git("rev-parse", commit + "^") or "0")[:7], commit)):
        missed.append("a report naming a commit before the last change of a patch")
    toy = "## For the cover letter\n\n```\n  kernel memory   100 +- 71 KiB\n```\n"
    if check_cover(toy, "x\n  kernel memory   100 +- 71 KiB\ny") or \
            not check_cover(toy, "x\n  kernel memory   100 +- 72 KiB\ny"):
        missed.append("a cover letter figure changed in one place")
    report("docs-selftest", [f"not caught: {m}" for m in missed],
           "each check fails on a copy broken in one place (a count, a report's series, a date, "
           "a placeholder, a cover letter figure), and a cover letter change alone passes")


if __name__ == "__main__":
    main()
