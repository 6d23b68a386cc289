#!/bin/bash
# Every patch builds on its own with NUMA_EMULATION=y, =n and NUMA=n (=y
# before the arm64 patch with its one-line select applied for the build).
# Checks out each commit of the series in the tree in turn (restoring the
# tip afterwards) and builds it incrementally in the same build dirs as the
# main builds: NUMA_EMULATION=y and =n in one directory (16k-emu's), so
# that a switch compiles again only what reads the option (Kbuild's
# per-option dependencies); =y first, so that a commit changing a header
# many files include is compiled in the configuration whose objects the
# compiler cache holds from the main builds (with the arm64 select the =y
# builds before patch 6 add, their configuration is the tip's). The
# directory ends built at the tip with =y, or without an Image when that
# build fails or the walk stops (no other kernel passes for that one).
# A commit that changes no file an arm64 build reads
# (Documentation/, tools/, MAINTAINERS, another architecture) has the
# build inputs of the commit before it: it takes that build's result, and
# says so, instead of a build that would compile nothing.
# Prints "PASS|name|detail", "FAIL|..." or "SKIP|..." lines.
. "$(dirname "$0")/../scripts/lib.sh"

tip=$(git -C "$TREE" symbolic-ref -q HEAD || git -C "$TREE" rev-parse HEAD)
shared=$(PAGES=16k VARIANT=emu outdir) shared_cfg=emu
restore() {
	git -C "$TREE" checkout -q "${tip#refs/heads/}"
	[ "$shared_cfg" = emu ] || rm -f "$shared/$IMAGE" "$shared/vmlinux"
}
trap restore EXIT
mapfile -t commits < <(git -C "$TREE" rev-list --reverse base..HEAD)
# Paths an arm64 build does not read.
unread='^(Documentation/|tools/|MAINTAINERS$|arch/(alpha|arc|arm|csky|hexagon|ia64|loongarch|m68k|microblaze|mips|nios2|openrisc|parisc|powerpc|riscv|s390|sh|sparc|um|x86|xtensa)/)'
declare -A last
i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	git -C "$TREE" checkout -q --detach "$c"
	subj=$(git -C "$TREE" log -1 --format=%s "$c")
	# (Documentation/Kconfig is sourced by the top Kconfig: it is read.)
	read_by_build=$(git -C "$TREE" diff --name-only "$c~1" "$c" |
		awk -v u="$unread" '!($0 ~ u) || $0 ~ /^Documentation\/(.*\/)?Kconfig$/')
	for v in emu noemu nonuma; do
		name=$(printf 'patch-%02d-%s' "$i" "$v")
		if [ -z "$read_by_build" ] && [ -n "${last[$v]:-}" ]; then
			IFS='|' read -r r prev <<<"${last[$v]}"
			echo "$r|$name|$subj (changes only $(git -C "$TREE" diff --name-only "$c~1" "$c" |
				sed -E 's,^(Documentation|tools|arch/[^/]*)/.*,\1/,' | sort -u | paste -sd' '): the build inputs of $prev)"
			continue
		fi
		note=
		# Before the arm64 patch the option cannot be chosen: build the
		# code anyway, with arm64 selecting the capability for this build.
		if [ "$v" = emu ] && ! git -C "$TREE" grep -q 'select ARCH_SUPPORTS_NUMA_EMULATION' -- 'arch/arm64/Kconfig'; then
			if ! git -C "$TREE" grep -q 'config ARCH_SUPPORTS_NUMA_EMULATION' -- drivers/base/Kconfig; then
				if [ "$i" -eq "${#commits[@]}" ]; then
					echo "FAIL|$name|the series' last patch has no NUMA_EMULATION"
				else
					echo "SKIP|$name|no NUMA_EMULATION yet ($subj)"
				fi
				continue
			fi
			sed -i 's/^\tselect ARCH_SUPPORTS_NUMA_BALANCING$/&\n\tselect ARCH_SUPPORTS_NUMA_EMULATION if NUMA/' \
				"$TREE/arch/arm64/Kconfig"
			note=" (arm64 select added for this build)"
		fi
		o=
		[ "$v" = nonuma ] || o=$shared shared_cfg=walk
		if out=$(RIG_O=$o PAGES=16k VARIANT=$v "$TOP/scripts/build.sh" 2>&1); then
			echo "PASS|$name|$subj$note"
			last[$v]="PASS|$name"
		else
			echo "FAIL|$name|$(echo "$out" | grep -m1 -E 'error' || echo "$out" | tail -1)$note"
			last[$v]="FAIL|$name"
		fi
		[ -z "$note" ] || git -C "$TREE" checkout -q -- arch/arm64/Kconfig
	done
done
# The shared directory as it began: the tip with NUMA_EMULATION=y.
git -C "$TREE" checkout -q "${tip#refs/heads/}"
RIG_O=$shared PAGES=16k VARIANT=emu "$TOP/scripts/build.sh" >/dev/null 2>&1 && shared_cfg=emu ||
	echo "per-patch: the tip's NUMA_EMULATION=y build failed in $shared" >&2
