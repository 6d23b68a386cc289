#!/bin/bash
# Off means off: without numa=fake, the patched kernel (emulation built in,
# and built out) prints the same NUMA lines and has the same node layout as
# the unpatched kernel. Usage: offcheck.sh LOGDIR
dir=$1
norm() { # the NUMA lines of the boot log and the layout, minus sizes of free memory
	[ -f "$1" ] || { echo "missing $1"; return; }
	sed -e 's/^\[[ 0-9.]*\] //' "$1" | grep -E '^NUMA:|^RIG (nodes|zone|cpu |node)' |
		sed -E 's/memtotal [0-9]+ //'
}
norm "$dir/boot-off-base.log" >"$dir/off-base.norm"
rc=0
for v in emu noemu; do
	norm "$dir/boot-off-$v.log" >"$dir/off-$v.norm"
	if ! diff -u "$dir/off-base.norm" "$dir/off-$v.norm"; then
		echo "patched ($v) differs from unpatched"
		rc=1
	fi
done
[ $rc -eq 0 ] && echo "NUMA lines and layout identical to unpatched ($(wc -l <"$dir/off-base.norm") lines compared)"
exit $rc
