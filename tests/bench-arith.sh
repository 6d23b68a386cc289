#!/bin/bash
# The arithmetic of guest/bench.c's comparisons, on saved runs with known
# figures: -C's ratio of geometric means and Welch's 95 % interval, and
# -A's paired interval over the pairs of runs (recomputed by -P from a
# file, with -A's own code), computed here in Python, must be what the tool
# prints, and its verdicts must follow from them. Prints
# "PASS|bench-arith|..." or "FAIL|...".
. "$(dirname "$0")/../scripts/lib.sh"
d=$BUILD/bench-arith
trap 'rc=$?; [ $rc -eq 0 ] || echo "FAIL|bench-arith|stopped early (exit $rc)"' EXIT
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
near() { # label want got: ratio and interval within 0.0006 of each other
	python3 -c 'import re, sys
a, b = ([float(v) for v in re.findall(r"\d+\.\d+", x)] for x in sys.argv[1:3])
sys.exit(not (len(a) == len(b) == 3 and all(abs(x - y) <= 0.0006 for x, y in zip(a, b))))' "$2" "$3" ||
		why+=("$1: want '$2', got '$3'")
}
expect() { # label output test pattern: the test's VERDICT line must match
	grep -q "^VERDICT $3 threads=1 $4" <<<"$2" ||
		why+=("$1: want '$4', got '$(grep "^VERDICT $3" <<<"$2" || true)'")
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
near "40 against 40 runs" "$w8" "$got8"
"$d/bench" -C "$d/a:bind" "$d/m:interleave" >/dev/null 2>&1 && why+=("runs with another -m, yet bench -C compared them")
# A policy the file does not have is no comparison.
"$d/bench" -C "$d/a:interleave" "$d/b:interleave" >/dev/null 2>&1 && why+=("no samples, yet bench -C succeeded")

# -A's pairs (-P): in the order -A writes them, bind and interleave in turn.
pairs() { # file test bind-values... -- interleave-values...
	local f=$1 t=$2 b=() i=() k
	shift 2
	while [ "$1" != -- ]; do b+=("$1"); shift; done
	shift
	i=("$@")
	echo "CONFIG mib=8 cpus=1 page=4096 inject=0%" >"$f"
	for k in "${!b[@]}"; do
		if [ $((k % 2)) -eq 0 ]; then
			printf 'SAMPLE %s 1 bind %s\nSAMPLE %s 1 interleave %s\n' "$t" "${b[k]}" "$t" "${i[k]}"
		else
			printf 'SAMPLE %s 1 interleave %s\nSAMPLE %s 1 bind %s\n' "$t" "${i[k]}" "$t" "${b[k]}"
		fi
	done >>"$f"
}
# p1: 20 % slower in every pair; p2: latency 25 % up (slower by 20 %); p3:
# noise; p4: the machine drifts by 30 % between pairs while interleave stays
# 5 % below bind within each: paired, that is a difference, Welch's
# interval over the same runs (-C) shows none; p5: 10 pairs; p6: 32 pairs
# (beyond the t table); p7: a bind run without its interleaved one.
pairs "$d/p1" copy 99 100 101 -- 79.0 80.3 80.6
pairs "$d/p2" chase 100 100.5 99.5 -- 125 125.5 124.6
pairs "$d/p3" copy 99 100 101 -- 90 105 115
pairs "$d/p4" triad 80 100 120 90 110 -- 76.1 94.9 114.1 85.4 104.6
# shellcheck disable=SC2046
pairs "$d/p5" triad $(seq10 100 10) -- $(seq10 93 10 | awk '{ for (i = 1; i <= NF; i++) printf "%s ", $i * (1 + (i % 3 - 1) / 100) }')
# shellcheck disable=SC2046
pairs "$d/p6" copy $(seq10 100 32) -- $(seq10 97 32 | awk '{ for (i = 1; i <= NF; i++) printf "%s ", $i * (1 + (i % 5 - 2) / 200) }')
pairs "$d/p7" copy 99 100 101 -- 79 80 81
sed -i '$d' "$d/p7"
# p8: one pair (no interval); p9: 33 pairs, more than -A makes; p10: a
# figure of 0; p11: two figures in one file (copy on 1 and 4 CPUs: 20 %
# and 10 % slower) and one -A gave no verdict for (its reason echoed).
pairs "$d/p8" copy 99 -- 79
# shellcheck disable=SC2046
pairs "$d/p9" copy $(seq10 100 33) -- $(seq10 90 33)
pairs "$d/p10" copy 99 100 101 -- 79 0 81
pairs "$d/p11" copy 99 100 101 -- 79.0 80.3 80.6
pairs "$d/p11x" copy 100 100.5 99.5 -- 90 90.4 89.6
sed -n 's/^SAMPLE copy 1 /SAMPLE copy 4 /p' "$d/p11x" >>"$d/p11"
echo "NONE triad 1 the placements do not differ (see PLACEMENT)" >>"$d/p11"
wantp=$(python3 - "$d" <<'PY'
import math, sys
t95 = {2: 4.303, 4: 2.776, 9: 2.262, 31: 2.0395}
def paired(f, test):
    v = {"bind": [], "interleave": []}
    for w in (ln.split() for ln in open(f)):
        if w[0] == "SAMPLE" and w[1] == test:
            x = float(w[4])
            v[w[3]].append(1 / x if test == "chase" else x)
    lr = [math.log(i / b) for b, i in zip(v["bind"], v["interleave"])]
    n = len(lr)
    m = sum(lr) / n
    h = t95[n - 1] * math.sqrt(sum((x - m) ** 2 for x in lr) / (n - 1) / n)
    return f"ratio={math.exp(m):.4f} ci={math.exp(m - h):.4f}..{math.exp(m + h):.4f}"
d = sys.argv[1]
for f, t in (("p1", "copy"), ("p2", "chase"), ("p3", "copy"), ("p4", "triad"), ("p5", "triad"), ("p6", "copy")):
    print(paired(d + "/" + f, t))
PY
)
mapfile -t wp <<<"$wantp"
op=()
for k in 1 2 3 4 5 6; do
	op[k]=$("$d/bench" -P "$d/p$k" 2>&1) || why+=("bench -P p$k failed: $(tail -1 <<<"${op[k]}")")
done
expect "pairs, 20 % slower" "${op[1]}" copy "${wp[0]} interleave is slower by 20.0 % "
expect "pairs, latency 25 % up" "${op[2]}" chase "${wp[1]} interleave is slower by 20.0 % "
expect "pairs, noise" "${op[3]}" copy "${wp[2]} no difference the runs can show$"
expect "pairs under drift" "${op[4]}" triad "${wp[3]} interleave is slower by "
expect "10 pairs" "${op[5]}" triad "${wp[4]} interleave is slower by "
got6=$(sed -n 's/^VERDICT copy threads=1 \(ratio=[^ ]* ci=[^ ]*\) .*/\1/p' <<<"${op[6]}")
near "32 pairs" "${wp[5]}" "$got6"
grep -q '^PAIRED triad threads=1 5 pairs$' <<<"${op[4]}" || why+=("p4: no 'PAIRED triad threads=1 5 pairs' line")
# The same runs as independent samples: the drift hides the difference.
drift=$("$d/bench" -C "$d/p4:bind" "$d/p4:interleave") || why+=("bench -C on p4 failed")
grep -q '^VERDICT triad threads=1 .* no difference the runs can show$' <<<"$drift" ||
	why+=("p4 as independent samples: want no difference, got '$(grep "^VERDICT" <<<"$drift" || true)'")
"$d/bench" -P "$d/p7" >/dev/null 2>&1 && why+=("a bind run without its pair, yet bench -P gave a verdict")
"$d/bench" -P "$d/p8" >/dev/null 2>&1 && why+=("one pair, yet bench -P gave a verdict")
"$d/bench" -P "$d/p9" >/dev/null 2>&1 && why+=("33 pairs (more than -A makes), yet bench -P gave a verdict")
"$d/bench" -P "$d/p10" >/dev/null 2>&1 && why+=("a figure of 0, yet bench -P gave a verdict")
two=$("$d/bench" -P "$d/p11" 2>&1) || why+=("bench -P p11 failed: $(tail -1 <<<"$two")")
expect "two figures, 1 CPU" "$two" copy "${wp[0]} interleave is slower by 20.0 % "
grep -q '^VERDICT copy threads=4 ratio=0.9000 .* interleave is slower by 10.0 % ' <<<"$two" ||
	why+=("two figures, 4 CPUs: want 10 % slower, got '$(grep "^VERDICT copy threads=4" <<<"$two" || true)'")
grep -qx 'VERDICT triad threads=1 none: the placements do not differ (see PLACEMENT)' <<<"$two" ||
	why+=("-A's 'none' not echoed by -P: '$(grep "^VERDICT triad" <<<"$two" || true)'")
# -A pins its threads to CPUs it may use: more than that is refused.
rc=0
taskset -c 0 "$d/bench" -A -r 2 -m 1 -c 2 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || why+=("bench -A -c 2 on one allowed CPU was not refused")
if [ ${#why[@]} -eq 0 ]; then
	echo "PASS|bench-arith|bench -P (-A's paired interval): 20 % slower found (${wp[0]}), latency, noise gives no difference, a 5 % difference under 30 % drift found where -C's independent samples find none, 10 and 32 pairs, a run without its pair, one pair, 33 pairs and a figure of 0 refused, two figures in one file, -A's "none" echoed, -c beyond the allowed CPUs refused; bench -C: ratios and 95 % intervals as computed from the samples ($w1), slower by 20 % found, noise and a run against itself give no difference, within 1 % is no difference above 1 %, unequal sample sizes, 10 and 40 runs a side, other settings refused"
else
	echo "FAIL|bench-arith|$(printf '%s; ' "${why[@]}")"
fi
