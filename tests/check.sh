#!/bin/bash
# make check: every test layer; ends with "N passed, N failed".
. "$(dirname "$0")/../scripts/lib.sh"
RES=$BUILD/results
rm -rf "$RES"
mkdir -p "$RES" "$BUILD/logs/check"
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "PASS $1"; echo "| $1 | pass | ${2:-} |" >>"$RES/table.md"; }
ko() { fail=$((fail + 1)); echo "FAIL $1: $2"; echo "| $1 | **FAIL** | $2 |" >>"$RES/table.md"; }
echo "| test | result | detail |" >"$RES/table.md"
sk() { skip=$((skip + 1)); echo "SKIP $1: $2"; echo "| $1 | skip | $2 |" >>"$RES/table.md"; }
echo "|---|---|---|" >>"$RES/table.md"
# record "PASS|name|detail", "FAIL|..." and "SKIP|..." lines
record() {
	local r name detail
	while IFS='|' read -r r name detail; do
		case "$r" in
		PASS) ok "$name" "$detail" ;;
		SKIP) sk "$name" "$detail" ;;
		*) ko "$name" "$detail" ;;
		esac
	done
}
# layer NAME ROWS cmd...: record what a producer of such lines prints. A
# producer that stops with an error, or prints other than ROWS results
# (when ROWS is given), is a failure of its own: no check is lost silently.
layer() {
	local name=$1 want=$2 lines=$RES/$1.lines rc=0 got
	shift 2
	"$@" >"$lines" || rc=$?
	layer_rc=$rc
	record <"$lines"
	[ "$rc" -eq 0 ] || ko "$name" "stopped with exit status $rc; its remaining checks did not run"
	got=$(grep -c '^[A-Z]*|' "$lines" || true)
	[ -z "$want" ] || [ "$got" -eq "$want" ] || ko "$name-count" "$got results, $want expected"
}
# The time of every layer: lap NAME [NOTE] charges the seconds since the
# last lap to NAME. The table ends every run, and a run longer than the
# budget fails: a slow layer is found by the change that made it slow, not
# by CI's time limit (90 minutes). The budget is set here (CHECK_BUDGET
# overrides it for one run). It holds for a run that starts with a warm
# compiler cache: one that starts with fewer than COLD_FILES files in it
# (a new machine, an emptied cache; a whole run leaves about 15000)
# compiles its kernels from nothing, and its total says how fast the
# machine compiles, not which layer grew: the budget is then a skip that
# says so, and the table stands. A series change compiles much again too,
# but from a full cache: the budget holds.
BUDGET=${CHECK_BUDGET:-4500} COLD_FILES=5000
t_start=$(date +%s) t_lap=$t_start
echo "| layer | seconds | note |" >"$RES/times.md"
echo "|---|---:|---|" >>"$RES/times.md"
lap() {
	local now
	now=$(date +%s)
	echo "| $1 | $((now - t_lap)) | ${2:-} |" >>"$RES/times.md"
	t_lap=$now
}
print_times() {
	local total=$(($(date +%s) - t_start))
	echo "| total | $total | budget $BUDGET |" >>"$RES/times.md"
	echo
	column -t -s'|' -o'|' "$RES/times.md" 2>/dev/null || cat "$RES/times.md"
	if [ "$total" -le "$BUDGET" ]; then
		return
	elif [ -n "${files0:-}" ] && [ "$files0" -lt "$COLD_FILES" ]; then
		sk time-budget "make check took $total s, more than its budget of $BUDGET s, from a cold compiler cache ($files0 files in it at the start, fewer than $COLD_FILES): the budget holds for runs with a warm cache"
	else
		ko time-budget "make check took $total s, more than its budget of $BUDGET s (CHECK_BUDGET); see the layer times"
	fi
}

# Results keyed by their inputs: what the kernel tree holds (the git tree
# ids of the base and of every commit of the series, whatever the clone's
# path), the config fragments and the scripts that configure and build a
# kernel, the layer's own script, the toolchain and the packages the
# layers use. Nothing else goes into a key: a change to the boot scripts,
# the judge or the docs does not run a per-patch build again. A layer whose
# every row passed or is a skip it names (SKIPS; per-patch: NUMA_EMULATION=y
# before the patch that adds it) is kept in a cache beside the compiler
# cache, outside the clone; the same inputs again replay it, skips
# included, and its rows and its line in the layer table say so. Any
# change to an input runs the layer again; a tree with uncommitted
# changes is never kept nor replayed.
# RESULT_CACHE=0 turns it off; a user's tree (KERNEL_SRC) is never cached.
RCACHE=${RESULT_CACHE:-${XDG_CACHE_HOME:-${rig_home:-$BUILD}/.cache}/numa-emu-results}
[ -z "${KERNEL_SRC:-}" ] || RCACHE=0
[ "$RCACHE" = 0 ] || { mkdir -p "$RCACHE" 2>/dev/null && RCACHE=$(realpath "$RCACHE"); } || RCACHE=0
inputs_key() { # file... (the layer's own) -> the key of a layer's inputs
	local f v
	{
		git -C "$TREE" rev-parse 'base^{tree}'
		git -C "$TREE" log --format=%T base..HEAD
		# Each file's name (relative to the rig) and contents.
		for f in "$TOP"/configs/*.config "$TOP"/scripts/{lib,build,config-check}.sh "$@"; do
			echo "== ${f#"$TOP"/}"
			cat "$f"
		done
		# Knobs of kbuild, Sphinx and the boots that change an outcome.
		for v in W C KCFLAGS LLVM SPHINXOPTS DOCS_THEME BOOT_TIMEOUT INITRD STRICT; do
			echo "$v=${!v-}"
		done
		for t in "${CROSS_COMPILE}gcc" "${CROSS_COMPILE}ld" riscv64-linux-gnu-gcc qemu-system-aarch64 sphinx-build; do
			command -v "$t" >/dev/null && "$t" --version 2>&1 | head -1
		done
		dpkg-query -W -f='${Package} ${Version}\n' "linux-source-$KERNEL" ccache sparse \
			python3-docutils python3-sphinx-rtd-theme 2>/dev/null || true
	} | sha1sum | cut -c1-16
}
# keeping: results may be kept and replayed (a cache, a committed tree).
keeping() {
	[ "$RCACHE" != 0 ] && [ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ]
}
# cached NAME ROWS KEY cmd...: layer, or the replay of its kept results.
# SKIPS (in the environment): the SKIP rows a kept layer may hold, a regex;
# MAXAGE: days a layer whose outcome is not deterministic (a boot) is kept.
cached() {
	local name=$1 want=$2 key=$3 kept keep=0 rows='^PASS\|'
	[ -z "${SKIPS:-}" ] || rows="$rows|$SKIPS"
	shift 3
	# The command (which output directories, which trees) is an input too.
	key=$({ echo "$key"; for a in "$@"; do echo "${a//"$TOP"/TOP}"; done; } | sha1sum | cut -c1-16)
	kept=$RCACHE/$name-$key.lines
	keeping && keep=1
	if [ "$keep" != 0 ] && [ -s "$kept" ] &&
		{ [ -z "${MAXAGE:-}" ] || [ -n "$(find "$kept" -mtime -"$MAXAGE")" ]; } &&
		{ [ -z "$want" ] || [ "$(grep -cE "$rows" "$kept")" -eq "$want" ]; }; then
		sed "s/\$/ [kept: inputs $key unchanged]/" "$kept" >"$RES/$name.lines"
		record <"$RES/$name.lines"
		lap "$name" "kept results, inputs $key"
		return
	fi
	layer "$name" "$want" "$@"
	if [ "$keep" != 0 ] && [ "$layer_rc" -eq 0 ] && [ -s "$RES/$name.lines" ] &&
		! grep -qvE "$rows" "$RES/$name.lines" &&
		{ [ -z "$want" ] || [ "$(grep -c . "$RES/$name.lines")" -eq "$want" ]; }; then
		cp "$RES/$name.lines" "$kept.$$" && mv "$kept.$$" "$kept"
	fi
	lap "$name" "ran, inputs $key"
}

# Every way out prints the summary line.
summary() {
	summarized=1
	print_times
	echo
	echo "results table: $RES/table.md"
	if [ "$skip" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped"
	else
		echo "$pass passed, $fail failed"
	fi
}
summarized=
trap 'rc=$?; if [ -z "$summarized" ]; then ko check "stopped early (exit $rc)"; summary; exit 1; fi' EXIT

step "checking packages" "$TOP/scripts/deps.sh"
# (After the packages: a new machine has no ccache before them.)
files0=$(ccache --print-stats 2>/dev/null | awk '$1 == "files_in_cache" { print $2 }' || true)
"$TOP/scripts/tree.sh" || { ko tree "series does not apply"; exit 1; }
lap packages-and-tree

# Layer 1: refresh round trip (patches/ -> tree -> patches/) is byte-identical.
saved=$(mktemp -d)
cp -a "$SERIES_DIR/." "$saved/"
if "$TOP/scripts/refresh.sh" 2>/dev/null && diff -r "$saved" "$SERIES_DIR" >"$RES/refresh.diff"; then
	ok refresh-round-trip "$(grep -vc '^#' "$SERIES_FILE") patches"
else
	ko refresh-round-trip "patches/ changed (see $RES/refresh.diff)"
	rm -rf "${SERIES_DIR:?}"/* && cp -a "$saved/." "$SERIES_DIR/"
fi
rm -rf "$saved"
lap refresh

# The docs: every count they state agrees with the files that define it,
# every results/ report names the series as it is, no dated runs; each
# check shown failing on a copy broken in one place.
layer docs 4 python3 "$TOP/tests/docs_check.py"
lap docs

# Layer 2: kernels. Each config is built once; fragments must survive
# olddefconfig.
"$TOP/scripts/kernels.sh" "$RES/images" "$BUILD/logs/check"
while read -r key image reason; do
	if [ "$image" = FAIL ]; then
		ko "build-$key" "$reason"
		continue
	fi
	O=${image%/arch/*/boot/Image}
	if [ "$key" = 16k-base ] && [ "$O" = "$(PAGES=16k VARIANT=noemu outdir)" ]; then
		continue	# no separate base tree (KERNEL_SRC): same kernel as 16k-noemu
	fi
	a=arm64
	[[ $key == rv-* ]] && a=riscv
	if make -C "$(readlink -f "$O/source")" -s O="$O" ARCH=$a olddefconfig >/dev/null 2>&1 &&
		"$TOP/scripts/config-check.sh" "$O/fragments.config" "$O/.config" 2>"$RES/config-$key.err"; then
		ok "config-$key" "fragments intact after olddefconfig"
	else
		ko "config-$key" "$(head -1 "$RES/config-$key.err")"
	fi
	ok "build-$key"
done <"$RES/images"
lap kernels "$(grep -c . "$RES/images") kernels"
ksft=$("$TOP/scripts/kselftest.sh") && ok kselftest-build "numa_emu_test built with the selftests Makefile" ||
	ko kselftest-build "see $BUILD/kselftest-*.log"
# numactl's own suite needs Debian's arm64 libnuma, fetched with the initramfs.
step "building initramfs" "$TOP/scripts/initramfs.sh" >/dev/null
nt=$(step "numactl's test suite (Debian source, arm64)" "$TOP/scripts/numactl-tests.sh") &&
	ok numactl-tests-build "numactl $(dpkg-deb -f "$BUILD"/debs/numactl_*_arm64.deb Version) test programs and numademo" ||
	ko numactl-tests-build "could not build numactl's test suite"
GUEST_EXTRA="$ksft $nt" step "building initramfs" "$TOP/scripts/initramfs.sh" >/dev/null
# The riscv64 guest: the same kselftest and helpers, built for riscv64.
if grep -q '^rv-emu /' "$RES/images"; then
	rvksft=$(RIG_ARCH=riscv64 "$TOP/scripts/kselftest.sh") &&
		ok kselftest-build-riscv64 "numa_emu_test built for riscv64" ||
		ko kselftest-build-riscv64 "see $BUILD/kselftest-*-riscv64.log"
	RIG_ARCH=riscv64 GUEST_EXTRA=$rvksft step "building initramfs (riscv64)" \
		"$TOP/scripts/initramfs.sh" >/dev/null
fi

lap guest-programs "kselftest, numactl's suite, initramfs"
# The judge's own check: every property check fails on a layout breaking it.
if python3 "$TOP/tests/judge.py" --selftest >"$RES/judge-selftest.out" 2>&1; then
	ok judge-selftest "$(tail -1 "$RES/judge-selftest.out")"
else
	ko judge-selftest "$(grep -m1 -E 'MISSED|NEVER FIRED|REJECTED' "$RES/judge-selftest.out" || tail -1 "$RES/judge-selftest.out")"
fi
lap judge-selftest

# Layer 3: the boot matrix, two guests at a time, judged against the rules.
t0=$(date +%s)
cases=$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$TOP/tests/matrix.txt")
# The boots are kept like the layers below, keyed by what they read but
# the judge (the tree, configs, the rig's scripts, this script, which
# composes the guests' programs, the guest programs, the matrix, the
# guests' packages and C libraries, QEMU and its firmware, the knobs):
# with the same inputs, the kept boot logs are judged again by the judge
# as it is now, without booting (REJUDGE), and the rows say so. Boots are
# not deterministic (timeouts, QEMU's threads, OpenSBI's hart race): kept
# logs are used for 7 days, then the matrix boots again. The logs of a
# run whose every boot passed are kept, the newest 3 sets.
mlogs=$BUILD/logs/check
mkey=$(inputs_key "$TOP"/scripts/*.sh "$TOP"/scripts/*.py "$TOP"/guest/* "$TOP/tests/check.sh" \
	"$TOP"/tests/{matrix.sh,matrix.txt,dt-variants.txt,dtvariant.py} <(ls "$BUILD/debs") \
	<(dpkg-query -W -f='${Package} ${Version}\n' qemu-system-arm qemu-system-misc qemu-efi-aarch64 \
		opensbi u-boot-qemu device-tree-compiler libc6-dev-arm64-cross libc6-dev-riscv64-cross 2>/dev/null || true))
mkept=$RCACHE/matrix-$mkey.tar.gz mnote=
rc=0
if keeping && [ -n "$(find "$mkept" -mtime -7 -size +0 2>/dev/null)" ]; then
	rm -f "$mlogs"/boot-*.log "$mlogs"/boot-*.log.hung
	if tar -xzf "$mkept" -C "$mlogs"; then
		mnote=" [judged again: boot logs kept, inputs $mkey unchanged]"
	else
		rm -f "$mkept"
	fi
fi
if [ -n "$mnote" ]; then
	env -u CASES -u EXTRA_CMDLINE LOGS="$mlogs" REJUDGE=1 "$TOP/tests/matrix.sh" "$RES/images" "$RES/boots.out" || rc=$?
	say "$(wc -l <"$RES/boots.out") kept boot logs judged again in $(($(date +%s) - t0)) s"
else
	env -u CASES -u REJUDGE -u EXTRA_CMDLINE LOGS="$mlogs" "$TOP/tests/matrix.sh" "$RES/images" "$RES/boots.out" || rc=$?
	say "$(wc -l <"$RES/boots.out") boots took $(($(date +%s) - t0)) s"
	if keeping && [ "$rc" -eq 0 ] && [ "$(grep -c '^PASS|' "$RES/boots.out")" -eq "$cases" ]; then
		# The logs of the cases that ran (older names may linger in $mlogs),
		# with the first boot of a riscv64 guest booted twice.
		if cut -d'|' -f2 "$RES/boots.out" | sed 's/.*/boot-&.log/' |
			while read -r f; do echo "$f"; [ ! -e "$mlogs/$f.hung" ] || echo "$f.hung"; done |
			tar -czf "$mkept.$$" -C "$mlogs" -T - &&
			mv "$mkept.$$" "$mkept"; then
			ls -t "$RCACHE"/matrix-*.tar.gz | tail -n +4 | xargs -r rm -f
		else
			rm -f "$mkept.$$"
		fi
	fi
fi
sort -t'|' -k2 "$RES/boots.out" | sed "s/|/|boot-/; s/\$/$mnote/" >"$RES/boots.lines"
record <"$RES/boots.lines"
[ "$rc" -eq 0 ] || ko matrix "stopped with exit status $rc"
[ "$(wc -l <"$RES/boots.out")" -eq "$cases" ] ||
	ko matrix-count "$(wc -l <"$RES/boots.out") boots, tests/matrix.txt has $cases cases"
lap matrix "$(wc -l <"$RES/boots.out") ${mnote:+kept }boots${mnote:+, judged again}"

# Layer 4: off means off.
"$TOP/tests/offcheck.sh" "$BUILD/logs/check" >"$RES/off.out" 2>&1 &&
	ok off-means-off "$(tail -1 "$RES/off.out")" || ko off-means-off "$(tail -1 "$RES/off.out")"
lap off-means-off

# Layer 5: KUnit (tests/kunit.sh: every case of the suite ran, at boot and
# in debugfs after boot, none failed, none skipped; KUNIT_ALL_TESTS turns
# it on). Kept under the key of what its boot reads too, and for 7 days,
# as the matrix's boots.
kcases=$(grep -c -E '^[[:space:]]*KUNIT_CASE(_PARAM)?\(' "$TREE/drivers/base/test/numa_emulation_kunit.c" || true)
kunit_layer() { # prints the kunit result line
	local o=$RES/kunit.out
	if step "kunit" "$TOP/tests/kunit.sh" >"$o" 2>&1; then
		echo "PASS|kunit|$(grep -m1 'Testing complete' "$o" | sed 's/.*Testing/Testing/') (the suite has $kcases cases); $(grep -m1 '^debugfs after boot' "$o"); $(grep -m1 '^KUNIT_ALL_TESTS' "$o")"
	else
		echo "FAIL|kunit|$(grep -m1 -E '^error|FAILED' "$o" || tail -1 "$o")"
	fi
}
MAXAGE=7 cached kunit 1 "$(inputs_key "$TOP/tests/kunit.sh" "$TOP"/scripts/{boot,initramfs}.sh "$TOP"/guest/* \
	<(ls "$BUILD/debs") <(dpkg-query -W -f='${Package} ${Version}\n' qemu-system-arm 2>/dev/null || true) \
	<(python3 --version) <(declare -f kunit_layer))" kunit_layer

# Layer 6: kernel hygiene, and every patch building on its own.
npatches=$(series_patches | wc -l)
cached hygiene $((npatches + 3)) "$(inputs_key "$TOP/tests/hygiene.sh" "$TOP/scripts/kernels.sh" $(series_patches))" env O16="$(PAGES=16k VARIANT=emu outdir)" \
	BASE_O="$(TREE=$BASE_TREE PAGES=16k VARIANT=noemu outdir)" "$TOP/tests/hygiene.sh"
cached htmldocs 1 "$(inputs_key "$TOP/tests/htmldocs.sh")" env RCACHE="$RCACHE" "$TOP/tests/htmldocs.sh"
t0=$(date +%s)
# Three builds (NUMA_EMULATION=y, =n, NUMA=n) of every commit of the series.
# Its one skip: the NUMA_EMULATION=y build of a patch before the option.
SKIPS='^SKIP\|patch-[0-9]+-emu\|no NUMA_EMULATION yet' \
	cached per-patch $(($(git -C "$TREE" rev-list --count base..HEAD) * 3)) "$(inputs_key "$TOP/tests/per-patch.sh")" \
	"$TOP/tests/per-patch.sh"
say "per-patch builds took $(($(date +%s) - t0)) s"

# Layer 7: the Raspberry Pi 5 guide (docs/pi5.md), followed as written.
layer guide "" "$TOP/tests/guide.sh"
lap guide

# Layer 8: the real clients on the Raspberry Pi OS stand-in (Debian 12
# arm64 with systemd), one result per case of tests/clients.txt.
t0=$(date +%s)
layer clients "$(grep -c -v -e '^#' -e '^[[:space:]]*$' "$TOP/tests/clients.txt")" "$TOP/tests/clients.sh"
say "real clients took $(($(date +%s) - t0)) s"
lap clients

# Layer 9: a fixed sample of the mutants (make mutants runs them all):
# each plausible defect must be caught by some layer.
t0=$(date +%s)
# The control's boots come from this run's matrix only when it booted,
# and its KUnit result only when the suite ran in this run: with kept
# results the sample runs its own control, so that a host that no longer
# boots the series cannot count as killing every mutant.
control=$RES/boots.out
[ -z "$mnote" ] || control=
kpassed=
grep '^PASS|kunit|' "$RES/kunit.lines" | grep -qv '\[kept: ' && kpassed=1
layer mutants "$(python3 "$TOP/tests/mutate.py" LIST --sample | wc -l)" \
	env MUTANTS_PREPARED=1 SAMPLE=1 CONTROL_BOOTS="$control" BOOT_TIMEOUT="${BOOT_TIMEOUT:-300}" \
	KUNIT_PASSED="$kpassed" "$TOP/tests/mutants.sh"
say "mutant sample took $(($(date +%s) - t0)) s"
lap mutants

summary
[ "$fail" -eq 0 ]
