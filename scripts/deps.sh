#!/bin/bash
# Install the Debian packages the rig needs, if any are missing.
. "$(dirname "$0")/lib.sh"

want=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm ccache bc
      flex bison libssl-dev libelf-dev cpio device-tree-compiler sparse
      python3 make gcc git rsync xz-utils kmod)
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
say "installing: ${missing[*]}"
$SUDO apt-get update -qq || die "apt-get update failed"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null || die "could not install: ${missing[*]}"
