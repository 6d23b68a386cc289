#!/bin/sh
# The KUnit suite's results as debugfs keeps them after boot
# (KUNIT_DEBUGFS), between two marker lines (tests/kunit.sh).
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
echo "RIG kunit-debugfs begin"
cat /sys/kernel/debug/kunit/numa_emulation/results
echo "RIG kunit-debugfs end"
