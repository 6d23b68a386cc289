#!/bin/bash
# make selftest IMAGE=path/to/Image [APPEND="numa=fake=8"] [ARGS="-S"]:
# boot an arm64 kernel Image built from a tree with the series (4K, 16K or
# 64K pages; Image or Image.gz) in QEMU (-M virt -cpu cortex-a76, SMP
# CPUs, MEM of memory) with the numa_emu kselftest as the guest's only
# job, print its output, and exit with its status: 0 passed, 1 failed,
# 4 skipped (kselftest's code), 2 when the guest did not get that far.
# Without IMAGE it boots the kernel "make run" built, with numa=fake=$NODES.
# The kselftest is built from KSFT_SRC (a kernel tree with the series) or
# else from the rig's tree (make tree: the same series).
image=${IMAGE:-} # lib.sh sets IMAGE to the tree's own path of the Image
. "$(dirname "$0")/lib.sh"
# Exit 1 is the kselftest's "failed": whatever else stops this is 2.
die() { echo "error: $*" >&2; exit 2; }
# Without IMAGE: the kernel "make run" built, with its numa=fake=$NODES.
if [ -z "$image" ] && [ -f "$(outdir)/$IMAGE" ]; then
	image=$(outdir)/$IMAGE
	APPEND=${APPEND:-numa=fake=${NODES:-4}}
	say "no IMAGE given: the kernel make run built ($image), with '$APPEND'"
fi
[ -n "$image" ] || die "usage: make selftest IMAGE=path/to/arm64/Image [APPEND=\"numa=fake=8\"] [ARGS=\"-S\"]"
[ -f "$image" ] || die "no kernel image at $image"
image=$(realpath "$image")
[ "$RIG_ARCH" = arm64 ] || die "make selftest boots arm64 images only"

step "checking packages" "$TOP/scripts/deps.sh" >&2 || exit 2
# KSFT_SRC: a kernel tree with the series (yours); otherwise the rig's.
if [ -n "${KSFT_SRC:-}" ]; then
	TREE=$(realpath "$KSFT_SRC")
	export TREE
else
	"$TOP/scripts/tree.sh" >&2 || exit 2
fi
ksft=$(step "building the kselftest from $TREE" "$TOP/scripts/kselftest.sh") || exit 2
GUEST_EXTRA=$ksft step "building initramfs" "$TOP/scripts/initramfs.sh" >/dev/null || exit 2
log=$BUILD/logs/selftest.log
rig_args=$(printf '%s' "${ARGS:-}" | tr -s ' \t' ,)
CMDLINE="${APPEND:-} rig.mode=kselftest${rig_args:+ rig.args=$rig_args}" TIMEOUT=${TIMEOUT:-300} \
	step "booting $image with '${APPEND:-}'" "$TOP/scripts/boot.sh" "$image" "$log" || true
sed -n 's/^KSFT //p' "$log"
rc=$(sed -n 's/^RIG kselftest exit \([0-9]*\)$/\1/p' "$log" | tail -1)
[ -n "$rc" ] || { echo "error: the kselftest did not run to its end (log: $log)" >&2; exit 2; }
say "kselftest exit status $rc (log: $log)"
exit "$rc"
