#!/bin/sh
# Two cpusets with disjoint memory nodes on fake nodes (cgroup v2): a
# workload in each must keep its pages on its own nodes.
# Usage: cpuset.sh NODES_A NODES_B   (node lists, for example 0-1 2-3)
# Prints "RIG cpuset NAME mems LIST pages NODE:COUNT...".
cg=/sys/fs/cgroup
mkdir -p $cg
mount -t cgroup2 none $cg 2>/dev/null || { echo "RIG cpuset error: no cgroup2"; exit 1; }
echo +cpuset >$cg/cgroup.subtree_control || { echo "RIG cpuset error: no cpuset controller"; exit 1; }
for spec in "a $1" "b $2"; do
	set -- $spec
	mkdir $cg/$1
	echo "$2" >$cg/$1/cpuset.mems
	# The shell that runs the workload joins the cpuset ("0": itself).
	sh -c "echo 0 >$cg/$1/cgroup.procs && exec /opt/rig/numaload threads 2 64 2" |
		sed -n "s/^RIG numaload pages shared/RIG cpuset $1 mems $(cat $cg/$1/cpuset.mems.effective) pages/p"
done
