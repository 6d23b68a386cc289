#!/bin/sh
# Run a guest helper on some CPUs only, with no memory policy of its own.
# Usage: oncpus.sh CPULIST HELPER ARG...   (for example 0-1 numaload ...)
cpus=$1 helper=$2
shift 2
exec numactl --physcpubind="$cpus" "/opt/rig/$helper" "$@"
