#!/bin/bash
# make mutants: build each plausible defect of tests/mutants.txt into the
# kernels, run the layers that could see it, and report killed or survived.
# Usage: mutants.sh [NAME...]   (SAMPLE=1: the mutants marked sample: yes)
# Layers, in order, stopping at the first that fails: the KUnit suite (for
# the splitter), then the mutant's boot cases (judge and kselftest). Writes
# $BUILD/results/mutants.md and prints "PASS|mutant-NAME|..." for a killed
# mutant, "FAIL|..." for a survivor that is not shown equivalent.
. "$(dirname "$0")/../scripts/lib.sh"
RES=$BUILD/results
LOGS=$BUILD/logs/mutants
mkdir -p "$RES" "$LOGS"
M="python3 $TOP/tests/mutate.py"

if [ $# -gt 0 ]; then
	names=("$@")
elif [ -n "${SAMPLE:-}" ]; then
	mapfile -t names < <($M LIST --sample)
else
	mapfile -t names < <($M LIST)
fi
[ ${#names[@]} -gt 0 ] || die "no mutants to run"

if [ -z "${MUTANTS_PREPARED:-}" ]; then
	"$TOP/scripts/deps.sh"
	"$TOP/scripts/tree.sh" >&2
	ksft=$("$TOP/scripts/kselftest.sh")
	GUEST_EXTRA=$ksft "$TOP/scripts/initramfs.sh" >/dev/null
	# The riscv64 cases boot their own initramfs, with the kselftest
	# built for riscv64 (as make check makes it).
	rvksft=$(RIG_ARCH=riscv64 "$TOP/scripts/kselftest.sh")
	RIG_ARCH=riscv64 GUEST_EXTRA=$rvksft "$TOP/scripts/initramfs.sh" >/dev/null
fi
mapfile -t files < <(for n in "${names[@]}"; do $M GET "$n" file; done | sort -u)
git -C "$TREE" diff --quiet HEAD -- "${files[@]}" ||
	die "$TREE has uncommitted changes in ${files[*]}: commit or drop them first"
$M CHECK "$TREE" >"$LOGS/check.out" || die "$(head -1 "$LOGS/check.out")"
restore() { git -C "$TREE" checkout -q HEAD -- "${files[@]}"; }
trap restore EXIT

# The kernel a matrix key names, built from the (mutated) tree.
build_key() { # key
	local arch=arm64 pages=${1%%-*} variant=${1#*-}
	if [ "$1" = rv-emu ]; then arch=riscv64 pages=4k variant=emu; fi
	case "$variant" in
	emu|acpi) ;;
	*) echo "error: mutants build emu, acpi and rv kernels only, not $1" >&2; return 1 ;;
	esac
	RIG_ARCH=$arch PAGES=$pages VARIANT=$variant "$TOP/scripts/build.sh"
}

# The cases to boot: every mutant's, in one regex.
all_cases=$(for n in "${names[@]}"; do $M GET "$n" cases; done | paste -sd'|')
cases_keys() { # regex -> matrix kernel keys
	grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/tests/matrix.txt" |
		grep -E "^(${1})[[:space:]]*\|" | awk -F'|' '{gsub(/ /, "", $2); print $2}' | sort -u
}
build_all() { # regex images-file [log-prefix]: build the kernels the cases need
	: >"$2"
	local k img keys
	keys=$(cases_keys "$1")
	[ -n "$keys" ] || die "no matrix case matches $1"
	for k in $keys; do
		img=$(build_key "$k" 2>"$LOGS/${3:-}build-$k.log") || return 1
		echo "$k $img" >>"$2"
	done
}

# Control: the series itself passes every case the mutants use; otherwise
# a "kill" would say nothing.
build_all "$all_cases" "$LOGS/control.images" || die "the series does not build (see $LOGS/build-*.log)"
# The same boot timeout for the control and the mutants: a slow boot is not
# a kill.
export BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
uses_kunit=$(for n in "${names[@]}"; do $M GET "$n" kunit; done)
# make check hands over its own results of the same run (KUNIT_PASSED=1,
# CONTROL_BOOTS=its boot verdicts) instead of running them again.
if grep -qx yes <<<"$uses_kunit" && [ -z "${KUNIT_PASSED:-}" ]; then
	krc=0
	KUNIT_LOGS=$LOGS/control-kunit "$TOP/tests/kunit.sh" >"$LOGS/control-kunit.log" 2>&1 || krc=$?
	[ "$krc" -ne 3 ] || die "the rig could not run the KUnit suite ($LOGS/control-kunit.log)"
	[ "$krc" -eq 0 ] ||
		die "the KUnit suite fails on the series ($LOGS/control-kunit.log); no mutant can be judged by it"
	say "control: the KUnit suite passes on the series"
fi
if [ -n "${CONTROL_BOOTS:-}" ]; then
	grep -E "^[A-Z]+\|(${all_cases})\|" "$CONTROL_BOOTS" >"$LOGS/control.boots" || true
	[ "$(wc -l <"$LOGS/control.boots")" -eq "$(grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/tests/matrix.txt" |
		grep -cE "^(${all_cases})[[:space:]]*\|")" ] || die "$CONTROL_BOOTS lacks cases the mutants use"
else
	LOGS=$LOGS/control CASES=$all_cases "$TOP/tests/matrix.sh" "$LOGS/control.images" "$LOGS/control.boots"
fi
if grep -q '^FAIL' "$LOGS/control.boots"; then
	grep '^FAIL' "$LOGS/control.boots" | sed 's/^/control: /' >&2
	die "the series fails cases the mutants use; no mutant can be judged"
fi
say "control: the series passes the $(wc -l <"$LOGS/control.boots") cases the mutants use"

out=$RES/mutants.out
: >"$out"
t_all=$(date +%s)
for n in "${names[@]}"; do
	t0=$(date +%s)
	cases=$($M GET "$n" cases)
	layer= detail=
	$M APPLY "$TREE" "$n"
	if [ "$($M GET "$n" kunit)" = yes ]; then
		krc=0
		ran_kunit=1
		KUNIT_LOGS=$LOGS/$n-kunit "$TOP/tests/kunit.sh" >"$LOGS/$n-kunit.log" 2>&1 || krc=$?
		if [ "$krc" -eq 2 ]; then
			layer=invalid detail="the KUnit kernel does not build ($LOGS/$n-kunit.log)"
		elif [ "$krc" -eq 3 ]; then
			layer=rig detail="KUnit: $(grep -m1 '^error' "$LOGS/$n-kunit.log" || tail -1 "$LOGS/$n-kunit.log")"
		elif [ "$krc" -ne 0 ] && grep -q 'Testing complete' "$LOGS/$n-kunit.log"; then
			layer=kunit
			detail=$( (grep -m1 -E 'EXPECTATION FAILED|ASSERTION FAILED|\[FAILED\]|\[CRASHED\]|^error' "$LOGS/$n-kunit.log" ||
				tail -1 "$LOGS/$n-kunit.log") | sed 's/^\[[0-9:]*\] //')
		elif [ "$krc" -ne 0 ]; then
			layer=kunit detail="the suite did not complete: $(tail -1 "$LOGS/$n-kunit.log")"
		fi
	fi
	if [ -z "$layer" ]; then
		images=$LOGS/$n.images
		build_all "$cases" "$images" "$n-" ||
			layer=invalid detail="a kernel does not build ($LOGS/$n-build-*.log)"
	fi
	if [ -z "$layer" ]; then
		LOGS=$LOGS/$n CASES=$cases "$TOP/tests/matrix.sh" "$images" "$LOGS/$n.boots"
		nb=$(wc -l <"$LOGS/$n.boots")
		# Which boots failed, and whether the judge's own properties, the
		# kselftest inside the guest, or the boot itself saw it.
		read -r judge ksft hung first < <(python3 - "$LOGS/$n.boots" <<-'EOF'
			import sys
			j = k = h = 0
			first = "-"
			for ln in open(sys.argv[1]):
			    r, name, why = (ln.rstrip("\n").split("|", 2) + ["", ""])[:3]
			    if r == "PASS":
			        continue
			    if why.startswith("guest did not start"):
			        print("rig", 0, 0, name)
			        sys.exit()
			    if first == "-":
			        first = name
			    if why.startswith("boot did not finish"):
			        h += 1
			        continue
			    errs = why.split("; ")
			    k += any(e.startswith("kselftest") for e in errs)
			    j += any(not e.startswith("kselftest") for e in errs)
			print(j, k, h, first)
		EOF
		)
		[ -n "$first" ] || die "mutant $n: cannot read $LOGS/$n.boots"
		if [ "$judge" = rig ]; then
			# QEMU did not start a guest: the rig failed, the mutant
			# was not judged.
			layer=rig detail="$first: $(grep -m1 "^FAIL|$first|" "$LOGS/$n.boots" | cut -d'|' -f3 | cut -c1-160)"
		elif [ "$judge$ksft$hung" != 000 ]; then
			if [ "$judge" -gt 0 ]; then layer=judge; elif [ "$ksft" -gt 0 ]; then layer=kselftest; else layer=boot; fi
			why=$(grep -m1 "^FAIL|$first|" "$LOGS/$n.boots" | cut -d'|' -f3 | cut -c1-160)
			detail="$first: $why (of $nb boots: judge $judge, kselftest $ksft, no finish $hung)"
		else
			detail="$nb boots passed"
		fi
	fi
	restore
	secs=$(($(date +%s) - t0))
	equiv=$($M GET "$n" equivalent)
	if [ "$layer" = invalid ]; then
		echo "INVALID|$n|-|$detail|$secs" >>"$out"
		echo "FAIL|mutant-$n|not a valid mutant: $detail"
	elif [ "$layer" = rig ]; then
		echo "ERROR|$n|-|$detail|$secs" >>"$out"
		echo "FAIL|mutant-$n|not judged, the rig failed: $detail"
	elif [ -n "$layer" ]; then
		echo "KILLED|$n|$layer|$detail|$secs" >>"$out"
		echo "PASS|mutant-$n|killed by $layer in $secs s: $detail"
	elif [ -n "$equiv" ]; then
		echo "EQUIVALENT|$n|-|$detail; $equiv|$secs" >>"$out"
		echo "PASS|mutant-$n|survived, shown equivalent: $equiv"
	else
		echo "SURVIVED|$n|-|$detail|$secs" >>"$out"
		echo "FAIL|mutant-$n|survived: $detail"
	fi
done
total=$(($(date +%s) - t_all))
# Leave no kernel built from a mutant behind (the KUnit kernel included).
restore
build_all "$all_cases" "$LOGS/restored.images" || die "the restored series does not build"
[ -z "${ran_kunit:-}" ] || build_key 16k-acpi >/dev/null 2>"$LOGS/restored-kunit.log" ||
	die "the restored series' KUnit kernel does not build ($LOGS/restored-kunit.log)"

# The report.
SERIES=$(series_id) python3 "$TOP/tests/mutants-report.py" "$out" "$total" >"$RES/mutants.md"
say "$(tail -1 "$RES/mutants.md")"
# A full run is the published report (a sample or named mutants are not).
if [ $# -eq 0 ] && [ -z "${SAMPLE:-}" ]; then
	cp "$RES/mutants.md" "$TOP/results/mutants.md"
	say "results/mutants.md written"
fi
