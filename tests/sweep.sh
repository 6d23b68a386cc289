#!/bin/bash
# make mutants-sweep: mutants made mechanically over the series' code (the
# splitter, and the lines patches 1 and 3-7 add to arch_numa.c, mm/ and
# the arm64 and riscv init.c; tests/sweep.py: every relational operator, && and ||,
# + 1 and - 1, min and max, a negation, an early continue, break or
# return), all built into the kernels and each switched on at boot with
# numa_emu_mutant=ID. The KUnit suite sees each first (one build, one boot
# per mutant); its survivors boot those cases of tests/sweep-cases.txt that
# reach their code (a kernel for each page size, UEFI/ACPI and riscv64), in
# order, until one fails. A survivor named in
# tests/sweep-equivalent.txt is equivalent (the reason is given there)
# and is not booted.
# Writes results/mutants-sweep.md on a full run. A run stopped part way
# is continued by the next (the verdicts reached are kept, a boot's for
# each case, so a case added to the sweep boots only that case).
# Usage: sweep.sh   (SWEEP_IDS="3 17 40": only these mutants; SWEEP_BOOTS=0:
# KUnit only; either way the report stays in build/results)
RIG_ARCH=arm64 # the riscv64 kernel is built below
. "$(dirname "$0")/../scripts/lib.sh"
RES=$BUILD/results
# The files the series adds code to (the splitter first: it holds the switch).
srcs=(drivers/base/numa_emulation.c drivers/base/arch_numa.c mm/memory.c mm/mempolicy.c mm/mprotect.c
	arch/arm64/mm/init.c arch/riscv/mm/init.c)
"$TOP/scripts/deps.sh"
"$TOP/scripts/tree.sh" >&2
# An index past one of the splitter's arrays traps (an Oops), as with
# UBSAN_BOUNDS, without a configuration that would compile every file anew.
mk=drivers/base/Makefile bounds='CFLAGS_numa_emulation.o += -fsanitize=bounds -fsanitize-undefined-trap-on-error'
git -C "$TREE" diff --quiet HEAD -- "${srcs[@]}" "$mk" || die "$TREE has uncommitted changes in ${srcs[*]} $mk"
# A run stopped part way is continued: the verdicts already reached are
# kept, KUnit's under a key of what decides them (the kernel's source, the
# mutants, the configs and the bounds flag, the compiler), the boots' under one of the rig and
# the kselftest as well (the scripts, the guests), and each boot's under
# its case's line in tests/matrix.txt too, so a change of the rig or of the
# series' documentation keeps KUnit's verdicts, a case added or changed
# boots only that case, and a change of the judge judges the kept logs again.
kkey=$( (git -C "$TREE" ls-tree HEAD | grep -v -P '\t(tools|Documentation)$'
	cat "$TOP"/tests/sweep.py "$TOP"/configs/*; echo "${srcs[*]} $bounds"; "${CROSS_COMPILE}gcc" --version) | sha1sum | cut -c1-16)
bkey=$( (echo "$kkey"; git -C "$TREE" rev-parse HEAD:tools/testing/selftests/numa_emu
	cat "$TOP"/tests/sweep.sh "$TOP"/tests/dt-variants.txt "$TOP"/tests/dtvariant.py \
	"$TOP"/tests/matrix.sh "$TOP"/scripts/* "$TOP"/guest/*
	qemu-system-aarch64 --version; qemu-system-riscv64 --version; dpkg-query -W qemu-efi-aarch64 opensbi) |
	sha1sum | cut -c1-16)
LOGS=$BUILD/logs/sweep-$kkey
BOOTS=$LOGS/boots-$bkey
find "$BUILD/logs" -maxdepth 1 -name 'sweep-*' ! -name "sweep-$kkey" -exec rm -rf {} +
[ ! -d "$LOGS" ] || find "$LOGS" -maxdepth 1 -name 'boots-*' -type d ! -name "boots-$bkey" -exec rm -rf {} +
mkdir -p "$LOGS" "$BOOTS" "$RES"
[ ! -e "$LOGS/list" ] || say "continuing the run in $LOGS ($(find "$LOGS" -maxdepth 1 -name 'kunit-[0-9]*.rc' | wc -l) KUnit and $(find "$BOOTS" -name 'b-*' | wc -l) boots kept)"
ksft=$("$TOP/scripts/kselftest.sh")
GUEST_EXTRA=$ksft "$TOP/scripts/initramfs.sh" >/dev/null
restore() { git -C "$TREE" checkout -q HEAD -- "${srcs[@]}" "$mk"; }
trap restore EXIT
for f in "${srcs[@]}"; do # each file as the series leaves it, and the lines it adds
	mkdir -p "$LOGS/orig/$(dirname "$f")"
	git -C "$TREE" show "HEAD:$f" >"$LOGS/orig/$f"
	git -C "$TREE" diff --no-ext-diff --no-color --inter-hunk-context=0 -U0 base HEAD -- "$f" | awk '/^@@/ { split($3, a, ","); n = a[2] == "" ? 1 : a[2]
		for (i = 0; i < n; i++) print substr(a[1], 2) + i }' >"$LOGS/orig/$f.added"
done
python3 "$TOP/tests/sweep.py" GEN "$LOGS/list" "$LOGS/orig" "$TREE" "${srcs[@]}" >&2
echo "$bounds" >>"$TREE/$mk"
ids=${SWEEP_IDS:-$(cut -f1 "$LOGS/list")}
t_all=$(date +%s)

# KUnit: the schemata kernel with no mutant on passes, then each mutant.
kunit() { # kunit.py command, extra arguments
	(cd "$TREE" && python3 tools/testing/kunit/kunit.py "$1" --arch=arm64 \
		--build_dir="$BUILD/kunit-sweep" --timeout 120 \
		--kernel_args oops=panic --kernel_args panic=-1 "${@:2}" numa_emulation </dev/null 2>&1)
}
# With an initramfs, as the boot kernels have: a mutant of the condition
# that guards the initramfs with IS_ENABLED() links only then.
kunit run --cross_compile="$CROSS_COMPILE" --kunitconfig="$TOP/configs/kunit.config" \
	--kconfig_add CONFIG_BLK_DEV_INITRD=y \
	--make_options "CC=ccache ${CROSS_COMPILE}gcc" --jobs "$(nproc)" >"$LOGS/kunit-control.log" ||
	die "the KUnit suite fails on the schemata kernel with no mutant on ($LOGS/kunit-control.log)"
say "control: KUnit passes on the schemata kernel"
export -f kunit
export TREE BUILD LOGS
for id in $ids; do [ -e "$LOGS/kunit-$id.rc" ] || echo "$id"; done | xargs -r -P 2 -I{} bash -c \
	'kunit exec --kernel_args numa_emu_mutant={} >"$LOGS/kunit-{}.log"; echo $? >"$LOGS/kunit-{}.rc"'
survivors=()
for id in $ids; do
	[ "$(cat "$LOGS/kunit-$id.rc")" = 0 ] && survivors+=("$id")
done
say "KUnit: $(($(wc -w <<<"$ids") - ${#survivors[@]})) of $(wc -w <<<"$ids") mutants killed; ${#survivors[@]} go on to boot"

# Boots: the 4K, 16K and 64K kernels, the UEFI/ACPI and the riscv64 one,
# with the schemata. The control (no mutant on) boots every case and logs
# which mutants' code each case reached by the time the guest powered off;
# each survivor of KUnit boots the cases that reach it, two at a time, in
# order, until one fails. A boot's log is kept (ID/b-CASE-KEY, KEY from the case's
# line) and judged again when the judge changes (ID/v-CASE-KEY-JUDGE).
if [ "${SWEEP_BOOTS:-1}" != 0 ]; then
	: >"$BOOTS/images"
	for k in 16k-emu 4k-emu 64k-emu 16k-acpi rv-emu; do
		arch=arm64 p=${k%-*}
		[ "$k" != rv-emu ] || arch=riscv64 p=4k
		img=$(RIG_ARCH=$arch OUT_TAG=-sweep PAGES=$p VARIANT=${k#*-} "$TOP/scripts/build.sh" 2>"$BOOTS/build-$k.log") ||
			die "the schemata kernel $k does not build ($BOOTS/build-$k.log)"
		echo "$k $img" >>"$BOOTS/images"
	done
	rvksft=$(RIG_ARCH=riscv64 "$TOP/scripts/kselftest.sh")
	RIG_ARCH=riscv64 GUEST_EXTRA=$rvksft "$TOP/scripts/initramfs.sh" >/dev/null
	mapfile -t cases < <(grep -v '^#' "$TOP/tests/sweep-cases.txt" | awk 'NF { print $1 }')
	declare -A ckey
	for c in "${cases[@]}"; do
		line=$(grep -P "^\s*\Q$c\E\s*\|" "$TOP/tests/matrix.txt") || die "sweep case $c is not in tests/matrix.txt"
		ckey[$c]=$(sha1sum <<<"$line" | cut -c1-12)
	done
	jkey=$(sha1sum <"$TOP/tests/judge.py" | cut -c1-12)
	export BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
	verdicts() { # ID CASE...: the verdicts in ID/part kept (one log per case: other keys' go)
		local id=$1 c
		! grep -E '^FAIL\|[^|]*\|(guest did not start|no stored log|no kernel|no device tree)' "$BOOTS/$id/part" ||
			die "mutant $id: an error of the harness, not a kill"
		for c in "${@:2}"; do
			grep "^[A-Z]*|$c|" "$BOOTS/$id/part" >"$BOOTS/$id/v.new" ||
				die "no verdict for $c in $BOOTS/$id/part"
			rm -f "$BOOTS/$id/b-$c-"???????????? "$BOOTS/$id/v-$c-"????????????-????????????
			touch "$BOOTS/$id/b-$c-${ckey[$c]}"
			mv "$BOOTS/$id/v.new" "$BOOTS/$id/v-$c-${ckey[$c]}-$jkey"
		done
	}
	boots() { # ID OUT CASE...: kept logs judged, the other cases booted two at a time, until one fails; OUT gets every verdict
		local id=$1 out=$2 c i
		local -a todo=() old=()
		mkdir -p "$BOOTS/$id"
		for c in "${@:3}"; do
			if [ -e "$BOOTS/$id/b-$c-${ckey[$c]}" ] && [ -s "$BOOTS/$id/boot-$c.log" ]; then
				[ -e "$BOOTS/$id/v-$c-${ckey[$c]}-$jkey" ] || old+=("$c")
			else
				todo+=("$c")
			fi
		done
		if [ ${#old[@]} != 0 ]; then
			REJUDGE=1 LOGS=$BOOTS/$id CASES=$(IFS='|'; echo "${old[*]}") "$TOP/tests/matrix.sh" "$BOOTS/images" "$BOOTS/$id/part"
			verdicts "$id" "${old[@]}"
		fi
		for c in "${@:3}"; do # a kept failure ends the mutant's boots
			! grep -qs '^FAIL' "$BOOTS/$id/v-$c-${ckey[$c]}-$jkey" || todo=()
		done
		for ((i = 0; i < ${#todo[@]}; i += 2)); do
			EXTRA_CMDLINE="numa_emu_mutant=$id" LOGS=$BOOTS/$id CASES="${todo[i]}${todo[i + 1]:+|${todo[i + 1]}}" \
				"$TOP/tests/matrix.sh" "$BOOTS/images" "$BOOTS/$id/part"
			verdicts "$id" "${todo[@]:i:2}"
			! grep -q '^FAIL' "$BOOTS/$id/part" || break
		done
		: >"$out"
		for c in "${@:3}"; do
			[ ! -e "$BOOTS/$id/v-$c-${ckey[$c]}-$jkey" ] || cat "$BOOTS/$id/v-$c-${ckey[$c]}-$jkey" >>"$out"
		done
	}
	boots 0 "$BOOTS/boots-control" "${cases[@]}"
	if grep '^FAIL' "$BOOTS/boots-control"; then
		rm -f "$BOOTS"/0/[bv]-* # booted again next time
		die "the schemata kernel with no mutant on fails a sweep case"
	fi
	declare -A reach
	for c in "${cases[@]}"; do
		r=$(sed -n 's/.*numa_emu_mutant: reached by power-off //p' "$BOOTS/0/boot-$c.log" | tail -1)
		[ -n "$r" ] || die "the control's boot of $c does not say which mutants it reached by power-off"
		reach[$c]=" "
		for x in ${r//,/ }; do reach[$c]+="$(seq -s ' ' "${x%-*}" "${x#*-}") "; done
	done
	say "control: the ${#cases[@]} sweep cases pass on the schemata kernel"
	for id in "${survivors[@]}"; do
		IFS=$'\t' read -r _ key _ < <(grep -P "^$id\t" "$LOGS/list")
		rm -f "$BOOTS/boots-$id"
		# One shown equivalent (tests/sweep-equivalent.txt) is not booted.
		! grep -qP "^\Q$key\E\t" "$TOP/tests/sweep-equivalent.txt" || continue
		mine=()
		for c in "${cases[@]}"; do
			[[ ${reach[$c]} != *" $id "* ]] || mine+=("$c")
		done
		[ ${#mine[@]} = 0 ] || boots "$id" "$BOOTS/boots-$id" "${mine[@]}"
	done
fi

# Verdicts: ID, KEY, where, what, verdict, layer, detail.
for id in $ids; do
	IFS=$'\t' read -r _ key where what < <(grep -P "^$id\t" "$LOGS/list")
	equiv=$(grep -P "^\Q$key\E\t" "$TOP/tests/sweep-equivalent.txt" | cut -f2 || true)
	if [ "$(cat "$LOGS/kunit-$id.rc")" != 0 ]; then
		detail=$( (grep -m1 -E 'EXPECTATION FAILED|ASSERTION FAILED|\[FAILED\]|\[CRASHED\]|[Tt]imed out|Kernel panic' \
			"$LOGS/kunit-$id.log" || tail -1 "$LOGS/kunit-$id.log") | sed 's/^\[[0-9:]*\] //' | cut -c1-120)
		v="KILLED	kunit	$detail"
	elif [ -e "$BOOTS/boots-$id" ] && bad=$(grep -m1 '^FAIL' "$BOOTS/boots-$id"); then
		v="KILLED	boot	$(cut -d'|' -f2- <<<"$bad" | cut -c1-140)"
	elif [ -n "$equiv" ]; then
		v="EQUIVALENT	-	$equiv"
	elif [ -s "$BOOTS/boots-$id" ]; then
		v="SURVIVED	-	$(wc -l <"$BOOTS/boots-$id") boots passed"
	elif [ "${SWEEP_BOOTS:-1}" = 0 ]; then
		v="SURVIVED	-	KUnit only: not booted (SWEEP_BOOTS=0)"
	else
		v="SURVIVED	-	no sweep case reaches its code"
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$key" "$where" "$what" "$v"
done >"$RES/sweep.out"
restore
SERIES=$(series_id) python3 "$TOP/tests/sweep-report.py" "$RES/sweep.out" "$(($(date +%s) - t_all))" \
	>"$RES/mutants-sweep.md"
say "$(tail -1 "$RES/mutants-sweep.md")"
if [ -z "${SWEEP_IDS:-}" ] && [ "${SWEEP_BOOTS:-1}" != 0 ]; then
	cp "$RES/mutants-sweep.md" "$TOP/results/mutants-sweep.md"
	say "results/mutants-sweep.md written"
fi
