#!/bin/bash
# The real-client group: boot the Raspberry Pi OS stand-in with the cases
# of tests/clients.txt, two at a time, run the tools people use there
# (standin/clients; numactl's own suite in its case) and judge what they
# print (tests/clients.py).
# Usage: clients.sh   prints "PASS|clients-NAME|..." or "FAIL|..." per case.
. "$(dirname "$0")/../scripts/lib.sh"
LOGS=${LOGS:-$BUILD/logs/clients}
mkdir -p "$LOGS"
EXTRA_PKGS="debootstrap dpkg-dev mtools dosfstools" step "checking packages" "$TOP/scripts/deps.sh" >&2
"$TOP/scripts/tree.sh" >&2
kernel=$(VARIANT=standin step "build $KERNEL stand-in kernel" "$TOP/scripts/build.sh" 2>"$LOGS/build.log") ||
	{ echo "FAIL|clients-build|$(grep -m1 error "$LOGS/build.log" || tail -1 "$LOGS/build.log")"; exit 0; }
disk=$(step "the Raspberry Pi OS stand-in" "$TOP/scripts/standin.sh" "$kernel" 2>"$LOGS/standin.log") ||
	{ echo "FAIL|clients-standin|$(grep -m1 error "$LOGS/standin.log" || tail -1 "$LOGS/standin.log")"; exit 0; }
JOBS=$("$TOP/scripts/standin-jobs.sh" 2>"$LOGS/jobs.log") ||
	{ echo "FAIL|clients-jobs|$(tail -1 "$LOGS/jobs.log")"; exit 0; }
one() { # a line of tests/clients.txt
	local name smp mem qemu pre post nodes phys policy job v
	IFS='|' read -r name smp mem qemu pre post nodes phys policy job <<<"$1"
	name=$(echo $name) smp=$(echo $smp) mem=$(echo $mem) qemu=$(echo $qemu) pre=$(echo $pre)
	post=$(echo $post) nodes=$(echo $nodes) phys=$(echo $phys) policy=$(echo $policy) job=$(echo $job)
	[ "$qemu" = - ] && qemu=
	[ "$pre" = - ] && pre=
	[ "$post" = - ] && post=
	[ "$policy" = - ] && policy=
	if ! SMP=$smp MEM=$mem QEMU_ARGS=$qemu PRE_CMDLINE=$pre CMDLINE="$post rig.run=$job" TIMEOUT=1500 \
		"$TOP/scripts/standin-boot.sh" "$kernel" "$disk" "$LOGS/$name.log" "$LOGS/$name.out" 2>"$LOGS/$name.err"; then
		echo "FAIL|clients-$name|$(grep -m1 error "$LOGS/$name.err")"
		return
	fi
	if v=$(python3 "$TOP/tests/clients.py" "$LOGS/$name.out" --nodes "$nodes" --phys "$phys" \
		--policy "$policy" --job "$job" $strict >"$LOGS/$name.verdict"); then
		echo "PASS|clients-$name|$(tail -1 "$LOGS/$name.verdict")"
	else
		echo "FAIL|clients-$name|$(grep '^FAIL' "$LOGS/$name.verdict" | tr '\n' ' ')"
	fi
}
# This series is held to its own CPU rule; mainline (make compare) only
# to what both layouts share.
strict=--strict
[ "$KERNEL" = 6.1 ] || [ -n "${KERNEL_SRC:-}" ] || strict=
export -f one
export kernel disk LOGS TOP JOBS strict
grep -v -e '^#' -e '^[[:space:]]*$' "$TOP/tests/clients.txt" | tr '\n' '\0' |
	xargs -0 -P 2 -I{} bash -c 'one "$1"' _ {}
