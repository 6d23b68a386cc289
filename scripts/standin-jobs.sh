#!/bin/bash
# The stand-in's jobs, as scripts/standin-boot.sh delivers them at boot:
# the job scripts of standin/ and rigtool, built for arm64 against the
# guest's glibc. Prints the directory.
# Usage: standin-jobs.sh
. "$(dirname "$0")/lib.sh"
d=$BUILD/standin-jobs
rm -rf "$d"
mkdir -p "$d"
"${CROSS_COMPILE}gcc" -O2 -Wall -Werror -o "$d/rigtool" "$TOP/standin/rigtool.c" ||
	die "cannot build standin/rigtool.c"
install -m 0755 "$TOP/standin/clients" "$d/"
echo "$d"
