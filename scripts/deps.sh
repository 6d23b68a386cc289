#!/bin/bash
# Install the Debian packages the rig needs, if any are missing.
. "$(dirname "$0")/lib.sh"

# Exactly what the rig uses, each for a reason (installed without
# recommends, so nothing else comes along):
want=(
	make gcc libc6-dev                 # host tools of the kernel build, gen_init_cpio
	gcc-aarch64-linux-gnu              # the arm64 kernel
	libc6-dev-arm64-cross              # static guest helpers and the kselftest
	bc flex bison                      # kernel build (timeconst, Kconfig, dtc)
	ccache                             # warm rebuilds in seconds
	git xz-utils                       # the kernel tree (git am, format-patch)
	python3                            # kunit.py, the judge, DT variants
	perl                               # checkpatch.pl, kernel-doc, get_maintainer.pl
	python3-sphinx                     # make htmldocs of the documentation
	sparse                             # hygiene: C=2 on touched files
	device-tree-compiler               # DT variants of the boot matrix
	qemu-system-arm                    # the guests (no NIC, so no ROM package)
	qemu-efi-aarch64                   # UEFI firmware (EDK2) for the ACPI guests
	gcc-riscv64-linux-gnu              # the riscv64 kernel
	libc6-dev-riscv64-cross            # its static guest (no Debian 12 riscv64 binaries)
	qemu-system-misc opensbi           # the riscv64 guests and their SBI firmware
)
[ -n "${KERNEL_SRC:-}" ] && want+=(rsync)  # copy of a user's kernel tree
case "$KERNEL" in
6.1|6.12) [ -n "${KERNEL_SRC:-}" ] || want+=("linux-source-$KERNEL") ;;
*) [ -n "${KERNEL_SRC:-}" ] || die "KERNEL=$KERNEL is not supported (use 6.1 or 6.12, or KERNEL_SRC=/path)" ;;
esac
[ -n "${EXTRA_PKGS:-}" ] && read -r -a extra <<<"$EXTRA_PKGS" && want+=("${extra[@]}")

missing=()
for p in "${want[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || die "need root or sudo to install: ${missing[*]}"
	SUDO=sudo
fi
log=$BUILD/logs/deps.log
mkdir -p "$(dirname "$log")"
say "installing: ${missing[*]} (log: $log)"
$SUDO apt-get update >"$log" 2>&1 || die "apt-get update failed ($log)"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
	"${missing[@]}" >>"$log" 2>&1 || die "could not install: ${missing[*]} ($log)"
