#!/bin/bash
# Build the numa_emu kselftest from the tree, statically, for the guest.
# Prints the path of the binary.
. "$(dirname "$0")/lib.sh"
O=$BUILD/kselftest-$(basename "$TREE")$SUFFIX
src=$TREE/tools/testing/selftests/numa_emu
[ -d "$src" ] || die "no tools/testing/selftests/numa_emu in $TREE (is the series applied?)"
make -s -C "$TREE/tools/testing/selftests" TARGETS=numa_emu ARCH="$ARCH" \
	CROSS_COMPILE="$CROSS_COMPILE" LDFLAGS=-static O="$O" >"$O.log" 2>&1 ||
	{ cat "$O.log" >&2; die "kselftest build failed"; }
echo "$O/kselftest/numa_emu/numa_emu_test"
