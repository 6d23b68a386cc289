#!/bin/bash
# The KUnit suite, built into the matrix's 16K UEFI/ACPI kernel
# (configs/acpi-6.1.config: KUnit with debugfs, off unless a boot asks)
# and run at one boot of it (kunit.enable=1 oops=panic; device tree,
# 4 GiB, 4 CPUs, no numa=fake=): no kernel of its own to build. Its
# results are read twice: as the suite printed them at boot (parsed by the
# kernel's own kunit.py), and from debugfs after boot, when init memory is
# gone (the suite calls __init code and must keep what debugfs reads in
# ordinary data; a kunit.filter_glob= would run a copy of the suite and
# hide that). Also shown: KUNIT_ALL_TESTS alone turns the suite on and
# its absence leaves it off (Kconfig, as CI systems configure it), and the
# kernel links without section mismatches (modpost fails on them here).
# Exit status: 0 the suite passed, 1 it failed, did not complete, or a
# check above failed; 2 the kernel does not build; 3 the rig failed.
# Logs go to KUNIT_LOGS (default build/logs/kunit).
export RIG_ARCH=arm64
. "$(dirname "$0")/../scripts/lib.sh"
out=${KUNIT_LOGS:-$BUILD/logs/kunit}
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.ktap "$out"/*.parsed
rig_error() { echo "error: $*"; exit 3; }

# KUNIT_ALL_TESTS alone (olddefconfig, as kunit.py configures) turns the
# suite on; without it the suite stays off.
for all in y n; do
	a=$BUILD/out/kunit-alltests-$all
	mkdir -p "$a"
	cat "$TOP"/configs/{qemu,arch-arm64,pages-16k,numa,emu-6.1}.config >"$a/.config"
	echo "CONFIG_KUNIT=y" >>"$a/.config"
	if [ "$all" = y ]; then
		echo "CONFIG_KUNIT_ALL_TESTS=y" >>"$a/.config"
	else
		echo "# CONFIG_KUNIT_ALL_TESTS is not set" >>"$a/.config"
	fi
	(cd "$TREE" && make -s O="$a" olddefconfig) >"$out/alltests-$all.log" 2>&1 ||
		rig_error "olddefconfig failed ($out/alltests-$all.log)"
	if grep -qx 'CONFIG_NUMA_EMULATION_KUNIT_TEST=y' "$a/.config"; then on=y; else on=n; fi
	[ "$on" = "$all" ] ||
		{ echo "error: with KUNIT_ALL_TESTS=$all, NUMA_EMULATION_KUNIT_TEST is $on"; exit 1; }
done
echo "KUNIT_ALL_TESTS turns the suite on, and off without it"

O=$(PAGES=16k VARIANT=acpi outdir)
rm -f "$O/build.log"
if ! image=$(PAGES=16k VARIANT=acpi "$TOP/scripts/build.sh"); then
	if grep -i "section mismatch" "$O/build.log" 2>/dev/null; then
		echo "error: section mismatch in the KUnit kernel ($O/build.log)"
		exit 1
	fi
	echo "error: the KUnit kernel does not build ($O/build.log)"
	exit 2
fi
grep -qx 'CONFIG_NUMA_EMULATION_KUNIT_TEST=y' "$O/.config" ||
	{ echo "error: the suite is not built into $O"; exit 2; }

# One boot (the matrix's initramfs; built here when make check did not).
# No QEMU options or hot-plug of the caller's reach this boot.
initrd=${INITRD:-$BUILD/initramfs.cpio}
[ -f "$initrd" ] || "$TOP/scripts/initramfs.sh" >/dev/null || rig_error "no initramfs"
[ -f "$initrd" ] && [ -f "$image" ] || rig_error "no initramfs at $initrd or no kernel at $image"
log=$out/boot.log
brc=0
env -u QEMU_ARGS -u HOTPLUG INITRD="$initrd" MEM=4G SMP=4 TIMEOUT="${BOOT_TIMEOUT:-300}" \
	CMDLINE="kunit.enable=1 oops=panic rig.run=kunit-results.sh" \
	"$TOP/scripts/boot.sh" "$image" "$log" >"$out/boot.out" 2>&1 || brc=$?
if grep -m1 -E 'Unable to handle|Oops|BUG:|WARNING: CPU|Kernel panic' "$log"; then
	echo "error: the KUnit kernel oopsed ($log)"
	exit 1
fi
case $brc in
0) ;;
3) rig_error "QEMU did not start a guest ($out/boot.out)" ;;
*)
	tail -5 "$out/boot.out"
	echo "error: the KUnit kernel's boot did not finish ($log)"
	exit 1 ;;
esac
grep -q '^RIG kunit-debugfs begin' "$log" ||
	rig_error "the initramfs has no kunit-results.sh: rebuild it (scripts/initramfs.sh)"
# The kernel's warnings (TAINT_WARN), those printed while the guest held
# messages back from the console included.
tainted=$(sed -n 's/^RIG kunit-tainted \([0-9]*\)$/\1/p' "$log")
[ -n "$tainted" ] || rig_error "the guest did not report the kernel's taint (rebuild the initramfs)"
if [ $((tainted & 512)) -ne 0 ]; then
	echo "error: the KUnit kernel warned (tainted $tainted, TAINT_WARN) ($log)"
	exit 1
fi

# At boot: the log up to /init, parsed by kunit.py. Every case of the
# source ran (parameterised ones once per parameter), none failed, was
# skipped or crashed, and kunit.py saw no error.
sed '/RIG init mode/,$d' "$log" >"$out/boot.ktap"
rc=0
(cd "$TREE" && python3 tools/testing/kunit/kunit.py parse "$out/boot.ktap") </dev/null >"$out/boot.parsed" 2>&1 || rc=1
cat "$out/boot.parsed"
summary=$(grep -m1 'Testing complete' "$out/boot.parsed" || true)
ran=$(echo "$summary" | sed -n 's/.*Ran \([0-9]*\) tests.*/\1/p')
cases=$(sed -n '/ numa_emulation ([0-9]* subtests) /{s/.* numa_emulation (\([0-9]*\) subtests) .*/\1/p;q}' "$out/boot.parsed")
src=$(grep -c -E '^[[:space:]]*KUNIT_CASE(_PARAM)?\(' "$TREE/drivers/base/test/numa_emulation_kunit.c" || true)
if [ -z "$ran" ] || [ "${cases:-0}" != "$src" ] ||
	echo "$summary" | grep -qE '(failed|crashed|skipped|errors): [1-9]'; then
	echo "error: at boot, ${cases:-no} cases of the source's $src ran: ${summary:-no summary}"
	rc=1
fi
# From debugfs, after boot. 6.1 keeps a parameterised case's lines of its
# last parameter only, and at most 512 bytes of a case's log, and the
# first are not KTAP that kunit.py reads: the suite's line, each case's
# and the totals must say what the boot said.
d=$out/debugfs.ktap
sed -n '/^RIG kunit-debugfs begin/,/^RIG kunit-debugfs end/{//!p}' "$log" >"$d"
if [ -n "$ran" ] && [ -n "$cases" ] && grep -qx 'ok 1 numa_emulation' "$d" &&
	[ "$(grep -cE '^    ok [0-9]+ numa_emu_test_' "$d" || true)" = "$cases" ] &&
	grep -qx "# Totals: pass:$ran fail:0 skip:0 total:$ran" "$d"; then
	echo "debugfs after boot: the suite, its $cases cases and $ran results passed, as at boot"
else
	echo "error: debugfs after boot does not hold the passing results the boot printed ($d)"
	rc=1
fi
exit $rc
