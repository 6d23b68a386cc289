#!/bin/sh
# Kernel memory per node: what slab caches, page tables and kernel stacks
# hold on each node (kB, from /sys/devices/system/node/nodeN/meminfo).
# Prints "RIG kmem node N slab KB pagetables KB kernelstack KB".
for d in /sys/devices/system/node/node[0-9]*; do
	awk -v n="${d##*node}" '
	$3 == "Slab:" { s = $4 }
	$3 == "PageTables:" { p = $4 }
	$3 == "KernelStack:" { k = $4 }
	END { printf "RIG kmem node %s slab %d pagetables %d kernelstack %d\n", n, s, p, k }
	' "$d/meminfo"
done
