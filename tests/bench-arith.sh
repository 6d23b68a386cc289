#!/bin/bash
# The arithmetic of guest/bench.c's comparisons (-C), on saved runs with
# known figures: the ratio of geometric means and Welch's 95 % interval,
# computed here in Python, must be what the tool prints, and its verdicts
# must follow from them. Prints "PASS|bench-arith|..." or "FAIL|...".
. "$(dirname "$0")/../scripts/lib.sh"
d=$BUILD/bench-arith
rm -rf "$d" && mkdir -p "$d"
gcc -O2 -Wall -Werror -pthread -o "$d/bench" "$TOP/guest/bench.c" -lm || {
	echo "FAIL|bench-arith|guest/bench.c does not build on the host"
	exit 0
}
samples() { # file test threads policy values...
	local f=$1 t=$2 th=$3 p=$4 v
	shift 4
	for v in "$@"; do echo "SAMPLE $t $th $p $v"; done >>"$f"
}
# a: copy at 99, 100, 101 MiB/s (bind); b: 80 % of that (interleave), so
# slower by 20 %; c: noise around 1 (90..115 against 99..101); chase is
# latency, ns: 125 against 100 is slower by 20 % too.
for f in a b c e t u; do echo "CONFIG mib=8 cpus=1 page=4096 inject=0%" >"$d/$f"; done
echo "CONFIG mib=16 cpus=1 page=4096 inject=0%" >"$d/m"
samples "$d/a" copy 1 bind 99 100 101
samples "$d/a" chase 1 bind 100 100.5 99.5
samples "$d/b" copy 1 interleave 79.2 80 80.8
samples "$d/b" chase 1 interleave 125 125.625 124.375
samples "$d/c" copy 1 interleave 90 105 115
# e: 0.5 % above t, both tight (inside the 1 % resolution); u: five runs
# against a's three (the smaller sample's degrees of freedom); m: the same
# figures as b, but made with another -m.
samples "$d/t" copy 1 bind 99.99 100 100.01
samples "$d/e" copy 1 interleave 100.49 100.5 100.51
samples "$d/u" copy 1 interleave 79 79.5 80 80.5 81
samples "$d/m" copy 1 interleave 79.2 80 80.8
# Ten and forty runs each (9 and 39 degrees of freedom: the t table and
# the formula beyond it), slower by 10 %.
for f in p q r w; do echo "CONFIG mib=8 cpus=1 page=4096 inject=0%" >"$d/$f"; done
seq10() { awk -v c="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s ", c * (1 + ((i * 7) % 11 - 5) / 40) }'; }
# shellcheck disable=SC2046
samples "$d/p" triad 1 bind $(seq10 100 10)
# shellcheck disable=SC2046
samples "$d/q" triad 1 interleave $(seq10 90 10)
# shellcheck disable=SC2046
samples "$d/r" triad 1 bind $(seq10 100 40)
# shellcheck disable=SC2046
samples "$d/w" triad 1 interleave $(seq10 90 40)
out=$("$d/bench" -C "$d/a:bind" "$d/b:interleave") && noise=$("$d/bench" -C "$d/a:bind" "$d/c:interleave") &&
	same=$("$d/bench" -C "$d/a:bind" "$d/a:bind") && res=$("$d/bench" -C "$d/t:bind" "$d/e:interleave") &&
	uneq=$("$d/bench" -C "$d/a:bind" "$d/u:interleave") && ten=$("$d/bench" -C "$d/p:bind" "$d/q:interleave") &&
	forty=$("$d/bench" -C "$d/r:bind" "$d/w:interleave") || {
	echo "FAIL|bench-arith|bench -C failed"
	exit 0
}
# The expected figures, from the samples themselves.
want=$(python3 - "$d" <<'PY'
import math, sys
# Student's t, two-sided 95 %, from a table of the distribution.
t95 = {2: 4.303, 9: 2.262, 39: 2.023}
def load(f, pol):
    return [float(w[4]) for w in (ln.split() for ln in open(f)) if w[0] == "SAMPLE" and w[3] == pol]
def figs(a, b, latency=False):
    la = [math.log(1 / x if latency else x) for x in a]
    lb = [math.log(1 / x if latency else x) for x in b]
    ma, mb = sum(la) / len(la), sum(lb) / len(lb)
    va = sum((x - ma) ** 2 for x in la) / (len(la) - 1)
    vb = sum((x - mb) ** 2 for x in lb) / (len(lb) - 1)
    h = t95[min(len(a), len(b)) - 1] * math.sqrt(va / len(a) + vb / len(b))
    return f"ratio={math.exp(mb - ma):.4f} ci={math.exp(mb - ma - h):.4f}..{math.exp(mb - ma + h):.4f}"
print(figs([99, 100, 101], [79.2, 80, 80.8]))
print(figs([100, 100.5, 99.5], [125, 125.625, 124.375], latency=True))
print(figs([99, 100, 101], [90, 105, 115]))
print(figs([99, 100, 101], [99, 100, 101]))
print(figs([99.99, 100, 100.01], [100.49, 100.5, 100.51]))
print(figs([99, 100, 101], [79, 79.5, 80, 80.5, 81]))
d = sys.argv[1]
print(figs(load(d + "/p", "bind"), load(d + "/q", "interleave")))
print(figs(load(d + "/r", "bind"), load(d + "/w", "interleave")))
PY
)
why=()
w1=$(sed -n 1p <<<"$want") w2=$(sed -n 2p <<<"$want") w3=$(sed -n 3p <<<"$want") w4=$(sed -n 4p <<<"$want") w5=$(sed -n 5p <<<"$want") w6=$(sed -n 6p <<<"$want")
w7=$(sed -n 7p <<<"$want") w8=$(sed -n 8p <<<"$want")
expect() { # label output test pattern: the test's VERDICT line must match
	grep -q "^VERDICT $3 threads=1 $4" <<<"$2" ||
		why+=("$1: want '$4', got '$(grep "^VERDICT $3" <<<"$2")'")
}
expect copy "$out" copy "$w1 $d/b:interleave is slower than $d/a:bind by 20.0 % "
expect chase "$out" chase "$w2 $d/b:interleave is slower than $d/a:bind by 20.0 % "
expect noise "$noise" copy "$w3 no difference the runs can show$"
expect "a run against itself" "$same" copy "$w4 no difference the runs can show$"
expect "within 1 %" "$res" copy "$w5 no difference the runs can show above 1 % "
expect "3 against 5 runs" "$uneq" copy "$w6 .* is slower than "
expect "10 against 10 runs" "$ten" triad "$w7 .* is slower than "
# Beyond the table the tool's formula is within 0.002 of t: the last digit may differ.
got8=$(sed -n 's/^VERDICT triad threads=1 \(ratio=[^ ]* ci=[^ ]*\) .*/\1/p' <<<"$forty")
python3 -c 'import re, sys
a, b = ([float(v) for v in re.findall(r"\d+\.\d+", x)] for x in sys.argv[1:3])
sys.exit(not (len(a) == len(b) == 3 and all(abs(x - y) <= 0.0006 for x, y in zip(a, b))))' "$w8" "$got8" ||
	why+=("40 against 40 runs: want '$w8', got '$got8'")
"$d/bench" -C "$d/a:bind" "$d/m:interleave" >/dev/null 2>&1 && why+=("runs with another -m, yet bench -C compared them")
# A policy the file does not have is no comparison.
"$d/bench" -C "$d/a:interleave" "$d/b:interleave" >/dev/null 2>&1 && why+=("no samples, yet bench -C succeeded")
if [ ${#why[@]} -eq 0 ]; then
	echo "PASS|bench-arith|bench -C: ratios and 95 % intervals as computed from the samples ($w1), slower by 20 % found, noise and a run against itself give no difference, within 1 % is no difference above 1 %, unequal sample sizes, 10 and 40 runs a side, other settings refused"
else
	echo "FAIL|bench-arith|$(printf '%s; ' "${why[@]}")"
fi
