#!/bin/sh
# The KUnit suite's results as debugfs keeps them after boot
# (KUNIT_DEBUGFS), between two marker lines (tests/kunit.sh). The
# console shares the serial line: kernel messages are held back while
# the results are printed, so that none splits one of their lines.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
level=$(cat /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
echo "RIG kunit-debugfs begin"
cat /sys/kernel/debug/kunit/numa_emulation/results
echo "RIG kunit-debugfs end"
echo "$level" >/proc/sys/kernel/printk
# A warning while messages were held back still taints the kernel.
echo "RIG kunit-tainted $(cat /proc/sys/kernel/tainted)"
