#!/bin/bash
# The KUnit suite, built into the matrix's 16K UEFI/ACPI kernel
# (configs/acpi-6.1.config: KUnit with debugfs, off unless a boot asks)
# and run at one boot of it (kunit.enable=1; device tree, 4 GiB, 4 CPUs,
# no numa=fake=): no kernel of its own to build. Its results are read
# twice: as the suite printed them at boot (parsed by the kernel's own
# kunit.py), and from debugfs after boot, when init memory is gone (the
# suite calls __init code and must keep what debugfs reads in ordinary
# data). Also shown: KUNIT_ALL_TESTS alone turns the suite on (Kconfig, as
# CI systems configure it), and vmlinux links without section mismatches.
# Exit status: 0 the suite passed, 1 it failed or did not complete,
# 2 the kernel does not build.
. "$(dirname "$0")/../scripts/lib.sh"
out=$BUILD/logs/kunit
mkdir -p "$out"
rm -f "$out"/*.log "$out"/*.ktap "$out"/*.parsed

# KUNIT_ALL_TESTS alone (olddefconfig, as kunit.py configures) selects it.
all=$out/alltests
mkdir -p "$all"
cat "$TOP"/configs/{qemu,arch-arm64,pages-16k,numa,emu-6.1}.config >"$all/.config"
printf 'CONFIG_KUNIT=y\nCONFIG_KUNIT_ALL_TESTS=y\n' >>"$all/.config"
(cd "$TREE" && make -s O="$all" olddefconfig) >"$out/alltests.log" 2>&1 ||
	{ cat "$out/alltests.log"; echo "error: olddefconfig failed"; exit 2; }
grep -qx 'CONFIG_NUMA_EMULATION_KUNIT_TEST=y' "$all/.config" ||
	{ echo "error: KUNIT_ALL_TESTS does not turn on NUMA_EMULATION_KUNIT_TEST"; exit 1; }
echo "KUNIT_ALL_TESTS turns the suite on"

# modpost checks vmlinux.o for section mismatches when it makes it.
O=$(PAGES=16k VARIANT=acpi outdir)
rm -f "$O/vmlinux.o"
image=$(PAGES=16k VARIANT=acpi "$TOP/scripts/build.sh") ||
	{ echo "error: the KUnit kernel does not build ($O/build.log)"; exit 2; }
grep -qx 'CONFIG_NUMA_EMULATION_KUNIT_TEST=y' "$O/.config" ||
	{ echo "error: the suite is not built into $O"; exit 2; }
if grep -i "section mismatch" "$O/build.log"; then
	echo "error: section mismatch in the KUnit build ($O/build.log)"
	exit 1
fi

# One boot (the matrix's initramfs; built here when make check did not).
[ -f "$BUILD/initramfs.cpio" ] || "$TOP/scripts/initramfs.sh" >/dev/null
log=$out/boot.log
if ! MEM=4G SMP=4 CMDLINE="kunit.enable=1 rig.run=kunit-results.sh" TIMEOUT="${BOOT_TIMEOUT:-300}" \
	"$TOP/scripts/boot.sh" "$image" "$log" >"$out/boot.out" 2>&1; then
	tail -5 "$out/boot.out"
	echo "error: the KUnit kernel's boot did not finish ($log)"
	exit 1
fi
# At boot: the log up to /init, parsed by kunit.py.
sed '/RIG init mode/,$d' "$log" >"$out/boot.ktap"
rc=0
(cd "$TREE" && python3 tools/testing/kunit/kunit.py parse "$out/boot.ktap") </dev/null >"$out/boot.parsed" 2>&1 || rc=1
cat "$out/boot.parsed"
ran=$(sed -n 's/.*Testing complete.*Ran \([0-9]*\) tests.*/\1/p' "$out/boot.parsed")
cases=$(sed -n 's/.* numa_emulation (\([0-9]*\) subtests) .*/\1/p' "$out/boot.parsed" | head -1)
# From debugfs, after boot. 6.1 keeps only the start of each case's log
# there, and its lines for parameterised cases are not KTAP that kunit.py
# reads: the suite's line, each case's and the totals must say what the
# boot said.
d=$out/debugfs.ktap
sed -n '/^RIG kunit-debugfs begin/,/^RIG kunit-debugfs end/{//!p}' "$log" >"$d"
if [ -n "$ran" ] && [ -n "$cases" ] && grep -qx 'ok 1 numa_emulation' "$d" &&
	[ "$(grep -cE '^    ok [0-9]+ numa_emu_test_' "$d")" = "$cases" ] &&
	grep -qx "# Totals: pass:$ran fail:0 skip:0 total:$ran" "$d"; then
	echo "debugfs after boot: the suite, its $cases cases and $ran results passed, as at boot"
else
	echo "error: debugfs after boot does not hold the passing results the boot printed ($d)"
	rc=1
fi
exit $rc
