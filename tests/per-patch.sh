#!/bin/bash
# Every patch builds on its own with NUMA_EMULATION=y, =n and NUMA=n.
# Checks out each commit of the series in the tree in turn (restoring the
# tip afterwards) and builds it incrementally in the same build dirs as the
# main builds. Prints "PASS|name|detail", "FAIL|..." or "SKIP|..." lines.
. "$(dirname "$0")/../scripts/lib.sh"

tip=$(git -C "$TREE" symbolic-ref -q HEAD || git -C "$TREE" rev-parse HEAD)
restore() { git -C "$TREE" checkout -q "${tip#refs/heads/}"; }
trap restore EXIT
mapfile -t commits < <(git -C "$TREE" rev-list --reverse base..HEAD)
i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	git -C "$TREE" checkout -q --detach "$c"
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	for v in emu noemu nonuma; do
		name=$(printf 'patch-%02d-%s' "$i" "$v")
		if [ "$v" = emu ] && ! git -C "$TREE" grep -q 'select ARCH_SUPPORTS_NUMA_EMULATION' -- 'arch/arm64/Kconfig'; then
			echo "SKIP|$name|arm64 does not offer NUMA_EMULATION before the arm64 patch ($subj)"
			continue
		fi
		if out=$(PAGES=16k VARIANT=$v "$TOP/scripts/build.sh" 2>&1); then
			echo "PASS|$name|$subj"
		else
			echo "FAIL|$name|$(echo "$out" | grep -m1 -E 'error' || echo "$out" | tail -1)"
		fi
	done
done
