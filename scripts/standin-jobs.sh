#!/bin/bash
# The stand-in's jobs, as scripts/standin-boot.sh delivers them at boot:
# the job scripts of standin/ and rigtool, built for arm64 against the
# guest's glibc, and numactl's own suite (guest/numactl-suite.sh with the
# test programs scripts/numactl-tests.sh builds). Prints the directory.
# Usage: standin-jobs.sh
. "$(dirname "$0")/lib.sh"
d=$BUILD/standin-jobs
rm -rf "$d"
mkdir -p "$d"
"${CROSS_COMPILE}gcc" -O2 -Wall -Werror -o "$d/rigtool" "$TOP/standin/rigtool.c" ||
	die "cannot build standin/rigtool.c"
install -m 0755 "$TOP/standin/clients" "$TOP/standin/sysfs" "$d/"
install -m 0755 "$TOP/standin/numactl-suite" "$d/"
install -m 0755 "$TOP/guest/numactl-suite.sh" "$d/"
# numactl's test programs need Debian's arm64 libnuma, which the
# initramfs step fetches.
nt=$("$TOP/scripts/numactl-tests.sh" 2>/dev/null) ||
	{ "$TOP/scripts/initramfs.sh" >/dev/null && nt=$("$TOP/scripts/numactl-tests.sh"); } ||
	die "cannot build numactl's test suite"
# FAT has no links: the suite links the installed numactl and memhog.
cp -R "$nt" "$d/numactl-tests" && find "$d/numactl-tests" \( -type l -o -name .done \) -delete ||
	die "cannot copy numactl's test suite"
echo "$d"
