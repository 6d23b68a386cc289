#!/bin/bash
# Every patch builds on its own with NUMA_EMULATION=y, =n and NUMA=n (=y
# before the arm64 patch with its one-line select applied for the build).
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
		note=
		# Before the arm64 patch the option cannot be chosen: build the
		# code anyway, with arm64 selecting the capability for this build.
		if [ "$v" = emu ] && ! git -C "$TREE" grep -q 'select ARCH_SUPPORTS_NUMA_EMULATION' -- 'arch/arm64/Kconfig'; then
			if ! git -C "$TREE" grep -q 'config ARCH_SUPPORTS_NUMA_EMULATION' -- drivers/base/Kconfig; then
				echo "SKIP|$name|no NUMA_EMULATION yet ($subj)"
				continue
			fi
			sed -i 's/^\tselect ARCH_SUPPORTS_NUMA_BALANCING$/&\n\tselect ARCH_SUPPORTS_NUMA_EMULATION if NUMA/' \
				"$TREE/arch/arm64/Kconfig"
			note=" (arm64 select added for this build)"
		fi
		if out=$(PAGES=16k VARIANT=$v "$TOP/scripts/build.sh" 2>&1); then
			echo "PASS|$name|$subj$note"
		else
			echo "FAIL|$name|$(echo "$out" | grep -m1 -E 'error' || echo "$out" | tail -1)$note"
		fi
		[ -z "$note" ] || git -C "$TREE" checkout -q -- arch/arm64/Kconfig
	done
done
