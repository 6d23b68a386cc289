#!/bin/bash
# The KUnit suite, run with the kernel's own kunit.py under QEMU, in a
# configuration as CI systems build it: KUNIT_ALL_TESTS with debugfs (and
# so KUNIT_DEBUGFS). Only this suite is run; an oops ends the run at once
# (QEMU runs with -no-reboot). A section mismatch in the build fails it
# too: the suite calls __init code.
. "$(dirname "$0")/../scripts/lib.sh"
log=$BUILD/kunit.log
cd "$TREE"
python3 tools/testing/kunit/kunit.py run --arch=arm64 \
	--cross_compile="$CROSS_COMPILE" --build_dir="$BUILD/kunit" \
	--kunitconfig="$TOP/configs/kunit.config" \
	--make_options "CC=ccache ${CROSS_COMPILE}gcc" --jobs "$(nproc)" \
	--kernel_args oops=panic --kernel_args panic=-1 \
	--timeout 300 numa_emulation </dev/null 2>&1 | tee "$log"
if grep -i "section mismatch" "$log"; then
	echo "error: section mismatch in the KUnit build ($log)"
	exit 1
fi
