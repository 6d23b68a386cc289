#!/bin/bash
# Run the boot matrix (tests/matrix.txt), two guests at a time; REJUDGE=1
# judges the logs of an earlier run again, without booting.
# Usage: matrix.sh IMAGES OUT   IMAGES holds "key image-path" lines (keys as
# in the matrix's kernel column, written by scripts/kernels.sh). Writes one
# line per case to OUT: "PASS|name|detail" or "FAIL|name|reason"; per-case
# logs go to $LOGS. EXTRA_CMDLINE goes in front of the case's command line
# in every guest (not to what the judge is told: make mutants-sweep switches
# a mutant on there, so that it is on before the case's numa=fake= is parsed).
. "$(dirname "$0")/../scripts/lib.sh"
IMAGES=$1 out=$2
LOGS=${LOGS:-$BUILD/logs/check}
mkdir -p "$LOGS"
export LOGS
boot_case() { # line from tests/matrix.txt
	local name kernel mem smp dt qemu cmdline expect image log verdict dtb=
	set -f # a case's fields are split into words, never expanded to file names
	IFS='|' read -r name kernel mem smp dt qemu cmdline expect <<<"$1"
	name=$(echo $name) kernel=$(echo $kernel) mem=$(echo $mem) smp=$(echo $smp)
	dt=$(echo $dt) qemu=$(echo $qemu) cmdline=$(echo $cmdline) expect=$(echo $expect)
	[ "$qemu" = - ] && qemu=
	timeout=${BOOT_TIMEOUT:-300} hotplug=
	[[ $expect =~ timeout=([0-9]+) ]] && timeout=${BASH_REMATCH[1]}
	[[ $expect =~ hotplug=([a-z0-9]+:[0-9]+) ]] && hotplug=${BASH_REMATCH[1]}
	image=$(awk -v k="$kernel" '$1 == k && $2 != "FAIL" {print $2}' "$IMAGES")
	log=$LOGS/boot-$name.log
	if [ -z "$image" ]; then
		echo "FAIL|$name|no kernel $kernel"
		return
	fi
	if [ "$dt" != - ]; then
		dtb=$("$TOP/scripts/dtb.sh" "$dt" "$mem" "$smp" "$qemu") || { echo "FAIL|$name|no device tree $dt"; return; }
		qemu="$qemu -dtb $dtb"
	fi
	local arch=arm64
	[[ $kernel == rv-* ]] && arch=riscv64
	# "loose": the kselftest without -S, as anyone runs it, on this series too.
	local strict=$STRICT
	[[ " $expect " == *" loose "* ]] && strict=
	local retried=
	boot() {
		RIG_ARCH=$arch HOTPLUG=$hotplug MEM=$mem SMP=$smp CMDLINE="memblock=debug${EXTRA_CMDLINE:+ $EXTRA_CMDLINE} $cmdline rig.mode=kselftest${strict:+ rig.args=-S}" QEMU_ARGS="$qemu" \
			TIMEOUT=$timeout "$TOP/scripts/boot.sh" "$image" "$log" 2>/dev/null
	}
	local brc=0
	if [ -n "${REJUDGE:-}" ]; then
		# Judge the log a run before stored (REJUDGE=1): the judge
		# changed, the boot did not.
		[ -s "$log" ] || { echo "FAIL|$name|no stored log $log"; return; }
		grep -q '^RIG done' "$log" || { echo "FAIL|$name|boot did not finish ($log)"; return; }
		[ ! -e "$log.hung" ] || retried=" (booted twice: the first hung bringing up secondary harts, $log.hung)"
	else
		rm -f "$log.hung"
		boot || brc=$?
	fi
	if [ $brc -eq 3 ]; then
		echo "FAIL|$name|guest did not start: $(head -1 "$log") ($log)"
		return
	fi
	if [ $brc -ne 0 ]; then
		# Debian 12's OpenSBI (1.1) can hang a hart it starts (see
		# scripts/boot.sh): a riscv64 guest whose last words are the
		# secondary CPUs' bring-up is booted once more, and says so.
		if [ "$arch" = riscv64 ] && [ "$(grep -v '^qemu-system' "$log" | tail -1 | sed 's/^\[[ 0-9.]*\] //')" = "smp: Bringing up secondary CPUs ..." ]; then
			cp "$log" "$log.hung"
			retried=" (booted twice: the first hung bringing up secondary harts, $log.hung)"
			boot || { echo "FAIL|$name|boot did not finish ($log)$retried"; return; }
		else
			echo "FAIL|$name|boot did not finish ($log)"
			return
		fi
	fi
	local pages=${kernel%%-*}
	[ "$arch" = riscv64 ] && pages=4k
	if verdict=$(python3 "$TOP/tests/judge.py" --log "$log" --pages "$pages" --arch "$arch" \
		--mem "$mem" --smp "$smp" --dt "$dt" --qemu "$qemu" --cmdline "$cmdline" \
		--expect "$expect" --variants "$TOP/tests/dt-variants.txt"); then
		echo "PASS|$name|$verdict$retried"
	else
		echo "FAIL|$name|$verdict$retried"
	fi
}
export -f boot_case
# This series' kernels also promise the rules the kselftest checks with -S.
STRICT=
[ "$KERNEL" = 6.1 ] && STRICT=1
export TOP BUILD IMAGES STRICT
[ -f "$IMAGES" ] || die "no kernel list $IMAGES"
# Device trees first (sequentially: they share QEMU's dumped trees).
grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/tests/matrix.txt" |
	awk -F'|' '{gsub(/ /,"",$3); gsub(/ /,"",$4); gsub(/ /,"",$5); q = $6; gsub(/^ +| +$/,"",q); if ($5 != "-") print $5 "|" $3 "|" $4 "|" q}' |
	sort -u | while IFS='|' read -r d m c q; do
		[ "$q" != - ] || q=
		"$TOP/scripts/dtb.sh" "$d" "$m" "$c" "$q" >/dev/null
	done
# CASES=regex runs only the cases whose name matches (for development).
grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/tests/matrix.txt" |
	grep -E "^(${CASES:-.*})[[:space:]]*\|" |
	xargs -P2 -I{} -d '\n' bash -c 'boot_case "$1"' _ {} \
	>"$out"
