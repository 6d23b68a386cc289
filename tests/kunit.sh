#!/bin/bash
# The KUnit suite, run with the kernel's own kunit.py under QEMU.
. "$(dirname "$0")/../scripts/lib.sh"
export CCACHE_DEPEND=1 CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache}
cd "$TREE"
python3 tools/testing/kunit/kunit.py run --arch=arm64 \
	--cross_compile="$CROSS_COMPILE" --build_dir="$BUILD/kunit" \
	--kunitconfig="$TOP/configs/kunit.config" \
	--make_options "CC=ccache ${CROSS_COMPILE}gcc" --jobs "$(nproc)" \
	--timeout 300 </dev/null
